/**
 * Bodies that attack the parser, over a real socket: deep nesting, huge bodies, a broken
 * multipart boundary, a body shorter than its Content-Length, thousands of parts, a 100 MiB
 * value, a client that trickles or stops. Each ends quickly with a 4xx (400, 408 or 413), no
 * row and no file is left behind, and the server answers other clients meanwhile.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '@restframework/core/testing';
import {
  type Bookstore,
  listen,
  probe,
  type RawAnswer,
  rawExchange,
  type Snapshot,
  sleep,
  snapshot,
  startBookstore,
} from './support.ts';

/** What the app is given: short enough that the timeout tests take a second or two. */
const REQUEST_TIMEOUT_MS = 1500;
/** An answer must come within this (the timeout, plus room for a busy 2-core machine). */
const QUICK_MS = REQUEST_TIMEOUT_MS + 3000;
const MiB = 1024 * 1024;
const BOUNDARY = 'reliabilityBoundary';

const sqlite = testDialects()[0];

function head(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

/** `count` pieces of `size` bytes of `fill`, produced lazily (never the whole body in memory). */
async function* pieces(count: number, size: number, fill = 'a'): AsyncIterable<Buffer> {
  const piece = Buffer.alloc(size, fill);
  for (let i = 0; i < count; i++) yield piece;
}

/** A multipart head part for a text field. */
function textPart(name: string): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`;
}

describe('hostile bodies over a socket', () => {
  let store: Bookstore;
  let port: number;
  let before_: Snapshot;

  before(async () => {
    store = await startBookstore(sqlite, { app: { requestTimeout: REQUEST_TIMEOUT_MS } });
    port = await listen(store.app);
    before_ = await snapshot(store.db, store.media);
  });
  after(() => store?.close());

  /** Runs an attack while a normal client asks for a book; both must be answered quickly. */
  async function attack(run: () => Promise<RawAnswer>): Promise<RawAnswer> {
    const answer = run();
    await sleep(100);
    const other = await probe(port);
    assert.equal(
      other.status,
      200,
      `another client was not served during the attack: ${other.head}`,
    );
    assert.ok(other.ms < 2000, `another client waited ${other.ms} ms during the attack`);
    const result = await answer;
    assert.ok(result.ms < QUICK_MS, `the attack was answered after ${result.ms} ms`);
    assert.deepEqual(
      await snapshot(store.db, store.media),
      before_,
      'the attack changed something',
    );
    return result;
  }

  it('answers JSON nested 100 000 levels deep with a 400', async () => {
    for (const nested of [
      `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
      `{"title":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`,
      `{"publishing_information":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
      `{"title":${'['.repeat(100_000)}`,
    ]) {
      const body = Buffer.from(nested);
      const answer = await attack(() =>
        rawExchange(
          port,
          head('POST', '/books/api/books/', {
            'Content-Type': 'application/json',
            'Content-Length': body.length,
          }),
          { body },
        ),
      );
      assert.equal(answer.status, 400, answer.head + answer.body);
      assert.match(answer.body, /^\{"/);
    }
  });

  it('answers a 50 MiB JSON body with a 413 before reading it all', async () => {
    const answer = await attack(() =>
      rawExchange(
        port,
        head('POST', '/books/api/books/', {
          'Content-Type': 'application/json',
          'Content-Length': 50 * MiB,
        }),
        { body: pieces(50, MiB, ' ') },
      ),
    );
    assert.equal(answer.status, 413, answer.head);
    assert.equal(answer.body, '{"detail":"Request body is too large."}');
  });

  it('answers a 50 MiB chunked JSON body (no Content-Length) with a 413', async () => {
    async function* chunked(): AsyncIterable<Buffer> {
      for await (const piece of pieces(50, MiB, ' ')) {
        yield Buffer.concat([
          Buffer.from(`${piece.length.toString(16)}\r\n`),
          piece,
          Buffer.from('\r\n'),
        ]);
      }
      yield Buffer.from('0\r\n\r\n');
    }
    const answer = await attack(() =>
      rawExchange(
        port,
        head('POST', '/books/api/books/', {
          'Content-Type': 'application/json',
          'Transfer-Encoding': 'chunked',
        }),
        { body: chunked() },
      ),
    );
    assert.equal(answer.status, 413, answer.head);
  });

  it('answers a multipart body with a broken or missing boundary with a 400', async () => {
    const body = Buffer.from(`${textPart('username')}ada\r\n--${BOUNDARY}--\r\n`);
    for (const contentType of [
      'multipart/form-data; boundary=notTheOneUsed',
      'multipart/form-data',
      'multipart/form-data; boundary=',
      `multipart/form-data; boundary=${'x'.repeat(5000)}`,
    ]) {
      const answer = await attack(() =>
        rawExchange(
          port,
          head('POST', '/api/upload/', {
            'Content-Type': contentType,
            'Content-Length': body.length,
          }),
          { body },
        ),
      );
      assert.equal(answer.status, 400, `${contentType}: ${answer.head}\n${answer.body}`);
    }
    // The boundary is right but the body never closes it.
    const open = Buffer.from(`${textPart('username')}ada\r\n--${BOUNDARY}\r\nContent-Disp`);
    const answer = await attack(() =>
      rawExchange(
        port,
        head('POST', '/api/upload/', {
          'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
          'Content-Length': open.length,
        }),
        { body: open },
      ),
    );
    assert.equal(answer.status, 400, answer.head + answer.body);
  });

  it('answers a body shorter than its Content-Length with a 408 once the client stops', async () => {
    for (const [path, type] of [
      ['/books/api/books/', 'application/json'],
      ['/books/api/books/', 'application/x-www-form-urlencoded'],
      ['/api/upload/', `multipart/form-data; boundary=${BOUNDARY}`],
    ] as const) {
      const body = Buffer.from(
        type.startsWith('multipart') ? `${textPart('username')}ada` : '{"title":',
      );
      const answer = await attack(() =>
        rawExchange(port, head('POST', path, { 'Content-Type': type, 'Content-Length': 1000 }), {
          body,
        }),
      );
      assert.equal(answer.status, 408, `${type}: ${answer.head}`);
      assert.ok(answer.ms >= REQUEST_TIMEOUT_MS - 100, `408 after ${answer.ms} ms`);
    }
  });

  it('survives a client that hangs up half-way through its body', async () => {
    const answer = await attack(() =>
      rawExchange(
        port,
        head('POST', '/api/upload/', {
          'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
          'Content-Length': 10 * MiB,
        }),
        {
          body: (async function* () {
            yield Buffer.from(
              `${textPart('username')}ada\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="resume"; filename="cv.txt"\r\n\r\n`,
            );
            yield Buffer.alloc(MiB, 'a');
            // The client goes away: the next write fails and rawExchange sees the close.
            throw new Error('client gone');
          })(),
          timeoutMs: 1000,
        },
      ),
    );
    assert.equal(answer.status, 0);
    // The temporary file of the half-sent part is gone too (checked by attack's snapshot for
    // MEDIA_ROOT; the parser removes its temporary file when the part fails).
  });

  it('answers 10 000 multipart parts with a 413', async () => {
    const body = Buffer.from(
      `${Array.from({ length: 10_000 }, (_, i) => `${textPart(`f${i}`)}x\r\n`).join('')}--${BOUNDARY}--\r\n`,
    );
    const answer = await attack(() =>
      rawExchange(
        port,
        head('POST', '/api/upload/', {
          'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
          'Content-Length': body.length,
        }),
        { body },
      ),
    );
    assert.equal(answer.status, 413, answer.head + answer.body);
  });

  it('answers a 100 MiB form value with a 413, without reading it all', async () => {
    const cases: [string, string, () => AsyncIterable<Buffer>, number][] = [
      [
        '/api/upload/',
        `multipart/form-data; boundary=${BOUNDARY}`,
        async function* () {
          yield Buffer.from(textPart('username'));
          yield* pieces(100, MiB);
          yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
        },
        100 * MiB + textPart('username').length + BOUNDARY.length + 8,
      ],
      [
        '/books/api/books/',
        'application/x-www-form-urlencoded',
        async function* () {
          yield Buffer.from('title=');
          yield* pieces(100, MiB);
        },
        100 * MiB + 6,
      ],
      [
        '/books/api/books/',
        'application/json',
        async function* () {
          yield Buffer.from('{"title":"');
          yield* pieces(100, MiB);
          yield Buffer.from('"}');
        },
        100 * MiB + 12,
      ],
    ];
    for (const [path, type, body, length] of cases) {
      const answer = await attack(() =>
        rawExchange(port, head('POST', path, { 'Content-Type': type, 'Content-Length': length }), {
          body: body(),
        }),
      );
      assert.equal(answer.status, 413, `${type}: ${answer.head}\n${answer.body}`);
    }
  });

  it('answers a client that trickles its body with a 408', async () => {
    const answer = await attack(() =>
      rawExchange(
        port,
        head('POST', '/books/api/books/', {
          'Content-Type': 'application/json',
          'Content-Length': 100,
        }),
        {
          body: (async function* () {
            for (let i = 0; i < 100; i++) {
              yield Buffer.from(' ');
              await sleep(300);
            }
          })(),
        },
      ),
    );
    assert.equal(answer.status, 408, answer.head);
  });

  it('answers a client that trickles its headers with a 408', async () => {
    const answer = await attack(() =>
      rawExchange(port, 'GET /books/api/books/ HTTP/1.1\r\nHost: 127.0.0.1\r\n', {
        body: (async function* () {
          for (let i = 0; i < 100; i++) {
            yield Buffer.from(`X-Slow-${i}: 1\r\n`);
            await sleep(300);
          }
        })(),
      }),
    );
    assert.equal(answer.status, 408, answer.head);
  });

  it('answers 408 in the API error shape, with the security headers', async () => {
    const answer = await rawExchange(
      port,
      head('POST', '/books/api/books/', {
        'Content-Type': 'application/json',
        'Content-Length': 10,
      }),
      { body: Buffer.from('{') },
    );
    assert.equal(answer.status, 408);
    assert.equal(answer.body, '{"detail":"The request body did not arrive in time."}');
    assert.match(answer.head, /\r\nx-content-type-options: nosniff/i);
    assert.match(answer.head, /\r\nconnection: close/i);
  });
});
