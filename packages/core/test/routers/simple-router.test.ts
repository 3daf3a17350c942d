/**
 * The router's shapes beyond the default: `SimpleRouter` (no API root), `trailingSlash`
 * (`false` and DRF's optional `'/?'`), lookup patterns (a value that does not match is a 404,
 * never a 500), nested registrations (drf-nested-routers) with the parent's lookup in
 * `this.kwargs`, and `path()` mounting DRF's concrete generic views with names for `reverse()`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Database,
  DefaultRouter,
  ListCreateAPIView,
  ModelSerializer,
  ModelViewSet,
  NestedSimpleRouter,
  ReadOnlyModelViewSet,
  RetrieveUpdateDestroyAPIView,
  restFramework,
  SchemaGenerator,
  SimpleRouter,
  type SimpleRouter as SimpleRouterType,
} from '@restframework/core';
import { assertImproperlyConfigured, testDialects } from '@restframework/core/testing';
import fc from 'fast-check';
import Fastify, { type FastifyInstance } from 'fastify';
import { json, request } from '../fixtures/http-app.ts';
import {
  Book,
  BookSerializer,
  Category,
  Entry,
  EntrySerializer,
  STORE_MODELS,
} from '../fixtures/store-models.ts';
import { BookViewSet, goldenBook, seedBooks } from '../fixtures/store-views.ts';

class CategorySerializer extends ModelSerializer.with({
  model: Category,
  fields: ['id', 'name'],
}) {}

class CategoryViewSet extends ReadOnlyModelViewSet {
  override queryset = Category.objects.all();
  override serializerClass = CategorySerializer;
  override lookupValueConverter = 'int' as const;
}

/** Entries of the category in the URL only (drf-nested-routers' usual `get_queryset`). */
class CategoryEntryViewSet extends ModelViewSet {
  override serializerClass = EntrySerializer;
  override lookupValueRegex = '[0-9]+';
  // The parent's `int` converter makes its lookup a number.
  declare kwargs: { readonly category_pk: number; readonly pk?: string };
  override getQueryset() {
    return Entry.objects.filter({ category_id: this.kwargs.category_pk });
  }
}

class IntBookViewSet extends BookViewSet {
  override lookupValueConverter = 'int' as const;
}

class BookList extends ListCreateAPIView {
  override queryset = Book.objects.all();
  override serializerClass = BookSerializer;
}

class BookDetail extends RetrieveUpdateDestroyAPIView {
  override queryset = Book.objects.all();
  override serializerClass = BookSerializer;
}

async function build(
  db: Database,
  mount: (app: FastifyInstance) => Promise<void>,
): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(restFramework, { database: db });
  await mount(app);
  await app.ready();
  return app;
}

