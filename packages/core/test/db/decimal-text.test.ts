/**
 * formatDecimal: decimals a driver gives as numbers (SQLite's NUMERIC affinity) written with
 * exactly their places. A fast path (toFixed) serves numbers that are the nearest double to a
 * decimal of at most that many places; every other number goes through the exact text path,
 * and both must give the same text.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formatDecimal } from '../../src/db/dialect/decimal-text.ts';

describe('formatDecimal', () => {
  const cases: [number | string, number, string][] = [
    [12.5, 2, '12.50'],
    [1, 2, '1.00'],
    [0, 2, '0.00'],
    [-0, 2, '0.00'],
    [27.67, 2, '27.67'],
    [0.1, 2, '0.10'],
    [-3.1, 3, '-3.100'],
    [99999999.99, 2, '99999999.99'],
    [7, 0, '7'],
    // More places than the field has: rounded half up on the decimal text, not the binary value.
    [1.005, 2, '1.01'],
    [2.675, 2, '2.68'],
    [1e21, 2, '1000000000000000000000.00'],
    [1.5e-7, 2, '0.00'],
    // Doubles further apart than the places: the text of the shortest form, not toFixed's.
    [2 ** 46 + 6 / 64, 2, '70368744177664.10'],
    ['12.5', 2, '12.50'],
    ['1e3', 1, '1000.0'],
  ];
  for (const [value, places, expected] of cases) {
    it(`${typeof value} ${String(value)} with ${places} places is ${expected}`, () => {
      assert.equal(formatDecimal(value, places), expected);
    });
  }

  it('gives for numbers the text of their shortest decimal form, whichever path it takes', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 20_000; i++) {
      const places = Math.floor(next() * 7);
      const digits = Math.floor(next() * 8) + places;
      const scaled = Math.floor(next() * 10 ** Math.min(digits, 15));
      const sign = next() < 0.2 ? -1 : 1;
      // Both decimals with `places` places and some with more.
      const extra = next() < 0.3 ? 1 + Math.floor(next() * 3) : 0;
      const value = (sign * scaled) / 10 ** (places + extra);
      assert.equal(
        formatDecimal(value, places),
        formatDecimal(String(value), places),
        `${value} with ${places} places`,
      );
    }
  });

  it('agrees with the exact text path over generated decimals, at every magnitude', () => {
    // The text path (String, then exact decimal rounding) is the reference: the fast path
    // must give the same text for every number it takes.
    const decimals = fc
      .record({
        units: fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }),
        places: fc.integer({ min: 0, max: 8 }),
        shift: fc.integer({ min: 0, max: 3 }),
      })
      .map(({ units, places, shift }) => ({
        value: Number(units) / 10 ** (places + shift),
        places,
      }));
    const doubles = fc.record({
      value: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e17, max: 1e17 }),
      places: fc.integer({ min: 0, max: 15 }),
    });
    fc.assert(
      fc.property(fc.oneof(decimals, doubles), ({ value, places }) => {
        assert.equal(formatDecimal(value, places), formatDecimal(String(value), places));
      }),
      { numRuns: 20_000 },
    );
  });
});
