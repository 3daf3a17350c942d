/**
 * PostgreSQL made unavailable in each way a service meets, on a database and a role of this
 * test's own (never the shared `test` or `postgres`):
 *
 * - every connection terminated (an administrator's `pg_terminate_backend`, 57P01);
 * - connections refused (`ALLOW_CONNECTIONS false`);
 * - login refused (the role loses `LOGIN`, 28000);
 * - too many connections (`CONNECTION LIMIT 0`, 53300);
 * - the database dropped (3D000), then made again.
 *
 * Checks: while it lasts every answer is 503 `{"detail": ...}` with `Retry-After`, never a 500;
 * the log holds at most one warning per outage interval and no error (no stack per request);
 * once the cause is gone the service answers 200 again by itself.
 *
 * And a table held under an exclusive lock: requests to it answer 503 after `lockTimeoutMs`,
 * not after the statement timeout, and a route on another table keeps answering 200.
 *
 * Then on every dialect (SQLite, PostgreSQL, MySQL/MariaDB), on a database of the test's own:
 * the tables missing (the database made again empty, or its tables dropped), the database
 * dropped, and one table locked from another connection. Checks: 503 `{"detail": ...}` with
 * `Retry-After` for every request the condition touches, at most one log line per kind of
 * outage and no error line (no stack per request), 200 again by itself once it ends; while
 * the table is locked, a route on another table answers before any request to the locked one
 * gives up.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Database } from '@restframework/core';
import { testDialects, testPostgresUrl } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/app.ts';
import { ALL_MODELS } from '../../src/models/index.ts';
import { seed } from '../../src/seed.ts';
import { type Bookstore, send, sleep, startBookstore, TABLES } from './support.ts';

const url = testPostgresUrl();
const LOCK_TIMEOUT_MS = 300;
const CONNECTION_TIMEOUT_MS = 1000;

/** Runs statements on the server as the administrator of TEST_POSTGRES_URL. */
async function admin(...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

describe('PostgreSQL unavailable in every way', {
  skip: url ? false : 'TEST_POSTGRES_URL is not set: PostgreSQL tests skipped',
}, () => {
  const suffix = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const name = `rf_unavailable_${suffix}`;
  const role = `rf_unavailable_role_${suffix}`;
  const media = mkdtempSync(join(tmpdir(), 'bookstore-unavailable-media-'));
  /** Every line the service logged (warn and above). */
  const lines: { level: number; msg: string }[] = [];
  let db: Database;
  let app: FastifyInstance;

  const terminate = `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`;

  before(async () => {
    await admin(`create role "${role}" login`, `create database "${name}" owner "${role}"`);
    const target = new URL(url as string);
    target.username = role;
    target.password = '';
    target.pathname = `/${name}`;
    db = Database.connect(target.toString(), {
      poolSize: 4,
      connectionTimeoutMs: CONNECTION_TIMEOUT_MS,
      lockTimeoutMs: LOCK_TIMEOUT_MS,
      statementTimeoutMs: 10_000,
    });
    await db.migrate(ALL_MODELS);
    await seed(db, { books: 5, authors: 2, users: 2 });
    app = await buildApp({
      database: db,
      mediaRoot: media,
      logger: {
        level: 'warn',
        stream: { write: (line: string) => lines.push(JSON.parse(line)) },
      },
    });
    await app.ready();
  });
  after(async () => {
    await app?.close();
    await db?.close();
    await admin(`drop database if exists "${name}" with (force)`, `drop role if exists "${role}"`);
    rmSync(media, { recursive: true, force: true });
  });

  /** A read, a list, a create and a PATCH: what the service answers while the database is gone. */
  const requests = () => [
    send(app, { method: 'GET', url: '/books/api/books/1/' }),
    send(app, { method: 'GET', url: '/books/api/authors/' }),
    send(app, {
      method: 'POST',
      url: '/books/api/books/',
      payload: {
        title: 'During the outage',
        publishing_information: {
          isbn: `out-${randomBytes(4).toString('hex')}`,
          pages: 1,
          publication_date: '2020-01-01',
        },
        stock_information: { price: '1.00' },
      },
    }),
    send(app, { method: 'PATCH', url: '/books/api/books/2/', payload: { title: 'Patched' } }),
  ];

  /** Waits until a read answers 200 again (the service recovers by itself), or fails. */
  async function recovered(within: number): Promise<number> {
    const started = Date.now();
    for (;;) {
      const answer = await send(app, { method: 'GET', url: '/books/api/books/1/' });
      assert.ok(answer.statusCode === 200 || answer.statusCode === 503, answer.body);
      if (answer.statusCode === 200) return Date.now() - started;
      assert.ok(Date.now() - started < within, `no recovery within ${within} ms`);
      await sleep(100);
    }
  }

  const ways: { name: string; breaks: string[]; restores: () => Promise<void> }[] = [
    {
      name: 'connections refused (ALLOW_CONNECTIONS false)',
      breaks: [`alter database "${name}" allow_connections false`, terminate],
      restores: () => admin(`alter database "${name}" allow_connections true`),
    },
    {
      name: 'login refused (NOLOGIN)',
      breaks: [`alter role "${role}" nologin`, terminate],
      restores: () => admin(`alter role "${role}" login`),
    },
    {
      name: 'too many connections (CONNECTION LIMIT 0)',
      breaks: [`alter role "${role}" connection limit 0`, terminate],
      restores: () => admin(`alter role "${role}" connection limit -1`),
    },
    {
      name: 'database dropped',
      breaks: [`drop database "${name}" with (force)`],
      restores: async () => {
        await admin(`create database "${name}" owner "${role}"`);
        // Made again empty: the service's own pool migrates and seeds it once it can connect.
        await db.migrate(ALL_MODELS);
        await seed(db, { books: 5, authors: 2, users: 2 });
      },
    },
  ];

  for (const way of ways) {
    it(`answers 503 with Retry-After while ${way.name}, and recovers by itself`, async () => {
      assert.equal(
        (await send(app, { method: 'GET', url: '/books/api/books/1/' })).statusCode,
        200,
      );
      await admin(...way.breaks);
      const answers = [];
      try {
        for (let round = 0; round < 5; round++) answers.push(...(await Promise.all(requests())));
      } finally {
        // Put things back even when an answer is wrong, so the tests after this one start well.
        await way.restores();
      }
      for (const answer of answers) {
        assert.equal(answer.statusCode, 503, `${way.name}: ${answer.statusCode} ${answer.body}`);
        assert.equal(answer.headers['retry-after'], '1');
        assert.equal(typeof (answer.json() as { detail: unknown }).detail, 'string');
      }
      const ms = await recovered(10_000);
      // No error line at all (a 500 logs one, with its stack, per request), and one warning
      // at most per interval for every outage so far.
      assert.deepEqual(
        lines.filter((line) => line.level >= 50).map((line) => line.msg),
        [],
      );
      assert.ok(
        lines.length <= ways.indexOf(way) + 1,
        `${lines.length} log lines: ${JSON.stringify(lines)}`,
      );
      assert.equal(answers.length, 20);
      assert.ok(ms < 10_000);
    });
  }

  it('answers 503 to writes while the database is read-only, serves reads, and recovers', async () => {
    const from = lines.length;
    // What a standby, or a database an administrator made read-only, answers.
    await admin(`alter database "${name}" set default_transaction_read_only = on`, terminate);
    let reads: Awaited<ReturnType<typeof send>>[];
    let writes: Awaited<ReturnType<typeof send>>[];
    try {
      // The pool's first connections may be the terminated ones: wait for a read to pass.
      await recovered(5000);
      reads = await Promise.all([
        send(app, { method: 'GET', url: '/books/api/books/1/' }),
        send(app, { method: 'GET', url: '/books/api/authors/' }),
      ]);
      writes = (await Promise.all(requests())).slice(2);
    } finally {
      await admin(`alter database "${name}" reset default_transaction_read_only`, terminate);
    }
    for (const read of reads) assert.equal(read.statusCode, 200, read.body);
    for (const write of writes) {
      assert.equal(write.statusCode, 503, write.body);
      assert.equal(write.headers['retry-after'], '1');
    }
    await recovered(5000);
    assert.equal(
      (
        await send(app, {
          method: 'PATCH',
          url: '/books/api/books/2/',
          payload: { title: 'Writable again' },
        })
      ).statusCode,
      200,
    );
    const logged = lines.slice(from);
    assert.deepEqual(
      logged.filter((line) => line.level >= 50),
      [],
    );
    assert.ok(logged.length <= 2, JSON.stringify(logged));
  });

  it('answers 503 after the server closes every connection (an administrator), then 200', async () => {
    await admin(terminate);
    const answers = await Promise.all(requests());
    for (const answer of answers)
      assert.ok([200, 201, 503].includes(answer.statusCode), answer.body);
    await recovered(5000);
    assert.deepEqual(
      lines.filter((line) => line.level >= 50),
      [],
    );
  });

  it('answers 503 promptly for a locked table, and serves other tables meanwhile', async () => {
    const locker = new pg.Client({ connectionString: new URL(`/${name}`, url).toString() });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table books_book in access exclusive mode');
      const started = Date.now();
      const locked = Array.from({ length: 8 }, () =>
        send(app, { method: 'GET', url: '/books/api/books/1/' }).then((answer) => ({
          answer,
          ms: Date.now() - started,
        })),
      );
      // Sent after the eight, so it waits behind them for a pool connection.
      const other = await send(app, { method: 'GET', url: '/books/api/authors/1/' });
      const otherMs = Date.now() - started;
      assert.equal(other.statusCode, 200, other.body);
      for (const { answer, ms } of await Promise.all(locked)) {
        assert.equal(answer.statusCode, 503, answer.body);
        assert.equal(answer.headers['retry-after'], '1');
        assert.ok(ms < LOCK_TIMEOUT_MS * 4 + 2000, `answered after ${ms} ms`);
      }
      assert.ok(otherMs < LOCK_TIMEOUT_MS * 4 + 2000, `the other route took ${otherMs} ms`);
    } finally {
      await locker.query('rollback').catch(() => {});
      await locker.end();
    }
    assert.equal((await send(app, { method: 'GET', url: '/books/api/books/1/' })).statusCode, 200);
  });
});

