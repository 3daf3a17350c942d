/**
 * Fresh databases for tests: SQLite always, PostgreSQL when `TEST_POSTGRES_URL` is set,
 * MySQL/MariaDB when `TEST_MYSQL_URL` is set (`mysql://root@127.0.0.1:3306/test`).
 *
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { after, before, describe, it } from 'node:test';
 * import { testDialects } from '@restframework/core/testing';
 *
 * for (const dialect of testDialects()) {
 *   describe(`books on ${dialect.name}`, { skip: dialect.skip }, () => {
 *     let db: Database;
 *     before(async () => { db = await dialect.create(); await db.migrate([Book]); });
 *     after(() => dialect.drop(db));
 *     it('counts', async () => {
 *       assert.equal(await Book.objects.using(db).count(), 0);
 *     });
 *   });
 * }
 * ```
 * @module
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database, type DatabaseOptions } from '../db/database.ts';
import { requireOptional } from '../utils/optional-dependency.ts';

/** A database kind tests can run on. */
export interface TestDialect {
  readonly name: 'sqlite' | 'postgres' | 'mysql';
  /** A reason to skip (PostgreSQL without `TEST_POSTGRES_URL`, MySQL without `TEST_MYSQL_URL`), or false. */
  readonly skip: string | false;
  /** Creates an empty database of this kind and connects to it. */
  create(options?: DatabaseOptions): Promise<Database>;
  /**
   * Creates an empty database of this kind without connecting (for a child process, say):
   * its URL, and the function that removes it.
   */
  createUrl(): Promise<{ url: string; drop: () => Promise<void> }>;
  /** Closes and removes a database made by `create`. */
  drop(db: Database): Promise<void>;
}

const created = new WeakMap<Database, () => Promise<void>>();

/** The URL of the PostgreSQL server for tests, or undefined. */
export function testPostgresUrl(): string | undefined {
  return process.env.TEST_POSTGRES_URL || undefined;
}

/** The URL of the MySQL/MariaDB server for tests, or undefined. */
export function testMysqlUrl(): string | undefined {
  return process.env.TEST_MYSQL_URL || undefined;
}

/**
 * SQLite (a temporary file), PostgreSQL and MySQL/MariaDB (a new database on the test
 * server, each).
 */
export function testDialects(): TestDialect[] {
  return [sqliteDialect, postgresDialect(), mysqlDialect()];
}

const sqliteDialect: TestDialect = {
  name: 'sqlite',
  skip: false,
  create(options) {
    return connectTo(this, options);
  },
  async createUrl() {
    const dir = mkdtempSync(join(tmpdir(), 'rf-test-'));
    return {
      url: `sqlite:${join(dir, 'db.sqlite3')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
  drop,
};

/** A new database of `dialect`, connected; `drop` closes and removes it. */
async function connectTo(dialect: TestDialect, options?: DatabaseOptions): Promise<Database> {
  const { url, drop: remove } = await dialect.createUrl();
  const db = Database.connect(url, options);
  created.set(db, remove);
  return db;
}

/** What a database server needs to make and remove a database of its own for a test. */
interface ServerKind {
  readonly name: 'postgres' | 'mysql';
  readonly url: string | undefined;
  /** Why the tests are skipped when `url` is not set. */
  readonly skip: string;
  readonly create: (database: string) => string;
  readonly drop: (database: string) => string;
  /** Runs one statement on the server `url` names. */
  readonly admin: (url: string, statement: string) => Promise<void>;
}

/** A dialect whose databases are made on a server: a new database per test, by name. */
function serverDialect(kind: ServerKind): TestDialect {
  const { url } = kind;
  return {
    name: kind.name,
    skip: url ? false : kind.skip,
    create(options) {
      return connectTo(this, options);
    },
    async createUrl() {
      if (!url) throw new Error(kind.skip);
      const name = `rf_test_${process.pid}_${randomBytes(4).toString('hex')}`;
      await kind.admin(url, kind.create(name));
      const target = new URL(url);
      target.pathname = `/${name}`;
      return { url: target.toString(), drop: () => kind.admin(url, kind.drop(name)) };
    },
    drop,
  };
}

function postgresDialect(): TestDialect {
  return serverDialect({
    name: 'postgres',
    url: testPostgresUrl(),
    skip: 'TEST_POSTGRES_URL is not set: PostgreSQL tests skipped',
    create: (name) => `create database "${name}"`,
    drop: (name) => `drop database if exists "${name}" with (force)`,
    admin: postgresAdmin,
  });
}

function mysqlDialect(): TestDialect {
  return serverDialect({
    name: 'mysql',
    url: testMysqlUrl(),
    skip: 'TEST_MYSQL_URL is not set: MySQL/MariaDB tests skipped',
    create: (name) => `create database \`${name}\``,
    drop: (name) => `drop database if exists \`${name}\``,
    admin: mysqlAdmin,
  });
}

async function drop(db: Database): Promise<void> {
  await db.close();
  await created.get(db)?.();
}

async function postgresAdmin(url: string, statement: string): Promise<void> {
  const pg = requireOptional<typeof import('pg')>('pg', 'The PostgreSQL test databases');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function mysqlAdmin(url: string, statement: string): Promise<void> {
  const admin = Database.connect(url, { poolSize: 1 });
  try {
    await admin.query(statement, []);
  } finally {
    await admin.close();
  }
}
