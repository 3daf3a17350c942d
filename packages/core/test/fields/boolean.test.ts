import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BooleanField, createFormInput, EMPTY } from '@restframework/core';
import { bindField, fieldValues, testRunContext } from '@restframework/core/testing';

const TRUE_SPELLINGS = ['t', 'T', 'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE'];
const FALSE_SPELLINGS = ['f', 'F', 'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE'];

fieldValues('BooleanField', {
  field: () => new BooleanField(),
  validInputs: [
    ...TRUE_SPELLINGS.map((s) => [s, true] as const),
    ...['on', 'On', 'ON', '1'].map((s) => [s, true] as const),
    [1, true],
    [1.0, true],
    [true, true],
    ...FALSE_SPELLINGS.map((s) => [s, false] as const),
    ...['off', 'Off', 'OFF', '0'].map((s) => [s, false] as const),
    [0, false],
    [false, false],
  ],
  invalidInputs: [
    ['foo', ['Must be a valid boolean.']],
    ['', ['Must be a valid boolean.']],
    ['tRuE', ['Must be a valid boolean.']],
    [' true', ['Must be a valid boolean.']],
    ['null', ['Must be a valid boolean.']],
    [2, ['Must be a valid boolean.']],
    [0.5, ['Must be a valid boolean.']],
    [[], ['Must be a valid boolean.']],
    [{}, ['Must be a valid boolean.']],
    [null, ['This field may not be null.']],
    [EMPTY, ['This field is required.']],
  ],
  outputs: [
    [true, true],
    [false, false],
    ['true', true],
    ['false', false],
    [1, true],
    [0, false],
    // Anything else is rendered by its truthiness, as Python's bool() does.
    ['other', true],
    ['', false],
  ],
});

fieldValues('BooleanField with allowNull', {
  field: () => new BooleanField({ allowNull: true }),
  validInputs: [
    [null, null],
    ['null', null],
    ['Null', null],
    ['NULL', null],
    ['', null],
    ['yes', true],
    ['no', false],
  ],
  invalidInputs: [['maybe', ['Must be a valid boolean.']]],
});

describe('BooleanField in form input', () => {
  it('reads an unchecked (absent) checkbox as false', () => {
    const field = bindField(new BooleanField(), 'in_print');
    assert.equal(field.getValue(createFormInput(), testRunContext()), false);
  });

  it('reads an absent value of a nullable boolean as null, a sent one as sent', () => {
    const field = bindField(new BooleanField({ allowNull: true }), 'in_print');
    assert.equal(field.getValue(createFormInput(), testRunContext()), null);
    assert.equal(field.getValue(createFormInput([['in_print', 'on']]), testRunContext()), 'on');
    assert.equal(field.getValue(createFormInput([['in_print', '']]), testRunContext()), null);
  });

  it('leaves an absent checkbox out of a partial update', () => {
    const field = bindField(new BooleanField(), 'in_print');
    assert.equal(field.getValue(createFormInput(), testRunContext({ partial: true })), EMPTY);
  });
});
