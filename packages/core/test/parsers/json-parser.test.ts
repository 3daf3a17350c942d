/**
 * `JSONParser` answers at once (no promise: nothing in it waits), with the same values and
 * errors as before: `{}` for an empty body, 400 for text that is not JSON, for bytes that are
 * not valid UTF-8 and for nesting past `MAX_BODY_DEPTH`. The `SyntaxError` of text that is not
 * JSON is made without a stack trace (it is the client's mistake, and capturing one cost more
 * than the parse).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  defaultSettings,
  FormParser,
  JSONParser,
  ParseError,
  type Request,
} from '@restframework/core';
import fc from 'fast-check';

function requestWith(body: unknown, contentType = 'application/json'): Request {
  return {
    raw: { body, headers: { 'content-type': contentType } },
    settings: defaultSettings,
  } as unknown as Request;
}

/** `text` as the bytes of `charset` (UTF-8 when none is named). */
function encodeIn(charset: string | undefined, text: string): Buffer {
  const name = charset?.toLowerCase();
  if (name === 'utf-16le' || name === 'utf-16') return Buffer.from(text, 'utf16le');
  if (name === 'utf-16be') return Buffer.from(text, 'utf16le').swap16();
  return Buffer.from(text, 'utf8');
}

describe('JSONParser', () => {
  const parser = new JSONParser();

  it('answers at once, not with a promise', () => {
    const parsed = parser.parse(requestWith(Buffer.from('{"a": [1, "b"]}')));
    assert.equal(parsed instanceof Promise, false);
    assert.deepEqual(parsed, { a: [1, 'b'] });
    assert.deepEqual(parser.parse(requestWith(Buffer.alloc(0))), {});
    assert.deepEqual(parser.parse(requestWith('"text"')), 'text');
  });

  it('throws the 400 of each mistake at once', () => {
    const cases: [unknown, RegExp][] = [
      [Buffer.from('{"title": "x",}'), /^JSON parse error - Expected double-quoted property name/],
      [Buffer.from([0x7b, 0xff, 0x7d]), /^JSON parse error - the body is not valid utf-8\.$/],
      [
        Buffer.from(`${'['.repeat(65)}${']'.repeat(65)}`),
        /^JSON parse error - the body is nested deeper than 64 levels\.$/,
      ],
    ];
    for (const [body, message] of cases) {
      assert.throws(
        () => parser.parse(requestWith(body)),
        (error: unknown) =>
          error instanceof ParseError && error.statusCode === 400 && message.test(error.message),
      );
    }
  });

  it('refuses a leading byte order mark in every charset, as DRF does (400), and parses the rest', () => {
    // DRF's parser decodes with Python's codec, which keeps a UTF-8 BOM as U+FEFF, and
    // json.loads refuses it: "JSON parse error - Unexpected UTF-8 BOM". The body is refused
    // whichever charset the request names; the same JSON without the mark parses as sent.
    const charsets = [undefined, 'utf-8', 'UTF-8', 'utf8', 'utf-16le', 'utf-16be', 'utf-16'];
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(...charsets), (value, charset) => {
        const text = JSON.stringify(value);
        const type =
          charset === undefined ? 'application/json' : `application/json; charset=${charset}`;
        const plain = parser.parse(requestWith(encodeIn(charset, text), type));
        assert.deepEqual(plain, JSON.parse(text));
        assert.throws(
          () => parser.parse(requestWith(encodeIn(charset, `\uFEFF${text}`), type)),
          (error: unknown) =>
            error instanceof ParseError &&
            /^JSON parse error - Unexpected byte order mark/.test(error.message),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('parses with stack traces off, and restores the limit after a failure', (t) => {
    const limit = Error.stackTraceLimit;
    const limitsSeen: number[] = [];
    const parse = JSON.parse;
    t.mock.method(JSON, 'parse', (text: string) => {
      limitsSeen.push(Error.stackTraceLimit);
      return parse(text);
    });
    assert.throws(() => parser.parse(requestWith(Buffer.from('{,}'))), ParseError);
    assert.equal(Error.stackTraceLimit, limit);
    assert.deepEqual(parser.parse(requestWith(Buffer.from('[1]'))), [1]);
    assert.equal(Error.stackTraceLimit, limit);
    assert.deepEqual(limitsSeen, [0, 0]);
  });
});

describe('FormParser', () => {
  it('answers at once, not with a promise', () => {
    const request = requestWith(
      Buffer.from('title=Dune&stock_information.price=9.99'),
      'application/x-www-form-urlencoded',
    );
    const parsed = new FormParser().parse(request);
    assert.equal(parsed instanceof Promise, false);
    assert.deepEqual(
      { ...(parsed as object) },
      { title: 'Dune', 'stock_information.price': '9.99' },
    );
  });
});
