import { EMPTY, IntegerField } from '@restframework/core';
import { fieldValues } from '@restframework/core/testing';

fieldValues('IntegerField', {
  field: () => new IntegerField(),
  validInputs: [
    [1, 1],
    [0, 0],
    [-7, -7],
    [1.0, 1],
    ['1', 1],
    ['12', 12],
    ['12.0', 12],
    ['12.', 12],
    ['-12', -12],
    ['+12', 12],
    ['  12  ', 12],
    ['0.000', 0],
    [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    [String(Number.MIN_SAFE_INTEGER), Number.MIN_SAFE_INTEGER],
  ],
  invalidInputs: [
    [1.5, ['A valid integer is required.']],
    ['1.5', ['A valid integer is required.']],
    ['abc', ['A valid integer is required.']],
    ['many', ['A valid integer is required.']],
    ['', ['A valid integer is required.']],
    ['1e3', ['A valid integer is required.']],
    ['0x10', ['A valid integer is required.']],
    ['1 2', ['A valid integer is required.']],
    [true, ['A valid integer is required.']],
    [false, ['A valid integer is required.']],
    [[1], ['A valid integer is required.']],
    [{ value: 1 }, ['A valid integer is required.']],
    [Number.NaN, ['A valid integer is required.']],
    [Number.POSITIVE_INFINITY, ['A valid integer is required.']],
    // Without a range, a number past 2^53 cannot be held exactly: refused, not rounded.
    ['99999999999999999999', ['A valid integer is required.']],
    [1e20, ['A valid integer is required.']],
    ['1'.repeat(1001), ['String value too large.']],
    [null, ['This field may not be null.']],
    [EMPTY, ['This field is required.']],
  ],
  outputs: [
    [1, 1],
    ['1', 1],
    [0, 0],
    [-3, -3],
  ],
});

fieldValues('IntegerField with a range', {
  field: () => new IntegerField({ minValue: 0, maxValue: 2147483647 }),
  validInputs: [
    [0, 0],
    ['2147483647', 2147483647],
    // -0 is 0.
    ['-0', 0],
  ],
  invalidInputs: [
    [-1, ['Ensure this value is greater than or equal to 0.']],
    ['-1', ['Ensure this value is greater than or equal to 0.']],
    [2147483648, ['Ensure this value is less than or equal to 2147483647.']],
    // Huge numeric strings get the range message, as DRF's unbounded int does.
    ['99999999999999999999', ['Ensure this value is less than or equal to 2147483647.']],
    ['-99999999999999999999', ['Ensure this value is greater than or equal to 0.']],
    ['1'.repeat(1000), ['Ensure this value is less than or equal to 2147483647.']],
  ],
});

fieldValues('IntegerField with allowNull', {
  field: () => new IntegerField({ allowNull: true }),
  validInputs: [[null, null]],
  invalidInputs: [['', ['A valid integer is required.']]],
});

fieldValues('IntegerField with a default', {
  field: () => new IntegerField({ default: 200 }),
  validInputs: [
    [EMPTY, 200],
    ['5', 5],
  ],
});
