import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DateField, EMPTY, ValidationError } from '@restframework/core';
import { isRealDate } from '@restframework/core/internal';
import { fieldValues } from '@restframework/core/testing';
import fc from 'fast-check';

const WRONG_FORMAT = ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'];

fieldValues('DateField', {
  field: () => new DateField(),
  validInputs: [
    ['2021-03-04', '2021-03-04'],
    ['2024-02-29', '2024-02-29'],
    ['2000-02-29', '2000-02-29'],
    ['0001-01-01', '0001-01-01'],
    ['9999-12-31', '9999-12-31'],
  ],
  invalidInputs: [
    ['2021-13-01', WRONG_FORMAT],
    ['2021-00-10', WRONG_FORMAT],
    ['2023-02-30', WRONG_FORMAT],
    ['2023-02-29', WRONG_FORMAT],
    ['1900-02-29', WRONG_FORMAT],
    ['2021-04-31', WRONG_FORMAT],
    ['2021-01-00', WRONG_FORMAT],
    ['0000-01-01', WRONG_FORMAT],
    ['2021-01-01T10:00:00', WRONG_FORMAT],
    ['2021-01-01 10:00', WRONG_FORMAT],
    ['abc', WRONG_FORMAT],
    ['', WRONG_FORMAT],
    ['21-01-01', WRONG_FORMAT],
    ['2021/01/01', WRONG_FORMAT],
    [20210101, WRONG_FORMAT],
    [true, WRONG_FORMAT],
    [{}, WRONG_FORMAT],
    [null, ['This field may not be null.']],
    [EMPTY, ['This field is required.']],
  ],
  outputs: [
    ['2021-03-04', '2021-03-04'],
    [new Date('2021-03-04T00:00:00Z'), '2021-03-04'],
    // A date-time held where a date is expected is cut to its date.
    ['2021-03-04T10:11:12.000Z', '2021-03-04'],
  ],
});

fieldValues('DateField with allowNull', {
  field: () => new DateField({ allowNull: true }),
  validInputs: [[null, null]],
});

/**
 * Generated inputs: DateField's scan and its day count answer as the regular expression and
 * Date did (the reference below is the field's earlier check).
 */
describe('DateField on generated inputs', () => {
  function reference(data: unknown): boolean {
    if (typeof data !== 'string') return false;
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(data);
    if (!match) return false;
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if (year < 1 || month < 1 || month > 12 || day < 1) return false;
    const date = new Date(0);
    date.setUTCFullYear(year, month - 1, day);
    return (
      date.getUTCFullYear() === year &&
      date.getUTCMonth() === month - 1 &&
      date.getUTCDate() === day
    );
  }
  const field = new DateField();
  function accepted(data: unknown): boolean {
    try {
      assert.equal(field.toInternalValue(data), data);
      return true;
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      assert.deepEqual(error.detail, WRONG_FORMAT);
      return false;
    }
  }
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  const dates = fc
    .tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
    )
    .map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`);
  const mangled = fc
    .tuple(dates, fc.nat({ max: 9 }), fc.constantFrom('/', 'x', ' ', '-', '0', ':', '\n'))
    .map(([text, at, char]) => text.slice(0, at) + char + text.slice(at + 1));

  it('accepts and refuses what the regular expression and Date did', () => {
    fc.assert(
      fc.property(fc.oneof(dates, mangled, fc.string({ maxLength: 12 }), fc.integer()), (data) => {
        assert.equal(accepted(data), reference(data));
      }),
      { numRuns: 20000 },
    );
  });

  it('counts leap years as the Gregorian calendar does, every year', () => {
    for (let year = 1; year <= 9999; year++) {
      for (const [month, day] of [
        [2, 29],
        [2, 28],
        [12, 31],
        [4, 31],
        [4, 30],
      ] as const) {
        assert.equal(
          isRealDate(year, month, day),
          reference(`${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`),
        );
      }
    }
  });
});
