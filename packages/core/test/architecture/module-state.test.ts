/**
 * One cache home: outside `utils/bounded-cache.ts`, no file of `src/` keeps a module-level `Map`
 * or `WeakMap` (a cache belongs to the object whose lifetime it shares: see "Caches" in
 * docs/architecture.md), and none asks `instanceof Promise` (`isPromiseLike` from
 * `utils/maybe-promise.ts` is the one promise test: a thenable of another realm or library is
 * a promise too).
 *
 * The test fails when a file adds either; the module-level maps that are not caches are listed
 * below, and a listed file that no longer needs its line fails too (remove it).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { moduleStateOf, promiseInstanceofOf, sourceFiles } from './source-files.ts';

/** The cache home, where module-level caches may live (`processCaches`). */
const CACHE_HOME = 'utils/bounded-cache.ts';

/**
 * Module-level `Map`s that are not caches (the table "Module-level state that is not a cache"
 * in docs/architecture.md): a registry of listeners and a constant table.
 */
const NOT_A_CACHE: ReadonlySet<string> = new Set([
  'db/plan/table-writes.ts', // who to tell when the toolkit writes a table
  'db/lookups.ts', // RANGES: the bounds of each integer column kind, filled once
]);

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
    const added = [...found].filter(([file]) => !NOT_A_CACHE.has(file));
    assert.deepEqual(
      added.map(([file, names]) => `${file}: ${names.join(', ')}`),
      [],
      'module-level Map/WeakMap outside utils/bounded-cache.ts: use BoundedCache, ownPlan or processCaches',
    );
    const done = [...NOT_A_CACHE].filter((file) => !found.has(file));
    assert.deepEqual(
      done,
      [],
      'listed as not a cache but without a module-level Map/WeakMap now: remove them',
    );
  });

  it('asks isPromiseLike, never instanceof Promise', () => {
    assert.deepEqual(
      files.filter((file) => promiseInstanceofOf(file).length > 0),
      [],
      'instanceof Promise in src/: use isPromiseLike from utils/maybe-promise.ts',
    );
  });

  it('sees what it guards against (the scan is not blind)', () => {
    assert.ok(moduleStateOf(CACHE_HOME).some((state) => state.name === 'processCaches'));
    assert.deepEqual(
      moduleStateOf('plugin/rest-framework.ts'),
      [],
      'a cache inside a function is not module-level',
    );
  });
});
