/**
 * `integerKey` answers as the code it replaced (`/^\d{1,15}$/.test(text) ? Number(text) : -1`):
 * for a table of edge cases and for any text, digits or not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { integerKey } from '@restframework/core/internal';
import fc from 'fast-check';

function reference(text: string): number {
  return /^\d{1,15}$/.test(text) ? Number(text) : -1;
}

describe('integerKey', () => {
  const cases: readonly [string, number][] = [
    ['0', 0],
    ['500', 500],
    ['007', 7],
    ['999999999999999', 999999999999999],
    ['1000000000000000', -1],
    ['', -1],
    ['-1', -1],
    ['+1', -1],
    ['1.0', -1],
    ['1e3', -1],
    [' 1', -1],
    ['1 ', -1],
    ['1\n', -1],
    ['0x1F', -1],
    ['١٢٣', -1],
    ['１２', -1],
    ['/', -1],
    [':', -1],
    ['abc', -1],
  ];
  for (const [text, expected] of cases) {
    it(`${JSON.stringify(text)} → ${expected}`, () => {
      assert.equal(integerKey(text), expected);
      assert.equal(reference(text), expected);
    });
  }

  it('agrees with the regular expression and Number() on any text', () => {
    const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: 20 });
    const near = fc.string({ unit: fc.constantFrom(...'0123456789+-. \n/:e٣'), maxLength: 20 });
    fc.assert(
      fc.property(fc.oneof(digits, near, fc.string(), fc.string({ unit: 'binary' })), (text) => {
        assert.equal(integerKey(text), reference(text));
      }),
      { numRuns: 2000 },
    );
  });
});
