/**
 * The values of `this.kwargs` behind path converters, as Django's: `int` is a number, `uuid`,
 * `slug` and `str` the text they matched (checked), for `router.path()` routes, a view set's
 * `lookupValueConverter` and a nested router's parent lookup; an `int` past
 * `Number.MAX_SAFE_INTEGER` names nothing (404, never a 500 or a rounded number). The OpenAPI
 * parameters say the same.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  APIView,
  type Database,
  DefaultRouter,
  NestedSimpleRouter,
  type PathKwargs,
  ReadOnlyModelViewSet,
  type Request,
  Response,
  restFramework,
  SchemaGenerator,
} from '@restframework/core';
import { parseRoute, routeKwargs } from '@restframework/core/internal';
import { testDialects } from '@restframework/core/testing';
import fc from 'fast-check';
import Fastify, { type FastifyInstance } from 'fastify';
import { request } from '../fixtures/http-app.ts';
import { Book, BookSerializer, STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet, seedBooks } from '../fixtures/store-views.ts';

const ROUTE = 'things/<int:pk>/<uuid:key>/<slug:slug>/<str:text>/<plain>/:bare/';

/** Answers its kwargs with the type of each, as the view got them. */
class EchoView extends APIView {
  declare kwargs: PathKwargs<typeof ROUTE>;
  get(_request: Request) {
    const types = Object.fromEntries(Object.entries(this.kwargs).map(([k, v]) => [k, typeof v]));
    return new Response({ kwargs: this.kwargs, types });
  }
}

class IntBookViewSet extends BookViewSet {
  override lookupValueConverter = 'int' as const;
  declare kwargs: { readonly pk?: number };
}

/** Books of the "author" in the URL: the parent's `int` lookup reaches this view as a number. */
class AuthorBookViewSet extends ReadOnlyModelViewSet {
  override serializerClass = BookSerializer;
  override lookupValueRegex = '[0-9]+';
  declare kwargs: { readonly author_pk: number; readonly pk?: string };
  override getQueryset() {
    const { author_pk: author, pk } = this.kwargs;
    if (typeof author !== 'number' || (pk !== undefined && typeof pk !== 'string'))
      throw new Error(`kwargs of the wrong types: ${JSON.stringify(this.kwargs)}`);
    return Book.objects.filter({ id__gte: author });
  }
}

const UUID = '0b5f4c3e-8d1a-4f6b-9c2e-7a3d5e1f9b0c';

/** Digit texts whose number is past `Number.MAX_SAFE_INTEGER`, leading zeros and all. */
const unsafeDigits = fc
  .tuple(
    fc.bigInt({ min: BigInt(Number.MAX_SAFE_INTEGER) + 1n, max: 10n ** 40n }),
    fc.nat({ max: 3 }),
  )
  .map(([n, zeros]) => `${'0'.repeat(zeros)}${n}`);

describe('routeKwargs', () => {
  const { patterns } = parseRoute('x/<int:pk>/<slug:slug>/', 'route-kwargs.test');

  it('gives every safe integer of an int as that number, leading zeros and all', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.nat({ max: 5 }), (n, zeros) => {
        const kwargs = routeKwargs(patterns, { pk: `${'0'.repeat(zeros)}${n}`, slug: 'a' });
        assert.deepEqual(kwargs, { pk: n, slug: 'a' });
      }),
    );
  });

  it('refuses an int past Number.MAX_SAFE_INTEGER instead of rounding it', () => {
    fc.assert(
      fc.property(unsafeDigits, (text) => {
        assert.equal(routeKwargs(patterns, { pk: text, slug: 'a' }), undefined);
      }),
    );
  });

  it('refuses any text that is no int or no slug', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (text) => {
        const asInt = routeKwargs(patterns, { pk: text, slug: 'a' });
        assert.equal(asInt !== undefined, /^[0-9]+$/.test(text) && Number(text) <= 2 ** 53 - 1);
        const asSlug = routeKwargs(patterns, { pk: '1', slug: text });
        assert.equal(asSlug !== undefined, /^[-a-zA-Z0-9_]+$/.test(text));
        if (asSlug !== undefined) assert.equal(asSlug.slug, text);
      }),
    );
  });
});

