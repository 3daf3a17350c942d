/**
 * The per-class part of the browsable API's forms: built once per prepared serializer class,
 * shared by every page, and what the create forms start with.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CharField, ChoiceField, FileField, IntegerField, Serializer } from '@restframework/core';
import { formSkeleton } from '@restframework/core/internal';

class AddressSerializer extends Serializer.with({
  fields: {
    city: new CharField({ maxLength: 40, default: 'Paris' }),
    zip: new CharField({ maxLength: 10 }),
  },
}) {}

class PersonSerializer extends Serializer.with({
  fields: {
    id: new IntegerField({ readOnly: true }),
    name: new CharField({ maxLength: 40 }),
    role: new ChoiceField({ choices: ['author', 'editor'] }),
    age: new IntegerField({ required: false }),
    address: new AddressSerializer(),
  },
}) {}

class ResumeSerializer extends Serializer.with({
  fields: {
    name: new CharField({ maxLength: 40 }),
    file: new FileField(),
  },
}) {}

describe('form skeleton', () => {
  it('is built once per serializer class and shared by its instances', () => {
    const first = formSkeleton(new PersonSerializer().prepared);
    assert.equal(formSkeleton(new PersonSerializer().prepared), first);
    assert.notEqual(formSkeleton(new ResumeSerializer().prepared), first);
    assert.ok(Object.isFrozen(first));
    assert.ok(Object.isFrozen(first.defaults));
  });

  it('holds the declared defaults, nested like the data', () => {
    assert.deepEqual(formSkeleton(new PersonSerializer().prepared).defaults, {
      address: { city: 'Paris' },
    });
  });

  it('starts a create body with every writable field an untouched form must fill', () => {
    // Read-only fields and optional numbers without a default are left out; choices start at
    // their first value, text empty, nested serializers nested.
    assert.deepEqual(JSON.parse(formSkeleton(new PersonSerializer().prepared).createBody), {
      name: '',
      role: 'author',
      address: { city: 'Paris', zip: '' },
    });
  });

  it('knows when a form must be multipart', () => {
    assert.equal(formSkeleton(new PersonSerializer().prepared).hasFile, false);
    assert.equal(formSkeleton(new ResumeSerializer().prepared).hasFile, true);
    assert.doesNotMatch(formSkeleton(new ResumeSerializer().prepared).createBody, /"file"/);
  });
});
