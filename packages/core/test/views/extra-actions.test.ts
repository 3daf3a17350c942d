/**
 * Extra actions (DRF's `@action`, declared as `static extraActions`): routed per view set at
 * list and detail URLs, with their methods and `.mapping`-style extra methods, per-action
 * options (permissions, serializer), `this.action` in the seams, `reverse()` names, the
 * browsable API's "Extra Actions" menu, OpenAPI, and the start-up errors of bad declarations.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  BasePermission,
  BrowsableAPIRenderer,
  browsableApi,
  type Database,
  DefaultRouter,
  type ExtraActions,
  JSONRenderer,
  ModelSerializer,
  ModelViewSet,
  type Request,
  Response,
  restFramework,
  SchemaGenerator,
  type SerializerClass,
  ViewSet,
} from '@restframework/core';
import { assertImproperlyConfigured, testDialects } from '@restframework/core/testing';
import fc from 'fast-check';
import Fastify, { type FastifyInstance } from 'fastify';
import { request } from '../fixtures/http-app.ts';
import { Book, BookSerializer, STORE_MODELS } from '../fixtures/store-models.ts';
import { seedBooks } from '../fixtures/store-views.ts';

class TitleSerializer extends ModelSerializer.with({ model: Book, fields: ['id', 'title'] }) {}

class DenyAll extends BasePermission {
  override hasPermission(): boolean {
    return false;
  }
}

/** What the seams saw: `this.action` in getSerializerClass and getPermissions. */
const seen: (string | undefined)[] = [];

class BookViewSet extends ModelViewSet {
  override queryset = Book.objects.all();
  override serializerClass = BookSerializer;
  override rendererClasses = [JSONRenderer, BrowsableAPIRenderer];
  static override extraActions: ExtraActions<BookViewSet> = {
    publish: { detail: true, methods: ['post'], mapping: { delete: 'unpublish' } },
    recent: { detail: false, serializerClass: TitleSerializer },
    secret: { detail: true, permissionClasses: [DenyAll] },
    setPassword: { detail: false, methods: ['post'], name: 'Set the password' },
  };

  override getSerializerClass(): SerializerClass {
    seen.push(this.action);
    return super.getSerializerClass();
  }

  async publish(_request: Request) {
    const book = await this.getObject();
    await Book.objects.filter({ id: book.id as number }).update({ state: 'published' });
    return new Response({ action: this.action, id: book.id });
  }

  async unpublish(_request: Request) {
    const book = await this.getObject();
    await Book.objects.filter({ id: book.id as number }).update({ state: 'not_published' });
    return new Response({ action: this.action }, 200);
  }

  async recent(_request: Request) {
    const rows = await this.getQueryset().orderBy('-id').slice(0, 2).execute();
    return new Response(this.getSerializer({ instance: rows, many: true }).data);
  }

  async secret(_request: Request) {
    return new Response({ secret: true });
  }

  async setPassword(request: Request) {
    return new Response({ received: request.data });
  }
}

/** Another view set with an action of the same name: routes are per view set. */
class StatusViewSet extends ViewSet {
  static override extraActions: ExtraActions<StatusViewSet> = {
    recent: { detail: false },
  };
  async list() {
    return new Response({ ok: true });
  }
  async recent() {
    return new Response({ status: 'recent' });
  }
}

async function build(db: Database): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(restFramework, { database: db });
  await app.register(browsableApi);
  const router = new DefaultRouter()
    .register('books', BookViewSet)
    .register('status', StatusViewSet, { basename: 'status' });
  await app.register(router.plugin, { prefix: '/api' });
  await app.ready();
  return app;
}

