/**
 * Every way a database cannot serve a query, on every dialect, is a `DatabaseUnavailableError`
 * of its kind (a 503 in a view), after a bounded wait, and the database serves again by
 * itself once the cause is gone. Each test breaks a database it made itself.
 *
 * - Tables missing (migrations not run): `schema-missing`. The database dropped under open
 *   connections (PostgreSQL, MySQL): `database-missing` (or `schema-missing`, MariaDB's answer
 *   on a connection opened before). A read-only transaction or file: `read-only`.
 * - A table locked from another connection: a query on it gives up after `lockTimeoutMs`
 *   (`locked`), having tried all along; a query on another table, sent after twice as many
 *   queries on the locked one as the pool has connections, is answered before any of those
 *   gives up: the waits do not hold the pool.
 * - The pool exhausted: a query that finds no free connection gives up after
 *   `connectionTimeoutMs` (`pool-exhausted`).
 * - Deadlocks and serialization failures: a transaction that may run again does (its
 *   `onRollback` hooks run between attempts), up to `transactionRetries` times; one that may
 *   not, or past the retries, is `conflict`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Database,
  type DatabaseOptions,
  DatabaseUnavailableError,
  defineModel,
  models,
  type UnavailableKind,
} from '@restframework/core';
import { type TestDialect, testDialects } from '@restframework/core/testing';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';

const Counter = defineModel({
  name: 'Counter',
  table: 'rf_fault_counter',
  fields: {
    name: models.CharField({ maxLength: 20, unique: true }),
    value: models.IntegerField({ default: 0 }),
  },
});

const Note = defineModel({
  name: 'Note',
  table: 'rf_fault_note',
  fields: { text: models.CharField({ maxLength: 50 }) },
});

const MODELS = [Counter, Note];

/** The kind of the `DatabaseUnavailableError` `run` rejects with (fails on anything else). */
async function unavailableKind(run: () => Promise<unknown>): Promise<UnavailableKind> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof DatabaseUnavailableError, String(error));
    return error.kind;
  }
  assert.fail('expected DatabaseUnavailableError, got an answer');
}

/** How long `run` took to settle, and how. */
async function timed(run: () => Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = Date.now();
  try {
    await run();
    return { ms: Date.now() - started, error: undefined };
  } catch (error) {
    return { ms: Date.now() - started, error };
  }
}

/** A promise and the function that resolves it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** A new database of `dialect`, connected with `options`, and what removes it. */
async function fresh(
  dialect: TestDialect,
  options: DatabaseOptions,
): Promise<{ db: Database; url: string; remove: () => Promise<void> }> {
  const { url, drop } = await dialect.createUrl();
  const db = Database.connect(url, options);
  return {
    db,
    url,
    remove: async () => {
      await db.close();
      await drop();
    },
  };
}

/** Per dialect: the lock timeout and a pool of 4, so that eight queries fill it twice. */
const TIMEOUTS: Record<TestDialect['name'], { lockTimeoutMs: number; slack: number }> = {
  // SQLite waits for its lock for connectionTimeoutMs.
  sqlite: { lockTimeoutMs: 1500, slack: 3000 },
  // A statement waits 250 ms at a time: the other query waits about two slices.
  postgres: { lockTimeoutMs: 2500, slack: 3000 },
  // A statement waits a whole second at a time (the servers count whole seconds).
  mysql: { lockTimeoutMs: 5000, slack: 4000 },
};
const POOL = 4;

