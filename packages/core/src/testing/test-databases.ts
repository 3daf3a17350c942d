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
import type BetterSqlite3 from 'better-sqlite3';
import { Database, type DatabaseOptions } from '../db/database.ts';
import { requireOptional } from '../utils/optional-dependency.ts';

/** A database kind tests can run on. */
export interface TestDialect {
  /** Which database it is, for test names (`... on postgres`). */
  readonly name: 'sqlite' | 'postgres' | 'mysql';
  /** A reason to skip (PostgreSQL without `TEST_POSTGRES_URL`, MySQL without `TEST_MYSQL_URL`), or false. */
  readonly skip: string | false;
  /** Creates an empty database of this kind and connects to it. */
  create(options?: DatabaseOptions): Promise<Database>;
  /**
   * Creates an empty database of this kind without connecting (for a child process, say):
   * its URL, and the function that removes it.
   */
  createUrl(): Promise<{
    /** The new database's URL. */
    url: string;
    /** Removes the database. */
    drop: () => Promise<void>;
  }>;
  /** Closes and removes a database made by `create`. */
  drop(db: Database): Promise<void>;
  /**
   * Takes, from a connection of its own, the lock that keeps other connections out of `table`
   * in the database `url` names (one the test made, never a shared one): PostgreSQL's `LOCK
   * TABLE ... IN ACCESS EXCLUSIVE MODE` in an open transaction, MySQL's `LOCK TABLES ...
   * WRITE`, SQLite's write lock (`BEGIN IMMEDIATE`: SQLite locks the whole file, so other
   * connections still read every table and no connection writes any). Resolves to the function
   * that releases it.
   */
  lockTable(url: string, table: string): Promise<() => Promise<void>>;
  /**
   * Drops the database `url` names (one the test made) under its open connections, or makes
   * it again, empty (PostgreSQL and MySQL; SQLite has no server to drop a file from).
   */
  dropDatabase(url: string): Promise<void>;
  /**
   * Makes the database `url` names again, empty, after {@link dropDatabase} (PostgreSQL and MySQL).
   */
  createDatabase(url: string): Promise<void>;
}

/**
 * Where a database made by {@link connectTo} keeps the function that removes it: on the
 * database itself, which it lives and goes with.
 */
const REMOVE = Symbol('remove the test database');

type TestDatabase = Database & { readonly [REMOVE]?: () => Promise<void> };

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
  async lockTable(url) {
    const Driver = requireOptional<typeof BetterSqlite3>('better-sqlite3', 'SQLite test databases');
    const connection = new Driver(url.slice('sqlite:'.length), { timeout: 0 });
    connection.exec('begin immediate');
    return async () => {
      connection.exec('rollback');
      connection.close();
    };
  },
  async dropDatabase() {
    throw new Error('A SQLite file is not dropped by a server: remove or rename it.');
  },
  async createDatabase() {
    throw new Error('A SQLite file is not made by a server: open it.');
  },
};

/** A new database of `dialect`, connected; `drop` closes and removes it. */
async function connectTo(dialect: TestDialect, options?: DatabaseOptions): Promise<Database> {
  const { url, drop: remove } = await dialect.createUrl();
  const db = Database.connect(url, options);
  Object.defineProperty(db, REMOVE, { value: remove });
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
  /** See {@link TestDialect.lockTable}. */
  readonly lockTable: (url: string, table: string) => Promise<() => Promise<void>>;
}

/** A dialect whose databases are made on a server: a new database per test, by name. */
function serverDialect(kind: ServerKind): TestDialect {
  const { url } = kind;
  const adminUrl = () => {
    if (!url) throw new Error(kind.skip);
    return url;
  };
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
    lockTable: (url, table) => kind.lockTable(url, identifier(table)),
    dropDatabase: (target) => kind.admin(adminUrl(), kind.drop(databaseName(target))),
    createDatabase: (target) => kind.admin(adminUrl(), kind.create(databaseName(target))),
  };
}

/** The database a server URL names: a test's own (`rf_test_...`), never a shared one. */
function databaseName(url: string): string {
  const name = identifier(decodeURIComponent(new URL(url).pathname.slice(1)));
  if (!name.startsWith('rf_')) {
    throw new Error(`${name} is not a database a test made: tests drop and lock only their own.`);
  }
  return name;
}

/** `name`, when it is a plain identifier that needs no quoting rules to be safe. */
function identifier(name: string): string {
  if (!/^\w+$/.test(name)) throw new Error(`Not a plain identifier: ${JSON.stringify(name)}`);
  return name;
}

function postgresDialect(): TestDialect {
  return serverDialect({
    name: 'postgres',
    url: testPostgresUrl(),
    skip: 'TEST_POSTGRES_URL is not set: PostgreSQL tests skipped',
    create: (name) => `create database "${name}"`,
    drop: (name) => `drop database if exists "${name}" with (force)`,
    admin: postgresAdmin,
    async lockTable(url, table) {
      const client = await postgresClient(url);
      await client.query('begin');
      await client.query(`lock table "${table}" in access exclusive mode`);
      return async () => {
        try {
          await client.query('rollback');
        } finally {
          await client.end();
        }
      };
    },
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
    async lockTable(url, table) {
      const mysql = requireOptional<typeof import('mysql2')>('mysql2', 'MySQL test databases');
      const connection = mysql.createConnection({ uri: url });
      const run = (statement: string) =>
        new Promise<void>((resolve, reject) =>
          connection.query(statement, (error: unknown) => (error ? reject(error) : resolve())),
        );
      await run(`lock tables \`${table}\` write`);
      return async () => {
        try {
          await run('unlock tables');
        } finally {
          connection.destroy();
        }
      };
    },
  });
}

async function drop(db: Database): Promise<void> {
  await db.close();
  await (db as TestDatabase)[REMOVE]?.();
}

/** A connected pg client for `url`. */
async function postgresClient(url: string): Promise<import('pg').Client> {
  const pg = requireOptional<typeof import('pg')>('pg', 'The PostgreSQL test databases');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

async function postgresAdmin(url: string, statement: string): Promise<void> {
  const client = await postgresClient(url);
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
