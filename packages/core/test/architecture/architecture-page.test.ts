/**
 * `docs/architecture.md` stays true: every file and folder it names exists, every cache of
 * `src/` has a row in its cache table, and the request path it describes (policies before the
 * body is parsed) is the one a request takes.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  Database,
  DefaultRouter,
  IsAuthenticated,
  Response,
  restFramework,
  ViewSet,
} from '@restframework/core';
import Fastify, { type FastifyInstance } from 'fastify';
import { PAGE, quoted, tableUnder } from './architecture-page.ts';
import { moduleStateOf, SRC, sourceFiles, usesCacheHome } from './source-files.ts';

const CORE = fileURLToPath(new URL('../../', import.meta.url));
const ROOT = join(CORE, '..', '..');

/** Where a path the page names lives: `test/` in the package, the repository's own, else `src/`. */
function resolvePath(path: string): string {
  if (path.startsWith('test/') || path.startsWith('src/')) return join(CORE, path);
  if (/^(packages|docs|examples|bench|scripts)\//.test(path)) return join(ROOT, path);
  return join(SRC, path);
}

/** The paths the page names in backticks: files (`.ts`, `.md`), folders (`…/`) and globs. */
function namedPaths(): string[] {
  return [
    ...new Set(
      quoted(PAGE).filter(
        (text) =>
          /^[\w.-]+(\/[\w.*-]+)*\/?$/.test(text) &&
          (/\.(ts|md)$/.test(text) || text.endsWith('/')) &&
          (text.includes('/') || /\.ts$/.test(text)),
      ),
    ),
  ].sort();
}

/** The files that the cache tables name (in their first column). */
function filesOfCacheTables(): Set<string> {
  const rows = [...tableUnder('Caches')];
  const start = PAGE.indexOf('### Module-level state that is not a cache');
  assert.ok(start !== -1, 'the page lost its "Module-level state that is not a cache" table');
  for (const line of PAGE.slice(start).split('\n')) {
    if (line.startsWith('| ') && !line.startsWith('| State') && !line.startsWith('| ---'))
      rows.push([line.slice(2, line.indexOf(' | '))]);
  }
  return new Set(rows.flatMap((row) => quoted(row[0] ?? '')));
}

describe('docs/architecture.md', () => {
  it('names only files and folders that exist', () => {
    const paths = namedPaths();
    assert.ok(paths.length > 50, `only ${paths.length} paths found: the scan is broken`);
    const missing = paths.filter((path) => {
      if (!path.includes('*')) return !existsSync(resolvePath(path));
      // `accounts/authentication/*.ts`: a folder with files of that kind.
      const folder = resolvePath(dirname(path));
      const suffix = path.slice(path.lastIndexOf('*') + 1);
      return !existsSync(folder) || !readdirSync(folder).some((name) => name.endsWith(suffix));
    });
    assert.deepEqual(missing, [], 'paths docs/architecture.md names that do not exist');
  });

  it('lists every cache of src/ in its cache tables', () => {
    const listed = filesOfCacheTables();
    const unlisted = sourceFiles().filter(
      (file) => (moduleStateOf(file).length > 0 || usesCacheHome(file)) && !listed.has(file),
    );
    assert.deepEqual(
      unlisted,
      [],
      'files of src/ with a module-level Map/WeakMap/WeakSet or a cache of utils/bounded-cache.ts ' +
        'that no row of the cache tables in docs/architecture.md names',
    );
  });

  it('finds the caches it checks (the scan is not blind)', () => {
    assert.ok(usesCacheHome('plugin/rest-framework.ts'), 'the allowed-host cache was not seen');
    assert.ok(usesCacheHome('accounts/auth.ts'), 'the token cache was not seen');
    assert.ok(
      moduleStateOf('utils/bounded-cache.ts').some((state) => state.name === 'processCaches'),
      'processCaches was not seen',
    );
  });

  it('puts each step of a request in the order of the code', () => {
    const steps = tableUnder('One request, step by step').map(([step = '', files = '']) => ({
      step,
      files: quoted(files),
    }));
    const at = (file: string) => steps.findIndex((step) => step.files.includes(file));
    const order = [
      'plugin/allowed-hosts.ts',
      'parsers/install-body-parsers.ts',
      'routers/request-adapter.ts',
      'accounts/authentication/*.ts',
      'permissions/*.ts',
      'throttling/*.ts',
      'parsers/json-parser.ts',
      'views/mixins.ts',
      'serializers/serializer.ts',
      'db/query-set.ts',
      'serializers/representation-compiler.ts',
      'http/send-response.ts',
    ];
    for (const file of order) assert.ok(at(file) !== -1, `no step names ${file}`);
    const positions = order.map(at);
    assert.deepEqual(
      positions,
      [...positions].sort((a, b) => a - b),
      `the steps are out of order: ${order.join(' → ')}`,
    );
  });

  describe('the body is parsed after the policies, as the page says', () => {
    let app: FastifyInstance;
    let db: Database;
    class GuardedViewSet extends ViewSet {
      override permissionClasses = [IsAuthenticated];
      create(): Response {
        return new Response({}, 201);
      }
    }
    before(async () => {
      db = Database.connect('sqlite::memory:');
      app = Fastify();
      await app.register(restFramework, { database: db });
      await app.register(
        new DefaultRouter().register('guarded', GuardedViewSet, { basename: 'guarded' }).plugin,
        {
          prefix: '/api',
        },
      );
      await app.ready();
    });
    after(async () => {
      await app.close();
      await db.close();
    });

    it('answers a refused caller 403, never 400 for a body it did not parse', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/guarded/',
        headers: { host: '127.0.0.1', 'content-type': 'application/json' },
        payload: '{"not": json',
      });
      assert.equal(response.statusCode, 403, response.body);
    });
  });
});
