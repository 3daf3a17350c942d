/**
 * SQLite keeps the prepared statement of a compiled shape with the shape (its slot), so a
 * query finds it without looking its SQL text up: prepared once, and still seeing every
 * change of the data and of the schema; a slot of another connection is prepared again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Database } from '@restframework/core';
import { sql } from 'kysely';
import type { CompiledStatement } from '../../src/db/plan/statement-cache.ts';
import { ALL_MODELS, User } from '../fixtures/library-models.ts';

describe('statement slots (SQLite)', () => {
  let db: Database;

  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(ALL_MODELS);
  });
  after(() => db.close());

  const users = () => User.objects.using(db).filter({ username__startswith: 'a' });

  it('prepare the statement of a shape once, and keep seeing new rows', async () => {
    const slot = (users().compile() as CompiledStatement).slot;
    assert.ok(slot, 'a compiled shape has a slot');
    assert.deepEqual(await users().execute(), []);
    const prepared = slot.prepared;
    assert.ok(prepared, 'the first run prepared the statement into the slot');
    await User.objects.using(db).create({ username: 'ada' });
    assert.deepEqual(
      (await users().execute()).map((u) => u.username),
      ['ada'],
    );
    assert.equal(slot.prepared, prepared, 'the next run used the same statement');
    assert.equal((users().compile() as CompiledStatement).slot, slot, 'one slot per shape');
  });

  it('see a change of the schema made after the statement was prepared', async () => {
    await users().execute();
    await sql`create index lib_user_username_a on lib_user (username)`.execute(db.kysely);
    assert.deepEqual(
      (await users().execute()).map((u) => u.username),
      ['ada'],
    );
  });

  it("prepare again a slot holding another connection's statement", async () => {
    const slot = (users().compile() as CompiledStatement).slot;
    assert.ok(slot);
    await users().execute();
    const other = Database.connect('sqlite::memory:');
    try {
      await other.migrate(ALL_MODELS);
      // As if the shape's statement had been prepared on a connection since closed.
      slot.owner = {};
      assert.deepEqual(
        (await users().execute()).map((u) => u.username),
        ['ada'],
      );
      assert.notEqual(slot.owner, null);
      assert.deepEqual(await users().using(other).execute(), [], 'each database its own rows');
    } finally {
      await other.close();
    }
  });
});
