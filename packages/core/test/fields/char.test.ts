import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CharField, createFormInput, EMPTY } from '@restframework/core';
import { bindField, fieldValues, SKIPPED, testRunContext } from '@restframework/core/testing';

fieldValues('CharField', {
  field: () => new CharField(),
  validInputs: [
    ['abc', 'abc'],
    ['  abc  ', 'abc'],
    ['\tline one\nline two\n', 'line one\nline two'],
    [1, '1'],
    [1.5, '1.5'],
    [-0.25, '-0.25'],
    ['😀', '😀'],
  ],
  invalidInputs: [
    ['', ['This field may not be blank.']],
    ['   ', ['This field may not be blank.']],
    ['\n\t', ['This field may not be blank.']],
    [EMPTY, ['This field is required.']],
    [null, ['This field may not be null.']],
    [true, ['Not a valid string.']],
    [false, ['Not a valid string.']],
    [{ a: 1 }, ['Not a valid string.']],
    [['a'], ['Not a valid string.']],
    [Number.NaN, ['Not a valid string.']],
    [Number.POSITIVE_INFINITY, ['Not a valid string.']],
    ['a\0b', ['Null characters are not allowed.']],
    ['\ud800', ['Surrogate characters are not allowed: U+D800.']],
    ['x\udfffy', ['Surrogate characters are not allowed: U+DFFF.']],
  ],
  outputs: [
    ['abc', 'abc'],
    [1, '1'],
    ['  kept  ', '  kept  '],
  ],
});

fieldValues('CharField with allowBlank', {
  field: () => new CharField({ allowBlank: true }),
  validInputs: [
    ['', ''],
    ['   ', ''],
    [' a ', 'a'],
  ],
  invalidInputs: [[null, ['This field may not be null.']]],
});

fieldValues('CharField with allowNull', {
  field: () => new CharField({ allowNull: true }),
  validInputs: [[null, null]],
  // A blank string is not null: it needs allowBlank, as in DRF.
  invalidInputs: [['', ['This field may not be blank.']]],
});

fieldValues('CharField with trimWhitespace: false', {
  field: () => new CharField({ trimWhitespace: false }),
  validInputs: [
    ['  abc  ', '  abc  '],
    ['   ', '   '],
  ],
  invalidInputs: [['', ['This field may not be blank.']]],
});

fieldValues('CharField with maxLength and minLength', {
  field: () => new CharField({ maxLength: 3, minLength: 2 }),
  validInputs: [
    ['ab', 'ab'],
    ['abc', 'abc'],
    // Lengths count code points, as Python's len(): each emoji is one character.
    ['😀😀😀', '😀😀😀'],
    ['e\u0301e', 'e\u0301e'],
    [' abc ', 'abc'],
    [12, '12'],
  ],
  invalidInputs: [
    ['abcd', ['Ensure this field has no more than 3 characters.']],
    ['😀😀😀😀', ['Ensure this field has no more than 3 characters.']],
    ['a', ['Ensure this field has at least 2 characters.']],
    ['😀', ['Ensure this field has at least 2 characters.']],
    ['  a  ', ['Ensure this field has at least 2 characters.']],
    [1234, ['Ensure this field has no more than 3 characters.']],
    // Every validator runs; their messages are collected in order.
    [
      'ab\0cd',
      ['Ensure this field has no more than 3 characters.', 'Null characters are not allowed.'],
    ],
  ],
});

fieldValues('CharField with a default', {
  field: () => new CharField({ default: 'anonymous' }),
  validInputs: [
    [EMPTY, 'anonymous'],
    ['bob', 'bob'],
  ],
});

fieldValues('CharField not required, without a default', {
  field: () => new CharField({ required: false }),
  validInputs: [
    [EMPTY, SKIPPED],
    ['x', 'x'],
  ],
});

fieldValues('CharField in a partial run', {
  field: () => new CharField(),
  runContext: { partial: true },
  validInputs: [[EMPTY, SKIPPED]],
  invalidInputs: [['', ['This field may not be blank.']]],
});

fieldValues('CharField with errorMessages', {
  field: () =>
    new CharField({
      maxLength: 2,
      errorMessages: { blank: 'Say something.', max_length: 'At most {max_length}!' },
    }),
  invalidInputs: [
    ['', ['Say something.']],
    ['abc', ['At most 2!']],
    [EMPTY, ['This field is required.']],
  ],
});

describe('CharField in form input', () => {
  const run = (field: CharField, data: Record<string, unknown>) => {
    bindField(field, 'nickname');
    const ctx = testRunContext();
    return field.getValue(createFormInput(Object.entries(data)), ctx);
  };

  it('reads an empty value of a nullable field as null, or as blank when blank is allowed', () => {
    assert.equal(run(new CharField({ allowNull: true }), { nickname: '' }), null);
    assert.equal(run(new CharField({ allowNull: true, allowBlank: true }), { nickname: '' }), '');
    assert.equal(run(new CharField(), { nickname: '' }), '');
  });

  it('reads a missing key as not sent', () => {
    assert.equal(run(new CharField(), {}), EMPTY);
  });
});
