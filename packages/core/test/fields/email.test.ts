import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EMPTY, EmailField } from '@restframework/core';
import { isEmailAddress } from '@restframework/core/internal';
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

// Django's EmailValidator: the local part is ASCII (dot-atom or quoted string), the domain may
// be an IDN (or its punycode), an IP literal in brackets, or `localhost`. `ü@exämple.com` was
// accepted (issue 37).
fieldValues('EmailField as Django validates addresses', {
  field: () => new EmailField(),
  validInputs: [
    ['email@exämple.com', 'email@exämple.com'],
    ['email@xn--exmple-cua.com', 'email@xn--exmple-cua.com'],
    ['email@[127.0.0.1]', 'email@[127.0.0.1]'],
    ['email@localhost', 'email@localhost'],
    ['"quoted@local"@example.com', '"quoted@local"@example.com'],
  ],
  invalidInputs: [
    ['ü@exämple.com', ['Enter a valid email address.']],
    ['jörg@example.com', ['Enter a valid email address.']],
    ['email@127.0.0.1', ['Enter a valid email address.']],
    ['"a b"@example.com', ['Enter a valid email address.']],
    ['email@😀.com', ['Enter a valid email address.']],
    ['email@example.xn1234', ['Enter a valid email address.']],
  ],
});

describe("isEmailAddress: Django's own valid and invalid examples", () => {
  // The values of Django's tests/validators/tests.py (TEST_DATA, validate_email), written out.
  const valid = [
    'email@here.com',
    'weirder-email@here.and.there.com',
    'email@[127.0.0.1]',
    'email@[2001:dB8::1]',
    'email@[2001:dB8:0:0:0:0:0:1]',
    'email@[::fffF:127.0.0.1]',
    'example@valid-----hyphens.com',
    'example@valid-with-hyphens.com',
    'test@domain.with.idn.tld.उदाहरण.परीक्षा',
    'email@localhost',
    '"test@test"@example.com',
    `example@atm.${'a'.repeat(63)}`,
    `example@${'a'.repeat(63)}.atm`,
    `example@${'a'.repeat(63)}.${'b'.repeat(10)}.atm`,
    'email@xn--4ca9at.com',
    'email@öäü.com',
    'email@עִתוֹן.example.il',
    'email@މިހާރު.example.mv',
    'email@漢字.example.com',
    'editor@މިހާރު.example.mv',
    '"\\\t"@here.com',
    `a@${'a'.repeat(63)}.us`,
  ];
  const invalid = [
    `example@atm.${'a'.repeat(64)}`,
    `example@${'b'.repeat(64)}.atm.${'a'.repeat(63)}`,
    `example@${`${'a'.repeat(63)}.`.repeat(100)}com`,
    '',
    'abc',
    'abc@',
    'abc@bar',
    'a @x.cz',
    'abc@.com',
    'something@@somewhere.com',
    'email@127.0.0.1',
    'email@[127.0.0.256]',
    'email@[2001:db8::12345]',
    'email@[2001:db8:0:0:0:0:1]',
    'email@[::ffff:127.0.0.256]',
    'email@[2001:dg8::1]',
    'email@[2001:dG8:0:0:0:0:0:1]',
    'email@[::fTzF:127.0.0.1]',
    'example@invalid-.com',
    'example@-invalid.com',
    'example@invalid.com-',
    'example@inv-.alid-.com',
    'example@inv-.-alid.com',
    'test@example.com\n\n<script src="x.js">',
    '@domain.com',
    'email.domain.com',
    'email@domain@domain.com',
    'email@domain..com',
    'email@.domain.com',
    'email@-domain.com',
    'email@domain-.com',
    'email@domain.com-',
    '"\\\n"@here.com',
    'trailingdot@shouldfail.com.',
    `a@${'a'.repeat(64)}.us`,
    'a@b.com\n',
    'a\n@b.com',
    '"test@test"\n@example.com',
    'a@[127.0.0.1]\n',
  ];
  it('accepts every address Django accepts', () => {
    for (const address of valid)
      assert.equal(isEmailAddress(address), true, JSON.stringify(address));
  });
  it('refuses every address Django refuses', () => {
    for (const address of invalid)
      assert.equal(isEmailAddress(address), false, JSON.stringify(address));
  });
  it('takes the domains of its allowlist, and only those, without a top-level domain', () => {
    assert.equal(isEmailAddress('email@localdomain', { allowlist: ['localdomain'] }), true);
    assert.equal(isEmailAddress('email@localhost', { allowlist: ['localdomain'] }), false);
    assert.equal(isEmailAddress('ü@localhost'), false);
  });
});
