import { EMPTY, EmailField } from '@restframework/core';
import { fieldValues } from '@restframework/core/testing';

fieldValues('EmailField', {
  field: () => new EmailField(),
  validInputs: [
    ['example@example.com', 'example@example.com'],
    ['  example@example.com  ', 'example@example.com'],
    ['first.last+tag@sub.example.org', 'first.last+tag@sub.example.org'],
  ],
  invalidInputs: [
    ['examplecom', ['Enter a valid email address.']],
    ['example@', ['Enter a valid email address.']],
    ['@example.com', ['Enter a valid email address.']],
    ['a b@example.com', ['Enter a valid email address.']],
    ['a@b@example.com', ['Enter a valid email address.']],
    ['', ['This field may not be blank.']],
    [EMPTY, ['This field is required.']],
    [null, ['This field may not be null.']],
    // EmailField's own 'invalid' message replaces CharField's "Not a valid string.", as in DRF.
    [true, ['Enter a valid email address.']],
    [{ email: 'a@b.org' }, ['Enter a valid email address.']],
    ['a\0b@example.com', ['Null characters are not allowed.', 'Enter a valid email address.']],
  ],
  outputs: [['example@example.com', 'example@example.com']],
});

fieldValues('EmailField with maxLength', {
  field: () => new EmailField({ maxLength: 10 }),
  validInputs: [['a@b.com', 'a@b.com']],
  invalidInputs: [
    ['abcdef@example.com', ['Ensure this field has no more than 10 characters.']],
    // DRF runs the e-mail check as one more validator: both messages are reported.
    [
      'not-an-email-address',
      ['Ensure this field has no more than 10 characters.', 'Enter a valid email address.'],
    ],
  ],
});

fieldValues('EmailField with allowBlank', {
  field: () => new EmailField({ allowBlank: true }),
  validInputs: [['', '']],
});
