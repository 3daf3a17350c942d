/**
 * One cache home: outside `utils/bounded-cache.ts`, no file of `src/` keeps a module-level `Map`
 * or `WeakMap` (a cache belongs to the object whose lifetime it shares: see "Caches" in
 * docs/architecture.md), and none asks `instanceof Promise` (`isPromiseLike` from
 * `utils/maybe-promise.ts` is the one promise test: a thenable of another realm or library is
 * a promise too).
 *
 * The files still doing either are listed below, each for the issue-38 branch converting it;
 * the test fails when one is added, and when a listed file no longer needs its line (remove it).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { moduleStateOf, promiseInstanceofOf, sourceFiles } from './source-files.ts';

/** The cache home, where module-level caches may live (`processCaches`). */
const CACHE_HOME = 'utils/bounded-cache.ts';

/** Module-level `Map`/`WeakMap`s being folded into the cache home (issue 38). */
const PENDING_MODULE_MAPS: ReadonlySet<string> = new Set([
  // h38-db: db/
  'db/plan/lookup-plan.ts',
  'db/lookups.ts',
  'db/dialect/postgres/postgres-client.ts',
  'db/plan/query-paths.ts',
  'db/plan/row-writes.ts',
  'db/plan/select-plan.ts',
  'db/plan/statement-cache.ts',
  'db/plan/table-writes.ts',
]);

/** `instanceof Promise` tests still being replaced by `isPromiseLike` (none left). */
const PENDING_INSTANCEOF_PROMISE: ReadonlySet<string> = new Set<string>([]);

describe('one cache home and one promise test in src/', () => {
  const files = sourceFiles();

  it('keeps module-level Maps and WeakMaps in the cache home only', () => {
    const found = new Map<string, string[]>();
    for (const file of files) {
      if (file === CACHE_HOME) continue;
      for (const state of moduleStateOf(file)) {
        if (state.kind !== 'Map' && state.kind !== 'WeakMap') continue;
        found.set(file, [...(found.get(file) ?? []), `${state.name} (line ${state.line})`]);
      }
    }
    const added = [...found].filter(([file]) => !PENDING_MODULE_MAPS.has(file));
    assert.deepEqual(
      added.map(([file, names]) => `${file}: ${names.join(', ')}`),
      [],
      'module-level Map/WeakMap outside utils/bounded-cache.ts: use BoundedCache, ownPlan or processCaches',
    );
    const done = [...PENDING_MODULE_MAPS].filter((file) => !found.has(file));
    assert.deepEqual(
      done,
      [],
      'listed as pending but without a module-level Map/WeakMap now: remove them',
    );
  });

  it('asks isPromiseLike, never instanceof Promise', () => {
    const found = files.filter((file) => promiseInstanceofOf(file).length > 0);
    assert.deepEqual(
      found.filter((file) => !PENDING_INSTANCEOF_PROMISE.has(file)),
      [],
      'instanceof Promise in src/: use isPromiseLike from utils/maybe-promise.ts',
    );
    assert.deepEqual(
      [...PENDING_INSTANCEOF_PROMISE].filter((file) => !found.includes(file)),
      [],
      'listed as pending but without instanceof Promise now: remove them',
    );
  });

  it('sees what it guards against (the scan is not blind)', () => {
    assert.ok(moduleStateOf(CACHE_HOME).some((state) => state.name === 'processCaches'));
    assert.ok(
      promiseInstanceofOf('views/mixins.ts').length > 0 ||
        !PENDING_INSTANCEOF_PROMISE.has('views/mixins.ts'),
    );
    assert.deepEqual(
      moduleStateOf('plugin/rest-framework.ts'),
      [],
      'a cache inside a function is not module-level',
    );
  });
});
