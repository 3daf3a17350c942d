import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Database,
  defineModel,
  EMPTY,
  ImproperlyConfigured,
  models,
  PrimaryKeyRelatedField,
  type Row,
} from '@restframework/core';
import { bindField, fieldValues, testDialects } from '@restframework/core/testing';
import { ALL_MODELS, Profile, User } from '../fixtures/library-models.ts';

/** A model whose primary key is text. */
const Code = defineModel({
  name: 'Code',
  table: 'pk_code',
  fields: { code: models.CharField({ maxLength: 10, primaryKey: true }) },
});

for (const dialect of testDialects()) {
  describe(`PrimaryKeyRelatedField on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let alice: Row<typeof Profile>;

    before(async () => {
      db = await dialect.create();
      await db.migrate([...ALL_MODELS, Code]);
      const user = await User.objects.using(db).create({ username: 'alice' });
      alice = await Profile.objects.using(db).create({ user_id: user.id, nickname: 'al' });
      assert.equal(alice.id, 1);
      await Code.objects.using(db).create({ code: '007' });
      await Code.objects.using(db).create({ code: '7' });
    });
    after(() => dialect.drop(db));

    const profiles = () => Profile.objects.using(db);

    fieldValues('with a queryset', {
      field: () => new PrimaryKeyRelatedField({ queryset: profiles() }),
      validInputs: [
        // The validated value is the related row.
        [1, { id: 1, user_id: 1, biography: '', nickname: 'al' }],
        ['1', { id: 1, user_id: 1, biography: '', nickname: 'al' }],
        [' 1 ', { id: 1, user_id: 1, biography: '', nickname: 'al' }],
        ['+1', { id: 1, user_id: 1, biography: '', nickname: 'al' }],
      ],
      invalidInputs: [
        [99, ['Invalid pk "99" - object does not exist.']],
        ['99', ['Invalid pk "99" - object does not exist.']],
        [0, ['Invalid pk "0" - object does not exist.']],
        [-1, ['Invalid pk "-1" - object does not exist.']],
        // Past 2^53 no stored key can be the one sent.
        ['99999999999999999999', ['Invalid pk "99999999999999999999" - object does not exist.']],
        [true, ['Incorrect type. Expected pk value, received bool.']],
        [false, ['Incorrect type. Expected pk value, received bool.']],
        [1.5, ['Incorrect type. Expected pk value, received float.']],
        [[1], ['Incorrect type. Expected pk value, received list.']],
        [{ id: 1 }, ['Incorrect type. Expected pk value, received dict.']],
        // An integer key cannot be text: int('abc') fails in DRF with the same message.
        ['abc', ['Incorrect type. Expected pk value, received str.']],
        ['1.5', ['Incorrect type. Expected pk value, received str.']],
        ['', ['Incorrect type. Expected pk value, received str.']],
        [null, ['This field may not be null.']],
        [EMPTY, ['This field is required.']],
      ],
      outputs: [
        [1, 1],
        [{ id: 7, nickname: 'x' }, 7],
      ],
    });

    fieldValues('with a text primary key', {
      field: () => new PrimaryKeyRelatedField({ queryset: Code.objects.using(db) }),
      validInputs: [
        ['007', { code: '007' }],
        [7, { code: '7' }],
        ['7', { code: '7' }],
      ],
      invalidInputs: [
        ['abc', ['Invalid pk "abc" - object does not exist.']],
        [true, ['Incorrect type. Expected pk value, received bool.']],
      ],
      outputs: [[{ code: '007' }, '007']],
    });

    fieldValues('with allowNull', {
      field: () => new PrimaryKeyRelatedField({ queryset: profiles(), allowNull: true }),
      validInputs: [[null, null]],
    });

    fieldValues('limited by its queryset', {
      field: () =>
        new PrimaryKeyRelatedField({ queryset: profiles().filter({ nickname: 'someone else' }) }),
      invalidInputs: [[1, ['Invalid pk "1" - object does not exist.']]],
    });

    it('reads the key column of a relation, without loading the related row', () => {
      const field = new PrimaryKeyRelatedField({ queryset: User.objects.all() });
      field.bind('user', 'ProfileSerializer', Profile);
      assert.equal(field.relatedPath, undefined);
      assert.equal(field.getAttribute({ id: 1, user_id: 5 }), 5);
    });

    it('describes itself as a plain field', () => {
      const field = bindField(new PrimaryKeyRelatedField({ queryset: profiles() }), 'owner');
      assert.deepEqual(field.describe(), {
        type: 'field',
        required: true,
        read_only: false,
        label: 'Owner',
      });
    });
  });
}

describe('PrimaryKeyRelatedField options', () => {
  it('needs a queryset unless it is read-only', () => {
    assert.throws(() => new PrimaryKeyRelatedField(), ImproperlyConfigured);
    assert.doesNotThrow(() => new PrimaryKeyRelatedField({ readOnly: true }));
  });
});
