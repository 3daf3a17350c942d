/**
 * How per-view caching reads and keys its entries: one read of the cache per request (the
 * models' versions and the entry together), an entry keyed by the negotiated renderer and the
 * headers the policy varies on, an entry made under older versions (another process's write)
 * never served, an entry another process stored served with the same bytes, a damaged entry
 * answered as a miss, and text beyond ASCII sent with its exact bytes and length.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Cache,
  type CacheValue,
  cachePage,
  Database,
  JSONRenderer,
  MemoryCache,
  type Timeout,
} from '@restframework/core';
import type { FastifyInstance } from 'fastify';
import { buildApp, json, request } from '../fixtures/http-app.ts';
import { STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet, seedBooks } from '../fixtures/store-views.ts';

/** A memory cache that counts its reads and remembers the keys written. */
class CountingCache extends MemoryCache {
  reads = 0;
  readonly written = new Set<string>();

  override get<T extends CacheValue>(key: string, fallback?: T, version?: number) {
    this.reads++;
    return super.get(key, fallback, version);
  }

  override getMany(keys: readonly string[], version?: number) {
    this.reads++;
    return super.getMany(keys, version);
  }

  override setMany(
    values: Readonly<Record<string, CacheValue>>,
    timeout?: Timeout,
    version?: number,
  ): void {
    for (const key of Object.keys(values)) this.written.add(key);
    super.setMany(values, timeout, version);
  }

  override set(key: string, value: CacheValue, timeout?: Timeout, version?: number): void {
    this.written.add(key);
    super.set(key, value, timeout, version);
  }
}

/** JSON under a vendor media type: a second renderer to negotiate. */
class VendorJSONRenderer extends JSONRenderer {
  override readonly mediaType = 'application/vnd.shop+json' as 'application/json';
  override readonly format = 'vnd' as 'json';
}

class CachedBooks extends BookViewSet {
  static override cachePolicy = cachePage(60, { varyOnHeaders: ['Accept-Language'] });
  override rendererClasses = [JSONRenderer, VendorJSONRenderer];
}

