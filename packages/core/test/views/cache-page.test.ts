/**
 * Per-view caching (`cachePage`) on the memory cache, and on Redis when TEST_REDIS_URL is set:
 * a second GET is answered without a query, a write through a view (PATCH, POST, DELETE)
 * invalidates the list, and what must never be cached is not: other methods, errors, other
 * statuses, authenticated requests unless varied on their credentials.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  BaseAuthentication,
  type Cache,
  cachePage,
  Database,
  MemoryCache,
  RedisCache,
  type Request,
} from '@restframework/core';
import { assertImproperlyConfigured } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp, json, request } from '../fixtures/http-app.ts';
import { STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet, seedBooks } from '../fixtures/store-views.ts';

const REDIS_URL = process.env.TEST_REDIS_URL;

/** Authenticates any request with `Authorization: User <name>` (no database). */
class HeaderAuthentication extends BaseAuthentication {
  override authenticate(request: Request) {
    const header = request.raw.headers.authorization;
    if (!header?.startsWith('User ')) return null;
    return [
      { id: 1, username: header.slice(5), isAuthenticated: true, isStaff: false },
      null,
    ] as never;
  }
}

/** Authenticates with a header no cache key could vary on by default. */
class ApiKeyAuthentication extends BaseAuthentication {
  override authenticate(request: Request) {
    const key = request.raw.headers['x-api-key'];
    if (typeof key !== 'string') return null;
    return [{ id: 2, username: key, isAuthenticated: true, isStaff: false }, null] as never;
  }
}

class CachedBooks extends BookViewSet {
  static override cachePolicy = cachePage(60);
  override authenticationClasses = [HeaderAuthentication, ApiKeyAuthentication];
}

class CachedPerUser extends BookViewSet {
  static override cachePolicy = cachePage(60, { varyOnHeaders: ['Authorization'] });
  override authenticationClasses = [HeaderAuthentication];
}

const backends: { name: string; make: () => Cache }[] = [
  { name: 'memory', make: () => new MemoryCache() },
];
if (REDIS_URL) {
  backends.push({
    name: 'Redis',
    make: () => new RedisCache({ url: REDIS_URL, keyPrefix: `cache-page-${randomUUID()}` }),
  });
}

