/**
 * An unavailable database is 503 `{"detail": "Service temporarily unavailable, try again
 * later."}` with `Retry-After`, never a 500: a closed SQLite database, a PostgreSQL server
 * nobody listens for, and code that raises `DatabaseUnavailableError` itself.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Database, DatabaseUnavailableError, type Serializer } from '@restframework/core';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, json, request } from '../fixtures/http-app.ts';
import { STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet, GOLDEN_BOOK, seedBooks } from '../fixtures/store-views.ts';

const UNAVAILABLE = '{"detail":"Service temporarily unavailable, try again later."}';

function assertUnavailable(response: LightMyRequestResponse, allow: string): void {
  assert.equal(response.statusCode, 503, response.body);
  assert.equal(response.body, UNAVAILABLE);
  assert.equal(response.headers['retry-after'], '1');
  assert.equal(response.headers['content-type'], 'application/json');
  assert.equal(response.headers.allow, allow);
  assert.equal(response.headers.vary, 'Accept');
}

const LIST_ALLOW = 'GET, POST, HEAD, OPTIONS';
const DETAIL_ALLOW = 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';

/** Every route a client would use while the database is gone. */
async function assertAllUnavailable(app: FastifyInstance): Promise<void> {
  assertUnavailable(await request(app, { method: 'GET', url: '/api/books/' }), LIST_ALLOW);
  assertUnavailable(await request(app, { method: 'GET', url: '/api/books/1/' }), DETAIL_ALLOW);
  assertUnavailable(
    await request(app, { method: 'POST', url: '/api/books/', ...json(GOLDEN_BOOK) }),
    LIST_ALLOW,
  );
  assertUnavailable(
    await request(app, { method: 'PATCH', url: '/api/books/1/', ...json({ title: 'x' }) }),
    DETAIL_ALLOW,
  );
  assertUnavailable(await request(app, { method: 'DELETE', url: '/api/books/1/' }), DETAIL_ALLOW);
}

class DownOnWriteViewSet extends BookViewSet {
  override async performCreate(serializer: Serializer<any, any>): Promise<void> {
    await serializer.save();
    throw new DatabaseUnavailableError('The primary went away.');
  }
}

describe('an unavailable database', () => {
  it('answers 503 once the SQLite database is closed', async () => {
    const db = Database.connect('sqlite::memory:');
    await db.migrate(STORE_MODELS);
    await seedBooks(db, 1);
    const app = await buildApp({ database: db, viewsets: [['books', BookViewSet]] });
    try {
      assert.equal((await request(app, { method: 'GET', url: '/api/books/1/' })).statusCode, 200);
      await db.close();
      await assertAllUnavailable(app);
    } finally {
      await app.close();
    }
  });

  it('answers 503 when no PostgreSQL server listens', async () => {
    // Port 1 on the loopback: the connection is refused at once.
    const db = Database.connect('postgres://postgres@127.0.0.1:1/absent', {
      connectionTimeoutMs: 1000,
    });
    const app = await buildApp({ database: db, viewsets: [['books', BookViewSet]] });
    try {
      await assertAllUnavailable(app);
    } finally {
      await app.close();
      await db.close();
    }
  });

  it('answers 503 when a view raises DatabaseUnavailableError, and keeps nothing it wrote', async () => {
    const db = Database.connect('sqlite::memory:');
    await db.migrate(STORE_MODELS);
    const app = await buildApp({
      database: db,
      viewsets: [
        ['books', BookViewSet],
        ['down', DownOnWriteViewSet, { basename: 'down' }],
      ],
    });
    try {
      const response = await request(app, {
        method: 'POST',
        url: '/api/down/',
        ...json(GOLDEN_BOOK),
      });
      assertUnavailable(response, LIST_ALLOW);
      const list = await request(app, { method: 'GET', url: '/api/books/' });
      assert.equal(list.body, '[]');
    } finally {
      await app.close();
      await db.close();
    }
  });
});
