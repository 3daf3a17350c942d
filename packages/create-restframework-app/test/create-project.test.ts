import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { createProject, StarterError } from '../src/create-project.ts';
import { TESTED_RANGES } from '../src/project-package-json.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const TEMPLATE = join(import.meta.dirname, '..', 'template');
const work = mkdtempSync(join(tmpdir(), 'starter-unit-'));
after(() => rmSync(work, { recursive: true, force: true }));

describe('createProject', () => {
  it('writes the template, a package.json for the name and a .gitignore', () => {
    const project = createProject({ directory: join(work, 'my-service') });
    assert.equal(project.name, 'my-service');
    assert.deepEqual(project.files, [
      '.gitignore',
      'README.md',
      'migrations/0001_initial.ts',
      'package.json',
      'restframework.config.ts',
      'src/app.ts',
      'src/main.ts',
      'src/models.ts',
      'src/serializers.ts',
      'src/viewsets.ts',
      'test/tasks.test.ts',
      'tsconfig.json',
    ]);
    const manifest = JSON.parse(readFileSync(join(project.directory, 'package.json'), 'utf8'));
    const own = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'));
    assert.equal(manifest.name, 'my-service');
    assert.equal(manifest.type, 'module');
    assert.equal(manifest.dependencies['@restframework/core'], `^${own.version}`);
    assert.equal(manifest.dependencies['@restframework/tricks'], `^${own.version}`);
    assert.equal(manifest.scripts.start, 'node src/main.ts');
    const readme = readFileSync(join(project.directory, 'README.md'), 'utf8');
    assert.match(readme, /^# my-service$/m);
    assert.doesNotMatch(readme, /{{name}}/);
  });

  it('writes the files the tutorial lists, in its order', () => {
    const project = createProject({ directory: join(work, 'tutorial-list') });
    const tutorial = readFileSync(join(ROOT, 'docs', 'tutorial.md'), 'utf8');
    const block = /```text\nCreated tasks in [^\n]*\n((?: {2}\S+\n)+)```/.exec(tutorial);
    assert.ok(block, 'docs/tutorial.md shows the starter\'s "Created tasks in" list');
    const listed = (block[1] as string).trim().split(/\s+/);
    assert.deepEqual(listed, project.files);
  });

  it('takes --name for the package and fills an empty folder', () => {
    const directory = join(work, 'Empty Folder');
    mkdirSync(directory);
    const project = createProject({ directory, name: '@acme/tasks' });
    assert.equal(project.name, '@acme/tasks');
  });

  const badNames = ['My App', '.hidden', '_private', 'a'.repeat(215), 'node_modules', 'café', ''];
  for (const name of badNames) {
    it(`refuses the package name ${JSON.stringify(name.slice(0, 20))} and writes nothing`, () => {
      const directory = join(work, `bad-${badNames.indexOf(name)}`);
      assert.throws(
        () => createProject({ directory, name }),
        (error: unknown) => {
          assert.ok(error instanceof StarterError);
          assert.match(error.message, /cannot be a package name .*--name/);
          return true;
        },
      );
      assert.throws(() => readdirSync(directory), { code: 'ENOENT' });
    });
  }

  it('refuses a folder that is not empty, and leaves it as it was', () => {
    const directory = join(work, 'busy');
    mkdirSync(directory);
    writeFileSync(join(directory, 'notes.txt'), 'mine');
    assert.throws(() => createProject({ directory }), /is not empty/);
    assert.deepEqual(readdirSync(directory), ['notes.txt']);
  });
});

describe('the template', () => {
  it('asks for the versions this repository tests with', () => {
    const installed = (name: string) =>
      JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8'))
        .version as string;
    for (const [name, range] of Object.entries(TESTED_RANGES)) {
      const [major, minor, patch] = range.slice(1).split('.').map(Number);
      const [iMajor, iMinor, iPatch] = installed(name).split('.').map(Number);
      assert.ok(range.startsWith('^'), `${name}: ${range}`);
      assert.equal(iMajor, major, `${name} ${installed(name)} is outside ${range}`);
      assert.ok(
        (iMinor as number) > (minor as number) ||
          (iMinor === minor && (iPatch as number) >= (patch as number)),
        `${name} ${installed(name)} is older than ${range}`,
      );
    }
  });

  it("logs through Fastify's logger: warnings and errors, so that a 500 is never silent", async () => {
    // Issue 37: the starter's app had no logger, and a 500 logged nothing.
    const { Database } = await import('@restframework/core');
    const { buildApp } = await import('../template/src/app.ts');
    const db = Database.connect('sqlite::memory:');
    const app = await buildApp(db);
    try {
      assert.equal(app.log.level, process.env.LOG_LEVEL ?? 'warn');
      const log = app.log as typeof app.log & { isLevelEnabled(level: string): boolean };
      assert.equal(log.isLevelEnabled('error'), true);
    } finally {
      await app.close();
      await db.close();
    }
  });

  it('serves the browsable API to browsers, the OpenAPI document and Swagger UI', async () => {
    // Issue 42: the starter answered JSON only, and /schema/ was a 404.
    const { Database } = await import('@restframework/core');
    const { buildApp } = await import('../template/src/app.ts');
    const db = Database.connect('sqlite::memory:');
    const { ALL_MODELS } = await import('../template/src/models.ts');
    await db.migrate(ALL_MODELS);
    const app = await buildApp(db);
    try {
      const page = await app.inject({ url: '/api/tasks/', headers: { accept: 'text/html' } });
      assert.equal(page.statusCode, 200);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.match(page.body, /<h1>Task List<\/h1>/);
      const json = await app.inject({
        url: '/api/tasks/',
        headers: { accept: 'application/json' },
      });
      assert.equal(json.headers['content-type'], 'application/json');
      const schema = await app.inject({ url: '/schema/' });
      assert.equal(schema.statusCode, 200);
      const document = JSON.parse(schema.body);
      assert.match(document.openapi, /^3\./);
      assert.ok(document.paths['/api/tasks/'], Object.keys(document.paths).join(', '));
      const docs = await app.inject({ url: '/schema/docs/' });
      assert.equal(docs.statusCode, 200);
      assert.match(docs.body, /swagger-ui/);
    } finally {
      await app.close();
      await db.close();
    }
  });

  it('writes no credentials into its log lines (Authorization, Cookie redacted)', () => {
    // A child process: pino writes to the file descriptor of stdout, which only a parent reads.
    const app = pathToFileURL(join(TEMPLATE, 'src', 'app.ts')).href;
    const script = `
      const { Database } = await import('@restframework/core');
      const { buildApp } = await import(${JSON.stringify(app)});
      const db = Database.connect('sqlite::memory:');
      const app = await buildApp(db);
      const headers = {
        authorization: 'Token s3cret-token', cookie: 'sessionid=s3cret-session',
        'x-csrftoken': 's3cret-csrf', 'set-cookie': 'sessionid=s3cret-new', accept: 'text/html' };
      app.log.warn({ headers }, 'headers');
      app.log.warn({ upstream: { headers } }, 'nested headers');
      await app.close();
      await db.close();
    `;
    const out = execFileSync(
      process.execPath,
      [...process.execArgv, '--input-type=module', '-e', script],
      { cwd: import.meta.dirname, encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'warn' } },
    );
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((l) => l.msg),
      ['headers', 'nested headers'],
    );
    assert.doesNotMatch(out, /s3cret/);
    for (const headers of [lines[0].headers, lines[1].upstream.headers]) {
      assert.deepEqual(headers, {
        authorization: '[redacted]',
        cookie: '[redacted]',
        'x-csrftoken': '[redacted]',
        'set-cookie': '[redacted]',
        accept: 'text/html',
      });
    }
  });

  it('is the code the tutorial shows, file by file', () => {
    const tutorial = readFileSync(join(ROOT, 'docs', 'tutorial.md'), 'utf8');
    const shown = new Map<string, string>();
    for (const match of tutorial.matchAll(
      /```ts\n\/\/ tasks\/((?:src\/|test\/)?[\w.-]+\.ts)\n([\s\S]*?)```/g,
    )) {
      shown.set(match[1] as string, match[2] as string);
    }
    const files = [
      'src/models.ts',
      'src/serializers.ts',
      'src/viewsets.ts',
      'src/app.ts',
      'src/main.ts',
      'test/tasks.test.ts',
      'restframework.config.ts',
    ];
    for (const file of files) {
      assert.equal(
        shown.get(file),
        readFileSync(join(TEMPLATE, file), 'utf8'),
        `docs/tutorial.md: tasks/${file}`,
      );
    }
  });
});
