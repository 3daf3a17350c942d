import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EMPTY, IPAddressField } from '@restframework/core';
import { assertImproperlyConfigured, bindField, fieldValues } from '@restframework/core/testing';

fieldValues('IPAddressField', {
  field: () => new IPAddressField(),
  validInputs: [
    ['192.0.2.1', '192.0.2.1'],
    ['2001:0DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['::1', '::1'],
    ['::ffff:192.0.2.1', '::ffff:192.0.2.1'],
    ['::ffff:c000:0201', '::ffff:192.0.2.1'],
  ],
  invalidInputs: [
    ['192.0.2.256', ['Enter a valid IPv4 or IPv6 address.']],
    ['01.0.2.1', ['Enter a valid IPv4 or IPv6 address.']],
    ['1::2::3', ['Enter a valid IPv4 or IPv6 address.']],
    ['example.org', ['Enter a valid IPv4 or IPv6 address.']],
    [1234, ['Enter a valid IPv4 or IPv6 address.']],
    ['', ['This field may not be blank.']],
    [EMPTY, ['This field is required.']],
  ],
});

fieldValues('IPAddressField with unpackIpv4', {
  field: () => new IPAddressField({ unpackIpv4: true }),
  validInputs: [['::ffff:192.0.2.1', '192.0.2.1']],
});

fieldValues('IPAddressField for IPv4', {
  field: () => new IPAddressField({ protocol: 'IPv4' }),
  validInputs: [['10.0.0.1', '10.0.0.1']],
  invalidInputs: [
    ['::1', ['Enter a valid IPv4 address.']],
    ['abc', ['Enter a valid IPv4 address.']],
  ],
});

fieldValues('IPAddressField for IPv6', {
  field: () => new IPAddressField({ protocol: 'ipv6' }),
  validInputs: [['FE80::1', 'fe80::1']],
  invalidInputs: [
    ['10.0.0.1', ['Enter a valid IPv6 address.']],
    [':::', ['Enter a valid IPv4 or IPv6 address.']],
  ],
});

describe('IPAddressField', () => {
  it('fails at start-up on an unknown protocol or unpackIpv4 without both', () => {
    assertImproperlyConfigured(
      () => new IPAddressField({ protocol: 'ipv5' as never }),
      'REST_ERR_FIELD_OPTIONS',
      /protocol 'ipv5'/,
    );
    assertImproperlyConfigured(
      () => new IPAddressField({ protocol: 'IPv4', unpackIpv4: true }),
      'REST_ERR_FIELD_OPTIONS',
      /unpackIpv4 needs protocol 'both'/,
    );
  });

  it('names its format in OpenAPI when it takes one protocol', () => {
    assert.deepEqual(bindField(new IPAddressField({ protocol: 'IPv4' })).jsonSchema(), {
      type: 'string',
      format: 'ipv4',
    });
    assert.deepEqual(bindField(new IPAddressField()).jsonSchema(), { type: 'string' });
  });
});
