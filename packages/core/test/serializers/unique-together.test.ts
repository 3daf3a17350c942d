/**
 * A model's `UniqueConstraint` over several fields: created by the migrations, refused by the
 * database, and checked by model serializers before the write (DRF's UniqueTogetherValidator),
 * on every database.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  Database,
  defineModel,
  ImproperlyConfigured,
  ModelSerializer,
  models,
  UniqueConstraint,
  UniqueViolationError,
  ValidationError,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';

const Member = defineModel({
  name: 'Member',
  table: 'together_member',
  fields: { handle: models.CharField({ maxLength: 20 }) },
});

const Seat = defineModel({
  name: 'Seat',
  table: 'together_seat',
  fields: {
    row: models.CharField({ maxLength: 2 }),
    number: models.SmallIntegerField(),
    holder: models.ForeignKey(() => Member, { onDelete: 'CASCADE', null: true }),
    hall: models.CharField({ maxLength: 10, default: 'main' }),
  },
  constraints: [
    UniqueConstraint({ fields: ['row', 'number', 'hall'], name: 'together_seat_place_uniq' }),
    UniqueConstraint({ fields: ['holder', 'hall'] }),
  ],
});

class SeatSerializer extends ModelSerializer.with({
  model: Seat,
  fields: ['id', 'row', 'number', 'holder', 'hall'],
}) {}

class PlaceOnly extends ModelSerializer.with({ model: Seat, fields: ['id', 'row', 'number'] }) {}

const PLACE = 'The fields row, number, hall must make a unique set.';

describe('UniqueConstraint declarations', () => {
  it('joins uniqueConstraints with its name, or the default one', () => {
    assert.deepEqual(
      Seat.uniqueConstraints.map((c) => [c.name, c.fields]),
      [
        ['together_seat_place_uniq', ['row', 'number', 'hall']],
        ['together_seat_holder_id_hall_uniq', ['holder', 'hall']],
      ],
    );
  });

  it('fails at start-up on a field the model does not have, naming it', () => {
    assert.throws(
      () =>
        defineModel({
          name: 'Bad',
          fields: { a: models.IntegerField() },
          // @ts-expect-error: the compiler knows the model's field names.
          constraints: [UniqueConstraint({ fields: ['a', 'nope'] })],
        }),
      (error: unknown) =>
        error instanceof ImproperlyConfigured &&
        error.code === 'REST_ERR_MODEL_INDEX' &&
        /unknown field "nope"/.test(error.message),
    );
  });

  it('uses serializer validators only for the constraints whose fields it all writes', () => {
    assert.equal(SeatSerializer.uniqueTogetherValidators().length, 2);
    assert.equal(PlaceOnly.uniqueTogetherValidators().length, 0);
  });
});

for (const dialect of testDialects()) {
  describe(`UniqueConstraint on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    before(async () => {
      db = await dialect.create();
      await db.migrate([Member, Seat]);
      Database.setDefault(db);
    });
    after(async () => {
      Database.setDefault(undefined);
      await dialect.drop(db);
    });
    beforeEach(async () => {
      await Seat.objects.delete();
      await Member.objects.delete();
    });

    async function errorsOf(serializer: SeatSerializer) {
      assert.equal(await serializer.isValid(), false);
      return serializer.errors;
    }

    it('the database refuses a duplicate set; NULL in one of the fields is no duplicate', async () => {
      await Seat.objects.create({ row: 'A', number: 1 });
      await assert.rejects(Seat.objects.create({ row: 'A', number: 1 }), UniqueViolationError);
      await Seat.objects.create({ row: 'A', number: 1, hall: 'side' });
      await Seat.objects.create({ row: 'B', number: 1 });
      // Two seats without a holder in one hall: NULL is never equal to NULL.
      assert.equal(await Seat.objects.filter({ holder__isnull: true, hall: 'main' }).count(), 2);
    });

    it('a serializer refuses a set another row has, with DRF message and code', async () => {
      await Seat.objects.create({ row: 'A', number: 1 });
      const serializer = new SeatSerializer({ data: { row: 'A', number: 1 } });
      assert.deepEqual(await errorsOf(serializer), { non_field_errors: [PLACE] });
      await assert.rejects(serializer.isValid({ raiseException: true }), (error: unknown) => {
        assert.ok(error instanceof ValidationError);
        return true;
      });
      // Another hall, or another number: accepted and written.
      const other = new SeatSerializer({ data: { row: 'A', number: 1, hall: 'side' } });
      assert.equal(await other.isValid(), true);
      await other.save();
      assert.equal(await Seat.objects.count(), 2);
    });

    it('on update the row itself is no duplicate, and fields not sent keep their values', async () => {
      const a1 = await Seat.objects.create({ row: 'A', number: 1 });
      const a2 = await Seat.objects.create({ row: 'A', number: 2 });
      const same = new SeatSerializer({ instance: a1, data: { row: 'A', number: 1 } });
      assert.equal(await same.isValid(), true, JSON.stringify(same.errors));
      const clash = new SeatSerializer({ instance: a2, data: { number: 1 }, partial: true });
      assert.deepEqual(await errorsOf(clash), { non_field_errors: [PLACE] });
    });

    it('checks a relation in the set, and skips a set with a NULL', async () => {
      const ann = await Member.objects.create({ handle: 'ann' });
      await Seat.objects.create({ row: 'A', number: 1, holder: ann.id });
      assert.deepEqual(
        await errorsOf(new SeatSerializer({ data: { row: 'B', number: 1, holder: ann.id } })),
        { non_field_errors: ['The fields holder, hall must make a unique set.'] },
      );
      const nobody = new SeatSerializer({ data: { row: 'B', number: 1, holder: null } });
      assert.equal(await nobody.isValid(), true, JSON.stringify(nobody.errors));
    });

    it('a race past the check is answered with the same message, not a 500', async () => {
      const serializer = new SeatSerializer({ data: { row: 'C', number: 3 } });
      assert.equal(await serializer.isValid(), true);
      await Seat.objects.create({ row: 'C', number: 3 });
      await assert.rejects(serializer.save(), (error: unknown) => {
        assert.ok(error instanceof ValidationError);
        assert.deepEqual(error.detail, { non_field_errors: [PLACE] });
        return true;
      });
    });
  });
}
