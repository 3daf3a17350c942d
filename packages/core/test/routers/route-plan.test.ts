/**
 * The per-route plan: built once when the router registers a route (the same frozen object
 * serves every request), and the view API it answers for (`allowedMethods`, `getViewName()`)
 * still overridable by a view set.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database, Request } from '@restframework/core';
import type { RoutePlan } from '@restframework/core/internal';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp, request } from '../fixtures/http-app.ts';
import { STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet, seedBooks } from '../fixtures/store-views.ts';

/** The plans seen by the views that served requests, in order. */
const seen: (RoutePlan | undefined)[] = [];

class RecordingViewSet extends BookViewSet {
  override list(request: Request) {
    seen.push(this.routePlan);
    return super.list(request);
  }

  override retrieve(request: Request) {
    seen.push(this.routePlan);
    return super.retrieve(request);
  }
}

class ShelfViewSet extends BookViewSet {
  override getViewName(): string {
    return `Shelf (${this.suffix ?? 'none'})`;
  }
}

/** Refuses DELETE by leaving it out of the allowed methods. */
class NoDeleteViewSet extends BookViewSet {
  override get allowedMethods(): string[] {
    return super.allowedMethods.filter((method) => method !== 'DELETE');
  }
}

/** No `destroy`: the plan's allowed methods come from the handlers the class has. */
class KeepForeverViewSet extends BookViewSet {
  declare destroy: never;
}
Object.defineProperty(KeepForeverViewSet.prototype, 'destroy', { value: undefined });

for (const dialect of testDialects()) {
  describe(`route plans on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      await seedBooks(db, 1);
      app = await buildApp({
        database: db,
        prefix: '/books/api',
        viewsets: [
          ['books', RecordingViewSet, { basename: 'book' }],
          ['shelf', ShelfViewSet, { basename: 'shelf' }],
          ['no-delete', NoDeleteViewSet, { basename: 'no-delete' }],
          ['forever', KeepForeverViewSet, { basename: 'forever' }],
        ],
      });
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
    });

    it('serves every request of a route from one frozen plan made at registration', async () => {
      seen.length = 0;
      const first = await request(app, { method: 'GET', url: '/books/api/books/1/' });
      const second = await request(app, { method: 'GET', url: '/books/api/books/1/' });
      assert.equal(first.statusCode, 200);
      assert.equal(second.statusCode, 200);
      assert.equal(seen.length, 2);
      const plan = seen[0] as RoutePlan;
      assert.ok(plan, 'the view has its route plan');
      assert.equal(seen[1], plan);
      assert.ok(Object.isFrozen(plan));
      assert.ok(Object.isFrozen(plan.allowedMethods));
      assert.ok(Object.isFrozen(plan.actions));
      assert.equal(plan.viewset, RecordingViewSet);
      assert.equal(plan.actions?.GET, 'retrieve');
      assert.equal(plan.actions?.HEAD, 'retrieve');
      assert.equal(plan.actions?.OPTIONS, 'metadata');
      assert.equal(plan.allow, 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
      assert.equal(first.headers.allow, plan.allow);
      assert.equal(plan.viewName, 'Recording Instance');
    });

    it('gives the list route its own plan', async () => {
      seen.length = 0;
      const list = await request(app, { method: 'GET', url: '/books/api/books/' });
      const detail = await request(app, { method: 'GET', url: '/books/api/books/1/' });
      assert.equal(list.headers.allow, 'GET, POST, HEAD, OPTIONS');
      assert.equal(detail.headers.allow, 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
      assert.equal(seen.length, 2);
      assert.notEqual(seen[0], seen[1]);
      assert.equal(seen[0]?.viewName, 'Recording List');
      assert.equal(seen[0]?.actions?.POST, 'create');
    });

    it('keeps the view looking as the registered class', async () => {
      const response = await request(app, { method: 'OPTIONS', url: '/books/api/books/1/' });
      assert.equal(response.statusCode, 200);
      assert.equal(JSON.parse(response.body).name, 'Recording Instance');
    });

    it('honours an override of getViewName()', async () => {
      const list = await request(app, { method: 'OPTIONS', url: '/books/api/shelf/' });
      const detail = await request(app, { method: 'OPTIONS', url: '/books/api/shelf/1/' });
      assert.equal(JSON.parse(list.body).name, 'Shelf (List)');
      assert.equal(JSON.parse(detail.body).name, 'Shelf (Instance)');
    });

    it('honours an override of allowedMethods in Allow and OPTIONS', async () => {
      const detail = await request(app, { method: 'GET', url: '/books/api/no-delete/1/' });
      assert.equal(detail.statusCode, 200);
      assert.equal(detail.headers.allow, 'GET, PUT, PATCH, HEAD, OPTIONS');
    });

    it('leaves out a method whose handler the view set removed', async () => {
      const detail = await request(app, { method: 'GET', url: '/books/api/forever/1/' });
      assert.equal(detail.headers.allow, 'GET, PUT, PATCH, HEAD, OPTIONS');
      const deleted = await request(app, { method: 'DELETE', url: '/books/api/forever/1/' });
      assert.equal(deleted.statusCode, 405);
      assert.equal(deleted.headers.allow, 'GET, PUT, PATCH, HEAD, OPTIONS');
    });
  });
}
