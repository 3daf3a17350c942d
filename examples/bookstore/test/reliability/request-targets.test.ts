/**
 * Request lines and body labels a client controls, over a real socket (`inject()` cannot send
 * an absolute-form target or a CONNECT):
 *
 * - an absolute-form target (`GET http://host/path`): its authority is the host that is checked
 *   against ALLOWED_HOSTS (400 when not allowed, whatever `Host` says), and every absolute URL
 *   of the answer (redirects, pagination links, the browsable API's links and forms) uses it;
 * - `CONNECT`: 405 in the usual shape, with the security headers;
 * - a malformed `Content-Type` is 415, and so is a body in any `Content-Encoding`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '@restframework/core/testing';
import fc from 'fast-check';
import { type Bookstore, listen, rawExchange, send, snapshot, startBookstore } from './support.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_126);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const sqlite = testDialects()[0];

const SECURITY = [
  /\r\nx-content-type-options: nosniff/i,
  /\r\nx-frame-options: DENY/i,
  /\r\nreferrer-policy: same-origin/i,
];

/** Targets on the bookstore whose answers hold absolute URLs or redirect. */
const PATHS = [
  '/books/api/books',
  '/books/api/books/',
  '/books/api/books/?page=1&page_size=2',
  '/books/api/books/1/',
  '/books/api/',
  '/api/upload/',
];

