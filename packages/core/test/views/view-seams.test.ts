/**
 * The seams the request path calls on every request (`getFilterBackends`, `getRenderers`,
 * `getPermissions`, `checkObjectPermissions`, the negotiation class, `getSerializerContext`)
 * are honoured when a view set overrides them, per request: an override that changes the
 * answer changes it, and one that only calls `super` answers the same bytes as no override.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  BaseFilterBackend,
  BasePermission,
  BaseRenderer,
  type Database,
  DefaultContentNegotiation,
  type FilterBackend,
  type Permission,
  type QuerySet,
  type Renderer,
  type Request,
  type SerializerContext,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp, request } from '../fixtures/http-app.ts';
import { STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet, seedBooks } from '../fixtures/store-views.ts';

/** Keeps the book whose id the request names in `?only=`, if any. */
class OnlyFilter extends BaseFilterBackend {
  override filterQueryset(request: Request, queryset: QuerySet<any>) {
    const only = request.queryParam('only');
    return only ? queryset.filter({ id: Number(only) }) : queryset;
  }
}

class PlainRenderer extends BaseRenderer {
  readonly mediaType = 'text/plain';
  readonly format = 'txt';
  render(data: unknown): string {
    return `plain:${JSON.stringify(data)}`;
  }
}

/** Refuses the book with id 2. */
class NotTwo extends BasePermission {
  message = 'Not book 2.';
  override hasObjectPermission(_request: Request, _view: unknown, obj: unknown): boolean {
    return (obj as { id: number }).id !== 2;
  }
}

/** Every negotiation answers with the view's last renderer. */
class LastRendererNegotiation extends DefaultContentNegotiation {
  override selectRenderer(_request: Request, renderers: readonly Renderer[]): [Renderer, string] {
    const last = renderers[renderers.length - 1] as Renderer;
    return [last, last.mediaType];
  }
}

/** Calls of each seam, to check they ran on every request. */
const calls: string[] = [];

class FilteredViewSet extends BookViewSet {
  override paginationClass = null;
  override getFilterBackends(): FilterBackend[] {
    calls.push('getFilterBackends');
    return [...super.getFilterBackends(), new OnlyFilter()];
  }
}

class PlainViewSet extends BookViewSet {
  override getRenderers(): Renderer[] {
    calls.push('getRenderers');
    return [new PlainRenderer()];
  }
}

class GuardedViewSet extends BookViewSet {
  override getPermissions(): Permission[] {
    calls.push('getPermissions');
    return [...super.getPermissions(), new NotTwo()];
  }
}

class ObjectCheckViewSet extends BookViewSet {
  override checkObjectPermissions(request: Request, obj: unknown) {
    calls.push('checkObjectPermissions');
    if ((obj as { id: number }).id === 1) this.permissionDenied(request, 'Not book 1.');
    return super.checkObjectPermissions(request, obj);
  }
}

class NegotiatedViewSet extends PlainViewSet {
  override contentNegotiationClass = LastRendererNegotiation;
  override getRenderers(): Renderer[] {
    return [...super.getRenderers(), ...BookViewSet.prototype.getRenderers.call(this)];
  }
}

class ContextViewSet extends BookViewSet {
  override getSerializerContext(): SerializerContext {
    calls.push('getSerializerContext');
    return { ...super.getSerializerContext(), seen: true };
  }
}

/** Overrides that only call `super`: the same answers as no override at all. */
class SuperOnlyViewSet extends BookViewSet {
  override getFilterBackends() {
    return super.getFilterBackends();
  }
  override getRenderers() {
    return super.getRenderers();
  }
  override getPermissions() {
    return super.getPermissions();
  }
  override checkObjectPermissions(request: Request, obj: unknown) {
    return super.checkObjectPermissions(request, obj);
  }
  override getSerializerContext() {
    return super.getSerializerContext();
  }
}

