/** The serializer fields of the column kinds of issue 39: float, time, duration, UUID, slug, JSON. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createFormInput,
  DurationField,
  durationString,
  EMPTY,
  FloatField,
  JSONField,
  parseDuration,
  SlugField,
  TimeField,
  UUIDField,
  ValidationError,
} from '@restframework/core';
import { fieldValues } from '@restframework/core/testing';
import fc from 'fast-check';

const NUMBER = ['A valid number is required.'];
fieldValues('FloatField', {
  field: () => new FloatField({ minValue: -10, maxValue: 10 }),
  validInputs: [
    [1.5, 1.5],
    ['1.5', 1.5],
    [' -2e0 ', -2],
    ['.5', 0.5],
    [0, 0],
    [-0, 0],
  ],
  invalidInputs: [
    ['abc', NUMBER],
    ['', NUMBER],
    [true, NUMBER],
    [Number.NaN, NUMBER],
    [Number.POSITIVE_INFINITY, NUMBER],
    ['Infinity', NUMBER],
    ['1'.repeat(1001), ['String value too large.']],
    [11, ['Ensure this value is less than or equal to 10.']],
    [-11, ['Ensure this value is greater than or equal to -10.']],
    [null, ['This field may not be null.']],
    [EMPTY, ['This field is required.']],
  ],
  outputs: [
    [1.5, 1.5],
    ['2.25', 2.25],
  ],
});

const TIME = ['Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]].'];
fieldValues('TimeField', {
  field: () => new TimeField(),
  validInputs: [
    ['09:30', '09:30:00'],
    ['09:30:15', '09:30:15'],
    ['23:59:59.5', '23:59:59.500000'],
    ['00:00:00.000000', '00:00:00'],
    ['12:00:00.1234567', '12:00:00.123456'],
  ],
  invalidInputs: [
    ['24:00', TIME],
    ['9:30', TIME],
    ['12:60', TIME],
    ['noon', TIME],
    [930, TIME],
    [EMPTY, ['This field is required.']],
  ],
  outputs: [
    ['09:30:00', '09:30:00'],
    ['09:30:00.500000', '09:30:00.500000'],
  ],
});

const DURATION = [
  'Duration has wrong format. Use one of these formats instead: [DD] [HH:[MM:]]ss[.uuuuuu].',
];
const SECOND = 1_000_000;
fieldValues('DurationField', {
  field: () => new DurationField(),
  validInputs: [
    ['15', 15 * SECOND],
    ['1:30', 90 * SECOND],
    ['01:02:03', 3723 * SECOND],
    ['1 02:03:04.5', (86_400 + 7384) * SECOND + 500_000],
    ['3 days, 00:00:01', (3 * 86_400 + 1) * SECOND],
    ['-1 23:59:59', -SECOND],
    ['-00:00:01', -SECOND],
    ['P1DT2H', (86_400 + 7200) * SECOND],
    ['-PT1.5S', -1.5 * SECOND],
    ['PT15M', 900 * SECOND],
    [90, 90 * SECOND],
    [0.25, 250_000],
  ],
  invalidInputs: [
    ['soon', DURATION],
    ['P', DURATION],
    ['PT', DURATION],
    ['1:2:3:4', DURATION],
    [true, DURATION],
    ['999999 00:00:00', ['The number of days must be between -104249 and 104249.']],
    [EMPTY, ['This field is required.']],
  ],
  outputs: [
    [15 * SECOND, '00:00:15'],
    [(86_400 + 7384) * SECOND + 500_000, '1 02:03:04.500000'],
    [-SECOND, '-1 23:59:59'],
    [0, '00:00:00'],
  ],
});

describe('durationString and parseDuration', () => {
  it('read back what they write, for any whole number of microseconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 52), max: 2 ** 52 }), (micros) => {
        assert.equal(parseDuration(durationString(micros)), micros);
      }),
    );
  });
});

const UUID_TEXT = '6f1c7c6e-4b2e-4c5a-9d3e-1a2b3c4d5e6f';
fieldValues('UUIDField', {
  field: () => new UUIDField(),
  validInputs: [
    [UUID_TEXT, UUID_TEXT],
    [UUID_TEXT.toUpperCase(), UUID_TEXT],
    [UUID_TEXT.replaceAll('-', ''), UUID_TEXT],
    [`{${UUID_TEXT}}`, UUID_TEXT],
    [`urn:uuid:${UUID_TEXT}`, UUID_TEXT],
  ],
  invalidInputs: [
    ['6f1c7c6e', ['Must be a valid UUID.']],
    [`${UUID_TEXT}0`, ['Must be a valid UUID.']],
    [12, ['Must be a valid UUID.']],
    ['x'.repeat(100), ['Must be a valid UUID.']],
  ],
  outputs: [[UUID_TEXT.toUpperCase(), UUID_TEXT]],
});

const SLUG = ['Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'];
fieldValues('SlugField', {
  field: () => new SlugField({ maxLength: 5 }),
  validInputs: [
    ['a-b_c', 'a-b_c'],
    ['  ab  ', 'ab'],
  ],
  invalidInputs: [
    ['a b', SLUG],
    ['é', SLUG],
    ['a/b', SLUG],
    ['abcdef', ['Ensure this field has no more than 5 characters.']],
    ['', ['This field may not be blank.']],
  ],
  outputs: [['ab', 'ab']],
});

const JSON_INVALID = ['Value must be valid JSON.'];
fieldValues('JSONField', {
  field: () => new JSONField(),
  validInputs: [
    [{ a: [1, 'x', null, true] }, { a: [1, 'x', null, true] }],
    [[], []],
    ['text', 'text'],
    [3.5, 3.5],
    [false, false],
  ],
  invalidInputs: [
    [Number.NaN, JSON_INVALID],
    [{ a: Number.POSITIVE_INFINITY }, JSON_INVALID],
    [{ a: undefined }, JSON_INVALID],
    [new Date(0), JSON_INVALID],
    [null, ['This field may not be null.']],
  ],
  outputs: [[{ a: 1 }, { a: 1 }]],
});

fieldValues('JSONField with binary', {
  field: () => new JSONField({ binary: true }),
  validInputs: [
    ['{"a": 1}', { a: 1 }],
    ['"x"', 'x'],
  ],
  invalidInputs: [
    ['{a: 1}', JSON_INVALID],
    ['', JSON_INVALID],
  ],
  outputs: [[{ a: 1 }, { a: 1 }]],
});

describe('JSONField and form input', () => {
  it('parses the text a form sends', async () => {
    const field = new JSONField();
    field.bind('data', '', null);
    const ctx = { partial: false, context: {}, instance: undefined };
    const value = field.getValue(createFormInput([['data', '{"tags": ["a"]}']]), ctx);
    assert.deepEqual(await field.runValidation(value, ctx), { tags: ['a'] });
    const bad = field.getValue(createFormInput([['data', '{tags']]), ctx);
    await assert.rejects(async () => field.runValidation(bad, ctx));
  });
});

describe('the new fields and any input', () => {
  it('answer a value or a ValidationError, never another error', async () => {
    const fields = [
      new FloatField(),
      new TimeField(),
      new DurationField(),
      new UUIDField(),
      new SlugField({ maxLength: 50 }),
      new JSONField(),
      new JSONField({ binary: true }),
    ];
    for (const field of fields) field.bind('value', '', null);
    const ctx = { partial: false, context: {}, instance: undefined };
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.anything(), fc.string(), fc.stringMatching(/^[-P0-9T:. DHMS,a-f{}]{0,40}$/)),
        async (input) => {
          for (const field of fields) {
            try {
              await field.runValidation(input, ctx);
            } catch (error) {
              assert.ok(
                error instanceof ValidationError,
                `${field.constructor.name}: ${String(error)}`,
              );
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