/** Every `scheme://authority` an answer names. */
function authorities(text: string): string[] {
  return [...text.matchAll(/https?:\/\/([^/"'\s<>?#]*)/gi)].map((m) =>
    (m[1] as string).toLowerCase(),
  );
}

describe('request targets and body labels over a socket', () => {
  let store: Bookstore;
  let port: number;
  before(async () => {
    store = await startBookstore(sqlite);
    port = await listen(store.app);
  });
  after(() => store?.close());

  const exchange = (line: string, headers: string) =>
    rawExchange(port, `${line}\r\n${headers}Connection: close\r\n\r\n`, { timeoutMs: 5000 });

  it('checks the authority of an absolute-form target, and builds every URL from it', async () => {
    const host = fc.oneof(
      fc.domain(),
      fc.constantFrom(
        'evil.example',
        'evil.example:8080',
        '127.0.0.1.evil.example',
        'user@127.0.0.1',
        '',
      ),
    );
    const allowed = fc.constantFrom(
      '127.0.0.1',
      `127.0.0.1:${port}`,
      'localhost',
      `localhost:${port}`,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        host,
        allowed,
        fc.constantFrom(...PATHS),
        fc.boolean(),
        async (targetAllowed, other, good, path, html) => {
          // One of the two names an allowed host: the target's authority, or the Host header.
          const authority = targetAllowed ? good : other;
          const hostHeader = targetAllowed ? other : good;
          const answer = await exchange(
            `GET http://${authority}${path} HTTP/1.1`,
            `Host: ${hostHeader}\r\nAccept: ${html ? 'text/html' : 'application/json'}\r\n`,
          );
          const where = `GET http://${authority}${path} (Host: ${hostHeader}) → ${answer.status}\n${answer.head}`;
          if (!targetAllowed) {
            // "Invalid Host header.", or Node's parser refusing the target outright.
            assert.equal(answer.status, 400, where);
            assert.doesNotMatch(answer.head, /\r\nlocation:/i, where);
            return;
          }
          assert.ok([200, 301].includes(answer.status), where);
          for (const seen of authorities(`${answer.head}\n${answer.body}`)) {
            assert.equal(seen, good.toLowerCase(), `${where}: names ${seen}`);
          }
          if (answer.status === 301) {
            assert.match(answer.head, /\r\nlocation: \/books\/api\/books\/\r\n/i, where);
          }
        },
      ),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });

  it('answers the links of an absolute-form target with its authority, not Host', async () => {
    const answer = await exchange(
      `GET http://localhost:${port}/books/api/books/ HTTP/1.1`,
      'Host: 127.0.0.1\r\nAccept: application/json\r\n',
    );
    assert.equal(answer.status, 200, answer.head);
    const first = (JSON.parse(answer.body) as { results: { id: number; url: string }[] })
      .results[0];
    assert.equal(first?.url, `http://localhost:${port}/books/api/books/${first?.id}/`);
  });

  it('answers CONNECT with 405 in the usual shape', async () => {
    for (const target of ['127.0.0.1:443', `127.0.0.1:${port}`, 'evil.example:80']) {
      const answer = await rawExchange(
        port,
        `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`,
        {
          timeoutMs: 5000,
        },
      );
      assert.equal(answer.status, 405, `CONNECT ${target}: ${answer.head}`);
      assert.deepEqual(JSON.parse(answer.body), { detail: 'Method "CONNECT" not allowed.' });
      for (const header of SECURITY) assert.match(answer.head, header);
      assert.match(answer.head, /\r\ncontent-type: application\/json/i);
    }
  });

  it('decodes a body in the charset its Content-Type names, and refuses one it does not know', async () => {
    const cases: [string, Buffer, number, string | null][] = [
      [
        'application/json; charset=iso-8859-1',
        Buffer.from('{"name": "Zoë"}', 'latin1'),
        200,
        'Zoë',
      ],
      ['application/json; charset="UTF-8"', Buffer.from('{"name": "Zoë"}'), 200, 'Zoë'],
      ['application/json; charset=utf-16le', Buffer.from('{"name": "Zoë"}', 'utf16le'), 200, 'Zoë'],
      [
        'application/x-www-form-urlencoded; charset=iso-8859-1',
        Buffer.from('name=Zo%EB'),
        200,
        'Zoë',
      ],
      ['application/json', Buffer.from('{"name": "Zo\xeb"}', 'latin1'), 400, null],
      ['application/x-www-form-urlencoded', Buffer.from('name=Zo%EB'), 400, null],
      ['application/json; charset=no-such-charset', Buffer.from('{"name": "x"}'), 415, null],
    ];
    for (const [type, payload, status, name] of cases) {
      const before_ = await snapshot(store.db, store.media);
      const response = await send(store.app, {
        method: 'PATCH',
        url: '/books/api/authors/1/',
        payload,
        headers: { 'content-type': type },
      });
      assert.equal(response.statusCode, status, `${type}: ${response.body}`);
      if (name === null) assert.deepEqual(await snapshot(store.db, store.media), before_, type);
      else assert.equal((response.json() as { name: string }).name, name, type);
    }
  });

  it('refuses a malformed Content-Type and any Content-Encoding with 415, changing nothing', async () => {
    const before_ = await snapshot(store.db, store.media);
    const contentType = fc.oneof(
      fc.constantFrom(
        'application/json, text/plain',
        ';',
        'application/',
        '/json',
        'x'.repeat(3000),
      ),
      fc
        .string({ minLength: 1, maxLength: 300 })
        .filter((s) => !/[\r\n]/.test(s) && !s.includes('/')),
    );
    const coding = fc.constantFrom(
      'gzip',
      'deflate',
      'br',
      'x-gzip',
      'gzip, identity',
      'zstd',
      'GZIP',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          contentType.map((type) => ({ type, coding: undefined })),
          coding.map((c) => ({ type: 'application/json', coding: c as string | undefined })),
        ),
        fc.constantFrom('/books/api/books/', '/books/api/authors/1/', '/api/upload/'),
        async ({ type, coding: encoding }, url) => {
          const response = await send(store.app, {
            method: url.endsWith('1/') ? 'PATCH' : 'POST',
            url,
            payload: '{"title": "x"}',
            headers: {
              'content-type': type,
              ...(encoding ? { 'content-encoding': encoding } : {}),
            },
          });
          assert.equal(response.statusCode, 415, `${type} ${encoding ?? ''}: ${response.body}`);
          assert.equal(typeof (JSON.parse(response.body) as { detail: unknown }).detail, 'string');
          if (encoding) assert.equal(response.headers['accept-encoding'], 'identity');
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
    assert.deepEqual(await snapshot(store.db, store.media), before_);
  });
});
