import { DateField, EMPTY } from '@restframework/core';
import { fieldValues } from '@restframework/core/testing';

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
