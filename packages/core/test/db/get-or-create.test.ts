/**
 * getOrCreate, updateOrCreate (race-safe), atomic() nested as savepoints and
 * selectForUpdate(), the same on every database.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  type Database,
  defineModel,
  ImproperlyConfigured,
  models,
  UniqueViolationError,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';

const Tag = defineModel({
  name: 'Tag',
  table: 'goc_tag',
  fields: {
    name: models.CharField({ maxLength: 20, unique: true }),
    uses: models.IntegerField({ default: 0 }),
  },
});

for (const dialect of testDialects()) {
  describe(`getOrCreate, updateOrCreate and atomic on ${dialect.name}`, {
    skip: dialect.skip,
  }, () => {
    let db: Database;
    const tags = () => Tag.objects.using(db);

    before(async () => {
      db = await dialect.create();
      await db.migrate([Tag]);
    });
    after(() => dialect.drop(db));
    beforeEach(() => tags().delete());

    it('gets the row, or creates it from the lookup and the defaults', async () => {
      const [created, wasCreated] = await tags().getOrCreate({ name: 'py' }, { uses: 3 });
      assert.equal(wasCreated, true);
      assert.equal(created.uses, 3);
      const [found, again] = await tags().getOrCreate({ name: 'py' }, { uses: 9 });
      assert.equal(again, false);
      assert.deepEqual(found, created);
      // A lookup key with a lookup is not a value of the new row.
      const [other, made] = await tags().getOrCreate({ name__iexact: 'PY' }, { name: 'x' });
      assert.equal(made, false);
      assert.equal(other.id, created.id);
      assert.equal(await tags().count(), 1);
    });

    it('answers a concurrent creation with the row it made, inside a transaction too', async () => {
      // Many at once: every one gets the single row, one of them created it.
      const results = await Promise.all(
        Array.from({ length: 6 }, () => tags().getOrCreate({ name: 'race' })),
      );
      assert.equal(new Set(results.map(([row]) => row.id)).size, 1);
      assert.ok(results.filter(([, created]) => created).length >= 1);
      assert.equal(await tags().count(), 1);
      // In a transaction, a unique violation inside its savepoint leaves the rest usable.
      await db.atomic(async () => {
        await tags().create({ name: 'first' });
        await assert.rejects(
          db.atomic(() => tags().create({ name: 'race' })),
          UniqueViolationError,
        );
        const [row, created] = await tags().getOrCreate({ name: 'second' });
        assert.equal(created, true);
        assert.equal(row.name, 'second');
      });
      assert.deepEqual(
        (await tags().orderBy('name').execute()).map((t) => t.name),
        ['first', 'race', 'second'],
      );
    });

    it('updates the row or creates it', async () => {
      const [made, created] = await tags().updateOrCreate({ name: 'web' }, { uses: 1 });
      assert.equal(created, true);
      assert.equal(made.uses, 1);
      const [changed, createdAgain] = await tags().updateOrCreate({ name: 'web' }, { uses: 5 });
      assert.equal(createdAgain, false);
      assert.equal(changed.id, made.id);
      assert.equal((await tags().get({ name: 'web' })).uses, 5);
    });

    it('rolls back only the failing inner block of nested atomic() calls', async () => {
      await db.atomic(async () => {
        await tags().create({ name: 'outer' });
        await assert.rejects(
          db.atomic(async () => {
            await tags().create({ name: 'inner' });
            throw new Error('inner fails');
          }),
          /inner fails/,
        );
        await db.atomic(async () => {
          await tags().create({ name: 'kept' });
        });
      });
      assert.deepEqual(
        (await tags().orderBy('name').execute()).map((t) => t.name),
        ['kept', 'outer'],
      );
      await assert.rejects(
        db.atomic(async () => {
          await tags().create({ name: 'gone' });
          throw new Error('outer fails');
        }),
        /outer fails/,
      );
      assert.equal(await tags().filter({ name: 'gone' }).count(), 0);
    });

    it('locks rows with selectForUpdate inside a transaction, and refuses it outside one', async () => {
      await tags().create({ name: 'locked', uses: 1 });
      await db.atomic(async () => {
        const row = await tags().selectForUpdate().get({ name: 'locked' });
        await tags().updateRow(row, { uses: row.uses + 1 });
        assert.equal((await tags().selectForUpdate().filter({ uses__gte: 2 }).execute()).length, 1);
      });
      assert.equal((await tags().get({ name: 'locked' })).uses, 2);
      await assert.rejects(
        tags().selectForUpdate().execute(),
        (error: unknown) =>
          error instanceof ImproperlyConfigured && error.code === 'REST_ERR_TRANSACTION',
      );
      await assert.rejects(tags().selectForUpdate().get({ name: 'locked' }), ImproperlyConfigured);
    });
  });
}
