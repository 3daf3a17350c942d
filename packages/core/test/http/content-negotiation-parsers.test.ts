/**
 * The parser side of content negotiation: the request's media type is its `Content-Type`
 * without parameters, trimmed and lower-cased ('' without one), and the parser is the first of
 * the view's whose media type is exactly that (null when none is).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DefaultContentNegotiation,
  FormParser,
  JSONParser,
  MultiPartParser,
  type Parser,
  type Request,
} from '@restframework/core';
import { requestMediaType } from '@restframework/core/internal';
import fc from 'fast-check';

function requestWith(contentType: string | undefined): Request {
  const headers = contentType === undefined ? {} : { 'content-type': contentType };
  return { raw: { headers } } as unknown as Request;
}

describe('requestMediaType', () => {
  it('drops the parameters, trims and lower-cases', () => {
    const cases: [string | undefined, string][] = [
      [undefined, ''],
      ['', ''],
      ['application/json', 'application/json'],
      ['Application/JSON; charset=UTF-8', 'application/json'],
      ['  multipart/form-data ;boundary=x', 'multipart/form-data'],
      [';', ''],
      ['text/plain;;', 'text/plain'],
    ];
    for (const [header, type] of cases) assert.equal(requestMediaType(requestWith(header)), type);
  });

  it('answers as splitting at the first semicolon does, for any header', () => {
    const header = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.stringMatching(/^[ \tA-Za-z/+;=-]{0,40}$/),
    );
    fc.assert(
      fc.property(header, (h) => {
        const expected = (h.split(';')[0] ?? '').trim().toLowerCase();
        assert.equal(requestMediaType(requestWith(h)), expected, JSON.stringify(h));
      }),
      { numRuns: 500 },
    );
  });
});

describe('DefaultContentNegotiation.selectParser', () => {
  const negotiation = new DefaultContentNegotiation();
  const parsers: Parser[] = [new JSONParser(), new FormParser(), new MultiPartParser()];

  it("picks the first parser of the request's media type, or none", () => {
    const cases: [string | undefined, Parser | null][] = [
      ['application/json', parsers[0] as Parser],
      ['APPLICATION/JSON; charset=utf-8', parsers[0] as Parser],
      ['application/x-www-form-urlencoded', parsers[1] as Parser],
      ['multipart/form-data; boundary=x', parsers[2] as Parser],
      ['text/plain', null],
      ['application/problem+json', null],
      [undefined, null],
    ];
    for (const [header, parser] of cases) {
      assert.equal(negotiation.selectParser(requestWith(header), parsers), parser, header);
    }
    const second = new JSONParser();
    assert.equal(
      negotiation.selectParser(requestWith('application/json'), [second, parsers[0] as Parser]),
      second,
    );
  });
});