for (const dialect of testDialects()) {
  describe(`extra actions on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      await seedBooks(db, 3);
      app = await build(db);
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
    });

    it('routes a detail action and its mapped method, each naming its action', async () => {
      const post = await request(app, { method: 'POST', url: '/api/books/2/publish/' });
      assert.equal(post.statusCode, 200);
      assert.deepEqual(post.json(), { action: 'publish', id: 2 });
      assert.equal(post.headers.allow, 'POST, DELETE, OPTIONS');
      const book = await Book.objects.using(db).filter({ id: 2 }).first();
      assert.equal(book?.state, 'published');
      const del = await request(app, { method: 'DELETE', url: '/api/books/2/publish/' });
      assert.deepEqual(del.json(), { action: 'unpublish' });
      const get = await request(app, { method: 'GET', url: '/api/books/2/publish/' });
      assert.equal(get.statusCode, 405);
      const missing = await request(app, { method: 'POST', url: '/api/books/99/publish/' });
      assert.equal(missing.statusCode, 404);
    });

    it('routes a list action with its own serializer class', async () => {
      seen.length = 0;
      const response = await request(app, { method: 'GET', url: '/api/books/recent/' });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), [
        { id: 3, title: 'Book 3' },
        { id: 2, title: 'Book 2' },
      ]);
      assert.deepEqual(seen, ['recent', 'recent']);
      // The detail route still takes any other segment as a lookup.
      assert.equal((await request(app, { method: 'GET', url: '/api/books/1/' })).statusCode, 200);
    });

    it('never answers 5xx on an action route, whatever the method, id or body', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
          fc.oneof(fc.constant('1'), fc.string({ minLength: 1, maxLength: 12 })),
          fc.constantFrom('publish', 'secret', 'recent', 'set-password'),
          fc.option(fc.json(), { nil: undefined }),
          async (method, id, action, body) => {
            const url =
              action === 'recent' || action === 'set-password'
                ? `/api/books/${action}/`
                : `/api/books/${encodeURIComponent(id)}/${action}/`;
            const response = await request(app, {
              method,
              url,
              ...(body === undefined || method === 'GET' || method === 'HEAD'
                ? {}
                : { payload: body, headers: { 'content-type': 'application/json' } }),
            });
            assert.ok(response.statusCode < 500, `${method} ${url}: ${response.statusCode}`);
          },
        ),
        { numRuns: 80 },
      );
    });

    it('applies per-action permissions to that action only', async () => {
      const refused = await request(app, { method: 'GET', url: '/api/books/1/secret/' });
      assert.equal(refused.statusCode, 403);
      assert.equal((await request(app, { method: 'GET', url: '/api/books/1/' })).statusCode, 200);
    });

    it('names routes basename-urlName, per view set, for reverse()', async () => {
      const urls = app.restFramework.urls;
      assert.equal(urls.reverse('book-publish', { pk: 7 }), '/api/books/7/publish/');
      assert.equal(urls.reverse('book-recent'), '/api/books/recent/');
      assert.equal(urls.reverse('book-set-password'), '/api/books/set-password/');
      assert.equal(urls.reverse('status-recent'), '/api/status/recent/');
      const status = await request(app, { method: 'GET', url: '/api/status/recent/' });
      assert.deepEqual(status.json(), { status: 'recent' });
      const posted = await request(app, {
        method: 'POST',
        url: '/api/books/set-password/',
        payload: { password: 'x' },
      });
      assert.deepEqual(posted.json(), { received: { password: 'x' } });
    });

    it('keeps the API root to the lists', async () => {
      const root = await request(app, { method: 'GET', url: '/api/' });
      assert.deepEqual(Object.keys(root.json()), ['books', 'status']);
    });

    it('lists the actions of the page kind in the browsable API menu', async () => {
      const detail = await request(app, {
        method: 'GET',
        url: '/api/books/1/',
        headers: { accept: 'text/html' },
      });
      assert.equal(detail.statusCode, 200);
      const menu = /<details class="extra-actions">(.*?)<\/details>/s.exec(detail.body)?.[1] ?? '';
      assert.match(menu, /href="http:\/\/127\.0\.0\.1:8001\/api\/books\/1\/publish\/">Publish</);
      assert.match(menu, /\/api\/books\/1\/secret\/">Secret</);
      assert.doesNotMatch(menu, /recent/);
      const list = await request(app, {
        method: 'GET',
        url: '/api/books/',
        headers: { accept: 'text/html' },
      });
      assert.match(list.body, /\/api\/books\/set-password\/">Set the password</);
      const action = await request(app, {
        method: 'GET',
        url: '/api/books/recent/',
        headers: { accept: 'text/html' },
      });
      assert.match(action.body, /<h1>Recent<\/h1>/);
      // The breadcrumbs name the action's page by its name too.
      const crumbs = /<nav class="breadcrumbs"[^>]*>(.*?)<\/nav>/s.exec(action.body)?.[1] ?? '';
      assert.match(crumbs, /aria-current="page">Recent</);
    });

    it('describes the actions in OpenAPI', () => {
      const document = new SchemaGenerator().getSchema(app.restFramework);
      const publish = document.paths['/api/books/{pk}/publish/'] as Record<string, any>;
      assert.deepEqual(Object.keys(publish).sort(), ['delete', 'parameters', 'post']);
      assert.equal(publish.post.operationId, 'publishBook');
      assert.equal(publish.delete.operationId, 'unpublishBook');
      const recent = document.paths['/api/books/recent/'] as Record<string, any>;
      assert.equal(recent.get.operationId, 'recentBook');
      // Not a list: DRF describes only `list` as one. The action's own serializer.
      assert.deepEqual(recent.get.responses['200'].content['application/json'].schema, {
        $ref: '#/components/schemas/Title',
      });
      assert.ok(document.paths['/api/status/recent/']);
    });
  });
}

describe('extra action declarations', () => {
  const declare = (extraActions: unknown) => {
    class Broken extends ViewSet {
      static override extraActions = extraActions as never;
      async list() {
        return new Response([]);
      }
      async go() {
        return new Response({});
      }
      async other() {
        return new Response({});
      }
    }
    return Broken;
  };
  const start = async (viewset: ReturnType<typeof declare>) => {
    const app = Fastify({ logger: false });
    const db = await testDialects()[0]!.create();
    try {
      await app.register(restFramework, { database: db });
      await app.register(new DefaultRouter().register('x', viewset, { basename: 'x' }).plugin);
      await app.ready();
    } finally {
      await app.close();
      await testDialects()[0]!.drop(db);
    }
  };
  const refused = async (extraActions: unknown, ...patterns: RegExp[]) => {
    const error = await start(declare(extraActions)).then(
      () => undefined,
      (e: unknown) => e,
    );
    assertImproperlyConfigured(
      () => {
        throw error;
      },
      'REST_ERR_EXTRA_ACTION',
      ...patterns,
    );
  };

  it('refuses an action that names no method', () =>
    refused({ missing: { detail: true } }, /Broken\.extraActions\.missing/, /async missing/));
  it('refuses an unknown method', () =>
    refused({ go: { detail: true, methods: ['fetch'] } }, /"fetch"/, /lower-case/));
  it('refuses an upper-case method', () =>
    refused({ go: { detail: true, methods: ['GET'] } }, /"GET"/));
  it('refuses an action without detail', () => refused({ go: {} }, /detail: true/));
  it('refuses two actions on one URL path', () =>
    refused(
      { go: { detail: false, urlPath: 'same' }, other: { detail: false, urlPath: 'same' } },
      /"same"/,
    ));
  it('refuses a mapping to no method', () =>
    refused({ go: { detail: true, mapping: { delete: 'nothing' } } }, /mapping\.delete/));
  it('accepts the same path for a list and a detail action', async () => {
    await start(
      declare({ go: { detail: false, urlPath: 'same' }, other: { detail: true, urlPath: 'same' } }),
    );
  });
});
