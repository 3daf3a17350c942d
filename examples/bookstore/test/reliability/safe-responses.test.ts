/**
 * What the service sends back is safe: uploaded files are never served as something a browser
 * runs on the service's origin, no response carries a stack trace or SQL (also when the
 * database is closed, a table is gone or a view throws), and every response has the security
 * headers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '@restframework/core/testing';
import type { LightMyRequestResponse } from 'fastify';
import { BookViewSet } from '../../src/viewsets/book-viewsets.ts';
import { multipart } from './arbitraries.ts';
import { type Bookstore, jsonBody, listen, rawExchange, send, startBookstore } from './support.ts';

const sqlite = testDialects()[0];

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
};

/** Types a browser renders as a page or runs: never sent for an upload. */
const ACTIVE_TYPES = /html|svg|xml|javascript|ecmascript|css|x-shockwave|multipart|wasm/i;
/** What no body may contain. */
const LEAKS =
  /\n\s+at |\.ts:\d+|node_modules|sqlite|SQLITE_|select |insert into|update "|relation "|Error:|secret/i;

function assertSecurityHeaders(response: LightMyRequestResponse, where: string): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    assert.equal(response.headers[name], value, `${where}: ${name}`);
  }
}

async function upload(store: Bookstore, filename: string, content: string, contentType: string) {
  const response = await send(store.app, {
    method: 'POST',
    url: '/api/upload/',
    ...multipart([
      { name: 'username', value: 'mallory' },
      { name: 'resume', filename, content, contentType },
    ]),
  });
  assert.equal(response.statusCode, 201, response.body);
  return new URL((JSON.parse(response.body) as { resume: string }).resume).pathname;
}

describe('uploaded files are served safely', () => {
  let store: Bookstore;
  before(async () => {
    store = await startBookstore(sqlite);
  });
  after(() => store?.close());

  const ACTIVE = [
    ['page.html', '<html><script>alert(document.cookie)</script></html>', 'text/html'],
    ['page.htm', '<script>alert(1)</script>', 'text/html'],
    ['image.svg', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', 'image/svg+xml'],
    [
      'data.xml',
      '<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>',
      'text/xml',
    ],
    ['app.js', 'alert(1)', 'application/javascript'],
    ['style.css', 'body{}', 'text/css'],
    [
      'page.xhtml',
      '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>',
      'application/xhtml+xml',
    ],
    ['no-extension', '<html><script>alert(1)</script></html>', 'text/html'],
    ['fake.png', '<html><script>alert(1)</script></html>', 'image/png'],
    ['fake.txt', '<html><script>alert(1)</script></html>', 'text/html'],
    ['PAGE.HTML', '<script>alert(1)</script>', 'text/html'],
    ['page.html.', '<script>alert(1)</script>', 'text/html'],
    ['page.html%00.txt', '<script>alert(1)</script>', 'text/html'],
  ] as const;

  for (const [filename, content, contentType] of ACTIVE) {
    it(`serves an uploaded ${JSON.stringify(filename)} so that no browser runs it`, async () => {
      const path = await upload(store, filename, content, contentType);
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await send(store.app, {
          method,
          url: path,
          headers: { accept: 'text/html,*/*' },
        });
        const where = `${method} ${path}`;
        assert.equal(response.statusCode, 200, where);
        assert.equal(response.headers['x-content-type-options'], 'nosniff', where);
        const type = String(response.headers['content-type']);
        assert.doesNotMatch(type, ACTIVE_TYPES, `${where}: Content-Type ${type}`);
        const disposition = String(response.headers['content-disposition']);
        if (!/^(?:image\/(?:png|jpeg|gif|webp)|text\/plain)/.test(type)) {
          assert.match(disposition, /^attachment;/, `${where}: ${type} served ${disposition}`);
        }
        assert.match(String(response.headers['content-security-policy']), /sandbox/, where);
        if (method === 'GET') assert.equal(response.body, content);
      }
    });
  }

  it('serves nothing outside MEDIA_ROOT and nothing hidden', async () => {
    for (const path of [
      '/media/../package.json',
      '/media/%2e%2e/package.json',
      '/media/..%2fpackage.json',
      '/media/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/media/.hidden',
      '/media/',
      '/media/a%00.txt',
      '/media/%ZZ',
      '/books/api/%ZZ/',
      `/books/api/books/${'9'.repeat(200)}/`,
    ]) {
      const response = await send(store.app, { method: 'GET', url: path });
      assert.ok([400, 404].includes(response.statusCode), `${path} → ${response.statusCode}`);
      assertSecurityHeaders(response, path);
    }
  });
});