for (const dialect of testDialects()) {
  describe(`route kwargs on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;
    let first: number;

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      await seedBooks(db, 3);
      first = ((await Book.objects.using(db).orderBy('id').first())?.id ?? 0) as number;
      const router = new DefaultRouter()
        .register('books', IntBookViewSet, { basename: 'book' })
        .register('authors', IntBookViewSet, { basename: 'author' })
        .path(ROUTE, EchoView, { name: 'things' });
      const nested = new NestedSimpleRouter(router, 'authors', { lookup: 'author' });
      nested.register('books', AuthorBookViewSet, { basename: 'author-book' });
      app = Fastify({ logger: false });
      await app.register(restFramework, { database: db });
      await app.register(router.plugin, { prefix: '/api' });
      await app.register(nested.plugin, { prefix: '/api' });
      await app.ready();
    });
    after(async () => {
      await app.close();
      await dialect.drop(db);
    });

    it('gives path() views an int as a number and the other converters as text', async () => {
      const response = await request(app, {
        method: 'GET',
        url: `/api/things/0042/${UUID}/a-slug_1/any%20text/p/b/`,
      });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), {
        kwargs: { pk: 42, key: UUID, slug: 'a-slug_1', text: 'any text', plain: 'p', bare: 'b' },
        types: {
          pk: 'number',
          key: 'string',
          slug: 'string',
          text: 'string',
          plain: 'string',
          bare: 'string',
        },
      });
      // The uuid converter checks the text: an upper-case UUID is no match, as Django's.
      const upper = await request(app, {
        method: 'GET',
        url: `/api/things/1/${UUID.toUpperCase()}/s/t/p/b/`,
      });
      assert.equal(upper.statusCode, 404);
    });

    it('answers 404 for an int past Number.MAX_SAFE_INTEGER, on path() and view set routes', async () => {
      await fc.assert(
        fc.asyncProperty(unsafeDigits, async (text) => {
          for (const url of [
            `/api/things/${text}/${UUID}/s/t/p/b/`,
            `/api/books/${text}/`,
            `/api/authors/${text}/books/`,
          ]) {
            const response = await request(app, { method: 'GET', url });
            assert.equal(response.statusCode, 404, `${url}: ${response.body}`);
            assert.deepEqual(response.json(), { detail: 'Not found.' });
          }
        }),
        { numRuns: 40 },
      );
    });

    it('looks a view set row up by the number its int converter gives', async () => {
      const found = await request(app, { method: 'GET', url: `/api/books/${first}/` });
      assert.equal(found.statusCode, 200);
      assert.equal(found.json().id, first);
      // The largest safe integer is a number the database is asked about: no row, no 500.
      for (const pk of [Number.MAX_SAFE_INTEGER, 2 ** 31, 2 ** 32 + 1]) {
        const missing = await request(app, { method: 'GET', url: `/api/books/${pk}/` });
        assert.equal(missing.statusCode, 404, `${pk}: ${missing.body}`);
      }
    });

    it("gives a nested view the parent's int lookup as a number, its own regex lookup as text", async () => {
      const list = await request(app, { method: 'GET', url: `/api/authors/${first + 1}/books/` });
      assert.equal(list.statusCode, 200, list.body);
      assert.equal(list.json().length, 2);
      const detail = await request(app, {
        method: 'GET',
        url: `/api/authors/${first}/books/${first + 2}/`,
      });
      assert.equal(detail.statusCode, 200, detail.body);
      assert.equal(detail.json().id, first + 2);
    });

    it('describes an int as an integer, a uuid with its format and a slug with its pattern', () => {
      const document = new SchemaGenerator().getSchema(app.restFramework);
      const things = document.paths[
        '/api/things/{pk}/{key}/{slug}/{text}/{plain}/{bare}/'
      ] as Record<string, any>;
      const schemas = Object.fromEntries(
        things.parameters.map((p: { name: string; schema: unknown }) => [p.name, p.schema]),
      );
      assert.deepEqual(schemas, {
        pk: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
        key: { type: 'string', format: 'uuid' },
        slug: { type: 'string', pattern: '^(?:[-a-zA-Z0-9_]+)$' },
        text: { type: 'string' },
        plain: { type: 'string' },
        bare: { type: 'string' },
      });
      const nested = document.paths['/api/authors/{author_pk}/books/{pk}/'] as Record<string, any>;
      const [author, pk] = nested.parameters as { schema: unknown }[];
      assert.deepEqual(author?.schema, {
        type: 'integer',
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
      });
      assert.deepEqual(pk?.schema, { type: 'string', pattern: '^(?:[0-9]+)$' });
    });
  });
}
