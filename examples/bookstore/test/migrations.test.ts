/**
 * The bookstore's committed migrations match its models (`makemigrations --check`, as CI
 * runs it), and applying them builds the schema `db.migrate(ALL_MODELS)` builds.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { applyMigrations, type Database } from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import { ALL_MODELS } from '../src/models/index.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = fileURLToPath(import.meta.resolve('@restframework/core/package.json')).replace(
  /package\.json$/,
  'src/cli/main.ts',
);

describe('bookstore migrations', () => {
  it('makemigrations --check finds no change between the models and the migrations', () => {
    const result = spawnSync(process.execPath, [CLI, 'makemigrations', '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stdout, /No changes detected\./);
  });

  for (const dialect of testDialects()) {
    it(`builds on ${dialect.name} the tables and columns db.migrate builds`, {
      skip: dialect.skip,
    }, async () => {
      const schemaOf = async (db: Database) =>
        (await db.kysely.introspection.getTables())
          .filter((t) => !t.name.startsWith('restframework_'))
          .map((t) => ({
            table: t.name,
            columns: t.columns
              .map((c) => `${c.name} ${c.dataType} ${c.isNullable ? 'null' : 'not null'}`)
              .sort(),
          }))
          .sort((a, b) => a.table.localeCompare(b.table));
      const migrated = await dialect.create();
      const quick = await dialect.create();
      try {
        const result = await applyMigrations(migrated, {
          folder: join(ROOT, 'migrations'),
          app: 'books',
        });
        const files = readdirSync(join(ROOT, 'migrations'))
          .filter((file) => /^\d{4}_\w+\.ts$/.test(file))
          .map((file) => file.replace(/\.ts$/, ''))
          .sort();
        assert.deepEqual(result.applied, files);
        await quick.migrate(ALL_MODELS);
        assert.deepEqual(await schemaOf(migrated), await schemaOf(quick));
      } finally {
        await dialect.drop(migrated);
        await dialect.drop(quick);
      }
    });
  }
});
