/**
 * The adapters' connection settings: SQLite's memory-mapped part of the file (its default and
 * the option), and the start-up error for every option given a value out of range.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  Database,
  ImproperlyConfigured,
  PostgresAdapter,
  SqliteAdapter,
} from '@restframework/core';
import { sql } from 'kysely';

const dir = mkdtempSync(join(tmpdir(), 'rf-sqlite-adapter-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;

/** `PRAGMA mmap_size` of a new database opened with `options`. */
async function mmapSize(options: { mmapSizeBytes?: number } = {}): Promise<number> {
  const db = Database.connect(`sqlite:${join(dir, `db${files++}.sqlite3`)}`, options);
  try {
    const { rows } = await sql<{ mmap_size: number }>`pragma mmap_size`.execute(db.kysely);
    return Number(rows[0]?.mmap_size);
  } finally {
    await db.close();
  }
}

describe('SQLite adapter: memory-mapped reads', () => {
  it('maps 256 MiB of a database file by default', async () => {
    assert.equal(await mmapSize(), 256 * 1024 * 1024);
  });

  it('takes another size, or 0 to read through system calls only', async () => {
    assert.equal(await mmapSize({ mmapSizeBytes: 1024 * 1024 }), 1024 * 1024);
    assert.equal(await mmapSize({ mmapSizeBytes: 0 }), 0);
  });
});

/** Values no numeric option takes, with what a test calls them. */
const notWholeNumbers: [string, unknown][] = [
  ['a negative number', -1],
  ['a fraction', 1.5],
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['a string', '1048576'],
  ['null', null],
];

/** Whether `run` throws REST_ERR_DATABASE_OPTION with a message naming `option`. */
function refuses(run: () => unknown, option: string): void {
  assert.throws(
    run,
    (error: unknown) =>
      error instanceof ImproperlyConfigured &&
      error.code === 'REST_ERR_DATABASE_OPTION' &&
      error.message.includes(option),
  );
}

const pgUrl = 'postgres://nobody@127.0.0.1:1/none';

describe('Database options out of range fail at start-up, naming the option', () => {
  for (const option of ['mmapSizeBytes', 'busyTimeoutMs'] as const) {
    for (const [label, value] of notWholeNumbers) {
      it(`SQLite ${option}: refuses ${label}`, () => {
        refuses(
          () => new SqliteAdapter({ filename: ':memory:', [option]: value as number }),
          option,
        );
      });
    }
  }
  for (const option of ['mmapSizeBytes', 'connectionTimeoutMs'] as const) {
    for (const [label, value] of notWholeNumbers) {
      it(`Database.connect on SQLite ${option}: refuses ${label}`, () => {
        refuses(() => Database.connect('sqlite::memory:', { [option]: value as number }), option);
      });
    }
  }
  for (const option of ['poolSize', 'connectionTimeoutMs', 'statementTimeoutMs'] as const) {
    for (const [label, value] of notWholeNumbers) {
      it(`PostgreSQL ${option}: refuses ${label}`, () => {
        refuses(
          () => new PostgresAdapter({ connectionString: pgUrl, [option]: value as number }),
          option,
        );
      });
    }
  }
  for (const [label, value] of notWholeNumbers) {
    it(`transactionRetries, on every dialect: refuses ${label}`, () => {
      for (const url of ['sqlite::memory:', pgUrl, 'mysql://nobody@127.0.0.1:1/none']) {
        refuses(
          () => Database.connect(url, { transactionRetries: value as number }),
          'transactionRetries',
        );
      }
    });
  }
  it('PostgreSQL poolSize: refuses 0 (a pool without connections answers nothing)', () => {
    refuses(() => new PostgresAdapter({ connectionString: pgUrl, poolSize: 0 }), 'poolSize');
  });
  it('PostgreSQL preparedStatements: refuses anything but true or false', () => {
    for (const value of ['false', 0, null] as unknown[]) {
      refuses(
        () =>
          new PostgresAdapter({ connectionString: pgUrl, preparedStatements: value as boolean }),
        'preparedStatements',
      );
    }
  });
  it('Database.connect on PostgreSQL checks its options before opening a pool', () => {
    refuses(() => Database.connect(pgUrl, { poolSize: 2.5 }), 'poolSize');
  });
  it('takes the documented edge values: 0 timeouts, a pool of one', async () => {
    new SqliteAdapter({ filename: ':memory:', busyTimeoutMs: 0, mmapSizeBytes: 0 });
    new PostgresAdapter({
      connectionString: pgUrl,
      poolSize: 1,
      connectionTimeoutMs: 0,
      statementTimeoutMs: 0,
      preparedStatements: false,
    });
    const db = Database.connect('sqlite::memory:', {
      connectionTimeoutMs: 0,
      transactionRetries: 0,
    });
    assert.equal(db.adapter.lockTimeoutMs, 0);
    await db.close();
  });
});
