/**
 * The SQLite adapter's connection settings: the memory-mapped part of the file (its default,
 * the option, and the start-up error for a value out of range).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Database, ImproperlyConfigured, SqliteAdapter } from '@restframework/core';
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

  const wrong: [string, unknown][] = [
    ['a negative size', -1],
    ['a fraction', 1.5],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a string', '1048576'],
    ['null', null],
  ];
  for (const [label, value] of wrong) {
    it(`refuses ${label} at start-up, naming the option`, () => {
      assert.throws(
        () => new SqliteAdapter({ filename: ':memory:', mmapSizeBytes: value as number }),
        (error: unknown) =>
          error instanceof ImproperlyConfigured &&
          error.code === 'REST_ERR_DATABASE_OPTION' &&
          error.message.includes('mmapSizeBytes'),
      );
      assert.throws(
        () => Database.connect('sqlite::memory:', { mmapSizeBytes: value as number }),
        (error: unknown) =>
          error instanceof ImproperlyConfigured && error.code === 'REST_ERR_DATABASE_OPTION',
      );
    });
  }
});
