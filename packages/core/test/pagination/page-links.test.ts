/**
 * DRF's numbered page links (`_get_displayed_page_numbers`, `_get_page_links`), checked against
 * DRF's own test table and, for any page of any length, against their rules.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { displayedPageNumbers, pageLinks } from '@restframework/core';
import fc from 'fast-check';

describe('displayedPageNumbers', () => {
  it('gives DRF’s numbers (its test_get_displayed_page_numbers)', () => {
    const cases: [number, number, (number | null)[]][] = [
      [1, 5, [1, 2, 3, 4, 5]],
      [1, 6, [1, 2, 3, null, 6]],
      [2, 6, [1, 2, 3, null, 6]],
      [3, 6, [1, 2, 3, 4, 5, 6]],
      [4, 6, [1, 2, 3, 4, 5, 6]],
      [5, 6, [1, null, 4, 5, 6]],
      [6, 6, [1, null, 4, 5, 6]],
      [1, 7, [1, 2, 3, null, 7]],
      [3, 7, [1, 2, 3, 4, null, 7]],
      [4, 7, [1, 2, 3, 4, 5, 6, 7]],
      [5, 7, [1, null, 4, 5, 6, 7]],
      [7, 7, [1, null, 5, 6, 7]],
      [1, 9, [1, 2, 3, null, 9]],
      [5, 9, [1, null, 4, 5, 6, null, 9]],
      [9, 9, [1, null, 7, 8, 9]],
    ];
    for (const [current, final, expected] of cases)
      assert.deepEqual(displayedPageNumbers(current, final), expected, `${current} of ${final}`);
  });

  it('always shows the first, the last, the current page and its neighbours, in order', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 500 })
          .chain((final) => fc.tuple(fc.integer({ min: 1, max: final }), fc.constant(final))),
        ([current, final]) => {
          const shown = displayedPageNumbers(current, final);
          const numbers = shown.filter((n): n is number => n !== null);
          for (const n of [1, final, current, current - 1, current + 1])
            if (n >= 1 && n <= final) assert.ok(numbers.includes(n), `${n} of ${final}`);
          for (let i = 1; i < numbers.length; i++)
            assert.ok((numbers[i] as number) > (numbers[i - 1] as number));
          // A break stands exactly where numbers are skipped.
          for (let i = 1; i < shown.length; i++) {
            const [a, b] = [shown[i - 1], shown[i]];
            if (a !== null && b !== null) assert.equal(b, a + 1, JSON.stringify(shown));
            if (b === null) assert.ok((shown[i + 1] as number) > (a as number) + 1);
          }
          assert.ok(shown.length <= 9);
        },
      ),
    );
  });
});

describe('pageLinks', () => {
  it('links each number, marks the current one and keeps the breaks', () => {
    assert.deepEqual(
      pageLinks([1, null, 5], 5, (n) => `/books/?page=${n}`),
      [
        { url: '/books/?page=1', number: 1, isActive: false, isBreak: false },
        { url: null, number: null, isActive: false, isBreak: true },
        { url: '/books/?page=5', number: 5, isActive: true, isBreak: false },
      ],
    );
  });
});