for (const backend of backends) {
  describe(`cachePage on the ${backend.name} cache`, () => {
    let db: Database;
    let app: FastifyInstance;
    let cache: Cache;
    let queries = 0;

    before(async () => {
      db = Database.connect('sqlite::memory:');
      await db.migrate(STORE_MODELS);
      await seedBooks(db, 3);
      db.onQuery(() => {
        queries++;
      });
      cache = backend.make();
      app = await buildApp({
        database: db,
        settings: { CACHES: { default: cache } },
        viewsets: [
          ['books', CachedBooks, { basename: 'book' }],
          ['per-user', CachedPerUser, { basename: 'per-user' }],
        ],
      });
    });

    after(async () => {
      await cache.clear();
      await app.close();
      await db.close();
    });

    /** A GET, and how many statements it ran. */
    async function get(url: string, headers: Record<string, string> = {}) {
      const before = queries;
      const response = await request(app, { url, headers });
      return { response, queries: queries - before };
    }

    it('answers the second GET from the cache, without a query, with the same body', async () => {
      const first = await get('/api/books/');
      assert.equal(first.response.statusCode, 200);
      assert.ok(first.queries > 0);
      assert.equal(first.response.headers['cache-control'], 'max-age=60');
      const second = await get('/api/books/');
      assert.equal(second.queries, 0, 'no statement for a cached answer');
      assert.equal(second.response.body, first.response.body);
      assert.equal(second.response.headers['content-type'], first.response.headers['content-type']);
      assert.equal(second.response.headers.allow, first.response.headers.allow);
      // Another query string, another entry.
      assert.ok((await get('/api/books/?page=1')).queries > 0);
      // HEAD is answered from the GET's entry.
      const head = await request(app, { method: 'HEAD', url: '/api/books/' });
      assert.equal(head.statusCode, 200);
    });

    it('sees a PATCH, a POST and a DELETE through the views at once', async () => {
      await get('/api/books/');
      await get('/api/books/1/');
      const patched = await request(app, {
        method: 'PATCH',
        url: '/api/books/1/',
        ...json({ title: 'Renamed' }),
        headers: { 'content-type': 'application/json', accept: 'application/json' },
      });
      assert.equal(patched.statusCode, 200, patched.body);
      const list = await get('/api/books/');
      assert.ok(list.queries > 0, 'the PATCH invalidated the list');
      assert.match(list.response.body, /Renamed/);
      assert.match((await get('/api/books/1/')).response.body, /Renamed/);
      assert.equal((await get('/api/books/')).queries, 0, 'cached again');

      const created = await request(app, {
        method: 'POST',
        url: '/api/books/',
        payload: JSON.stringify({
          title: 'Fresh',
          publishing_information: { publication_date: '2021-03-04', isbn: 'fresh-1', pages: 3 },
          stock_information: { stock_count: 1, price: '1.00', state: 'not_published' },
        }),
        headers: { 'content-type': 'application/json', accept: 'application/json' },
      });
      assert.equal(created.statusCode, 201, created.body);
      assert.match((await get('/api/books/')).response.body, /Fresh/, 'the POST invalidated it');

      const id = (JSON.parse(created.body) as { id: number }).id;
      const deleted = await request(app, { method: 'DELETE', url: `/api/books/${id}/` });
      assert.equal(deleted.statusCode, 204);
      assert.doesNotMatch((await get('/api/books/')).response.body, /Fresh/);
    });

    it('never stores an error, another status, or an answer to another method', async () => {
      const missing = await get('/api/books/999/');
      assert.equal(missing.response.statusCode, 404);
      const again = await get('/api/books/999/');
      assert.ok(again.queries > 0, 'a 404 is not cached');
      assert.equal(again.response.headers['cache-control'], undefined);
      const options = await request(app, { method: 'OPTIONS', url: '/api/books/' });
      assert.equal(options.statusCode, 200);
      assert.equal(options.headers['cache-control'], undefined);
    });

    it('never caches for an authenticated caller unless keyed by the credential', async () => {
      await get('/api/books/');
      // Authorization not varied on: every authenticated GET runs the view, and is not stored.
      const alice = await get('/api/books/', { authorization: 'User alice' });
      assert.ok(alice.queries > 0);
      assert.ok((await get('/api/books/', { authorization: 'User alice' })).queries > 0);
      // A credential in a header no policy can name: never cached.
      assert.ok((await get('/api/books/', { 'x-api-key': 'k' })).queries > 0);
      assert.ok((await get('/api/books/', { 'x-api-key': 'k' })).queries > 0);

      // Varied on Authorization: each user has an entry of their own.
      const a1 = await get('/api/per-user/', { authorization: 'User alice' });
      assert.ok(a1.queries > 0);
      assert.match(String(a1.response.headers.vary), /Authorization/);
      assert.equal((await get('/api/per-user/', { authorization: 'User alice' })).queries, 0);
      assert.ok((await get('/api/per-user/', { authorization: 'User bob' })).queries > 0);
      assert.ok((await get('/api/per-user/')).queries > 0, 'anonymous has its own entry');
      // A session cookie beside it, not varied on: not cached.
      const withCookie = { authorization: 'User alice', cookie: 'sessionid=x' };
      assert.ok((await get('/api/per-user/', withCookie)).queries > 0);
      assert.ok((await get('/api/per-user/', withCookie)).queries > 0);
    });
  });
}

describe('cachePage declarations', () => {
  it('refuses seconds and header names it cannot use', () => {
    assertImproperlyConfigured(() => cachePage(0), 'REST_ERR_CACHE');
    assertImproperlyConfigured(() => cachePage(1.5), 'REST_ERR_CACHE');
    assertImproperlyConfigured(
      () => cachePage(60, { varyOnHeaders: ['Accept Language'] }),
      'REST_ERR_CACHE',
    );
    assert.equal(
      cachePage(5, { varyOnHeaders: ['Accept-Language'], varyOnCookie: true }).vary,
      'Accept, Accept-Language, Cookie',
    );
  });

  it('fails at start-up when a policy names a cache CACHES lacks', async () => {
    class Elsewhere extends BookViewSet {
      static override cachePolicy = cachePage(60, { cache: 'pages' });
    }
    const db = Database.connect('sqlite::memory:');
    try {
      await assert.rejects(
        buildApp({ database: db, viewsets: [['books', Elsewhere, { basename: 'book' }]] }),
        (error: Error & { code?: string }) =>
          error.code === 'REST_ERR_CACHE' && /"pages"/.test(error.message),
      );
      await assert.rejects(
        buildApp({
          database: db,
          settings: { CACHES: { pages: new MemoryCache() } },
          viewsets: [['books', BookViewSet, { basename: 'book' }]],
        }),
        (error: Error & { code?: string }) => error.code === 'REST_ERR_CACHE',
      );
    } finally {
      await db.close();
    }
  });
});
