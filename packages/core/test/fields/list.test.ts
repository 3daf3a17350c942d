import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CharField,
  createFormInput,
  EMPTY,
  IntegerField,
  ListField,
  Serializer,
} from '@restframework/core';
import { bindField, fieldValues, testRunContext } from '@restframework/core/testing';

fieldValues('ListField of integers', {
  field: () => new ListField({ child: new IntegerField() }),
  validInputs: [
    [
      [1, 2, 3],
      [1, 2, 3],
    ],
    [
      ['1', '2', '3'],
      [1, 2, 3],
    ],
    [[], []],
  ],
  invalidInputs: [
    ['not a list', ['Expected a list of items but got type "str".']],
    [{ a: 1 }, ['Expected a list of items but got type "dict".']],
    [1, ['Expected a list of items but got type "int".']],
    [
      [1, 'x', 3, 'y'],
      { 1: ['A valid integer is required.'], 3: ['A valid integer is required.'] },
    ],
    [[1, null], { 1: ['This field may not be null.'] }],
    [null, ['This field may not be null.']],
    [EMPTY, ['This field is required.']],
  ],
  outputs: [
    [
      [1, 2, 3],
      [1, 2, 3],
    ],
    [
      [1, null],
      [1, null],
    ],
  ],
});

fieldValues('ListField without a child', {
  field: () => new ListField(),
  validInputs: [
    [
      [1, '2', null, { a: [1] }],
      [1, '2', null, { a: [1] }],
    ],
  ],
  invalidInputs: [['x', ['Expected a list of items but got type "str".']]],
});

fieldValues('ListField with allowEmpty, minLength, maxLength', {
  field: () =>
    new ListField({ child: new CharField(), allowEmpty: false, minLength: 2, maxLength: 3 }),
  validInputs: [
    [
      ['a', 'b'],
      ['a', 'b'],
    ],
    [
      [' a ', 'b', 'c'],
      ['a', 'b', 'c'],
    ],
  ],
  invalidInputs: [
    [[], ['This list may not be empty.']],
    [['a'], ['Ensure this field has at least 2 elements.']],
    [['a', 'b', 'c', 'd'], ['Ensure this field has no more than 3 elements.']],
    [['a', ''], { 1: ['This field may not be blank.'] }],
  ],
});

describe('ListField', () => {
  it("is described with its child in OPTIONS and as an array of the child's schema in OpenAPI", () => {
    const field = bindField(
      new ListField({ child: new IntegerField({ minValue: 0 }), maxLength: 5, allowEmpty: false }),
      'scores',
    );
    assert.deepEqual(field.jsonSchema({ mode: 'request' }), {
      type: 'array',
      items: { type: 'integer', minimum: 0 },
      minItems: 1,
      maxItems: 5,
    });
    const description = field.describe();
    assert.equal(description.type, 'list');
    assert.equal(description.max_length, 5);
    assert.equal((description.child as { type: string }).type, 'integer');
  });

  it("reads a form's indexed keys in index order, or its one key", async () => {
    const Tags = Serializer.with({ fields: { tags: new ListField({ child: new CharField() }) } });
    const indexed = new Tags({
      data: createFormInput([
        ['tags[1]', 'b'],
        ['tags[0]', 'a'],
      ]),
    });
    assert.equal(await indexed.isValid(), true);
    assert.deepEqual(indexed.validatedData, { tags: ['a', 'b'] });
    const one = new Tags({ data: createFormInput([['tags', 'a']]) });
    assert.equal(await one.isValid(), true);
    assert.deepEqual(one.validatedData, { tags: ['a'] });
    const none = new Tags({ data: createFormInput([]) });
    assert.equal(await none.isValid(), true);
    assert.deepEqual(none.validatedData, { tags: [] });
  });

  it('validates through a nested serializer child, errors under the index', async () => {
    const Point = Serializer.with({ fields: { x: new IntegerField() } });
    const field = bindField(new ListField({ child: new Point() }), 'points');
    await assert.rejects(
      async () => field.runValidation([{ x: 1 }, { x: 'a' }], testRunContext()),
      (error: { detail: unknown }) => {
        assert.deepEqual(error.detail, { 1: { x: ['A valid integer is required.'] } });
        return true;
      },
    );
  });

  it('each serializer class gets its own copy of the child', () => {
    const declared = new ListField({ child: new IntegerField() });
    const copy = declared.clone();
    assert.notEqual(copy.child, declared.child);
    assert.ok(copy.child instanceof IntegerField);
  });
});
