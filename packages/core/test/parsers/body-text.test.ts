/**
 * The text of JSON and url-encoded bodies: the charset read from `Content-Type`, bytes decoded
 * strictly (invalid bytes are 400, an unknown charset 415, as the platform's fatal decoder
 * answers), and the nesting check made before anything is built from the text. The nesting
 * check counts brackets with the platform's string search before scanning: property tests
 * hold it to the plain scan and to the depth of what `JSON.parse` builds.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TextDecoder } from 'node:util';
import { ParseError, type Request, UnsupportedMediaType } from '@restframework/core';
import {
  contentTypeCharset,
  decodeBody,
  decodeStrictly,
  jsonTooDeep,
} from '@restframework/core/internal';
import fc from 'fast-check';

/** The nesting check as one plain pass (the definition the fast one must keep to). */
function referenceTooDeep(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      if (++depth > max) return true;
    } else if (c === ']' || c === '}') depth--;
  }
  return false;
}

/** How deep a parsed JSON value nests arrays and objects (a scalar is 0). */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let deepest = 0;
  for (const item of Object.values(value)) deepest = Math.max(deepest, depthOf(item));
  return deepest + 1;
}

/** A request as the parsers see it: the body Fastify read, and its `Content-Type`. */
function requestWith(body: unknown, contentType?: string): Request {
  const headers = contentType === undefined ? {} : { 'content-type': contentType };
  return { raw: { body, headers } } as unknown as Request;
}

describe('jsonTooDeep', () => {
  it('answers at the limit, one past it, and ignores brackets in strings', () => {
    const cases: [string, number, boolean][] = [
      ['', 0, false],
      ['{}', 0, true],
      ['{}', 1, false],
      ['[[1]]', 1, true],
      ['[[1]]', 2, false],
      ['{"a": "[[[[[["}', 1, false],
      ['{"a": "\\"[[[["}', 1, false],
      ['{"a": "\\\\", "b": [[]]}', 2, true],
      [`${'['.repeat(65)}${']'.repeat(65)}`, 64, true],
      [`${'['.repeat(64)}${']'.repeat(64)}`, 64, false],
      // Many brackets, none deep: past the count, the scan decides.
      [JSON.stringify(Array.from({ length: 100 }, () => ({ a: [] }))), 64, false],
      [`[${'[],'.repeat(100)}[[[]]]]`, 3, true],
    ];
    for (const [text, max, expected] of cases) {
      assert.equal(jsonTooDeep(text, max), expected, `${text.slice(0, 40)} at ${max}`);
    }
  });

  it('agrees with the depth JSON.parse builds, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), (value, max) => {
        const text = JSON.stringify(value);
        assert.equal(jsonTooDeep(text, max), depthOf(JSON.parse(text)) > max, text);
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with the plain scan on any text, JSON or not', () => {
    const text = fc.stringMatching(/^[[\]{}"\\ a,:]*$/, { maxLength: 80 });
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 12 }), (t, max) => {
        assert.equal(jsonTooDeep(t, max), referenceTooDeep(t, max), JSON.stringify(t));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('contentTypeCharset', () => {
  it('reads the charset parameter, quoted or not, in any case', () => {
    const cases: [string | undefined, string | undefined][] = [
      [undefined, undefined],
      ['', undefined],
      ['application/json', undefined],
      ['application/json;', undefined],
      ['application/json; charset=UTF-8', 'utf-8'],
      ['application/json;charset="ISO-8859-1"', 'iso-8859-1'],
      ['application/json; boundary=x; CHARSET = utf-16le', 'utf-16le'],
      ['application/json; charset=', ''],
      ['application/json charset=utf-16le', undefined],
    ];
    for (const [header, charset] of cases)
      assert.equal(contentTypeCharset(header), charset, header);
  });
});

describe('decodeStrictly', () => {
  const utf8 = new TextDecoder('utf-8', { fatal: true });

  it('decodes any bytes as the fatal UTF-8 decoder does when no charset is named', () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 20 }).map((s) => new Uint8Array(Buffer.from(s))),
    );
    fc.assert(
      fc.property(bytes, fc.constantFrom(undefined, 'application/json'), (b, type) => {
        let expected: string | undefined;
        try {
          expected = utf8.decode(b);
        } catch {
          expected = undefined;
        }
        const request = requestWith(Buffer.from(b), type);
        if (expected === undefined) {
          assert.throws(() => decodeStrictly(request, b, 'JSON parse error'), ParseError);
        } else {
          assert.equal(decodeStrictly(request, b, 'JSON parse error'), expected);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('keeps a byte order mark as U+FEFF, refuses invalid bytes (400) and unknown charsets (415)', () => {
    // The mark is what the client sent: dropping it silently changed form values that began
    // with one (the JSON parser refuses it, as DRF's does).
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]);
    for (const type of ['application/json', 'application/json; charset=utf-8']) {
      assert.equal(decodeStrictly(requestWith(undefined, type), bom, 'x'), '\uFEFF{}');
    }
    const utf16 = requestWith(undefined, 'application/json; charset=utf-16le');
    assert.equal(decodeStrictly(utf16, new Uint8Array([0xff, 0xfe, 0x61, 0x00]), 'x'), '\uFEFFa');
    const request = requestWith(undefined, 'application/json');
    assert.throws(
      () => decodeStrictly(request, new Uint8Array([0x22, 0xe9, 0x22]), 'JSON parse error'),
      { name: 'ParseError', message: 'JSON parse error - the body is not valid utf-8.' },
    );
    const latin1 = requestWith(undefined, 'application/json; charset=iso-8859-1');
    assert.equal(decodeStrictly(latin1, new Uint8Array([0x5a, 0x6f, 0xeb]), 'x'), 'Zoë');
    const unknown = requestWith(undefined, 'application/json; charset=no-such-charset');
    assert.throws(() => decodeStrictly(unknown, new Uint8Array([0x7b]), 'x'), UnsupportedMediaType);
  });

  it('decodes with stack traces off (the error of invalid bytes is an answer), then restores them', (t) => {
    const limit = Error.stackTraceLimit;
    const limitsSeen: number[] = [];
    const decode = TextDecoder.prototype.decode;
    t.mock.method(TextDecoder.prototype, 'decode', function (this: TextDecoder, ...args: []) {
      limitsSeen.push(Error.stackTraceLimit);
      return decode.apply(this, args);
    });
    for (const type of ['application/json', 'application/json; charset=utf-16le']) {
      const request = requestWith(undefined, type);
      assert.throws(() => decodeStrictly(request, new Uint8Array([0x00, 0xd8]), 'x'), ParseError);
      assert.equal(Error.stackTraceLimit, limit);
      assert.equal(decodeStrictly(request, new Uint8Array([0x61, 0x00]), 'x').length > 0, true);
      assert.equal(Error.stackTraceLimit, limit);
    }
    assert.deepEqual(limitsSeen, [0, 0, 0, 0]);
  });
});

describe('decodeBody', () => {
  it('passes text through, decodes a Buffer, and reads anything else as empty', () => {
    assert.equal(decodeBody(requestWith('{"a": 1}'), 'x'), '{"a": 1}');
    assert.equal(decodeBody(requestWith(Buffer.from('{"é": 1}')), 'x'), '{"é": 1}');
    assert.equal(decodeBody(requestWith(Buffer.alloc(0)), 'x'), '');
    assert.equal(decodeBody(requestWith(undefined), 'x'), '');
  });
});
