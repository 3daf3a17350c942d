/**
 * `describe()` (the OPTIONS metadata of a field) and labels, as DRF's SimpleMetadata gives
 * them: `type`, `required`, `read_only`, `label`, then the attributes the field has.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type AnyField,
  BooleanField,
  CharField,
  ChoiceField,
  DateField,
  DateTimeField,
  DecimalField,
  EmailField,
  FileField,
  IntegerField,
  ListSerializer,
  ReadOnlyField,
  Serializer,
  URLField,
} from '@restframework/core';
import { labelFromName } from '@restframework/core/internal';
import { bindField } from '@restframework/core/testing';

const described = (field: AnyField, name = 'f') => bindField(field, name).describe();

describe('labels', () => {
  it('derive from the field name as DRF does', () => {
    assert.equal(labelFromName('publication_date'), 'Publication date');
    assert.equal(labelFromName('id'), 'ID');
    assert.equal(labelFromName('title'), 'Title');
    assert.equal(labelFromName('stock_information'), 'Stock information');
  });

  it('are set when a field is bound, unless given', () => {
    assert.equal(bindField(new DateField(), 'publication_date').label, 'Publication date');
    assert.equal(bindField(new IntegerField(), 'id').label, 'ID');
    assert.equal(bindField(new CharField({ label: 'Book title' }), 'title').label, 'Book title');
  });
});

describe('describe()', () => {
  it('gives type, required, read_only and label, in that order', () => {
    const description = described(new CharField(), 'title');
    assert.deepEqual(description, {
      type: 'string',
      required: true,
      read_only: false,
      label: 'Title',
    });
    assert.deepEqual(Object.keys(description), ['type', 'required', 'read_only', 'label']);
  });

  it('adds help_text, min_length and max_length after them', () => {
    const description = described(
      new CharField({ helpText: 'The title.', minLength: 1, maxLength: 100, required: false }),
      'title',
    );
    assert.deepEqual(Object.keys(description), [
      'type',
      'required',
      'read_only',
      'label',
      'help_text',
      'min_length',
      'max_length',
    ]);
    assert.deepEqual(description, {
      type: 'string',
      required: false,
      read_only: false,
      label: 'Title',
      help_text: 'The title.',
      min_length: 1,
      max_length: 100,
    });
  });

  it('gives min_value and max_value of integers', () => {
    const description = described(new IntegerField({ minValue: 0, maxValue: 10 }), 'pages');
    assert.deepEqual(Object.entries(description), [
      ['type', 'integer'],
      ['required', true],
      ['read_only', false],
      ['label', 'Pages'],
      ['min_value', 0],
      ['max_value', 10],
    ]);
  });

  it('gives min_value, max_value, max_digits and decimal_places of decimals', () => {
    const description = described(
      new DecimalField({ maxDigits: 10, decimalPlaces: 2, minValue: '0', maxValue: 1000 }),
      'price',
    );
    assert.deepEqual(Object.entries(description), [
      ['type', 'decimal'],
      ['required', true],
      ['read_only', false],
      ['label', 'Price'],
      ['min_value', '0'],
      ['max_value', 1000],
      ['max_digits', 10],
      ['decimal_places', 2],
    ]);
  });

  it('puts choices last', () => {
    const description = described(
      new ChoiceField({ choices: [['a', 'A']], helpText: 'Pick one.' }),
      'state',
    );
    assert.deepEqual(Object.keys(description), [
      'type',
      'required',
      'read_only',
      'label',
      'help_text',
      'choices',
    ]);
  });

  it('names each field kind as DRF does', () => {
    const types = {
      boolean: new BooleanField(),
      string: new CharField(),
      choice: new ChoiceField({ choices: ['a'] }),
      date: new DateField(),
      datetime: new DateTimeField(),
      decimal: new DecimalField({ maxDigits: 5, decimalPlaces: 2 }),
      email: new EmailField(),
      'file upload': new FileField(),
      integer: new IntegerField(),
      field: new ReadOnlyField(),
      url: new URLField(),
    };
    for (const [type, field] of Object.entries(types)) {
      assert.equal(described(field).type, type, field.constructor.name);
    }
  });

  it('gives a file field its max_length', () => {
    assert.deepEqual(described(new FileField({ maxLength: 100 }), 'upload'), {
      type: 'file upload',
      required: true,
      read_only: false,
      label: 'Upload',
      max_length: 100,
    });
  });

  it('shows read-only and not-required fields', () => {
    assert.deepEqual(described(new DateTimeField({ readOnly: true }), 'created'), {
      type: 'datetime',
      required: false,
      read_only: true,
      label: 'Created',
    });
    assert.equal(described(new BooleanField({ default: true })).required, false);
  });

  it('nests the children of a serializer, and the child of a list', () => {
    const Address = Serializer.with({
      fields: {
        city: new CharField({ maxLength: 50 }),
        zip: new IntegerField({ required: false }),
      },
    });
    assert.deepEqual(described(new Address(), 'address'), {
      type: 'nested object',
      required: true,
      read_only: false,
      label: 'Address',
      children: {
        city: { type: 'string', required: true, read_only: false, label: 'City', max_length: 50 },
        zip: { type: 'integer', required: false, read_only: false, label: 'Zip' },
      },
    });
    const list = new ListSerializer({ child: new Address() });
    const description = described(list, 'addresses');
    assert.equal(description.type, 'list');
    assert.equal(description.label, 'Addresses');
    assert.deepEqual(Object.keys(description.child as object), [
      'type',
      'required',
      'read_only',
      'label',
      'children',
    ]);
  });
});