/** One line of the service's log (pino's JSON). */
interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly kind?: string;
  readonly [key: string]: unknown;
}

/** The bounds of the locked-table test per dialect: a slice is 250 ms on PostgreSQL, 1 s on MySQL. */
const LOCK_TIMEOUTS = { sqlite: 1500, postgres: 2500, mysql: 5000 } as const;
const POOL = 4;

for (const dialect of testDialects()) {
  const server = dialect.name !== 'sqlite';
  const lockTimeoutMs = LOCK_TIMEOUTS[dialect.name];

  describe(`the bookstore on ${dialect.name} while the database cannot serve`, {
    skip: dialect.skip,
  }, () => {
    const lines: LogLine[] = [];
    let store: Bookstore;
    const SEED = { books: 5, authors: 2, users: 2 };

    before(async () => {
      store = await startBookstore(dialect, {
        seed: SEED,
        database: {
          poolSize: POOL,
          lockTimeoutMs,
          // Long enough that requests queued behind the locked ones are not the ones refused.
          connectionTimeoutMs: server ? lockTimeoutMs + 4000 : lockTimeoutMs,
          statementTimeoutMs: 20_000,
        },
        app: {
          logger: {
            level: 'warn',
            stream: { write: (line: string) => lines.push(JSON.parse(line)) },
          },
        },
      });
    });
    after(() => store?.close());

    const request = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
      send(store.app, {
        method,
        url,
        ...(body === undefined
          ? {}
          : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });

    /** A read, a list, a create, a PATCH and a DELETE. */
    const requests = () => [
      request('GET', '/books/api/books/1/'),
      request('GET', '/books/api/authors/'),
      request('POST', '/books/api/books/', {
        title: 'During the outage',
        publishing_information: { isbn: `out-${randomBytes(4).toString('hex')}`, pages: 1 },
        stock_information: { price: '1.00' },
      }),
      request('PATCH', '/books/api/books/2/', { title: 'Patched' }),
      request('DELETE', '/books/api/books/3/'),
    ];

    /** 503 `{"detail": "..."}` with `Retry-After`. */
    function assertUnavailable(answer: Awaited<ReturnType<typeof request>>, where: string): void {
      assert.equal(answer.statusCode, 503, `${where}: ${answer.statusCode} ${answer.body}`);
      assert.equal(answer.headers['retry-after'], '1');
      assert.equal(typeof (answer.json() as { detail: unknown }).detail, 'string');
    }

    /** No error line, and at most one warning per kind of outage, since line `from`. */
    function assertQuietLog(from: number): LogLine[] {
      const logged = lines.slice(from);
      assert.deepEqual(
        logged.filter((line) => line.level >= 50).map((line) => line.msg),
        [],
      );
      const kinds = logged.map((line) => line.kind);
      assert.equal(new Set(kinds).size, kinds.length, JSON.stringify(logged));
      for (const line of logged) assert.equal(line.stack, undefined);
      return logged;
    }

    /** Waits until a read answers 200 again, or fails. */
    async function recovered(within: number): Promise<void> {
      const started = Date.now();
      for (;;) {
        const answer = await request('GET', '/books/api/books/1/');
        if (answer.statusCode === 200) return;
        assert.equal(answer.statusCode, 503, answer.body);
        assert.ok(Date.now() - started < within, `no recovery within ${within} ms`);
        await sleep(100);
      }
    }

    /** Sends five rounds of {@link requests} while `breaks` holds, then `restores`. */
    async function during(breaks: () => Promise<void>, restores: () => Promise<void>) {
      const from = lines.length;
      await breaks();
      const answers = [];
      try {
        for (let round = 0; round < 5; round++) answers.push(...(await Promise.all(requests())));
      } finally {
        await restores();
      }
      for (const answer of answers) assertUnavailable(answer, 'during the outage');
      assert.equal(answers.length, 25);
      await recovered(10_000);
      return assertQuietLog(from);
    }

    /** Migrates and seeds the database again (made again empty, or its tables dropped). */
    async function refill(): Promise<void> {
      await store.db.migrate(ALL_MODELS);
      await seed(store.db, SEED);
    }

    it('answers 503 while the tables are missing, logs one line, and recovers once they are back', async (t) => {
      const logged = await during(async () => {
        if (server) {
          // The database made again, empty: what a restore gone wrong leaves.
          await dialect.dropDatabase(store.url);
          await dialect.createDatabase(store.url);
        } else {
          for (const table of [...TABLES].reverse())
            await store.db.kysely.schema.dropTable(table).execute();
        }
      }, refill);
      t.diagnostic(JSON.stringify(logged.map((line) => [line.kind, line.code ?? line.errno])));
    });

    it('answers 503 while the database is dropped, and recovers once it is back', {
      skip: server ? false : 'SQLite has no server to drop a database from',
    }, async (t) => {
      const logged = await during(
        () => dialect.dropDatabase(store.url),
        async () => {
          await dialect.createDatabase(store.url);
          await refill();
        },
      );
      t.diagnostic(JSON.stringify(logged.map((line) => [line.kind, line.code ?? line.errno])));
    });

    it('serves another table while one is locked, and answers 503 on the locked one after lockTimeoutMs', async (t) => {
      const from = lines.length;
      const release = await dialect.lockTable(store.url, 'books_book');
      const started = Date.now();
      let locked: { ms: number; answer: Awaited<ReturnType<typeof request>> }[];
      let other: Awaited<ReturnType<typeof request>>;
      let otherMs: number;
      try {
        // Twice as many requests for the locked table as the pool has connections. SQLite
        // locks the whole file for writes (reads go on): there they are PATCHes.
        const pending = Array.from({ length: 2 * POOL }, (_, i) =>
          (server
            ? request('GET', `/books/api/books/${(i % SEED.books) + 1}/`)
            : request('PATCH', `/books/api/books/${(i % SEED.books) + 1}/`, { title: `L${i}` })
          ).then((answer) => ({ answer, ms: Date.now() - started })),
        );
        other = await request('GET', '/books/api/authors/1/');
        otherMs = Date.now() - started;
        locked = await Promise.all(pending);
      } finally {
        await release();
      }
      assert.equal(other.statusCode, 200, other.body);
      for (const { answer, ms } of locked) {
        assertUnavailable(answer, `the locked table after ${ms} ms`);
        assert.ok(ms >= lockTimeoutMs * 0.9, `gave up after ${ms} ms`);
      }
      const first = Math.min(...locked.map(({ ms }) => ms));
      t.diagnostic(`other table: ${otherMs} ms; locked table: 503 after ${first} ms and more`);
      assert.ok(otherMs < first, `the other table took ${otherMs} ms, the locked one ${first} ms`);
      const logged = assertQuietLog(from);
      assert.ok(
        logged.every((line) => line.kind === 'locked'),
        JSON.stringify(logged),
      );
      assert.equal((await request('GET', '/books/api/books/1/')).statusCode, 200);
    });
  });
}
