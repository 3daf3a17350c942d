/**
 * Limit-offset pagination through HTTP, as DRF's `LimitOffsetPagination`: `limit` defaults to
 * PAGE_SIZE and is capped by `maxLimit`; invalid values fall back silently; links carry both
 * parameters (re-encoded as DRF's `replace_query_param` does) and the previous link of the
 * first page has no `offset`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Database,
  LimitOffsetPagination,
  OrderingFilter,
  PageNumberPagination,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp, request } from '../fixtures/http-app.ts';
import { STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet, seedBooks } from '../fixtures/store-views.ts';

const BASE = 'http://127.0.0.1:8001/books/api/books/';

class CappedLimits extends LimitOffsetPagination {
  override maxLimit = 6;
}

class LimitOffsetBookViewSet extends BookViewSet {
  override paginationClass = CappedLimits;
  override filterBackends = [OrderingFilter];
  orderingFields = ['id'];
}

class OwnDefaultViewSet extends BookViewSet {
  override paginationClass = class extends LimitOffsetPagination {
    override defaultLimit = 3;
  };
}

type Page = {
  count: number;
  next: string | null;
  previous: string | null;
  results: { id: number }[];
};
const ids = (page: Page) => page.results.map((b) => b.id);
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

for (const dialect of testDialects()) {
  describe(`limit-offset pagination on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;

    async function page(url: string): Promise<Page> {
      const response = await request(app, { method: 'GET', url });
      assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
      assert.equal(response.headers['content-type'], 'application/json');
      assert.equal(response.headers.allow, 'GET, POST, HEAD, OPTIONS');
      return response.json();
    }

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      await seedBooks(db, 12);
      app = await buildApp({
        database: db,
        prefix: '/books/api',
        viewsets: [
          ['books', LimitOffsetBookViewSet],
          ['own', OwnDefaultViewSet, { basename: 'own' }],
        ],
        // The setting names another class: the view set's own pagination wins.
        settings: { DEFAULT_PAGINATION_CLASS: PageNumberPagination, PAGE_SIZE: 5 },
      });
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
    });

    it('serves PAGE_SIZE rows from offset 0 by default, in {count, next, previous, results}', async () => {
      const response = await request(app, { method: 'GET', url: '/books/api/books/' });
      const body = response.json();
      assert.deepEqual(Object.keys(body), ['count', 'next', 'previous', 'results']);
      assert.equal(body.count, 12);
      assert.deepEqual(ids(body), range(1, 5));
      assert.equal(body.next, `${BASE}?limit=5&offset=5`);
      assert.equal(body.previous, null);
    });

    it('uses limit and offset, and links both ways', async () => {
      const body = await page('/books/api/books/?limit=4&offset=4');
      assert.deepEqual(ids(body), range(5, 8));
      assert.equal(body.next, `${BASE}?limit=4&offset=8`);
      assert.equal(body.previous, `${BASE}?limit=4`);
      const middle = await page('/books/api/books/?limit=3&offset=7');
      assert.equal(middle.previous, `${BASE}?limit=3&offset=4`);
      const last = await page('/books/api/books/?limit=4&offset=8');
      assert.deepEqual(ids(last), range(9, 12));
      assert.equal(last.next, null);
    });

    it('drops offset from the previous link when it would be 0 or less', async () => {
      const body = await page('/books/api/books/?offset=2&limit=5');
      assert.deepEqual(ids(body), range(3, 7));
      assert.equal(body.previous, `${BASE}?limit=5`);
    });

    it('caps the limit at maxLimit', async () => {
      const body = await page('/books/api/books/?limit=100');
      assert.deepEqual(ids(body), range(1, 6));
      assert.equal(body.next, `${BASE}?limit=6&offset=6`);
    });

    it('ignores a limit or offset that is not a valid number, as DRF does', async () => {
      for (const query of [
        'limit=abc',
        'limit=0',
        'limit=-3',
        'limit=1.5',
        'offset=abc',
        'offset=-1',
      ]) {
        const body = await page(`/books/api/books/?${query}`);
        assert.deepEqual(ids(body), range(1, 5), query);
      }
      // Python's int() takes surrounding spaces and a sign.
      const spaced = await page('/books/api/books/?limit=%202%20&offset=%2B1');
      assert.deepEqual(ids(spaced), [2, 3]);
    });

    it('answers an offset past the end with no rows, and a previous link', async () => {
      const body = await page('/books/api/books/?limit=5&offset=40');
      assert.equal(body.count, 12);
      assert.deepEqual(body.results, []);
      assert.equal(body.next, null);
      assert.equal(body.previous, `${BASE}?limit=5&offset=35`);
      const huge = await page('/books/api/books/?offset=99999999999999999999999');
      assert.deepEqual(huge.results, []);
    });

    it('keeps other query parameters, sorted and re-encoded', async () => {
      const body = await page('/books/api/books/?ordering=%20-id%20&limit=2&offset=2');
      assert.deepEqual(ids(body), [10, 9]);
      assert.equal(body.next, `${BASE}?limit=2&offset=4&ordering=+-id+`);
      assert.equal(body.previous, `${BASE}?limit=2&ordering=+-id+`);
    });

    it('walks every row exactly once following next links', async () => {
      const seen: number[] = [];
      let url: string | null = '/books/api/books/?limit=5';
      while (url) {
        const body: Page = await page(url);
        seen.push(...ids(body));
        url = body.next ? body.next.slice('http://127.0.0.1:8001'.length) : null;
      }
      assert.deepEqual(seen, range(1, 12));
    });

    it("uses the pagination's own defaultLimit before PAGE_SIZE", async () => {
      const body = await page('/books/api/own/');
      assert.deepEqual(ids(body), [1, 2, 3]);
      assert.equal(body.next, 'http://127.0.0.1:8001/books/api/own/?limit=3&offset=3');
    });
  });
}
