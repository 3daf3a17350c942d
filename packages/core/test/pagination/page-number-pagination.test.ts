/**
 * Page-number pagination through HTTP, with the reference service's links (exchanges 02-07,
 * 16, 97-110): absolute, other query parameters kept and re-encoded as Python's `urlencode`
 * does (sorted keys, `+` for spaces, `%2C` for commas), no `page` in the previous link of page
 * 2, `page=last`, and 404 `{"detail":"Invalid page."}` for pages out of range or not numbers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Database, OrderingFilter, PageNumberPagination } from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp, request } from '../fixtures/http-app.ts';
import { Book, STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet, seedBooks } from '../fixtures/store-views.ts';

const BASE = 'http://127.0.0.1:8001/books/api';

class OrderedBookViewSet extends BookViewSet {
  override filterBackends = [OrderingFilter];
  orderingFields = ['id', 'title', 'isbn'];
}

class SizedPages extends PageNumberPagination {
  override pageSizeQueryParam = 'page_size';
  override maxPageSize = 4;
}

class SizedBookViewSet extends BookViewSet {
  override paginationClass = SizedPages;
}

class EmptyBookViewSet extends BookViewSet {
  override queryset = Book.objects.filter({ isbn: 'none' });
}

class UnpaginatedBookViewSet extends BookViewSet {
  override paginationClass = null;
}

type Page = {
  count: number;
  next: string | null;
  previous: string | null;
  results: { id: number }[];
};

for (const dialect of testDialects()) {
  describe(`page-number pagination on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;

    async function page(url: string): Promise<Page> {
      const response = await request(app, { method: 'GET', url });
      assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
      return response.json();
    }

    async function invalid(url: string): Promise<void> {
      const response = await request(app, { method: 'GET', url });
      assert.equal(response.statusCode, 404, url);
      assert.equal(response.body, '{"detail":"Invalid page."}');
      assert.equal(response.headers.allow, 'GET, POST, HEAD, OPTIONS');
      assert.equal(response.headers.vary, 'Accept');
      assert.equal(response.headers['content-type'], 'application/json');
    }

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      await seedBooks(db, 23);
      app = await buildApp({
        database: db,
        prefix: '/books/api',
        viewsets: [
          ['books', BookViewSet],
          ['ordered', OrderedBookViewSet, { basename: 'ordered' }],
          ['sized', SizedBookViewSet, { basename: 'sized' }],
          ['plain', UnpaginatedBookViewSet, { basename: 'plain' }],
          ['empty', EmptyBookViewSet, { basename: 'empty' }],
        ],
        settings: { DEFAULT_PAGINATION_CLASS: PageNumberPagination, PAGE_SIZE: 5 },
      });
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
    });

    it('wraps pages in {count, next, previous, results}, in that key order', async () => {
      const response = await request(app, { method: 'GET', url: '/books/api/books/' });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-type'], 'application/json');
      assert.equal(response.headers.allow, 'GET, POST, HEAD, OPTIONS');
      assert.equal(response.headers.vary, 'Accept');
      const body = response.json();
      assert.deepEqual(Object.keys(body), ['count', 'next', 'previous', 'results']);
      assert.equal(body.count, 23);
      assert.equal(body.next, `${BASE}/books/?page=2`);
      assert.equal(body.previous, null);
      // The model's default ordering (isbn), as the reference's page 1 (02).
      assert.deepEqual(
        body.results.map((b: { id: number }) => b.id),
        [1, 2, 3, 4, 5],
      );
    });

    it('links page 2 back to the list without a page parameter', async () => {
      const body = await page('/books/api/books/?page=2');
      assert.equal(body.next, `${BASE}/books/?page=3`);
      assert.equal(body.previous, `${BASE}/books/`);
      assert.deepEqual(
        body.results.map((b) => b.id),
        [6, 7, 8, 9, 10],
      );
    });

    it('serves the last page for page=last, with no next link', async () => {
      const last = await page('/books/api/books/?page=last');
      const five = await page('/books/api/books/?page=5');
      assert.deepEqual(last, five);
      assert.equal(last.next, null);
      assert.equal(last.previous, `${BASE}/books/?page=4`);
      assert.deepEqual(
        last.results.map((b) => b.id),
        [21, 22, 23],
      );
    });

    it('answers 404 {"detail":"Invalid page."} out of range or not a number', async () => {
      for (const value of ['6', '0', '-1', 'abc', '1.5', '', 'first', '99999999999999999999'])
        await invalid(`/books/api/books/?page=${value}`);
    });

    it('walks every row once from the first page to the last', async () => {
      const seen: number[] = [];
      let url: string | null = '/books/api/books/';
      while (url) {
        const body: Page = await page(url);
        seen.push(...body.results.map((b) => b.id));
        url = body.next && new URL(body.next).pathname + new URL(body.next).search;
      }
      assert.deepEqual(
        seen,
        Array.from({ length: 23 }, (_, i) => i + 1),
      );
    });

    it('keeps the other query parameters, re-encoded and sorted as DRF does', async () => {
      const cases: [string, string | null, string | null][] = [
        // 107: spaces and commas re-encoded, `page` appended last.
        [
          '/books/api/ordered/?ordering=%20-title%20,%20isbn%20',
          `${BASE}/ordered/?ordering=+-title+%2C+isbn+&page=2`,
          null,
        ],
        // 119 and 108.
        [
          '/books/api/ordered/?ordering=isbn,-id',
          `${BASE}/ordered/?ordering=isbn%2C-id&page=2`,
          null,
        ],
        [
          '/books/api/ordered/?ordering=bogus,-id',
          `${BASE}/ordered/?ordering=bogus%2C-id&page=2`,
          null,
        ],
        // 106: a blank value is kept.
        ['/books/api/ordered/?ordering=', `${BASE}/ordered/?ordering=&page=2`, null],
        // 16: the previous link keeps the other parameters.
        ['/books/api/books/?ordering=-id&page=5', null, `${BASE}/books/?ordering=-id&page=4`],
        // 110: page 2's previous link drops only `page`.
        [
          '/books/api/ordered/?ordering=title&page=2',
          `${BASE}/ordered/?ordering=title&page=3`,
          `${BASE}/ordered/?ordering=title`,
        ],
        // Keys come sorted, as Python's replace_query_param sorts them.
        ['/books/api/books/?z=1&a=2', `${BASE}/books/?a=2&page=2&z=1`, null],
        [
          '/books/api/books/?page=3&tag=a&tag=b',
          `${BASE}/books/?page=4&tag=a&tag=b`,
          `${BASE}/books/?page=2&tag=a&tag=b`,
        ],
      ];
      for (const [url, next, previous] of cases) {
        const body = await page(url);
        assert.equal(body.next, next, url);
        assert.equal(body.previous, previous, url);
      }
    });

    it('orders by the ordering filter, and ignores ?ordering= without one (16)', async () => {
      const ordered = await page('/books/api/ordered/?ordering=-id');
      assert.deepEqual(
        ordered.results.map((b) => b.id),
        [23, 22, 21, 20, 19],
      );
      const ignored = await page('/books/api/books/?ordering=-id');
      assert.deepEqual(
        ignored.results.map((b) => b.id),
        [1, 2, 3, 4, 5],
      );
    });

    it('lets clients choose the page size when the pagination allows it, up to its maximum', async () => {
      const two = await page('/books/api/sized/?page_size=2');
      assert.equal(two.results.length, 2);
      assert.equal(two.next, `${BASE}/sized/?page=2&page_size=2`);
      const capped = await page('/books/api/sized/?page_size=100');
      assert.equal(capped.results.length, 4);
      const ignored = await page('/books/api/sized/?page_size=abc');
      assert.equal(ignored.results.length, 5);
    });

    it('answers an empty list with count 0, no links, and page 1 only (133)', async () => {
      const response = await request(app, { method: 'GET', url: '/books/api/empty/' });
      assert.equal(response.body, '{"count":0,"next":null,"previous":null,"results":[]}');
      assert.equal(
        (await request(app, { method: 'GET', url: '/books/api/empty/?page=last' })).statusCode,
        200,
      );
      await invalid('/books/api/empty/?page=2');
    });

    it('returns a plain array for a view set with paginationClass = null', async () => {
      const response = await request(app, { method: 'GET', url: '/books/api/plain/' });
      const body = response.json();
      assert.ok(Array.isArray(body));
      assert.equal(body.length, 23);
    });
  });
}