for (const dialect of testDialects()) {
  const { lockTimeoutMs, slack } = TIMEOUTS[dialect.name];
  const server = dialect.name !== 'sqlite';

  describe(`an unavailable database on ${dialect.name}`, { skip: dialect.skip }, () => {
    it('is schema-missing while the tables do not exist, and serves once they do', async () => {
      const { db, remove } = await fresh(dialect, {});
      try {
        assert.equal(
          await unavailableKind(() => Counter.objects.using(db).count()),
          'schema-missing',
        );
        assert.equal(
          await unavailableKind(() =>
            db.transaction(() => Counter.objects.using(db).create({ name: 'a' }), { rerun: true }),
          ),
          'schema-missing',
        );
        await db.migrate(MODELS);
        assert.equal(await Counter.objects.using(db).count(), 0);
      } finally {
        await remove();
      }
    });

    it('is unreachable when no server listens, within connectionTimeoutMs', {
      skip: server ? false : 'SQLite has no server',
    }, async () => {
      // Port 1 on the loopback: the connection is refused at once.
      const db = Database.connect(`${dialect.name}://nobody@127.0.0.1:1/absent`, {
        connectionTimeoutMs: 1000,
      });
      try {
        const started = Date.now();
        assert.equal(await unavailableKind(() => Note.objects.using(db).count()), 'unreachable');
        assert.ok(Date.now() - started < 1000 + 3000, `${Date.now() - started} ms`);
      } finally {
        await db.close();
      }
    });

    it('is read-only where the database refuses writes', async () => {
      const { db, url, remove } = await fresh(dialect, {});
      try {
        await db.migrate(MODELS);
        let refused: unknown;
        if (server) {
          // A read-only transaction: what a standby, or a server in read-only mode, answers.
          refused = await db.kysely
            .transaction()
            .setAccessMode('read only')
            .execute((trx) => trx.insertInto('rf_fault_note').values({ text: 'x' }).execute())
            .then(
              () => undefined,
              (error: unknown) => error,
            );
        } else {
          const readOnly = new BetterSqlite3(url.slice('sqlite:'.length), { readonly: true });
          try {
            readOnly.prepare("insert into rf_fault_note (text) values ('x')").run();
          } catch (error) {
            refused = error;
          } finally {
            readOnly.close();
          }
        }
        const typed = db.translateError(refused, Note);
        assert.ok(typed instanceof DatabaseUnavailableError, String(refused));
        assert.equal(typed.kind, 'read-only');
      } finally {
        await remove();
      }
    });

    it('is database-missing while the database is dropped, and serves once it is back', {
      skip: server ? false : 'SQLite has no server to drop a database from',
    }, async () => {
      const { db, url, remove } = await fresh(dialect, { connectionTimeoutMs: 2000 });
      try {
        await db.migrate(MODELS);
        assert.equal(await Note.objects.using(db).count(), 0);
        await dialect.dropDatabase(url);
        const kinds = new Set<UnavailableKind>();
        for (let i = 0; i < 6; i++)
          kinds.add(await unavailableKind(() => Note.objects.using(db).count()));
        for (const kind of kinds)
          assert.ok(['database-missing', 'schema-missing', 'unreachable'].includes(kind), kind);
        // A connection opened now finds no database (MariaDB's older ones, no table).
        assert.ok(kinds.has('database-missing') || kinds.has('schema-missing'), [...kinds].join());
        await dialect.createDatabase(url);
        await db.migrate(MODELS);
        assert.equal(await Note.objects.using(db).count(), 0);
      } finally {
        await remove();
      }
    });

    describe('a table locked by another connection', () => {
      let db: Database;
      let url: string;
      let remove: () => Promise<void>;

      before(async () => {
        ({ db, url, remove } = await fresh(dialect, {
          poolSize: POOL,
          lockTimeoutMs,
          connectionTimeoutMs: server ? lockTimeoutMs + slack : lockTimeoutMs,
        }));
        await db.migrate(MODELS);
        await Counter.objects.using(db).create({ name: 'c' });
        await Note.objects.using(db).create({ text: 'n' });
      });
      after(() => remove?.());

      it('gives up after lockTimeoutMs, and another table is served meanwhile', async (t) => {
        const release = await dialect.lockTable(url, 'rf_fault_counter');
        let locked: { ms: number; error: unknown }[];
        let other: { ms: number; error: unknown };
        try {
          // SQLite locks the file for writes only: its queries of the locked table write.
          const write = () =>
            db.transaction(
              () => Counter.objects.using(db).filter({ name: 'c' }).update({ value: 1 }),
              {
                rerun: true,
              },
            );
          const read = () => Counter.objects.using(db).count();
          const pending = Array.from({ length: 2 * POOL }, (_, i) =>
            timed(server && i % 4 !== 0 ? read : write),
          );
          other = await timed(() => Note.objects.using(db).count());
          locked = await Promise.all(pending);
        } finally {
          await release();
        }
        assert.equal(other.error, undefined, String(other.error));
        for (const { ms, error } of locked) {
          assert.ok(error instanceof DatabaseUnavailableError, String(error));
          assert.equal(error.kind, 'locked');
          // It kept trying for the whole bound, and gave up soon after it.
          assert.ok(ms >= lockTimeoutMs * 0.9, `gave up after ${ms} ms`);
          assert.ok(ms < lockTimeoutMs + slack, `gave up after ${ms} ms`);
        }
        const first = Math.min(...locked.map(({ ms }) => ms));
        t.diagnostic(
          `other table: ${other.ms} ms; locked table: ${first}-${Math.max(...locked.map(({ ms }) => ms))} ms`,
        );
        assert.ok(
          other.ms < first,
          `the other table took ${other.ms} ms, the locked one ${first} ms`,
        );
        // Served again once the lock is gone.
        await db.transaction(() =>
          Counter.objects.using(db).filter({ name: 'c' }).update({ value: 2 }),
        );
        assert.equal((await Counter.objects.using(db).get({ name: 'c' })).value, 2);
      });

      it('lets a write wait when the lock goes in time, in a transaction or not', async () => {
        // Released after a third of the lock timeout: longer than a slice of the wait.
        const writes = [
          () =>
            db.transaction(
              () => Counter.objects.using(db).filter({ name: 'c' }).update({ value: 3 }),
              {
                rerun: true,
              },
            ),
          () =>
            db.transaction(() =>
              Counter.objects.using(db).filter({ name: 'c' }).update({ value: 4 }),
            ),
          () => Counter.objects.using(db).filter({ name: 'c' }).update({ value: 5 }),
        ];
        for (const [i, write] of writes.entries()) {
          const release = await dialect.lockTable(url, 'rf_fault_counter');
          const freed = setTimeout(() => void release(), Math.round(lockTimeoutMs / 3));
          try {
            await write();
          } finally {
            clearTimeout(freed);
            await release().catch(() => {});
          }
          assert.equal((await Counter.objects.using(db).get({ name: 'c' })).value, 3 + i);
        }
      });
    });

    it('is pool-exhausted when no connection frees up within connectionTimeoutMs', async () => {
      const timeout = 600;
      const { db, remove } = await fresh(dialect, { poolSize: 1, connectionTimeoutMs: timeout });
      try {
        await db.migrate(MODELS);
        const hold = gate();
        const holding = db.transaction(async () => {
          await Note.objects.using(db).create({ text: 'held' });
          await hold.opened;
        });
        const waited = await timed(() =>
          db.run(() => db.query('select count(*) as n from rf_fault_note', [])),
        );
        hold.open();
        await holding;
        const typed = db.translateError(waited.error, undefined);
        assert.ok(typed instanceof DatabaseUnavailableError, String(waited.error));
        assert.equal(typed.kind, 'pool-exhausted');
        assert.ok(waited.ms >= timeout * 0.9 && waited.ms < timeout + 3000, `${waited.ms} ms`);
        assert.equal(await Note.objects.using(db).count(), 1);
      } finally {
        await remove();
      }
    });
  });

  describe(`conflicting transactions on ${dialect.name}`, {
    skip: dialect.skip || (server ? false : 'SQLite writes one transaction at a time: no deadlock'),
  }, () => {
    let db: Database;
    let strict: Database;
    const removes: (() => Promise<void>)[] = [];

    before(async () => {
      for (const transactionRetries of [5, 0]) {
        const made = await fresh(dialect, { poolSize: 4, lockTimeoutMs: 5000, transactionRetries });
        await made.db.migrate(MODELS);
        await Counter.objects.using(made.db).create({ name: 'a' });
        await Counter.objects.using(made.db).create({ name: 'b' });
        removes.push(made.remove);
        if (transactionRetries === 0) strict = made.db;
        else db = made.db; // 5: the default
      }
    });
    after(() => Promise.all(removes.map((remove) => remove())));

    /** Each transaction opens its gate, then waits for the other's (or 1 s). */
    function meeting() {
      const gates = [gate(), gate()];
      return async (i: number) => {
        gates[i]?.open();
        await Promise.race([
          gates[1 - i]?.opened,
          new Promise((resolve) => setTimeout(resolve, 1000)),
        ]);
      };
    }

    /**
     * Two transactions on `on` racing in one of two ways: `deadlock` (each updates one counter,
     * meets the other, then updates the other's) or `skew` (PostgreSQL, SERIALIZABLE: each
     * counts the counters, meets the other, then adds one: a serialization failure). Resolves
     * to how each ended, how many times each body ran, and how many times its `onRollback`
     * hook ran.
     */
    async function race(on: Database, way: 'deadlock' | 'skew', rerun: boolean) {
      const runs = [0, 0];
      const rolledBack = [0, 0];
      const meet = meeting();
      const body = async (i: number) => {
        runs[i]++;
        on.onRollback(() => {
          rolledBack[i]++;
        });
        const counters = Counter.objects.using(on);
        if (way === 'deadlock') {
          await counters.filter({ name: i ? 'b' : 'a' }).update({ value: 10 + i });
          await meet(i);
          await counters.filter({ name: i ? 'a' : 'b' }).update({ value: 10 + i });
        } else {
          await sql`set transaction isolation level serializable`.execute(on.executor);
          const total = await counters.count();
          await meet(i);
          await counters.create({ name: `skew${i}-${runs[i]}`, value: total });
        }
      };
      const ended = await Promise.allSettled(
        [0, 1].map((i) => on.transaction(() => body(i), { rerun })),
      );
      return { ended, runs, rolledBack };
    }

    const ways =
      dialect.name === 'postgres' ? (['deadlock', 'skew'] as const) : (['deadlock'] as const);

    for (const way of ways) {
      it(`runs a transaction that may run again until it commits (${way})`, async () => {
        const { ended, runs, rolledBack } = await race(db, way, true);
        for (const end of ended)
          assert.equal(end.status, 'fulfilled', String((end as PromiseRejectedResult).reason));
        assert.ok((runs[0] as number) + (runs[1] as number) >= 3, `runs ${runs}`);
        // Each failed attempt rolled back (and ran its hook); each transaction committed once.
        assert.deepEqual(rolledBack, [(runs[0] as number) - 1, (runs[1] as number) - 1]);
      });
    }

    /** One of the two ended with a `conflict`, and each body ran once. */
    function assertOneConflict({ ended, runs }: Awaited<ReturnType<typeof race>>): void {
      const refused = ended.filter((end) => end.status === 'rejected');
      assert.equal(refused.length, 1, JSON.stringify(ended));
      const reason = (refused[0] as PromiseRejectedResult).reason;
      assert.ok(reason instanceof DatabaseUnavailableError, String(reason));
      assert.equal(reason.kind, 'conflict');
      assert.deepEqual(runs, [1, 1]);
    }

    it('answers conflict for a transaction that may not run again', async () => {
      assertOneConflict(await race(db, 'deadlock', false));
    });

    it('answers conflict past transactionRetries', async () => {
      // PostgreSQL gives up a lock wait after a slice (locked, then tried again while the lock
      // timeout lasts) before its deadlock detector runs: its conflict is the serialization
      // failure. InnoDB finds a deadlock at once.
      assertOneConflict(
        await race(strict, dialect.name === 'postgres' ? 'skew' : 'deadlock', true),
      );
    });
  });
}
