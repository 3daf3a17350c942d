/**
 * `APIView.parseBody`: the body parsed by the parser of its `Content-Type`, at once when the
 * parser answers at once (JSON, url-encoded: no promise, no microtask turn for the request), a
 * promise when it waits (multipart, a parser of one's own that is `async`). A mistake is
 * thrown at once. Overrides are honoured either way, `async` ones included.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  APIView,
  BaseParser,
  type Database,
  defaultSettings,
  JSONParser,
  ParseError,
  type Request,
  UnsupportedMediaType,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp, json, request } from '../fixtures/http-app.ts';
import { STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet, seedBooks } from '../fixtures/store-views.ts';

function requestWith(body: unknown, contentType?: string): Request {
  const headers = contentType === undefined ? {} : { 'content-type': contentType };
  return { raw: { body, headers }, settings: defaultSettings } as unknown as Request;
}

/** A view made as `dispatch` makes it, without the rest of dispatch. */
function viewFor(request: Request, View: typeof APIView = APIView): APIView {
  const view = new View();
  view.request = request;
  return view;
}

class WaitingParser extends BaseParser {
  readonly mediaType = 'application/json';
  async parse(): Promise<unknown> {
    return { waited: true };
  }
}

describe('APIView.parseBody', () => {
  it('answers at once for JSON, url-encoded and a request without Content-Type', () => {
    const cases: [Request, unknown][] = [
      [requestWith(Buffer.from('{"a": 1}'), 'application/json'), { a: 1 }],
      [requestWith(Buffer.from('a=1'), 'application/x-www-form-urlencoded'), { a: '1' }],
      [requestWith(Buffer.from('{"a": 1}')), {}],
    ];
    for (const [req, expected] of cases) {
      const data = viewFor(req).parseBody(req);
      assert.equal(data instanceof Promise, false);
      assert.deepEqual({ ...(data as object) }, expected);
    }
  });

  it('throws a mistake at once: 400 for bad JSON, 415 for a type no parser takes', () => {
    const bad = requestWith(Buffer.from('{'), 'application/json');
    assert.throws(() => viewFor(bad).parseBody(bad), ParseError);
    const plain = requestWith(Buffer.from('x'), 'text/plain');
    assert.throws(() => viewFor(plain).parseBody(plain), UnsupportedMediaType);
  });

  it('passes on the promise of a parser that waits', async () => {
    class WaitingView extends APIView {
      override parserClasses = [WaitingParser];
    }
    const req = requestWith(Buffer.from('{}'), 'application/json');
    const data = viewFor(req, WaitingView).parseBody(req);
    assert.equal(data instanceof Promise, true);
    assert.deepEqual(await data, { waited: true });
  });
});

/** Every value a view set's `parseBody` gave, as dispatch stored it in `request.data`. */
const stored: unknown[] = [];

class SuperOnlyViewSet extends BookViewSet {
  override parseBody(request: Request) {
    return super.parseBody(request);
  }
  override partialUpdate(request: Request) {
    stored.push(request.data);
    return super.partialUpdate(request);
  }
}

/** An `async` override that changes what was sent: its value is the data. */
class AsyncRenamingViewSet extends SuperOnlyViewSet {
  override async parseBody(request: Request) {
    const data = (await super.parseBody(request)) as Record<string, unknown>;
    return { ...data, title: `${String(data.title)} (renamed)` };
  }
}

class WaitingParserViewSet extends SuperOnlyViewSet {
  override parserClasses = [WaitingParser, JSONParser];
}

for (const dialect of testDialects()) {
  describe(`parseBody in dispatch on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;
    let id: number;

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      id = (await seedBooks(db, 1))[0]?.id as number;
      app = await buildApp({
        database: db,
        viewsets: [
          // The serializer's links name the books' routes.
          ['books', BookViewSet],
          ['super-only', SuperOnlyViewSet, { basename: 'super-only' }],
          ['renaming', AsyncRenamingViewSet, { basename: 'renaming' }],
          ['waiting', WaitingParserViewSet, { basename: 'waiting' }],
        ],
      });
    });
    after(async () => {
      await app.close();
      await dialect.drop(db);
    });

    it('stores what parseBody gave, at once or awaited, overrides included', async () => {
      stored.length = 0;
      const plain = await request(app, {
        method: 'PATCH',
        url: `/api/super-only/${id}/`,
        ...json({ title: 'Plain' }),
      });
      assert.equal(plain.statusCode, 200, plain.body);
      assert.equal(plain.json().title, 'Plain');
      const renamed = await request(app, {
        method: 'PATCH',
        url: `/api/renaming/${id}/`,
        ...json({ title: 'Async' }),
      });
      assert.equal(renamed.statusCode, 200, renamed.body);
      assert.equal(renamed.json().title, 'Async (renamed)');
      const waited = await request(app, {
        method: 'PATCH',
        url: `/api/waiting/${id}/`,
        ...json({ title: 'ignored' }),
      });
      assert.equal(waited.statusCode, 200, waited.body);
      assert.equal(waited.json().title, 'Async (renamed)');
      assert.deepEqual(stored, [
        { title: 'Plain' },
        { title: 'Async (renamed)' },
        { waited: true },
      ]);
    });

    it('answers a parse error thrown at once with the usual 400', async () => {
      const response = await request(app, {
        method: 'PATCH',
        url: `/api/super-only/${id}/`,
        payload: '{"title": ',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), {
        detail: 'JSON parse error - Unexpected end of JSON input',
      });
    });
  });
}
