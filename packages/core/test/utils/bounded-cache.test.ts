/** The cache home: one bounded cache type, the sets that own caches, and plans kept on their owner. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BoundedCache, CacheSet, ownPlan } from '@restframework/core/internal';
import fc from 'fast-check';

describe('BoundedCache', () => {
  it('never holds more than its bound, the oldest entry going first', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 60 }),
        (max, keys) => {
          const cache = new BoundedCache<number, number>('numbers', max);
          // A model of the policy: insertion order, a key set again keeps its place.
          const model: number[] = [];
          for (const key of keys) {
            cache.set(key, key * 2);
            if (!model.includes(key)) {
              if (model.length >= max) model.shift();
              model.push(key);
            }
            assert.ok(cache.size <= max);
          }
          assert.equal(cache.size, model.length);
          for (const key of model) assert.equal(cache.get(key), key * 2);
        },
      ),
    );
  });

  it('counts hits, misses and evictions', () => {
    const cache = new BoundedCache<string, number>('lengths', 2);
    cache.getOrCreate('a', (k) => k.length);
    cache.getOrCreate('a', () => assert.fail('made twice'));
    cache.getOrCreate('bb', (k) => k.length);
    cache.getOrCreate('ccc', (k) => k.length);
    assert.deepEqual(cache.stats(), {
      name: 'lengths',
      size: 2,
      max: 2,
      hits: 1,
      misses: 3,
      evictions: 1,
    });
    assert.equal(cache.get('a'), undefined);
    cache.clear();
    assert.equal(cache.size, 0);
  });

  it('refuses a bound that is not a whole number of 1 or more', () => {
    for (const max of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      assert.throws(() => new BoundedCache('bad', max), /needs a bound of 1 or more/);
  });
});

describe('CacheSet', () => {
  it('makes each named cache once and clears them together', () => {
    const set = new CacheSet();
    const statements = set.cache<string, string>('statements', 10);
    assert.equal(set.cache('statements', 10), statements);
    statements.set('k', 'v');
    set.cache<number, number>('plans', 4).set(1, 1);
    set.clear();
    assert.deepEqual(
      set.stats().map((s) => [s.name, s.size]),
      [
        ['statements', 0],
        ['plans', 0],
      ],
    );
  });

  it('refuses one name with two bounds', () => {
    const set = new CacheSet();
    set.cache('statements', 10);
    assert.throws(() => set.cache('statements', 20), /made with the bound 10, not 20/);
  });
});

describe('ownPlan', () => {
  it('keeps a plan on its owner, not on the owner’s subclasses', () => {
    const KEY = Symbol('plan');
    class Parent {}
    class Child extends Parent {}
    let made = 0;
    const parentPlan = ownPlan(Parent, KEY, () => ({ made: ++made }));
    assert.equal(
      ownPlan(Parent, KEY, () => ({ made: ++made })),
      parentPlan,
    );
    const childPlan = ownPlan(Child, KEY, () => ({ made: ++made }));
    assert.notEqual(childPlan, parentPlan);
    assert.equal(made, 2);
  });
});
