/**
 * The routes a router serves and their headers, through `inject()`: list, detail, API root,
 * the redirect to the trailing slash, HEAD, unknown ids and methods. Facts come from the
 * reference service (DRF 3.14), exchanges 08-19 and 89-95.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, json, request } from '../fixtures/http-app.ts';
import { STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet, GOLDEN_BOOK, goldenBook, seedBooks } from '../fixtures/store-views.ts';

const LIST_ALLOW = 'GET, POST, HEAD, OPTIONS';
const DETAIL_ALLOW = 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';

/** The headers DRF's JSON responses carry on every view route, 4xx included. */
function assertViewHeaders(response: LightMyRequestResponse, allow: string): void {
  assert.equal(response.headers['content-type'], 'application/json');
  assert.equal(response.headers.vary, 'Accept');
  assert.equal(response.headers.allow, allow);
}

for (const dialect of testDialects()) {
  describe(`routes on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      await seedBooks(db, 3);
      app = await buildApp({
        database: db,
        prefix: '/books/api',
        viewsets: [['books', BookViewSet]],
      });
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
    });

    it('lists at /<prefix>/<name>/, as a plain array without pagination', async () => {
      const response = await request(app, { method: 'GET', url: '/books/api/books/' });
      assert.equal(response.statusCode, 200);
      assertViewHeaders(response, LIST_ALLOW);
      const body = response.json();
      assert.deepEqual(
        body.map((b: { url: string }) => b.url),
        [1, 2, 3].map((id) => `http://127.0.0.1:8001/books/api/books/${id}/`),
      );
    });

    it('answers the detail route with the record, its url built from the Host header', async () => {
      const response = await request(app, { method: 'GET', url: '/books/api/books/2/' });
      assert.equal(response.statusCode, 200);
      assertViewHeaders(response, DETAIL_ALLOW);
      assert.equal(
        response.body,
        '{"url":"http://127.0.0.1:8001/books/api/books/2/","id":2,"title":"Book 2","description":null,' +
          '"summary":null,"publishing_information":{"publication_date":"2020-01-01","isbn":"isbn-002",' +
          '"pages":102},"stock_information":{"stock_count":0,"price":"2.50","state":"published"}}',
      );
      const local = await request(app, {
        method: 'GET',
        url: '/books/api/books/2/',
        headers: { host: 'localhost:8001' },
      });
      assert.equal(local.json().url, 'http://localhost:8001/books/api/books/2/');
    });

    it('serves an API root linking every list', async () => {
      const response = await request(app, { method: 'GET', url: '/books/api/' });
      assert.equal(response.statusCode, 200);
      assertViewHeaders(response, 'GET, HEAD, OPTIONS');
      assert.equal(response.body, '{"books":"http://127.0.0.1:8001/books/api/books/"}');
    });

    it('redirects GET without the trailing slash with a 301 and a relative Location', async () => {
      const response = await request(app, { method: 'GET', url: '/books/api/books' });
      assert.equal(response.statusCode, 301);
      assert.equal(response.headers.location, '/books/api/books/');
      assert.equal(response.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(response.body, '');
      const detail = await request(app, { method: 'GET', url: '/books/api/books/1' });
      assert.equal(detail.statusCode, 301);
      assert.equal(detail.headers.location, '/books/api/books/1/');
      const root = await request(app, { method: 'GET', url: '/books/api' });
      assert.equal(root.statusCode, 301);
      assert.equal(root.headers.location, '/books/api/');
    });

    it('keeps the query string in the redirect', async () => {
      const response = await request(app, {
        method: 'GET',
        url: '/books/api/books?page=2&ordering=%20-id',
      });
      assert.equal(response.statusCode, 301);
      assert.equal(response.headers.location, '/books/api/books/?page=2&ordering=%20-id');
    });

    it('redirects a POST without the trailing slash with a 308, which keeps method and body', async () => {
      const response = await request(app, {
        method: 'POST',
        url: '/books/api/books',
        ...json(GOLDEN_BOOK),
      });
      assert.equal(response.statusCode, 308);
      assert.equal(response.headers.location, '/books/api/books/');
      assert.equal(response.body, '');
      const head = await request(app, { method: 'HEAD', url: '/books/api/books' });
      assert.equal(head.statusCode, 301);
    });

    it('answers HEAD like GET without a body, with the same headers', async () => {
      for (const url of ['/books/api/books/1/', '/books/api/books/']) {
        const get = await request(app, { method: 'GET', url });
        const head = await request(app, { method: 'HEAD', url });
        assert.equal(head.statusCode, 200);
        assert.equal(head.body, '');
        // Each request has its own id (X-Request-Id) and date; every other header is the same.
        const { date: _getDate, 'x-request-id': getId, ...getHeaders } = get.headers;
        const { date: _headDate, 'x-request-id': headId, ...headHeaders } = head.headers;
        assert.ok(getId && headId && getId !== headId);
        assert.deepEqual(headHeaders, getHeaders);
      }
    });

    it('answers 404 {"detail":"Not found."} for a missing or non-numeric id, with Allow', async () => {
      for (const id of ['999999', 'abc', '1.5', '-1', '99999999999999999999', '%27%20OR%201=1']) {
        const response = await request(app, { method: 'GET', url: `/books/api/books/${id}/` });
        assert.equal(response.statusCode, 404, id);
        assertViewHeaders(response, DETAIL_ALLOW);
        assert.equal(response.body, '{"detail":"Not found."}');
      }
    });

    it('answers 404 JSON for a path no router serves', async () => {
      const response = await request(app, { method: 'GET', url: '/books/api/nothing/' });
      assert.equal(response.statusCode, 404);
      assert.equal(response.headers['content-type'], 'application/json');
      assert.equal(response.body, '{"detail":"Not found."}');
    });

    it("answers 405 with DRF's message and the route's methods in Allow", async () => {
      const cases = [
        ['DELETE', '/books/api/books/', LIST_ALLOW],
        ['PUT', '/books/api/books/', LIST_ALLOW],
        ['PATCH', '/books/api/books/', LIST_ALLOW],
        ['TRACE', '/books/api/books/', LIST_ALLOW],
        ['POST', '/books/api/books/1/', DETAIL_ALLOW],
        ['POST', '/books/api/', 'GET, HEAD, OPTIONS'],
      ] as const;
      for (const [method, url, allow] of cases) {
        const response = await request(app, { method, url });
        assert.equal(response.statusCode, 405, `${method} ${url}`);
        assertViewHeaders(response, allow);
        assert.equal(response.body, `{"detail":"Method \\"${method}\\" not allowed."}`);
      }
    });

    it('deletes with 204, no Content-Type and no body; the record is then gone', async () => {
      const created = await request(app, {
        method: 'POST',
        url: '/books/api/books/',
        ...json(goldenBook('to-delete')),
      });
      assert.equal(created.statusCode, 201);
      const url = new URL(created.json().url).pathname;
      const response = await request(app, { method: 'DELETE', url });
      assert.equal(response.statusCode, 204);
      assert.equal(response.headers['content-type'], undefined);
      assert.equal(response.headers.allow, DETAIL_ALLOW);
      assert.equal(response.headers.vary, 'Accept');
      assert.equal(response.body, '');
      const again = await request(app, { method: 'DELETE', url });
      assert.equal(again.statusCode, 404);
      assert.equal(again.body, '{"detail":"Not found."}');
      assert.equal((await request(app, { method: 'GET', url })).statusCode, 404);
    });
  });
}
