/**
 * Every status a model view set answers with, its exact body and its headers, as the
 * reference service (DRF 3.14) answers: 200, 201 with Location, 400 field errors nested like
 * the data, 400 parse errors, 400 required errors for an empty body, 406, 413, 415 and 400
 * for a disallowed Host. `Allow`, `Vary: Accept` and `Content-Type: application/json` (no
 * charset) are on every view response, errors included.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Database, ModelViewSet, type Row } from '@restframework/core';
import { multipartBody, testDialects } from '@restframework/core/testing';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, json, request } from '../fixtures/http-app.ts';
import { Book, Entry, EntrySerializer, STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet, GOLDEN_BOOK, goldenBook } from '../fixtures/store-views.ts';

const LIST_ALLOW = 'GET, POST, HEAD, OPTIONS';
const DETAIL_ALLOW = 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';

class EntryViewSet extends ModelViewSet {
  override queryset = Entry.objects.all();
  override serializerClass = EntrySerializer;
}

function assertJson(
  response: LightMyRequestResponse,
  status: number,
  body: string,
  allow = LIST_ALLOW,
): void {
  assert.equal(response.statusCode, status, response.body);
  assert.equal(response.body, body);
  assert.equal(response.headers['content-type'], 'application/json');
  assert.equal(response.headers.vary, 'Accept');
  assert.equal(response.headers.allow, allow);
}

/** The golden book with the nested objects replaced (or removed with `undefined`). */
function golden(changes: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...goldenBook(`isbn-${Math.random().toString(36).slice(2, 10)}`), ...changes };
}