for (const dialect of testDialects()) {
  describe(`view seams on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      await seedBooks(db, 3);
      app = await buildApp({
        database: db,
        viewsets: [
          // Every book's `url` names the route book-detail.
          ['plain-books', BookViewSet, { basename: 'book' }],
          ['filtered', FilteredViewSet, { basename: 'filtered' }],
          ['plain', PlainViewSet, { basename: 'plain' }],
          ['guarded', GuardedViewSet, { basename: 'guarded' }],
          ['object-check', ObjectCheckViewSet, { basename: 'object-check' }],
          ['negotiated', NegotiatedViewSet, { basename: 'negotiated' }],
          ['context', ContextViewSet, { basename: 'context' }],
          ['super-only', SuperOnlyViewSet, { basename: 'super-only' }],
        ],
      });
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
    });

    const get = (url: string) => request(app, { method: 'GET', url });

    it('honours getFilterBackends on lists and detail lookups, per request', async () => {
      calls.length = 0;
      const all = await get('/api/filtered/');
      const one = await get('/api/filtered/?only=2');
      assert.deepEqual(
        (JSON.parse(all.body) as { id: number }[]).map((b) => b.id),
        [1, 2, 3],
      );
      assert.deepEqual(
        (JSON.parse(one.body) as { id: number }[]).map((b) => b.id),
        [2],
      );
      assert.equal((await get('/api/filtered/1/?only=2')).statusCode, 404);
      assert.equal((await get('/api/filtered/2/?only=2')).statusCode, 200);
      assert.equal(calls.filter((c) => c === 'getFilterBackends').length, 4);
    });

    it('honours getRenderers and the negotiation class', async () => {
      calls.length = 0;
      const plain = await request(app, {
        method: 'GET',
        url: '/api/plain/1/',
        headers: { accept: '*/*' },
      });
      assert.equal(plain.statusCode, 200);
      assert.match(plain.headers['content-type'] as string, /^text\/plain/);
      assert.match(
        plain.body,
        /^plain:\{"url":"http:\/\/127.0.0.1:8001\/api\/plain-books\/1\/","id":1,/,
      );
      assert.ok(calls.includes('getRenderers'));
      // Accept: text/plain, which the plain renderer takes; the negotiation picks the last
      // renderer (JSON, the app's default) anyway.
      const negotiated = await request(app, {
        method: 'GET',
        url: '/api/negotiated/1/',
        headers: { accept: 'text/plain' },
      });
      assert.equal(negotiated.statusCode, 200);
      assert.equal(negotiated.headers['content-type'], 'application/json');
      assert.match(negotiated.body, /^\{"url":/);
    });

    it('honours getPermissions and checkObjectPermissions on detail lookups', async () => {
      calls.length = 0;
      assert.equal((await get('/api/guarded/1/')).statusCode, 200);
      const refused = await get('/api/guarded/2/');
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.body, '{"detail":"Not book 2."}');
      assert.ok(calls.filter((c) => c === 'getPermissions').length >= 2);
      const denied = await get('/api/object-check/1/');
      assert.equal(denied.statusCode, 403);
      assert.equal(denied.body, '{"detail":"Not book 1."}');
      assert.equal((await get('/api/object-check/2/')).statusCode, 200);
      assert.equal(calls.filter((c) => c === 'checkObjectPermissions').length, 2);
    });

    it('asks getSerializerContext for every serializer it makes', async () => {
      calls.length = 0;
      assert.equal((await get('/api/context/1/')).statusCode, 200);
      assert.equal((await get('/api/context/')).statusCode, 200);
      assert.equal(calls.filter((c) => c === 'getSerializerContext').length, 2);
    });

    it('answers the same bytes with overrides that only call super', async () => {
      for (const path of ['1/', '', '99/', 'x/', '?search=a']) {
        const base = await get(`/api/plain-books/${path}`);
        const same = await get(`/api/super-only/${path}`);
        assert.equal(same.statusCode, base.statusCode, path);
        assert.equal(same.body, base.body, path);
        assert.equal(same.headers['content-type'], base.headers['content-type']);
        assert.equal(same.headers.allow, base.headers.allow);
      }
    });
  });
}
