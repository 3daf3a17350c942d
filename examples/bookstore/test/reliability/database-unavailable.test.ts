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
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Database } from '@restframework/core';
import { testPostgresUrl } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/app.ts';
import { ALL_MODELS } from '../../src/models/index.ts';
import { seed } from '../../src/seed.ts';
import { send, sleep } from './support.ts';

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
