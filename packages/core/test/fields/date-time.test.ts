import { DateTimeField, EMPTY } from '@restframework/core';
import { fieldValues } from '@restframework/core/testing';

const WRONG_FORMAT = [
  'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
];

fieldValues('DateTimeField', {
  field: () => new DateTimeField(),
  validInputs: [
    ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05.000Z'],
    ['2024-01-02T03:04:05z', '2024-01-02T03:04:05.000Z'],
    ['2024-01-02T03:04:05.123Z', '2024-01-02T03:04:05.123Z'],
    // Microseconds are kept to the millisecond (a JavaScript Date's precision).
    ['2024-01-02T03:04:05.123456Z', '2024-01-02T03:04:05.123Z'],
    ['2024-01-02T03:04:05,5Z', '2024-01-02T03:04:05.500Z'],
    // Offsets are converted to UTC.
    ['2024-01-02T05:04:05+02:00', '2024-01-02T03:04:05.000Z'],
    ['2024-01-02T05:04:05+0200', '2024-01-02T03:04:05.000Z'],
    ['2024-01-02T05:04:05+02', '2024-01-02T03:04:05.000Z'],
    ['2024-01-01T23:30:00-05:30', '2024-01-02T05:00:00.000Z'],
    ['2024-01-02T03:04:05+00:00', '2024-01-02T03:04:05.000Z'],
    // A naive time is UTC (the default TIME_ZONE of a DRF project).
    ['2024-01-02T03:04:05', '2024-01-02T03:04:05.000Z'],
    ['2024-01-02 03:04:05', '2024-01-02T03:04:05.000Z'],
    ['2024-01-02T03:04', '2024-01-02T03:04:00.000Z'],
    ['  2024-01-02T03:04:05Z  ', '2024-01-02T03:04:05.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['0050-06-01T00:00:00Z', '0050-06-01T00:00:00.000Z'],
  ],
  invalidInputs: [
    ['abc', WRONG_FORMAT],
    ['', WRONG_FORMAT],
    ['2024-01-02', WRONG_FORMAT],
    ['2024-13-02T03:04:05Z', WRONG_FORMAT],
    ['2023-02-29T03:04:05Z', WRONG_FORMAT],
    ['2024-01-02T24:00:00Z', WRONG_FORMAT],
    ['2024-01-02T03:60:00Z', WRONG_FORMAT],
    ['2024-01-02T03:04:60Z', WRONG_FORMAT],
    ['2024-01-02T03:04:05+24:00', WRONG_FORMAT],
    ['2024-01-02T03:04:05 UTC', WRONG_FORMAT],
    ['0001-01-01T00:00:00+01:00', ['Datetime value out of range.']],
    ['9999-12-31T23:00:00-05:00', ['Datetime value out of range.']],
    [1704164645000, WRONG_FORMAT],
    [true, WRONG_FORMAT],
    [null, ['This field may not be null.']],
    [EMPTY, ['This field is required.']],
  ],
  outputs: [
    // UTC with Z and always the fraction in microseconds (DRF drops a zero fraction; one shape
    // for every value lets a client parse them alike, issue 42).
    ['2024-01-02T03:04:05.000Z', '2024-01-02T03:04:05.000000Z'],
    ['2024-01-02T03:04:05.123Z', '2024-01-02T03:04:05.123000Z'],
    ['2024-01-02T03:04:05.001Z', '2024-01-02T03:04:05.001000Z'],
    [new Date('2024-01-02T03:04:05Z'), '2024-01-02T03:04:05.000000Z'],
    ['2024-01-02T05:04:05+02:00', '2024-01-02T03:04:05.000000Z'],
  ],
});
