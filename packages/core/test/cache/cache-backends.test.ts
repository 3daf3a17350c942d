/**
 * The cache API on each backend: the memory one always, Redis when TEST_REDIS_URL is set.
 * Both must give the same answers: values come back as copies, timeouts expire, `add` does
 * not overwrite, `incr` refuses a missing key, versions and prefixes keep keys apart, and
 * `clear` removes only the cache's own keys.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import {
  type Cache,
  CacheKeyMissing,
  type CacheValue,
  MemoryCache,
  RedisCache,
} from '@restframework/core';
import { assertImproperlyConfigured } from '@restframework/core/testing';
import fc from 'fast-check';

const REDIS_URL = process.env.TEST_REDIS_URL;

interface Backend {
  readonly name: string;
  make(options?: { timeout?: number | null; keyPrefix?: string; version?: number }): Cache;
}

const made: Cache[] = [];

const backends: Backend[] = [
  {
    name: 'MemoryCache',
    make: (options = {}) => new MemoryCache(options),
  },
];
if (REDIS_URL) {
  backends.push({
    name: 'RedisCache',
    make: (options = {}) => {
      const cache = new RedisCache({
        url: REDIS_URL,
        ...options,
        keyPrefix: `${options.keyPrefix ?? ''}test-${randomUUID()}`,
      });
      made.push(cache);
      return cache;
    },
  });
}

after(async () => {
  for (const cache of made) {
    await cache.clear();
    await cache.close?.();
  }
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const json: fc.Arbitrary<CacheValue> = fc.jsonValue() as fc.Arbitrary<CacheValue>;

for (const backend of backends) {
  describe(`${backend.name}: the cache API`, () => {
    it('gives back what was set, as a copy, for any JSON value', async () => {
      const cache = backend.make();
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 40 }), json, async (key, value) => {
          await cache.set(key, value);
          const back = await cache.get(key);
          // JSON has no -0: it comes back as 0, on every backend alike.
          assert.deepEqual(back, JSON.parse(JSON.stringify(value)));
        }),
        { numRuns: REDIS_URL && backend.name === 'RedisCache' ? 50 : 200 },
      );
      const stored = { list: [1, 2] };
      await cache.set('obj', stored);
      const first = (await cache.get('obj')) as { list: number[] };
      first.list.push(3);
      assert.deepEqual(await cache.get('obj'), { list: [1, 2] }, 'a read is a copy');
    });

    it('answers the fallback for a missing key and forgets after the timeout', async () => {
      const cache = backend.make({ timeout: 0.15 });
      assert.equal(await cache.get('absent'), undefined);
      assert.equal(await cache.get('absent', 'fallback'), 'fallback');
      await cache.set('short', 'x');
      await cache.set('forever', 'y', null);
      assert.equal(await cache.get('short'), 'x');
      await sleep(300);
      assert.equal(await cache.get('short'), undefined);
      assert.equal(await cache.get('forever'), 'y');
      await cache.set('forever', 'z', 0);
      assert.equal(await cache.get('forever'), undefined, 'a timeout of 0 removes the entry');
    });

    it('adds only when absent, deletes, and reads many at once', async () => {
      const cache = backend.make();
      assert.equal(await cache.add('a', 1), true);
      assert.equal(await cache.add('a', 2), false);
      assert.equal(await cache.get('a'), 1);
      await cache.setMany({ b: 'two', c: [3] });
      assert.deepEqual(await cache.getMany(['a', 'b', 'c', 'missing']), {
        a: 1,
        b: 'two',
        c: [3],
      });
      assert.equal(await cache.delete('a'), true);
      assert.equal(await cache.delete('a'), false);
      assert.deepEqual(await cache.getMany([]), {});
    });

    it('increments numbers and refuses a missing key', async () => {
      const cache = backend.make();
      await cache.set('n', 5);
      assert.equal(await cache.incr('n'), 6);
      assert.equal(await cache.incr('n', 10), 16);
      assert.equal(await cache.decr('n', 4), 12);
      assert.equal(await cache.get('n'), 12);
      await assert.rejects(async () => cache.incr('nothing'), CacheKeyMissing);
      assert.equal(await cache.get('nothing'), undefined, 'incr did not create it');
    });

    it('keeps versions and prefixes apart, and clears only its own keys', async () => {
      const prefix = `p${randomUUID().slice(0, 8)}`;
      const one = backend.make({ keyPrefix: prefix });
      const two = backend.make({ keyPrefix: `${prefix}x` });
      await one.set('k', 'v1');
      await one.set('k', 'v2', undefined, 2);
      assert.equal(await one.get('k'), 'v1');
      assert.equal(await one.get('k', undefined, 2), 'v2');
      await two.set('k', 'other');
      assert.equal(await one.get('k'), 'v1');
      await one.clear();
      assert.equal(await one.get('k'), undefined);
      assert.equal(await one.get('k', undefined, 2), undefined);
      if (backend.name === 'RedisCache') assert.equal(await two.get('k'), 'other');
    });
  });
}

describe('MemoryCache', () => {
  it('drops the least recently used entry past maxEntries', () => {
    const cache = new MemoryCache({ maxEntries: 3 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    cache.get('a'); // a is now the most recently used
    cache.set('d', 4);
    assert.deepEqual(cache.getMany(['a', 'b', 'c', 'd']), { a: 1, c: 3, d: 4 });
  });

  it('stays within maxEntries whatever the keys', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 200 }), (keys) => {
        const cache = new MemoryCache({ maxEntries: 10 });
        for (const key of keys) cache.set(key, key);
        const present = Object.keys(cache.getMany([...new Set(keys)]));
        assert.ok(present.length <= 10);
        // The last key set is always there.
        if (keys.length) assert.ok(present.includes(keys[keys.length - 1] as string));
      }),
    );
  });

  it('refuses options it cannot use, at construction', () => {
    assertImproperlyConfigured(() => new MemoryCache({ maxEntries: 0 }), 'REST_ERR_CACHE');
    assertImproperlyConfigured(
      () => new MemoryCache({ timeout: Number.NaN as number }),
      'REST_ERR_CACHE',
    );
    assertImproperlyConfigured(() => new MemoryCache({ version: 1.5 }), 'REST_ERR_CACHE');
    assertImproperlyConfigured(() => new RedisCache({}), 'REST_ERR_CACHE');
  });
});