for (const dialect of testDialects()) {
  describe(`router shapes on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    const apps: FastifyInstance[] = [];
    const app = async (mount: (app: FastifyInstance) => Promise<void>) => {
      const built = await build(db, mount);
      apps.push(built);
      return built;
    };
    const plugin =
      (router: SimpleRouterType, prefix = '/api') =>
      async (a: FastifyInstance) => {
        await a.register(router.plugin, { prefix });
      };

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      await seedBooks(db, 3);
      // One after the other: 'one' has the lower id, which the nested routes' test relies on
      // (two creates at once may take their ids in either order on PostgreSQL).
      const one = await Category.objects.using(db).create({ name: 'one' });
      const two = await Category.objects.using(db).create({ name: 'two' });
      for (const [rank, category] of [
        [1, one],
        [2, one],
        [3, two],
      ] as const)
        await Entry.objects.using(db).create({ rank, category_id: category?.id });
    });
    after(async () => {
      for (const a of apps) await a.close();
      await dialect.drop(db);
    });

    it('SimpleRouter serves no API root', async () => {
      const a = await app(plugin(new SimpleRouter().register('books', BookViewSet)));
      assert.equal((await request(a, { method: 'GET', url: '/api/books/' })).statusCode, 200);
      assert.equal((await request(a, { method: 'GET', url: '/api/' })).statusCode, 404);
    });

    it('trailingSlash: false routes without the slash, and reverse() has none', async () => {
      const router = new DefaultRouter({ trailingSlash: false }).register('books', BookViewSet);
      const a = await app(plugin(router));
      assert.equal((await request(a, { method: 'GET', url: '/api/books' })).statusCode, 200);
      const detail = await request(a, { method: 'GET', url: '/api/books/1' });
      assert.equal(detail.json().url, 'http://127.0.0.1:8001/api/books/1');
      assert.equal((await request(a, { method: 'GET', url: '/api/books/1/' })).statusCode, 404);
      assert.equal((await request(a, { method: 'GET', url: '/api' })).statusCode, 200);
      const created = await request(a, {
        method: 'POST',
        url: '/api/books',
        ...json(goldenBook('no-slash')),
      });
      assert.equal(created.statusCode, 201);
      await Book.objects.using(db).filter({ isbn: 'no-slash' }).delete();
    });

    it("trailingSlash: '/?' answers both paths, without a redirect", async () => {
      const router = new SimpleRouter({ trailingSlash: '/?' }).register('books', BookViewSet);
      const a = await app(plugin(router));
      for (const url of ['/api/books', '/api/books/', '/api/books/2', '/api/books/2/'])
        assert.equal((await request(a, { method: 'GET', url })).statusCode, 200, url);
      assert.equal(a.restFramework.urls.reverse('book-detail', { pk: 2 }), '/api/books/2');
    });

    it('a lookup value that does not match its pattern is a 404, never a 500', async () => {
      const a = await app(plugin(new SimpleRouter().register('books', IntBookViewSet)));
      assert.equal((await request(a, { method: 'GET', url: '/api/books/2/' })).statusCode, 200);
      const refused = await request(a, { method: 'GET', url: '/api/books/2x/' });
      assert.equal(refused.statusCode, 404);
      assert.deepEqual(refused.json(), { detail: 'Not found.' });
      await fc.assert(
        fc.asyncProperty(
          // Not `.` or `..`: as URL path segments they are resolved away before routing
          // (`/api/books/./` is the list), as in any HTTP server.
          fc.string({ minLength: 1 }).filter((s) => !/^[0-9]+$/.test(s) && s !== '.' && s !== '..'),
          fc.constantFrom('GET', 'PUT', 'PATCH', 'DELETE'),
          async (value, method) => {
            const response = await request(a, {
              method,
              url: `/api/books/${encodeURIComponent(value)}/`,
            });
            assert.ok([404, 400].includes(response.statusCode), `${value}: ${response.statusCode}`);
          },
        ),
        { numRuns: 60 },
      );
    });

    it('nests a view set under its parent, the parent lookup in this.kwargs', async () => {
      const router = new DefaultRouter().register('categories', CategoryViewSet);
      const nested = new NestedSimpleRouter(router, 'categories', { lookup: 'category' });
      nested.register('entries', CategoryEntryViewSet, { basename: 'category-entry' });
      const a = await app(async (x) => {
        await x.register(router.plugin, { prefix: '/api' });
        await x.register(nested.plugin, { prefix: '/api' });
      });
      const [one] = await Category.objects.using(db).orderBy('id').execute();
      const id = one?.id as number;
      const list = await request(a, { method: 'GET', url: `/api/categories/${id}/entries/` });
      assert.equal(list.statusCode, 200);
      assert.deepEqual(
        list.json().map((e: { rank: number }) => e.rank),
        [1, 2],
      );
      const other = await Entry.objects.using(db).filter({ rank: 3 }).first();
      const foreign = await request(a, {
        method: 'GET',
        url: `/api/categories/${id}/entries/${other?.id}/`,
      });
      assert.equal(foreign.statusCode, 404);
      assert.equal(
        (await request(a, { method: 'GET', url: '/api/categories/x/entries/' })).statusCode,
        404,
      );
      assert.equal(
        a.restFramework.urls.reverse('category-entry-detail', { category_pk: 5, pk: 7 }),
        '/api/categories/5/entries/7/',
      );
      // The API root lists the top-level lists only.
      const root = await request(a, { method: 'GET', url: '/api/' });
      assert.deepEqual(Object.keys(root.json()), ['categories']);
      const document = new SchemaGenerator().getSchema(a.restFramework);
      const item = document.paths['/api/categories/{category_pk}/entries/{pk}/'] as Record<
        string,
        any
      >;
      assert.deepEqual(
        item.parameters.map((p: { name: string }) => p.name),
        ['category_pk', 'pk'],
      );
    });

    it('path() mounts the concrete generic views with names for reverse()', async () => {
      const router = new SimpleRouter()
        .path('library/', BookList, { name: 'book-list' })
        .path('library/<int:pk>/', BookDetail, { name: 'book-detail' });
      const a = await app(plugin(router));
      const list = await request(a, { method: 'GET', url: '/api/library/' });
      assert.equal(list.statusCode, 200);
      assert.equal(list.headers.allow, 'GET, POST, HEAD, OPTIONS');
      const created = await request(a, {
        method: 'POST',
        url: '/api/library/',
        ...json(goldenBook('path-1')),
      });
      assert.equal(created.statusCode, 201);
      const pk = created.json().id as number;
      const detail = await request(a, { method: 'GET', url: `/api/library/${pk}/` });
      assert.equal(detail.headers.allow, 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
      const patched = await request(a, {
        method: 'PATCH',
        url: `/api/library/${pk}/`,
        ...json({ title: 'Renamed' }),
      });
      assert.equal(patched.json().title, 'Renamed');
      assert.equal((await request(a, { method: 'GET', url: '/api/library/x/' })).statusCode, 404);
      assert.equal(
        (await request(a, { method: 'DELETE', url: `/api/library/${pk}/` })).statusCode,
        204,
      );
      assert.equal(a.restFramework.urls.reverse('book-detail', { pk: 4 }), '/api/library/4/');
      const document = new SchemaGenerator().getSchema(a.restFramework);
      const operations = document.paths['/api/library/{pk}/'] as Record<string, any>;
      assert.deepEqual(Object.keys(operations).sort(), [
        'delete',
        'get',
        'parameters',
        'patch',
        'put',
      ]);
      assert.equal(operations.get.operationId, 'retrieveBook');
    });
  });
}

describe('router declaration mistakes', () => {
  it('refuses a trailingSlash it does not know', () => {
    assertImproperlyConfigured(
      () => new SimpleRouter({ trailingSlash: '/' as never }),
      'REST_ERR_ROUTER',
      /trailingSlash/,
    );
  });
  it('refuses a path() route that is no route, or an unknown converter', () => {
    assertImproperlyConfigured(
      () => new SimpleRouter().path('books/<float:pk>/', BookList),
      'REST_ERR_ROUTER',
      /"float"/,
      /int, slug, uuid, str/,
    );
    assertImproperlyConfigured(
      () => new SimpleRouter().path('books/(?P<pk>\\d+)/', BookList),
      'REST_ERR_ROUTER',
      /is not a route/,
    );
  });
  it('refuses a nested router whose parent has no such registration', () => {
    assertImproperlyConfigured(
      () => new NestedSimpleRouter(new SimpleRouter(), 'articles', { lookup: 'article' }),
      'REST_ERR_ROUTER',
      /no registration at "articles"/,
    );
  });
  it('refuses a lookupValueRegex that is no regular expression', () => {
    class Broken extends BookViewSet {
      override lookupValueRegex = '[0-9';
    }
    assertImproperlyConfigured(
      () =>
        new NestedSimpleRouter(new SimpleRouter().register('books', Broken), 'books', {
          lookup: 'book',
        }),
      'REST_ERR_ROUTER',
      /lookupValueRegex "\[0-9"/,
    );
  });
});
