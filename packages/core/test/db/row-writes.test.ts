/**
 * `create` and `updateRow` compile their INSERT and UPDATE once per database, model and set
 * of columns written (`db/plan/row-writes.ts`): a set written again reuses its statement whatever
 * the order of the caller's keys, the sets kept are bounded, and the values written are the
 * same as before the statements were kept (the clock for `autoNow`/`autoNowAdd` only, a
 * relation by object or by key, the last of two keys for one field).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type Database, defineModel, models, type QueryEvent } from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import {
  type DatabaseWrites,
  MAX_COLUMN_SETS,
  MAX_WRITTEN_MODELS,
  rowWrites,
} from '../../src/db/plan/row-writes.ts';
import { ALL_MODELS, Book, Profile, User } from '../fixtures/library-models.ts';

/** A model with a field set on every write (`autoNow`), for the update's clock. */
const Note = defineModel({
  name: 'Note',
  table: 'lib_row_write_note',
  fields: {
    text: models.CharField({ maxLength: 50 }),
    created: models.DateTimeField({ autoNowAdd: true }),
    touched: models.DateTimeField({ autoNow: true }),
  },
});

for (const dialect of testDialects()) {
  describe(`row writes on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;

    before(async () => {
      db = await dialect.create();
      await db.migrate([...ALL_MODELS, Note]);
    });
    after(() => dialect.drop(db));

    beforeEach(async () => {
      await Book.objects.using(db).delete();
      await Profile.objects.using(db).delete();
      await User.objects.using(db).delete();
      await Note.objects.using(db).delete();
    });

    /** The SQL of the statements `fn` runs. */
    async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
      const seen: string[] = [];
      const stop = db.onQuery((event: QueryEvent) => seen.push(event.sql));
      try {
        await fn();
      } finally {
        stop();
      }
      return seen;
    }

    it('write the same SQL for a set of columns whatever the order of the keys', async () => {
      const book = await Book.objects
        .using(db)
        .create({ title: 'A', isbn: 'w1', price: '1.00', pages: 10 });
      const [first] = await statementsOf(() =>
        Book.objects.using(db).updateRow(book, { title: 'B', pages: 11 }),
      );
      const [second] = await statementsOf(() =>
        Book.objects.using(db).updateRow(book, { pages: 12, title: 'C' }),
      );
      assert.equal(first, second);
      const stored = await Book.objects.using(db).get({ pk: book.id });
      assert.equal(stored.title, 'C');
      assert.equal(stored.pages, 12);
    });

    it('keep one statement per set of columns, and at most MAX_COLUMN_SETS of them', async () => {
      const book = await Book.objects.using(db).create({ title: 'A', isbn: 'w2', price: '1.00' });
      // The database keeps the model's writes (`db.caches`), each kind of write bounded.
      const updates = () =>
        (
          db.caches
            .cache<unknown, DatabaseWrites>('row writes', MAX_WRITTEN_MODELS)
            .get(Book) as DatabaseWrites
        ).updates;
      await Book.objects.using(db).updateRow(book, { title: 'B' });
      const size = updates().size;
      await Book.objects.using(db).updateRow(book, { title: 'C' });
      assert.equal(updates().size, size, 'the same set again: no new statement');
      // Every subset of these columns is its own set: more than the bound.
      const values: Record<string, unknown> = {
        title: 'T',
        isbn: 'w2b',
        price: '2.00',
        pages: 3,
        in_print: false,
        published: '2020-01-01',
        summary: 's',
        state: 'draft',
        owner_id: null,
      };
      const columns = Object.keys(values);
      assert.ok(2 ** columns.length - 1 > MAX_COLUMN_SETS);
      for (let mask = 1; mask < 2 ** columns.length; mask++) {
        const changes: Record<string, unknown> = {};
        columns.forEach((c, i) => {
          if (mask & (1 << i)) changes[c] = values[c];
        });
        await Book.objects.using(db).updateRow(book, changes);
      }
      assert.equal(updates().size, MAX_COLUMN_SETS);
      assert.ok(updates().stats().evictions > 0, 'the oldest sets went');
      const stored = await Book.objects.using(db).get({ pk: book.id });
      assert.equal(stored.summary, 's');
      assert.equal(stored.price, '2.00');
    });

    it('write a relation given by row or by key, the last key for a field winning', async () => {
      const ann = await User.objects.using(db).create({ username: 'ann' });
      const bob = await User.objects.using(db).create({ username: 'bob' });
      const byRow = await Profile.objects.using(db).create({ user: ann });
      assert.equal(byRow.user_id, ann.id);
      const updated = await Profile.objects
        .using(db)
        .updateRow(byRow, { user_id: ann.id, user: bob });
      assert.equal(updated.user_id, bob.id);
      const back = await Profile.objects
        .using(db)
        .updateRow(updated, { user: bob, user_id: ann.id });
      assert.equal(back.user_id, ann.id);
    });

    it('read the clock only for a model with autoNow or autoNowAdd fields', async (t) => {
      const clock = t.mock.timers;
      clock.enable({ apis: ['Date'], now: Date.parse('2024-05-17T10:00:00.000Z') });
      try {
        const note = await Note.objects.using(db).create({ text: 'a' });
        assert.equal(new Date(note.created as string).toISOString(), '2024-05-17T10:00:00.000Z');
        assert.equal(new Date(note.touched as string).toISOString(), '2024-05-17T10:00:00.000Z');
        clock.tick(60_000);
        const touched = await Note.objects.using(db).updateRow(note, { text: 'b' });
        assert.equal(new Date(touched.created as string).toISOString(), '2024-05-17T10:00:00.000Z');
        assert.equal(new Date(touched.touched as string).toISOString(), '2024-05-17T10:01:00.000Z');
        // Nothing else sent: the autoNow field alone is written.
        clock.tick(60_000);
        const again = await Note.objects.using(db).updateRow(touched, {});
        assert.equal(new Date(again.touched as string).toISOString(), '2024-05-17T10:02:00.000Z');
      } finally {
        clock.reset();
      }
      // The flags that decide whether a write reads the clock at all.
      assert.equal(rowWrites(Book).clockOnCreate, true, 'added is autoNowAdd');
      assert.deepEqual(rowWrites(Book).autoNow, [], 'nothing to set on update');
      assert.equal(rowWrites(Profile).clockOnCreate, false);
      assert.deepEqual(rowWrites(Note).autoNow, [3]);
    });
  });
}
