/**
 * The url-encoded form parser's splitting and percent-decoding against the platform's
 * `URLSearchParams` (the WHATWG algorithm the parser follows): on generated bodies, each key
 * gets the value `URLSearchParams` gives last for it, and `formInputList` every value
 * `getAll` gives (a repeated key, as a `<select multiple>` sends). Where `URLSearchParams` had
 * to put a U+FFFD for bytes that are not UTF-8, the parser refuses the body (400) instead.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FormParser, formInputList, ParseError, type Request } from '@restframework/core';
import fc from 'fast-check';

function requestWith(body: Buffer): Request {
  return {
    raw: { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    settings: { MAX_BODY_DEPTH: 64 },
  } as unknown as Request;
}

// Everything the splitting and the decoding treat specially, and text around it: escapes of
// UTF-8 sequences (whole, cut short, or of bytes that are never UTF-8), broken escapes, `+`.
const unit = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...'ab.Z09_-~ ') },
  { weight: 4, arbitrary: fc.constantFrom('&', '=', '+', '%', '%2', '%zz', '%%', '%4', '%4g') },
  {
    weight: 4,
    arbitrary: fc.constantFrom('%20', '%26', '%3D', '%2B', '%25', '%00', '%7F', '%2e', '%C3%A9'),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom('%C3', '%A9', '%FF', '%E2%82', '%EF%BB%BF', '%F0%9F%98%80'),
  },
  { weight: 2, arbitrary: fc.constantFrom('é', '€', '😀', '\u200b', '\uFEFF') },
);
const body = fc.array(unit, { maxLength: 30 }).map((units) => units.join(''));

/**
 * `text` with every character past ASCII written as the percent-escapes of its UTF-8 bytes,
 * which percent-decoding turns back into the same bytes (WHATWG URL, "percent-decode"): the
 * same form, for URLSearchParams. Node's own URLSearchParams (20 and 24) decodes
 * `é%20%2` as `\uFFFD %2` where the standard gives `é %2`: a raw non-ASCII character with
 * escapes and a cut-short one after it; the escaped form avoids that bug of the reference.
 */
function asciiOnly(text: string): string {
  return text.replace(/[\u0080-\u{10ffff}]+/gu, (chars) => encodeURIComponent(chars));
}

describe('FormParser', () => {
  it("gives each key URLSearchParams' last value and getAll's list, and refuses what it could only replace with U+FFFD", () => {
    let parsed = 0;
    let refused = 0;
    fc.assert(
      fc.property(body, (text) => {
        const expected = [...new URLSearchParams(asciiOnly(text))];
        const replaced = expected.some(([k, v]) => `${k}${v}`.includes('\uFFFD'));
        const run = () => new FormParser().parse(requestWith(Buffer.from(text)));
        if (replaced) {
          assert.throws(run, ParseError, text);
          refused++;
          return;
        }
        const data = run() as Record<string, unknown>;
        assert.deepEqual({ ...data }, Object.fromEntries(expected), text);
        const params = new URLSearchParams(asciiOnly(text));
        for (const key of new Set(params.keys()))
          assert.deepEqual(formInputList(data, key), params.getAll(key), text);
        assert.deepEqual(formInputList(data, 'never sent'), []);
        parsed++;
      }),
      { numRuns: 3000, seed: 38 },
    );
    assert.ok(parsed > 300 && refused > 300, `${parsed} parsed, ${refused} refused`);
  });
});
