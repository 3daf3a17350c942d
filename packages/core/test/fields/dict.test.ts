import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFormInput, DictField, EMPTY, IntegerField, Serializer } from '@restframework/core';
import { bindField, fieldValues } from '@restframework/core/testing';

fieldValues('DictField of integers', {
  field: () => new DictField({ child: new IntegerField() }),
  validInputs: [
    [
      { a: 1, b: '2' },
      { a: 1, b: 2 },
    ],
    [{}, {}],
  ],
  invalidInputs: [
    [[], ['Expected a dictionary of items but got type "list".']],
    ['x', ['Expected a dictionary of items but got type "str".']],
    [1.5, ['Expected a dictionary of items but got type "float".']],
    [{ a: 1, b: 'x' }, { b: ['A valid integer is required.'] }],
    [null, ['This field may not be null.']],
    [EMPTY, ['This field is required.']],
  ],
  outputs: [
    [
      { a: 1, b: null },
      { a: 1, b: null },
    ],
  ],
});

fieldValues('DictField with allowEmpty: false', {
  field: () => new DictField({ allowEmpty: false }),
  validInputs: [[{ a: [1] }, { a: [1] }]],
  invalidInputs: [[{}, ['This dictionary may not be empty.']]],
});

describe('DictField', () => {
  it('keeps a key named __proto__ as a plain key', async () => {
    const field = bindField(new DictField({ child: new IntegerField() }));
    const input = JSON.parse('{"__proto__": "1", "b": 2}');
    const value = (await field.runValidation(input, {
      partial: false,
      context: {},
      instance: undefined,
    })) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.deepEqual(Object.keys(value), ['__proto__', 'b']);
    assert.equal(Object.getOwnPropertyDescriptor(value, '__proto__')?.value, 1);
  });

  it("reads a form's dotted keys", async () => {
    const Limits = Serializer.with({
      fields: { limits: new DictField({ child: new IntegerField() }) },
    });
    const serializer = new Limits({
      data: createFormInput([
        ['limits.a', '1'],
        ['limits.b', '2'],
      ]),
    });
    assert.equal(await serializer.isValid(), true);
    assert.deepEqual(serializer.validatedData, { limits: { a: 1, b: 2 } });
  });

  it("is an object of the child's schema in OpenAPI", () => {
    const field = bindField(new DictField({ child: new IntegerField(), allowEmpty: false }));
    assert.deepEqual(field.jsonSchema(), {
      type: 'object',
      additionalProperties: { type: 'integer' },
      minProperties: 1,
    });
    assert.equal(field.describe().type, 'dict');
  });
});
