import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineModel, models } from '@restframework/core';
import { assertImproperlyConfigured } from '@restframework/core/testing';
import { Book, Profile, User } from '../fixtures/library-models.ts';

describe('model declarations', () => {
  it('adds an automatic id primary key first', () => {
    assert.deepEqual(Object.keys(User.fields), [
      'id',
      'username',
      'first_name',
      'last_name',
      'email',
    ]);
    assert.equal(User.pk.name, 'id');
    assert.equal(User.pk.kind, 'auto');
  });

  it('names relation columns <name>_id and resolves forward references', () => {
    const owner = Book.fields.owner;
    assert.ok(owner);
    assert.equal(owner.attname, 'owner_id');
    assert.equal(owner.column, 'owner_id');
    assert.equal(owner.relatedModel, Profile);
    assert.equal(Book.getField('owner_id'), owner);
  });

  it('derives table and verbose names', () => {
    const m = defineModel({ name: 'BookProxy', fields: { a: models.IntegerField() } });
    assert.equal(m.table, 'book_proxy');
    assert.equal(m.verboseName, 'book proxy');
    assert.equal(m.verboseNamePlural, 'book proxys');
  });

  it('computes properties from a row', () => {
    assert.equal(
      User.properties.full_name.get({ first_name: 'Ada', last_name: 'Lovelace' }),
      'Ada Lovelace',
    );
  });

  it('rejects a char field without maxLength, naming model, field and fix', () => {
    assertImproperlyConfigured(
      () => defineModel({ name: 'Bad', fields: { title: models.CharField({} as never) } }),
      'REST_ERR_MODEL_FIELD',
      /Bad\.title: a CharField needs maxLength, for example models\.CharField\(\{ maxLength: 100 \}\)/,
    );
  });

  it('rejects an ordering on an unknown field', () => {
    assertImproperlyConfigured(
      () =>
        defineModel({ name: 'Bad', fields: { title: models.TextField() }, ordering: ['-nope'] }),
      'REST_ERR_MODEL_ORDERING',
      /Bad: ordering refers to the unknown field "nope"\. Use one of: id, title/,
    );
  });

  it('rejects a default that is not among the choices', () => {
    assertImproperlyConfigured(
      () =>
        defineModel({
          name: 'Bad',
          fields: {
            state: models.CharField({ maxLength: 10, choices: [['a', 'A']], default: 'b' }),
          },
        }),
      'REST_ERR_MODEL_FIELD',
      /Bad\.state: the default "b" is not among the choices \("a"\)/,
    );
  });

  it('rejects a relation to an unknown model when it is resolved', () => {
    const Bad = defineModel({
      name: 'Bad',
      fields: { other: models.ForeignKey(() => undefined as never, { onDelete: 'CASCADE' }) },
    });
    assertImproperlyConfigured(
      () => Bad.check(),
      'REST_ERR_MODEL_RELATION',
      /Bad\.other relates to an unknown model/,
    );
  });

  it('rejects decimal places beyond the digits, and SET_NULL without null', () => {
    assertImproperlyConfigured(
      () =>
        defineModel({
          name: 'Bad',
          fields: { p: models.DecimalField({ maxDigits: 2, decimalPlaces: 3 }) },
        }),
      'REST_ERR_MODEL_FIELD',
      /Bad\.p: decimalPlaces \(3\) cannot exceed maxDigits \(2\)/,
    );
    assertImproperlyConfigured(
      () =>
        defineModel({
          name: 'Bad',
          fields: { u: models.ForeignKey(User, { onDelete: 'SET_NULL' }) },
        }),
      'REST_ERR_MODEL_FIELD',
      /Bad\.u: onDelete: 'SET_NULL' needs null: true/,
    );
  });

  it('rejects names that are not plain identifiers', () => {
    assertImproperlyConfigured(
      () => defineModel({ name: 'Bad', fields: { 'drop table': models.TextField() } }),
      'REST_ERR_MODEL_NAME',
      /must be a plain identifier/,
    );
    assertImproperlyConfigured(
      () => defineModel({ name: 'Bad', table: 'x; drop', fields: {} }),
      'REST_ERR_MODEL_NAME',
      /its table name/,
    );
    assertImproperlyConfigured(
      () => defineModel({ name: 'Bad', fields: { a__b: models.TextField() } }),
      'REST_ERR_MODEL_FIELD',
      /may not contain "__"/,
    );
  });

  it('rejects a field object used by two models', () => {
    const shared = models.TextField();
    defineModel({ name: 'One', fields: { a: shared } });
    assertImproperlyConfigured(
      () => defineModel({ name: 'Two', fields: { a: shared } }),
      'REST_ERR_MODEL_FIELD',
      /reuses a field object already bound to One\.a/,
    );
  });

  it('rejects a property named like a field', () => {
    assertImproperlyConfigured(
      () =>
        defineModel({
          name: 'Bad',
          fields: { title: models.TextField() },
          properties: { title: { get: () => 1 } },
        }),
      'REST_ERR_MODEL_PROPERTY',
      /Bad\.title is both a field and a property/,
    );
  });
});
