/**
 * PostgreSQL runs statements outside a transaction on a pooled connection without Kysely's
 * executor (`DialectAdapter.execute`): query listeners still hear of them, errors are still
 * translated, and statements inside a transaction still run on the transaction's connection.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Database, type QueryEvent, UniqueViolationError } from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import { ALL_MODELS, User } from '../fixtures/library-models.ts';

for (const dialect of testDialects().filter((d) => d.name === 'postgres')) {
  describe(`pooled queries on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;

    before(async () => {
      db = await dialect.create();
      await db.migrate(ALL_MODELS);
    });
    after(() => dialect.drop(db));

    it('are pooled outside a transaction, and heard by query listeners', async () => {
      const adapter = db.adapter as { execute?: (...args: unknown[]) => unknown };
      const original = adapter.execute;
      assert.equal(typeof original, 'function');
      let pooled = 0;
      adapter.execute = function (this: unknown, ...args: unknown[]) {
        const rows = original?.apply(this, args);
        if (rows !== undefined) pooled++;
        return rows;
      };
      const events: QueryEvent[] = [];
      const stop = db.onQuery((event) => events.push(event));
      try {
        await User.objects.using(db).create({ username: 'pooled' });
        const found = await User.objects.using(db).get({ username: 'pooled' });
        assert.equal(found.username, 'pooled');
      } finally {
        stop();
        delete adapter.execute;
      }
      assert.equal(pooled, 2, 'both statements went through the pool, not Kysely');
      assert.equal(events.length, 2);
      assert.match(events[1]?.sql ?? '', /^select /);
      assert.equal(events[1]?.error, undefined);
    });

    it('translate errors, and listeners hear of them', async () => {
      const events: QueryEvent[] = [];
      const stop = db.onQuery((event) => events.push(event));
      try {
        await assert.rejects(
          () => User.objects.using(db).create({ username: 'pooled' }),
          UniqueViolationError,
        );
      } finally {
        stop();
      }
      assert.equal(events.length, 1);
      assert.ok(events[0]?.error);
    });

    it("run on the transaction's connection inside one", async () => {
      await assert.rejects(
        db.transaction(async () => {
          await User.objects.using(db).create({ username: 'inside' });
          // Uncommitted: only the transaction's own connection can see the row.
          assert.equal(await User.objects.using(db).filter({ username: 'inside' }).count(), 1);
          throw new Error('roll back');
        }),
        /roll back/,
      );
      assert.equal(await User.objects.using(db).filter({ username: 'inside' }).count(), 0);
    });
  });
}
