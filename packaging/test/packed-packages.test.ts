/**
 * The packages as a consumer gets them: packed with `npm pack`, installed into an empty folder
 * outside this repository with the consumer's own Fastify, SQLite driver and TypeScript, and run
 * on plain Node.js (no loader, none of this repository's settings). Also the starter, run from
 * its tarball, whose project must pass its own tests.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  APP_TS,
  consumerTsconfig,
  ENTRY_POINTS_TS,
  IDIOMS_TS,
  MISSING_DRIVER_MJS,
  MODELS_TS,
  REQUIRE_CJS,
  WIRE_TYPES_TS,
} from './consumer-fixture.ts';
import {
  consumerEnv,
  npmInstall,
  type PackageName,
  packAll,
  repoVersion,
  run,
  type Started,
  startServer,
  type Tarball,
} from './packed.ts';

const work = mkdtempSync(join(tmpdir(), 'rf-packaging-'));
let tarballs: Record<PackageName, Tarball>;

before(() => {
  tarballs = packAll(join(work, 'tarballs'));
});
after(() => rmSync(work, { recursive: true, force: true }));

describe('the tarballs (npm pack)', () => {
  for (const name of ['core', 'tricks', 'create-restframework-app'] as const) {
    it(`${name}: dist, README, LICENSE and package.json; no tests, no sources`, () => {
      const files = tarballs[name].files;
      for (const required of ['package.json', 'README.md', 'LICENSE']) {
        assert.ok(files.includes(required), `${name} lacks ${required}`);
      }
      const stray = files.filter(
        (file) =>
          !/^(dist\/|template\/|bin\/)/.test(file) &&
          !['package.json', 'README.md', 'LICENSE'].includes(file),
      );
      assert.deepEqual(stray, [], `${name}: files outside dist/`);
      const tests = files.filter((file) => /(^|\/)test\/|\.test\.[jt]s$/.test(file));
      assert.deepEqual(
        tests.filter((file) => !file.startsWith('template/')),
        [],
      );
      const sources = files.filter(
        (file) => file.startsWith('dist/') && /(?<!\.d)\.ts$/.test(file),
      );
      assert.deepEqual(sources, [], `${name}: TypeScript sources in dist/`);
      const entry = name === 'create-restframework-app' ? 'dist/cli.js' : 'dist/index.js';
      assert.ok(files.includes(entry), `${name} lacks ${entry}`);
    });
  }

  it('core ships its static assets and a declaration for every module', () => {
    const files = tarballs.core.files;
    for (const asset of [
      'dist/renderers/browsable-api/static/browsable-api.css',
      'dist/renderers/browsable-api/static/browsable-api.js',
      'dist/schemas/static/swagger-init.js',
    ]) {
      assert.ok(files.includes(asset), asset);
    }
    const js = files.filter(
      (file) => file.startsWith('dist/') && file.endsWith('.js') && !file.includes('/static/'),
    );
    assert.ok(files.includes('bin/restframework.js'), 'the restframework command');
    const missing = js.filter((file) => !files.includes(file.replace(/\.js$/, '.d.ts')));
    assert.deepEqual(missing, []);
    assert.ok(files.includes('dist/index.js.map') && files.includes('dist/index.d.ts.map'));
  });

  it('core ships the files of every entry point its package.json exports', () => {
    const files = tarballs.core.files;
    const manifest = JSON.parse(
      readFileSync(
        join(import.meta.dirname, '..', '..', 'packages', 'core', 'package.json'),
        'utf8',
      ),
    );
    const entries = Object.entries(manifest.exports as Record<string, unknown>).filter(
      ([subpath]) => subpath !== './package.json',
    );
    assert.deepEqual(
      entries.map(([subpath]) => subpath),
      ['.', './testing', './cli', './internal'],
    );
    for (const [subpath, conditions] of entries) {
      const { types, import: js, default: fallback } = conditions as Record<string, string>;
      for (const target of [types, js, fallback]) {
        assert.ok(target?.startsWith('./dist/'), `${subpath}: ${target}`);
        assert.ok(files.includes(target.slice(2)), `${subpath}: ${target} not packed`);
      }
      assert.equal(types, js.replace(/\.js$/, '.d.ts'), `${subpath}: types beside the code`);
    }
  });
});

describe('a consumer project with the packed packages', () => {
  const app = join(work, 'consumer');
  let server: Started | undefined;
  let base = '';
  let authors: number[] = [];

  before(async () => {
    mkdirSync(app);
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    npmInstall(app, [
      tarballs.core.path,
      tarballs.tricks.path,
      `fastify@${repoVersion('fastify')}`,
      `better-sqlite3@${repoVersion('better-sqlite3')}`,
      // JWT's optional package, as a project with JWTAuthentication installs it (idioms.ts).
      `jose@${repoVersion('jose')}`,
      `typescript@${repoVersion('typescript')}`,
      `@types/node@${repoVersion('@types/node')}`,
    ]);
    writeFileSync(join(app, 'models.ts'), MODELS_TS);
    writeFileSync(join(app, 'app.ts'), APP_TS);
    writeFileSync(join(app, 'wire-types.ts'), WIRE_TYPES_TS);
    writeFileSync(join(app, 'entry-points.ts'), ENTRY_POINTS_TS);
    writeFileSync(join(app, 'idioms.ts'), IDIOMS_TS);
    mkdirSync(join(app, 'data'));
    server = await startServer(
      process.execPath,
      ['app.ts'],
      app,
      /READY (http:\/\/\S+) (\d+),(\d+)/,
      { DATA_DIR: join(app, 'data') },
    );
    base = server.match[1] as string;
    authors = [Number(server.match[2]), Number(server.match[3])];
  });
  after(() => server?.stop());

  const send = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('installs no database driver it does not use, and no TypeScript sources', () => {
    const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
    assert.equal(manifest.dependencies.pg, undefined);
    assert.throws(() => readFileSync(join(app, 'node_modules', 'pg', 'package.json')), {
      code: 'ENOENT',
    });
  });

  it('writes nested proxy groups over flat columns, over HTTP', async () => {
    const created = await send('POST', '/api/books/', {
      title: 'Dune',
      author: authors[0],
      publishing: { isbn: 'D-1', pages: 412 },
      stock: { price: '9.99', state: 'in_progress' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body.stock, { price: '9.99', state: 'in_progress' });
    const patched = await send('PATCH', `/api/books/${created.body.id}/`, {
      stock: { price: '12.50' },
    });
    assert.equal(patched.status, 200);
    assert.deepEqual(patched.body.stock, { price: '12.50', state: 'in_progress' });
    assert.deepEqual(patched.body.publishing, { isbn: 'D-1', pages: 412 });
  });

  it('routes extra actions, nested routes and path() views', async () => {
    const created = await send('POST', '/api/books/', {
      title: 'Actions',
      author: authors[1],
      publishing: { isbn: 'A-1' },
      stock: { price: '0.50' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as number;
    const cheapest = await send('GET', '/api/books/cheapest/');
    assert.deepEqual(cheapest.body, { id, action: 'cheapest' });
    const retitled = await send('POST', `/api/books/${id}/retitle/`, { title: 'Renamed' });
    assert.deepEqual(retitled.body, { id, title: 'Renamed' });
    const nested = await send('GET', `/api/authors/${authors[1]}/books/`);
    assert.equal(nested.status, 200);
    assert.ok(nested.body.some((b: { id: number }) => b.id === id));
    assert.equal((await send('GET', '/api/authors/x/books/')).status, 404);
    const card = await send('GET', `/api/cards/${id}/`);
    assert.equal(card.body.title, 'Renamed');
    const deleted = await fetch(`${base}/api/books/${id}/`, { method: 'DELETE' });
    assert.equal(deleted.status, 204);
  });

  it('answers a bad nested leaf with a 400 at the leaf', async () => {
    const refused = await send('POST', '/api/books/', {
      title: 'Bad',
      stock: { price: '1.00', state: 'sold' },
    });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, { stock: { state: ['"sold" is not a valid choice.'] } });
  });

  it('orders by a friendly name mapped to paths across a relation', async () => {
    const second = await send('POST', '/api/books/', {
      title: 'Emma',
      author: authors[1],
      publishing: { isbn: 'E-1' },
      stock: { price: '3.00' },
    });
    assert.equal(second.status, 201, JSON.stringify(second.body));
    const byAuthor = await send('GET', '/api/books/?ordering=author');
    assert.deepEqual(
      byAuthor.body.map((book: { title: string }) => book.title),
      ['Emma', 'Dune'],
    );
    const byPrice = await send('GET', '/api/books/?ordering=-price');
    assert.deepEqual(
      byPrice.body.map((book: { title: string }) => book.title),
      ['Dune', 'Emma'],
    );
  });

  it('refuses an upload over the constrained file field limit', async () => {
    const upload = async (size: number) => {
      const form = new FormData();
      form.set('username', 'ada');
      form.set('resume', new Blob([Buffer.alloc(size, 97)]), 'resume.txt');
      const response = await fetch(`${base}/api/uploads/`, { method: 'POST', body: form });
      return { status: response.status, body: await response.json() };
    };
    const small = await upload(100);
    assert.equal(small.status, 201, JSON.stringify(small.body));
    const large = await upload(4000);
    assert.equal(large.status, 400);
    assert.deepEqual(large.body, {
      resume: ['File size exceeds limit: 3.9K. Limit is 1.0K.'],
    });
  });

  it('answers conditional requests, CORS and a versioned URL, over HTTP', async () => {
    const note = async (
      method: string,
      path: string,
      headers: Record<string, string>,
      body?: unknown,
    ) =>
      fetch(`${base}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const created = await note('POST', '/v/v1/notes/', {}, { text: 'first' });
    assert.equal(created.status, 201);
    const id = ((await created.json()) as { id: number }).id;
    const read = await note('GET', `/v/v1/notes/${id}/`, { origin: 'https://app.example.org' });
    const etag = String(read.headers.get('etag'));
    assert.equal(etag, '"0.json"');
    assert.equal(read.headers.get('access-control-allow-origin'), 'https://app.example.org');
    assert.equal(read.headers.get('access-control-expose-headers'), 'ETag');
    assert.equal((await note('GET', `/v/v1/notes/${id}/`, { 'if-none-match': etag })).status, 304);
    assert.equal((await note('PATCH', `/v/v1/notes/${id}/`, {}, { text: 'x' })).status, 428);
    const written = await note(
      'PATCH',
      `/v/v1/notes/${id}/`,
      { 'if-match': etag },
      { text: 'second' },
    );
    assert.equal(written.status, 200);
    assert.equal(written.headers.get('etag'), '"1.json"');
    assert.equal(
      (await note('PATCH', `/v/v1/notes/${id}/`, { 'if-match': etag }, { text: 'x' })).status,
      412,
    );
    const preflight = await note('OPTIONS', `/v/v1/notes/${id}/`, {
      origin: 'https://app.example.org',
      'access-control-request-method': 'PATCH',
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-headers'), 'content-type, if-match');
    const v2 = await note('GET', `/v/v2/notes/${id}/`, {});
    assert.equal(v2.status, 404);
    assert.deepEqual(await v2.json(), { detail: 'Invalid version in URL path.' });
  });

  for (const resolution of ['nodenext', 'bundler'] as const) {
    it(`type-checks under a strict tsconfig, skipLibCheck off, ${resolution} resolution`, () => {
      const config = join(app, `tsconfig.${resolution}.json`);
      writeFileSync(config, consumerTsconfig(resolution));
      run(join(app, 'node_modules', '.bin', 'tsc'), ['-p', config], { cwd: app });
    });
  }

  it('fails type checking where it should (the check is not vacuous)', () => {
    const config = join(app, 'tsconfig.wrong.json');
    writeFileSync(
      join(app, 'wrong.ts'),
      "import { ModelViewSet } from '@restframework/core';\n" +
        'class V extends ModelViewSet {}\n' +
        'const action: (request: number) => void = new V().list;\nvoid action;\n',
    );
    writeFileSync(
      config,
      JSON.stringify({
        ...JSON.parse(consumerTsconfig('nodenext')),
        include: ['wrong.ts'],
      }),
    );
    assert.throws(
      () => run(join(app, 'node_modules', '.bin', 'tsc'), ['-p', config], { cwd: app }),
      /wrong\.ts.*error TS2322/s,
    );
  });

  it('imports from core/internal and core/testing at run time', () => {
    const { stdout } = run(process.execPath, ['entry-points.ts'], { cwd: app });
    assert.deepEqual(JSON.parse(stdout), {
      label: 'First name',
      bytes: 124,
      code: 'REST_ERR_SETTINGS',
      method: 'POST',
    });
  });

  it("runs the porting guide's DRF idioms through the installed packages", () => {
    // idioms.ts asserts each answer itself (node:assert): extra actions, SimpleRouter without
    // trailing slashes, lookupValueRegex, a nested router, the nine generic views, the five
    // versioning schemes, CORS, conditional requests, JWT; APIClient and APIRequestFactory.
    const { stdout } = run(process.execPath, ['idioms.ts'], { cwd: app });
    assert.equal(stdout.trim(), 'IDIOMS OK 31');
  });

  it('loads from CommonJS with require()', () => {
    mkdirSync(join(app, 'cjs'));
    writeFileSync(join(app, 'cjs', 'package.json'), JSON.stringify({ type: 'commonjs' }));
    writeFileSync(join(app, 'cjs', 'index.js'), REQUIRE_CJS);
    const { stdout } = run(process.execPath, ['cjs/index.js'], { cwd: app });
    const loaded = JSON.parse(stdout);
    assert.equal(loaded.modelViewSet, 'function');
    assert.equal(loaded.nestedProxyField, 'function');
    assert.match(
      loaded.resolved,
      /node_modules[/\\]@restframework[/\\]core[/\\]dist[/\\]index\.js$/,
    );
  });

  it('names the driver to install when a database URL needs one that is missing', () => {
    writeFileSync(join(app, 'missing-driver.mjs'), MISSING_DRIVER_MJS);
    const { stdout } = run(process.execPath, ['missing-driver.mjs'], { cwd: app });
    const failure = JSON.parse(stdout);
    assert.equal(failure.code, 'REST_ERR_MISSING_PACKAGE');
    assert.match(failure.message, /needs the "pg" package.*npm install pg/);
  });
});

describe('create-restframework-app, from its tarball', () => {
  const parent = join(work, 'starter');
  const project = join(parent, 'my-service');
  let server: Started | undefined;

  before(() => {
    mkdirSync(parent);
    run(
      'npm',
      [
        'exec',
        '--yes',
        '--prefer-offline',
        `--package=${tarballs['create-restframework-app'].path}`,
        '--',
        'create-restframework-app',
        'my-service',
      ],
      { cwd: parent },
    );
    // The toolkit from its tarballs (the registry's would be the same files once published).
    npmInstall(project, [tarballs.core.path, tarballs.tricks.path]);
  });
  after(() => server?.stop());

  it('passes its own npm test (type check, then the tests)', () => {
    const { stdout } = run('npm', ['test'], { cwd: project });
    // The spec reporter on a terminal, TAP otherwise.
    assert.match(stdout, /^(?:ℹ|#) pass 5$/m);
    assert.match(stdout, /^(?:ℹ|#) fail 0$/m);
  });

  it('has a working restframework command: its migrations match its models', () => {
    const { stdout } = run('npx', ['restframework', 'makemigrations', '--check'], {
      cwd: project,
    });
    assert.match(stdout, /No changes detected\./);
  });

  it('serves its API with npm start, after applying its migrations', async () => {
    server = await startServer('npm', ['start'], project, /Serving (http:\/\/\S+)\/api\//, {
      PORT: '0',
      DATABASE_URL: `sqlite:${join(project, 'db.sqlite3')}`,
    });
    const base = server.match[1] as string;
    const created = await fetch(`${base}/api/tasks/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Ship it', priority: 'high' }),
    });
    assert.equal(created.status, 201);
    const list = (await (await fetch(`${base}/api/tasks/`)).json()) as {
      count: number;
      results: { title: string }[];
    };
    assert.equal(list.count, 1);
    assert.equal(list.results[0]?.title, 'Ship it');
    const { stdout } = run('npx', ['restframework', 'showmigrations'], {
      cwd: project,
      env: consumerEnv({ DATABASE_URL: `sqlite:${join(project, 'db.sqlite3')}` }),
    });
    assert.match(stdout, /\[X\] 0001_initial/);
  });
});