describe('no stack traces or SQL in any response', () => {
  let store: Bookstore;
  before(async () => {
    store = await startBookstore(sqlite);
  });
  after(() => store?.close());

  it('answers a view that throws with a bare 500', async (t) => {
    const original = BookViewSet.prototype.retrieve;
    t.after(() => {
      BookViewSet.prototype.retrieve = original;
    });
    BookViewSet.prototype.retrieve = async () => {
      const error = new Error('secret: SELECT password FROM auth_user at /srv/app.ts:12:3');
      (error as Error & { sql?: string }).sql = 'select * from "auth_user"';
      throw error;
    };
    for (const accept of ['application/json', 'text/html', '*/*']) {
      const response = await send(store.app, {
        method: 'GET',
        url: '/books/api/books/1/',
        headers: { accept },
      });
      assert.equal(response.statusCode, 500);
      // The browsable API shows the same body in its page.
      if (accept !== 'text/html')
        assert.equal(response.body, '{"detail":"A server error occurred."}');
      // HTML pages have <select> elements and the like: look for what the error carried.
      assert.doesNotMatch(
        response.body,
        accept === 'text/html' ? /secret|auth_user|app\.ts/ : LEAKS,
      );
      assertSecurityHeaders(response, `500 for ${accept}`);
    }
  });

  it('answers a table gone (the schema behind the models) with a bare 503', async () => {
    await store.db.kysely.schema.alterTable('books_upload').renameTo('books_upload_gone').execute();
    try {
      for (const request of [
        { method: 'GET', url: '/api/upload/' },
        {
          method: 'POST',
          url: '/api/upload/',
          ...multipart([
            { name: 'username', value: 'u' },
            { name: 'resume', filename: 'a.txt', content: 'a' },
          ]),
        },
      ] as const) {
        const response = await send(store.app, request);
        assert.equal(response.statusCode, 503, response.body);
        assert.equal(
          response.body,
          '{"detail":"Service temporarily unavailable, try again later."}',
        );
        assert.equal(response.headers['retry-after'], '1');
        assertSecurityHeaders(response, request.method);
      }
    } finally {
      await store.db.kysely.schema
        .alterTable('books_upload_gone')
        .renameTo('books_upload')
        .execute();
    }
  });

  it('answers a closed database with a 503 {"detail": ...} on every route', async () => {
    const other = await startBookstore(sqlite);
    try {
      await other.db.close();
      for (const request of [
        { method: 'GET', url: '/books/api/books/' },
        { method: 'GET', url: '/books/api/books/1/' },
        { method: 'GET', url: '/api/profile/?ordering=-email' },
        {
          method: 'POST',
          url: '/books/api/authors/',
          ...jsonBody('{"salutation":"Dr.","name":"X"}'),
        },
        { method: 'PATCH', url: '/books/api/books/1/', ...jsonBody('{"title":"x"}') },
        { method: 'DELETE', url: '/api/profile/1/' },
        {
          method: 'POST',
          url: '/api/upload/',
          ...multipart([
            { name: 'username', value: 'u' },
            { name: 'resume', filename: 'a.txt', content: 'a' },
          ]),
        },
      ] as const) {
        const response = await send(other.app, request);
        const where = `${request.method} ${request.url}`;
        assert.equal(response.statusCode, 503, `${where}: ${response.body}`);
        assert.equal(
          response.body,
          '{"detail":"Service temporarily unavailable, try again later."}',
        );
        assert.equal(response.headers['retry-after'], '1');
        assertSecurityHeaders(response, where);
      }
    } finally {
      await other.close();
    }
  });
});

describe('security headers on every response', () => {
  let store: Bookstore;
  let port: number;
  before(async () => {
    store = await startBookstore(sqlite);
    port = await listen(store.app);
  });
  after(() => store?.close());

  it('on answers of every kind', async () => {
    const cases: [number, Parameters<typeof send>[1]][] = [
      [200, { method: 'GET', url: '/books/api/books/' }],
      [200, { method: 'HEAD', url: '/books/api/books/1/' }],
      [200, { method: 'OPTIONS', url: '/books/api/books/' }],
      [200, { method: 'GET', url: '/books/api/' }],
      [
        201,
        {
          method: 'POST',
          url: '/books/api/authors/',
          ...jsonBody('{"salutation":"Dr.","name":"Headers"}'),
        },
      ],
      [204, { method: 'DELETE', url: '/books/api/books/3/' }],
      [301, { method: 'GET', url: '/books/api/books' }],
      [400, { method: 'POST', url: '/books/api/books/', ...jsonBody('{"title":') }],
      [400, { method: 'GET', url: '/books/api/books/', headers: { host: 'evil.example' } }],
      [404, { method: 'GET', url: '/nowhere' }],
      [404, { method: 'GET', url: '/media/missing.txt' }],
      [405, { method: 'DELETE', url: '/books/api/books/' }],
      [406, { method: 'GET', url: '/books/api/books/1/', headers: { accept: 'application/xml' } }],
      [
        413,
        {
          method: 'POST',
          url: '/books/api/books/',
          ...jsonBody(`"${'x'.repeat(3 * 1024 * 1024)}"`),
        },
      ],
      [
        415,
        {
          method: 'POST',
          url: '/books/api/books/',
          payload: 'x',
          headers: { 'content-type': 'text/plain' },
        },
      ],
    ];
    for (const [status, request] of cases) {
      const response = await send(store.app, request);
      const where = `${request.method} ${request.url}`;
      assert.equal(response.statusCode, status, `${where}: ${response.body.slice(0, 200)}`);
      assertSecurityHeaders(response, where);
    }
  });

  it('on answers the HTTP parser gives (400, 431) before any route runs', async () => {
    const garbage = await rawExchange(port, 'NOT HTTP AT ALL\r\n\r\n');
    assert.equal(garbage.status, 400, garbage.head);
    assert.match(garbage.head, /x-content-type-options: nosniff/i);
    const huge = await rawExchange(
      port,
      `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    assert.equal(huge.status, 431, huge.head);
    assert.match(huge.head, /x-content-type-options: nosniff/i);
    assert.equal(huge.body, '{"detail":"Request header fields are too large."}');
  });
});