for (const dialect of testDialects()) {
  describe(`responses on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;
    const post = (body: unknown) =>
      request(app, { method: 'POST', url: '/books/api/books/', ...json(body) });

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      app = await buildApp({
        database: db,
        prefix: '/books/api',
        viewsets: [
          ['books', BookViewSet],
          ['entries', EntryViewSet],
        ],
        settings: { MAX_BODY_SIZE: 4096 },
      });
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
    });

    it('creates with 201, the record as stored and Location: its url', async () => {
      const response = await post(GOLDEN_BOOK);
      const row = (await Book.objects.using(db).get({ isbn: 'GOLD-0001' })) as Row<typeof Book>;
      const url = `http://127.0.0.1:8001/books/api/books/${row.id}/`;
      assertJson(
        response,
        201,
        `{"url":"${url}","id":${row.id},"title":"Golden Book","description":"A golden transcript book.",` +
          '"summary":"Short summary.","publishing_information":{"publication_date":"2021-03-04",' +
          '"isbn":"GOLD-0001","pages":321},"stock_information":{"stock_count":12,"price":"19.99",' +
          '"state":"not_published"}}',
      );
      assert.equal(response.headers.location, url);
    });

    it('sends no Location for a record without a url field', async () => {
      const response = await request(app, {
        method: 'POST',
        url: '/books/api/entries/',
        ...json({ rank: 1 }),
      });
      assert.equal(response.statusCode, 201);
      assert.equal(response.headers.location, undefined);
      assert.equal(response.json().rank, 1);
    });

    it('reads nested fields from dotted keys of url-encoded and multipart bodies', async () => {
      const fields = {
        title: 'Form Book',
        'publishing_information.publication_date': '2021-01-01',
        'publishing_information.isbn': 'FORM-1',
        'stock_information.price': '9.99',
      };
      const form = await request(app, {
        method: 'POST',
        url: '/books/api/books/',
        payload: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(form.statusCode, 201, form.body);
      assert.deepEqual(form.json().stock_information, {
        stock_count: 0,
        price: '9.99',
        state: 'published',
      });
      const parts = await request(app, {
        method: 'POST',
        url: '/books/api/books/',
        ...multipartBody({ ...fields, 'publishing_information.isbn': 'FORM-2' }),
      });
      assert.equal(parts.statusCode, 201, parts.body);
      assert.equal(parts.json().publishing_information.isbn, 'FORM-2');
    });

    it('updates with PUT and PATCH (200)', async () => {
      const created = (await post(golden())).json();
      const path = `/books/api/books/${created.id}/`;
      const put = await request(app, { method: 'PUT', url: path, ...json({ title: 'Put' }) });
      assert.equal(put.statusCode, 200);
      assert.equal(put.headers.allow, DETAIL_ALLOW);
      assert.equal(put.json().title, 'Put');
      const patch = await request(app, {
        method: 'PATCH',
        url: path,
        ...json({ stock_information: { state: 'in_progress' } }),
      });
      assert.equal(patch.statusCode, 200);
      assert.deepEqual(patch.json().stock_information, {
        ...GOLDEN_BOOK.stock_information,
        state: 'in_progress',
      });
    });

    it('answers 400 with field errors nested like the data', async () => {
      const cases: [unknown, string][] = [
        [{ ...golden(), title: undefined }, '{"title":["This field is required."]}'],
        [{ ...golden(), title: '   ' }, '{"title":["This field may not be blank."]}'],
        [
          { ...golden(), title: 'x'.repeat(101) },
          '{"title":["Ensure this field has no more than 100 characters."]}',
        ],
        [
          golden({ stock_information: { price: 'abc' } }),
          '{"stock_information":{"price":["A valid number is required."]}}',
        ],
        [
          golden({ stock_information: {} }),
          '{"stock_information":{"price":["This field is required."]}}',
        ],
        [
          golden({ stock_information: { price: '1', state: 'bogus' } }),
          '{"stock_information":{"state":["\\"bogus\\" is not a valid choice."]}}',
        ],
        [
          golden({ stock_information: null }),
          '{"stock_information":["This field may not be null."]}',
        ],
        [
          golden({ publishing_information: 'x' }),
          '{"publishing_information":{"non_field_errors":["Invalid data. Expected a dictionary, but got str."]}}',
        ],
        [[1, 2], '{"non_field_errors":["Invalid data. Expected a dictionary, but got list."]}'],
      ];
      for (const [body, expected] of cases) assertJson(await post(body), 400, expected);
      const patch = await request(app, {
        method: 'PATCH',
        url: `/books/api/books/${(await post(golden())).json().id}/`,
        ...json({ stock_information: { price: 'NaN' } }),
      });
      assertJson(
        patch,
        400,
        '{"stock_information":{"price":["A valid number is required."]}}',
        DETAIL_ALLOW,
      );
    });

    it('answers 400 {"detail":"JSON parse error - ..."} for a body that is not JSON', async () => {
      const response = await request(app, {
        method: 'POST',
        url: '/books/api/books/',
        payload: '{"title": "broken", ',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(response.statusCode, 400);
      assert.equal(response.headers['content-type'], 'application/json');
      assert.equal(response.headers.allow, LIST_ALLOW);
      assert.equal(response.headers.vary, 'Accept');
      const { detail, ...rest } = response.json();
      assert.deepEqual(rest, {});
      assert.match(detail, /^JSON parse error - \S/);
    });

    it('validates an empty JSON body, and a body without Content-Type, as {}', async () => {
      const empty = await request(app, {
        method: 'POST',
        url: '/books/api/books/',
        payload: '',
        headers: { 'content-type': 'application/json' },
      });
      assertJson(empty, 400, '{"title":["This field is required."]}');
      const none = await request(app, { method: 'POST', url: '/books/api/books/' });
      assertJson(none, 400, '{"title":["This field is required."]}');
    });

    it('answers 406 for an Accept header no renderer satisfies, and 200 for */*', async () => {
      const response = await request(app, {
        method: 'GET',
        url: '/books/api/books/',
        headers: { accept: 'application/xml' },
      });
      assertJson(response, 406, '{"detail":"Could not satisfy the request Accept header."}');
      const any = await request(app, {
        method: 'GET',
        url: '/books/api/books/',
        headers: { accept: '*/*' },
      });
      assert.equal(any.statusCode, 200);
      assert.equal(any.headers['content-type'], 'application/json');
      const format = await request(app, { method: 'GET', url: '/books/api/books/?format=xml' });
      assertJson(format, 404, '{"detail":"Not found."}');
    });

    it('answers 413 for a body over MAX_BODY_SIZE, and stores nothing', async () => {
      const before = await Book.objects.using(db).count();
      const response = await post(golden({ description: 'x'.repeat(5000) }));
      assertJson(response, 413, '{"detail":"Request body is too large."}');
      assert.equal(await Book.objects.using(db).count(), before);
    });

    it('answers 415 for a Content-Type no parser takes', async () => {
      const response = await request(app, {
        method: 'POST',
        url: '/books/api/books/',
        payload: 'title=x',
        headers: { 'content-type': 'text/plain' },
      });
      assertJson(response, 415, '{"detail":"Unsupported media type \\"text/plain\\" in request."}');
    });

    it('answers 400 for a Host outside ALLOWED_HOSTS, before any view runs', async () => {
      const before = await Book.objects.using(db).count();
      for (const host of ['example.com', 'evil.test:8001', '127.0.0.1.evil.test', 'a b']) {
        const response = await request(app, {
          method: 'POST',
          url: '/books/api/books/',
          ...json(golden()),
          headers: { host, 'content-type': 'application/json' },
        });
        assert.equal(response.statusCode, 400, host);
        assert.equal(response.body, '{"detail":"Invalid Host header."}');
        assert.equal(response.headers['content-type'], 'application/json');
      }
      assert.equal(await Book.objects.using(db).count(), before);
    });

    it('renders raw UTF-8, compact', async () => {
      const response = await post(golden({ title: 'Ünïcødé – 書' }));
      assert.equal(response.statusCode, 201);
      assert.match(response.body, /"title":"Ünïcødé – 書","description"/);
    });
  });
}
