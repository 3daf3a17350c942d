/**
 * DRF's nine concrete generic views, mounted with `router.path()`: each answers exactly its
 * methods (the rest 405 with `Allow`), and each method runs its mixin's action.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CreateAPIView,
  type Database,
  DestroyAPIView,
  type GenericAPIView,
  ListAPIView,
  ListCreateAPIView,
  RetrieveAPIView,
  RetrieveDestroyAPIView,
  RetrieveUpdateAPIView,
  RetrieveUpdateDestroyAPIView,
  restFramework,
  SimpleRouter,
  UpdateAPIView,
  type ViewSetClass,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { json, request } from '../fixtures/http-app.ts';
import { Book, BookSerializer, STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet, goldenBook, seedBooks } from '../fixtures/store-views.ts';

type Base = abstract new () => GenericAPIView;

/** A concrete view of `Base` on the books. */
function bookView(Base: Base): ViewSetClass {
  return class extends Base {
    override queryset = Book.objects.all();
    override serializerClass = BookSerializer;
  };
}

/** Each view: whether it is mounted on a detail path, and the `Allow` it answers. */
const VIEWS: [string, Base, boolean, string][] = [
  ['CreateAPIView', CreateAPIView, false, 'POST, OPTIONS'],
  ['ListAPIView', ListAPIView, false, 'GET, HEAD, OPTIONS'],
  ['ListCreateAPIView', ListCreateAPIView, false, 'GET, POST, HEAD, OPTIONS'],
  ['RetrieveAPIView', RetrieveAPIView, true, 'GET, HEAD, OPTIONS'],
  ['DestroyAPIView', DestroyAPIView, true, 'DELETE, OPTIONS'],
  ['UpdateAPIView', UpdateAPIView, true, 'PUT, PATCH, OPTIONS'],
  ['RetrieveUpdateAPIView', RetrieveUpdateAPIView, true, 'GET, PUT, PATCH, HEAD, OPTIONS'],
  ['RetrieveDestroyAPIView', RetrieveDestroyAPIView, true, 'GET, DELETE, HEAD, OPTIONS'],
  [
    'RetrieveUpdateDestroyAPIView',
    RetrieveUpdateDestroyAPIView,
    true,
    'GET, PUT, PATCH, DELETE, HEAD, OPTIONS',
  ],
];

for (const dialect of testDialects()) {
  describe(`concrete generic views on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      await seedBooks(db, 12);
      app = Fastify({ logger: false });
      await app.register(restFramework, { database: db });
      // The books' hyperlinks need book-detail: a view set provides it.
      const router = new SimpleRouter().register('books', BookViewSet);
      for (const [name, Base, detail] of VIEWS)
        router.path(detail ? `${name}/<int:pk>/` : `${name}/`, bookView(Base));
      await app.register(router.plugin, { prefix: '/api' });
      await app.ready();
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
    });

    it('answers exactly its methods, others 405 with Allow', async () => {
      for (const [name, , detail, allow] of VIEWS) {
        const url = detail ? `/api/${name}/1/` : `/api/${name}/`;
        const options = await request(app, { method: 'OPTIONS', url });
        assert.equal(options.headers.allow, allow, name);
        for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
          if (allow.split(', ').includes(method)) continue;
          const refused = await request(app, { method, url, ...json({}) });
          assert.equal(refused.statusCode, 405, `${name} ${method}`);
        }
      }
    });

    it("runs each method's action", async () => {
      const created = await request(app, {
        method: 'POST',
        url: '/api/CreateAPIView/',
        ...json(goldenBook('generic-1')),
      });
      assert.equal(created.statusCode, 201);
      const listed = await request(app, { method: 'GET', url: '/api/ListAPIView/' });
      assert.equal(listed.json().length, 13);
      const listCreated = await request(app, {
        method: 'POST',
        url: '/api/ListCreateAPIView/',
        ...json(goldenBook('generic-2')),
      });
      assert.equal(listCreated.statusCode, 201);
      assert.equal(
        (await request(app, { method: 'GET', url: '/api/RetrieveAPIView/2/' })).json().id,
        2,
      );
      const put = await request(app, {
        method: 'PUT',
        url: '/api/UpdateAPIView/3/',
        ...json({ ...goldenBook('generic-3'), title: 'Put' }),
      });
      assert.equal(put.json().title, 'Put');
      const patch = await request(app, {
        method: 'PATCH',
        url: '/api/RetrieveUpdateAPIView/3/',
        ...json({ title: 'Patched' }),
      });
      assert.equal(patch.json().title, 'Patched');
      for (const [name, pk] of [
        ['DestroyAPIView', 4],
        ['RetrieveDestroyAPIView', 5],
        ['RetrieveUpdateDestroyAPIView', 6],
      ] as const) {
        const deleted = await request(app, { method: 'DELETE', url: `/api/${name}/${pk}/` });
        assert.equal(deleted.statusCode, 204, name);
        const gone = await request(app, { method: 'GET', url: `/api/RetrieveAPIView/${pk}/` });
        assert.equal(gone.statusCode, 404, name);
      }
    });
  });
}
