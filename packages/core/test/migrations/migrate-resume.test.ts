/**
 * `db.migrate()` stopped half-way (MySQL commits each DDL statement at once, so a failure
 * leaves what was created before it) is finished by running it again, on every dialect.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Database, defineModel, models } from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import { ALL_MODELS, Book, Profile, User } from '../fixtures/library-models.ts';

// A relation to a table no migrate creates: PostgreSQL and MySQL refuse the CREATE TABLE.
const Ghost = defineModel({
  name: 'Ghost',
  table: 'mig_ghost',
  fields: { name: models.CharField({ maxLength: 10 }) },
});
const Haunted = defineModel({
  name: 'Haunted',
  table: 'mig_haunted',
  fields: { ghost: models.ForeignKey(Ghost, { onDelete: 'CASCADE' }) },
});

for (const dialect of testDialects()) {
  describe(`migrate resumed on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;

    before(async () => {
      db = await dialect.create();
    });
    after(() => dialect.drop(db));

    it('creates what an interrupted run left out, and nothing twice', async () => {
      // As if the run had stopped after the first table and its indexes.
      const first = await db.migrate([User]);
      assert.deepEqual(first.createdTables, ['lib_user']);
      const second = await db.migrate(ALL_MODELS);
      assert.deepEqual(second.createdTables, ['lib_profile', 'lib_book']);
      const third = await db.migrate(ALL_MODELS);
      assert.deepEqual(third.createdTables, []);
      assert.deepEqual(third.addedColumns, []);
      // The tables work together: keys, unique indexes and foreign keys are all there.
      const user = await User.objects.using(db).create({ username: 'ann' });
      const profile = await Profile.objects.using(db).create({ user_id: user.id });
      await Book.objects.using(db).create({ title: 'A', isbn: '1', price: '1', owner: profile });
      await assert.rejects(User.objects.using(db).create({ username: 'ann' }));
      await assert.rejects(Profile.objects.using(db).create({ user_id: user.id + 1000 }));
    });

    it('keeps the tables made before a failing statement; the next run finishes the work', async () => {
      const MigUser = defineModel({
        name: 'MigUser',
        table: 'mig_user',
        fields: { name: models.CharField({ maxLength: 10, unique: true }) },
      });
      let failed = false;
      try {
        await db.migrate([MigUser, Haunted]);
      } catch {
        failed = true;
      }
      const tables = async () =>
        (await db.kysely.introspection.getTables())
          .map((t) => t.name)
          .filter((n) => n.startsWith('mig_'));
      if (failed) {
        // What a failed run leaves: the table made before the failure, nothing of the one after.
        assert.deepEqual((await tables()).sort(), ['mig_user']);
      } else {
        // SQLite checks a foreign key when a row is written, not when the table is made.
        assert.equal(dialect.name, 'sqlite');
      }
      const report = await db.migrate([MigUser, Ghost, Haunted]);
      assert.deepEqual(report.createdTables, failed ? ['mig_ghost', 'mig_haunted'] : ['mig_ghost']);
      assert.deepEqual((await tables()).sort(), ['mig_ghost', 'mig_haunted', 'mig_user']);
      const ghost = await Ghost.objects.using(db).create({ name: 'boo' });
      await Haunted.objects.using(db).create({ ghost });
      await MigUser.objects.using(db).create({ name: 'x' });
      await assert.rejects(MigUser.objects.using(db).create({ name: 'x' }));
    });
  });
}