describe('cachePage lookups', () => {
  let db: Database;
  let cache: CountingCache;
  let app: FastifyInstance;
  let other: FastifyInstance;
  let queries = 0;

  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(STORE_MODELS);
    await seedBooks(db, 3);
    db.onQuery(() => {
      queries++;
    });
    cache = new CountingCache();
    const options = {
      database: db,
      settings: { CACHES: { default: cache as Cache } },
      viewsets: [['books', CachedBooks, { basename: 'book' }]] as const,
    };
    app = await buildApp(options);
    // A second app on the same cache and database: another process of the same service.
    other = await buildApp(options);
  });

  after(async () => {
    await app.close();
    await other.close();
    await db.close();
  });

  async function get(url: string, headers: Record<string, string> = {}, on = app) {
    const queriesBefore = queries;
    const readsBefore = cache.reads;
    const response = await request(on, { url, headers });
    return { response, queries: queries - queriesBefore, reads: cache.reads - readsBefore };
  }

  it('reads the cache once per request, versions and entry together', async () => {
    await get('/api/books/');
    const hit = await get('/api/books/');
    assert.equal(hit.queries, 0);
    assert.equal(hit.reads, 1, 'one getMany for the versions and the entry');
  });

  it('keys the entry by the negotiated renderer and the headers it varies on', async () => {
    const plain = await get('/api/books/');
    assert.equal(plain.response.headers['content-type'], 'application/json');
    assert.equal(plain.response.headers.vary, 'Accept, Accept-Language');
    const vendor = await get('/api/books/', { accept: 'application/vnd.shop+json' });
    assert.ok(vendor.queries > 0, 'another media type is another entry');
    assert.equal(vendor.response.headers['content-type'], 'application/vnd.shop+json');
    const vendorAgain = await get('/api/books/', { accept: 'application/vnd.shop+json' });
    assert.equal(vendorAgain.queries, 0);
    assert.equal(vendorAgain.response.headers['content-type'], 'application/vnd.shop+json');
    assert.equal((await get('/api/books/')).response.headers['content-type'], 'application/json');

    const french = await get('/api/books/', { 'accept-language': 'fr' });
    assert.ok(french.queries > 0, 'another Accept-Language is another entry');
    assert.equal((await get('/api/books/', { 'accept-language': 'fr' })).queries, 0);
    assert.ok((await get('/api/books/', { 'accept-language': 'de' })).queries > 0);
  });

  it('hashes a long key, and still keys by every part', async () => {
    const long = 'x'.repeat(300);
    const first = await get(`/api/books/?q=${long}`);
    assert.equal(first.response.statusCode, 200);
    assert.ok(first.queries > 0);
    assert.equal((await get(`/api/books/?q=${long}`)).queries, 0);
    assert.ok((await get(`/api/books/?q=${long}y`)).queries > 0);
    const keys = [...cache.written].filter((key) => key.includes('cache_page'));
    assert.ok(
      keys.every((key) => key.length < 120),
      'no key carries the long query',
    );
  });

  it('never serves an entry made under an older version of the model', async () => {
    await get('/api/books/');
    assert.equal((await get('/api/books/')).queries, 0);
    // Another process wrote the table: the version in the cache is not the entry's.
    const versionKeys = [...cache.written].filter((key) => key.includes('model_version'));
    assert.ok(versionKeys.length > 0);
    for (const key of versionKeys) cache.set(key, 'from-another-process', null);
    const after = await get('/api/books/');
    assert.ok(after.queries > 0, 'a miss: the entry is of an older version');
    assert.equal((await get('/api/books/')).queries, 0, 'stored again under the new version');
  });

  it('serves what another process stored with the same bytes, and sees its writes', async () => {
    const mine = await get('/api/books/?page=1');
    assert.ok(mine.queries > 0);
    const theirs = await get('/api/books/?page=1', {}, other);
    assert.equal(theirs.queries, 0, 'the other app reads the entry this one stored');
    assert.equal(theirs.response.body, mine.response.body);
    assert.equal(
      theirs.response.headers['content-length'],
      mine.response.headers['content-length'],
    );

    const patched = await request(other, {
      method: 'PATCH',
      url: '/api/books/2/',
      ...json({ title: 'Patched elsewhere' }),
    });
    assert.equal(patched.statusCode, 200, patched.body);
    const again = await get('/api/books/?page=1');
    assert.ok(again.queries > 0, 'the other app’s write invalidated this one’s entry');
    assert.match(again.response.body, /Patched elsewhere/);
  });

  it('answers a damaged entry as a miss', async () => {
    await get('/api/books/?page=2');
    for (const key of cache.written) {
      if (key.includes('cache_page')) cache.set(key, 'not an entry', 60);
    }
    const damaged = await get('/api/books/?page=2');
    assert.equal(damaged.response.statusCode, 200);
    assert.ok(damaged.queries > 0);
    assert.equal((await get('/api/books/?page=2')).queries, 0, 'stored again');
  });

  it('sends text beyond ASCII with its exact bytes and Content-Length', async () => {
    const title = 'Café ☕ 東京 😀';
    const patched = await request(app, {
      method: 'PATCH',
      url: '/api/books/1/',
      ...json({ title }),
    });
    assert.equal(patched.statusCode, 200, patched.body);
    const miss = await get('/api/books/');
    assert.ok(miss.queries > 0);
    for (const on of [app, other]) {
      const hit = await get('/api/books/', {}, on);
      assert.equal(hit.queries, 0);
      assert.deepEqual(hit.response.rawPayload, miss.response.rawPayload);
      assert.equal(Number(hit.response.headers['content-length']), hit.response.rawPayload.length);
      assert.ok(hit.response.body.includes(title));
    }
  });
});
