import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EMPTY, RegexField } from '@restframework/core';
import { bindField, fieldValues } from '@restframework/core/testing';

fieldValues('RegexField', {
  field: () => new RegexField({ regex: /^[a-z]+\d$/, maxLength: 5 }),
  validInputs: [
    ['abc1', 'abc1'],
    [' abc1 ', 'abc1'],
  ],
  invalidInputs: [
    ['ABC1', ['This value does not match the required pattern.']],
    [
      'abcdefgh',
      [
        'Ensure this field has no more than 5 characters.',
        'This value does not match the required pattern.',
      ],
    ],
    ['', ['This field may not be blank.']],
    // DRF's quirk: RegexField's `invalid` message replaces CharField's for a non-string too.
    [[], ['This value does not match the required pattern.']],
    [EMPTY, ['This field is required.']],
  ],
});

fieldValues('RegexField from a string searches, as Django', {
  field: () => new RegexField({ regex: '\\d{3}' }),
  validInputs: [['tel 123 x', 'tel 123 x']],
  invalidInputs: [['12', ['This value does not match the required pattern.']]],
});

describe('RegexField', () => {
  it('answers the same for the same input (a global flag keeps no state)', async () => {
    const field = bindField(new RegexField({ regex: /a/g }));
    const ctx = { partial: false, context: {}, instance: undefined };
    for (let i = 0; i < 3; i++) assert.equal(await field.runValidation('a', ctx), 'a');
  });

  it('shows its pattern in OpenAPI and OPTIONS', () => {
    const field = bindField(new RegexField({ regex: /^\d+$/ }));
    assert.deepEqual(field.jsonSchema(), { type: 'string', pattern: '^\\d+$' });
    assert.equal(field.describe().pattern, '^\\d+$');
  });
});
