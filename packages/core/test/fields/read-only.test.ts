import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EMPTY, ReadOnlyField } from '@restframework/core';
import { bindField, fieldValues, SKIPPED } from '@restframework/core/testing';

fieldValues('ReadOnlyField', {
  field: () => new ReadOnlyField(),
  // Read-only: input is ignored, whatever it is.
  validInputs: [
    [123, SKIPPED],
    ['abc', SKIPPED],
    [null, SKIPPED],
    [EMPTY, SKIPPED],
  ],
  outputs: [
    [123, 123],
    ['abc', 'abc'],
    [{ nested: [1, 2] }, { nested: [1, 2] }],
    [false, false],
  ],
});

describe('ReadOnlyField', () => {
  it('is read-only and not required', () => {
    const field = bindField(new ReadOnlyField({ source: 'user.full_name' }), 'name');
    assert.equal(field.readOnly, true);
    assert.equal(field.required, false);
    assert.deepEqual(field.sourceAttrs, ['user', 'full_name']);
    assert.equal(field.getAttribute({ user: { full_name: 'Ada' } }), 'Ada');
    assert.equal(field.getAttribute({ user: null }), null);
  });
});
