/**
 * A read whose steps all answer at once (SQLite, permissions answering with booleans) is
 * dispatched without a promise; anything that waits goes the asynchronous way. Either way the
 * answers are the same, errors thrown at once included.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  BasePermission,
  type Database,
  NotFound,
  type Request,
  Response,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp, json, request } from '../fixtures/http-app.ts';
import { STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet, goldenBook, seedBooks } from '../fixtures/store-views.ts';

/** How each dispatch answered: `now` (a Response) or `later` (a promise). */
const seen: string[] = [];

class RecordingViewSet extends BookViewSet {
  override dispatch(...args: Parameters<BookViewSet['dispatch']>) {
    const response = super.dispatch(...args);
    seen.push(response instanceof Promise ? 'later' : 'now');
    return response;
  }
}

class AsyncAllow extends BasePermission {
  override async hasPermission(): Promise<boolean> {
    return true;
  }
}

class AsyncDeny extends BasePermission {
  message = 'Not you.';
  override async hasPermission(): Promise<boolean> {
    return false;
  }
}

class AsyncPermissionViewSet extends RecordingViewSet {
  override permissionClasses = [AsyncAllow];
}

class AsyncDenyViewSet extends RecordingViewSet {
  override permissionClasses = [AsyncDeny];
}

/** Handlers that answer at once without an async function: a value, and a throw. */
class PlainHandlersViewSet extends RecordingViewSet {
  override retrieve(request: Request): Response {
    if (request.params.pk === '999') throw new NotFound('Thrown at once.');
    if (request.params.pk === '998') throw new Error('a bug, thrown at once');
    countReplyThen(request);
    return new Response({ plain: true });
  }
}

/** The same answer from an async handler (the router's asynchronous way). */
class AsyncHandlerViewSet extends RecordingViewSet {
  override async retrieve(request: Request): Promise<Response> {
    countReplyThen(request);
    return new Response({ plain: true });
  }
}

/**
 * Times Fastify's `reply.then` was called: the reply is a thenable, and waiting on it once it
 * was sent only cost promises and microtask turns.
 */
let replyThenCalls = 0;

function countReplyThen(request: Request): void {
  const reply = request.reply as unknown as { then: (...args: unknown[]) => unknown };
  const then = reply.then;
  // biome-ignore lint/suspicious/noThenProperty: counting calls of the reply's own `then`.
  reply.then = function (this: unknown, ...args: unknown[]) {
    replyThenCalls++;
    return then.apply(this, args);
  };
}

for (const dialect of testDialects()) {
  describe(`dispatch without a promise on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;
    let rows: Array<{ id: number }>;
    const synchronous = dialect.name === 'sqlite';

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      rows = await seedBooks(db, 2);
      app = await buildApp({
        database: db,
        viewsets: [
          ['books', RecordingViewSet],
          ['async-allow', AsyncPermissionViewSet, { basename: 'async-allow' }],
          ['async-deny', AsyncDenyViewSet, { basename: 'async-deny' }],
          ['plain', PlainHandlersViewSet, { basename: 'plain' }],
          ['async-plain', AsyncHandlerViewSet, { basename: 'async-plain' }],
        ],
      });
    });
    after(async () => {
      await app.close();
      await dialect.drop(db);
    });
    beforeEach(() => {
      seen.length = 0;
      replyThenCalls = 0;
    });

    it('answers a detail read at once where the driver does, with the same answer', async () => {
      const id = rows[0]?.id;
      const response = await request(app, { url: `/api/books/${id}/` });
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().id, id);
      assert.equal(response.headers.allow, 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
      assert.equal(response.headers.vary, 'Accept');
      assert.deepEqual(seen, [synchronous ? 'now' : 'later']);
    });

    it('answers a missing row and a key that cannot match with 404, at once', async () => {
      for (const pk of ['424242', 'abc']) {
        const response = await request(app, { url: `/api/books/${pk}/` });
        assert.equal(response.statusCode, 404);
        assert.deepEqual(response.json(), { detail: 'Not found.' });
      }
      assert.deepEqual(seen, synchronous ? ['now', 'now'] : ['later', 'now']);
    });

    it('answers a method the route refuses with 405, at once', async () => {
      const response = await request(app, { method: 'DELETE', url: '/api/books/' });
      assert.equal(response.statusCode, 405);
      assert.deepEqual(response.json(), { detail: 'Method "DELETE" not allowed.' });
      assert.equal(response.headers.allow, 'GET, POST, HEAD, OPTIONS');
    });

    it('waits for a permission that answers with a promise', async () => {
      const id = rows[1]?.id;
      const allowed = await request(app, { url: `/api/async-allow/${id}/` });
      assert.equal(allowed.statusCode, 200);
      assert.equal(allowed.json().id, id);
      const denied = await request(app, { url: `/api/async-deny/${id}/` });
      assert.equal(denied.statusCode, 403);
      assert.deepEqual(denied.json(), { detail: 'Not you.' });
      assert.deepEqual(seen, ['later', 'later']);
    });

    it('keeps writes asynchronous, in their transaction', async () => {
      const created = await request(app, {
        method: 'POST',
        url: '/api/books/',
        ...json(goldenBook('SYNC-1')),
      });
      assert.equal(created.statusCode, 201);
      assert.deepEqual(seen, ['later']);
    });

    it('turns what a plain handler returns or throws at once into the usual answers', async () => {
      const plain = await request(app, { url: '/api/plain/1/' });
      assert.equal(plain.statusCode, 200);
      assert.deepEqual(plain.json(), { plain: true });
      assert.equal(plain.headers.vary, 'Accept');
      const notFound = await request(app, { url: '/api/plain/999/' });
      assert.equal(notFound.statusCode, 404);
      assert.deepEqual(notFound.json(), { detail: 'Thrown at once.' });
      const bug = await request(app, { url: '/api/plain/998/' });
      assert.equal(bug.statusCode, 500);
      assert.deepEqual(bug.json(), { detail: 'A server error occurred.' });
      assert.deepEqual(seen, ['now', 'now', 'now']);
    });

    it('does not wait on the sent reply, whichever way the view answered', async () => {
      const now = await request(app, { url: '/api/plain/1/' });
      assert.equal(now.statusCode, 200);
      const later = await request(app, { url: '/api/async-plain/1/' });
      assert.equal(later.statusCode, 200);
      assert.deepEqual(later.json(), { plain: true });
      assert.deepEqual(seen, ['now', 'later']);
      assert.equal(replyThenCalls, 0);
    });
  });
}
