/**
 * `AlterField` over rows on every dialect (PostgreSQL in place, SQLite by rebuilding the
 * table): each change applied forwards and backwards, the rows kept, the new rule enforced
 * after the change and the old one after the reverse.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Database,
  type FieldSpec,
  type LoadedMigration,
  MigrationError,
  MigrationExecutor,
  MigrationGraph,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';

interface Variant {
  readonly what: string;
  readonly before: FieldSpec;
  readonly after: FieldSpec;
  readonly fill?: string | number;
  /** The value the one row holds (`null` allowed where the first spec allows it). */
  readonly value: string | number | null;
  /** The column after the change, when it is not `v`. */
  readonly column?: string;
  /** What the row holds after the change. */
  readonly changed?: string | number | null;
  /** SQL that fails after the change and succeeds after the reverse, or the other way. */
  readonly enforced?: { readonly sql: string; readonly after: 'fails' | 'works' };
}

const VARIANTS: Variant[] = [
  {
    what: 'integer to big integer',
    before: { kind: 'integer' },
    after: { kind: 'big_integer' },
    value: 42,
  },
  {
    what: 'char to text',
    before: { kind: 'char', maxLength: 10 },
    after: { kind: 'text' },
    value: 'kept',
  },
  {
    what: 'a longer char',
    before: { kind: 'char', maxLength: 5 },
    after: { kind: 'char', maxLength: 50 },
    value: 'short',
  },
  {
    what: 'NOT NULL to nullable',
    before: { kind: 'integer' },
    after: { kind: 'integer', null: true },
    value: 1,
    enforced: { sql: 'insert into "thing" ("v", "parent_id") values (null, null)', after: 'works' },
  },
  {
    what: 'nullable to NOT NULL, NULLs filled',
    before: { kind: 'integer', null: true },
    after: { kind: 'integer' },
    fill: 7,
    value: null,
    changed: 7,
    enforced: { sql: 'insert into "thing" ("v", "parent_id") values (null, null)', after: 'fails' },
  },
  {
    what: 'unique on',
    before: { kind: 'integer' },
    after: { kind: 'integer', unique: true },
    value: 5,
    enforced: { sql: 'insert into "thing" ("v", "parent_id") values (5, null)', after: 'fails' },
  },
  {
    what: 'positive to any integer (the check goes)',
    before: { kind: 'positive_integer' },
    after: { kind: 'integer' },
    value: 3,
    enforced: { sql: 'insert into "thing" ("v", "parent_id") values (-1, null)', after: 'works' },
  },
  {
    what: 'any to positive integer (the check comes)',
    before: { kind: 'integer' },
    after: { kind: 'positive_integer' },
    value: 3,
    enforced: { sql: 'insert into "thing" ("v", "parent_id") values (-1, null)', after: 'fails' },
  },
  {
    what: 'a column of another name (dbColumn), its values kept',
    before: { kind: 'integer' },
    after: { kind: 'integer', column: 'w', dbIndex: true },
    value: 11,
    column: 'w',
  },
  {
    what: 'a default and choices only (no SQL needed)',
    before: { kind: 'char', maxLength: 10 },
    after: {
      kind: 'char',
      maxLength: 10,
      default: 'a',
      choices: [
        ['a', 'A'],
        ['b', 'B'],
      ],
    },
    value: 'b',
  },
];

function history(variant: Variant): LoadedMigration[] {
  return [
    {
      name: '0001_initial',
      file: '0001_initial.ts',
      dependencies: [],
      operations: [
        {
          op: 'CreateModel',
          name: 'Parent',
          table: 'parent',
          fields: { id: { kind: 'auto', primaryKey: true } },
        },
        {
          op: 'CreateModel',
          name: 'Other',
          table: 'other',
          fields: { id: { kind: 'auto', primaryKey: true } },
        },
        {
          op: 'CreateModel',
          name: 'Thing',
          table: 'thing',
          fields: {
            id: { kind: 'auto', primaryKey: true },
            v: variant.before,
            parent: { kind: 'foreign_key', to: 'Parent', onDelete: 'CASCADE', null: true },
          },
        },
      ],
    },
    {
      name: '0002_alter',
      file: '0002_alter.ts',
      dependencies: ['0001_initial'],
      operations: [
        {
          op: 'AlterField',
          model: 'Thing',
          name: 'v',
          field: variant.after,
          ...(variant.fill !== undefined ? { fill: variant.fill } : {}),
        },
      ],
    },
  ];
}

/** The history of a nullable `v` of `kind`, unchanged by 0002, then `name` with `operations`. */
function historyThen(
  kind: FieldSpec,
  name: string,
  operations: readonly unknown[],
): LoadedMigration[] {
  const migrations = history({ what: name, before: kind, after: kind, value: null });
  migrations.push({
    name,
    file: `${name}.ts`,
    dependencies: ['0002_alter'],
    operations: operations as LoadedMigration['operations'],
  });
  return migrations;
}

for (const dialect of testDialects()) {
  describe(`AlterField over rows on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    before(async () => {
      db = await dialect.create();
    });
    after(() => dialect.drop(db));

    /** Removes the rows and rolls every migration back, for the next test. */
    const emptyAndUndo = async (executor: MigrationExecutor) => {
      await db.query('delete from "thing"', []);
      await db.query('delete from "parent"', []);
      await executor.migrate({ target: 'zero' });
    };

    const attempt = async (sql: string) => {
      try {
        await db.transaction(() => db.query(sql, []));
        return 'works';
      } catch {
        return 'fails';
      }
    };

    for (const variant of VARIANTS) {
      it(variant.what, async () => {
        const executor = new MigrationExecutor(
          db,
          new MigrationGraph(history(variant)),
          variant.what,
        );
        await executor.migrate({ target: '0001' });
        await db.query(
          'insert into "thing" ("v", "parent_id") values (?, null)'.replace(
            '?',
            variant.value === null
              ? 'null'
              : typeof variant.value === 'string'
                ? `'${variant.value}'`
                : String(variant.value),
          ),
          [],
        );
        const value = async (column = 'v') =>
          (
            (await db.query(
              `select "${column}" as "v" from "thing" order by "id" limit 1`,
              [],
            )) as {
              v: unknown;
            }[]
          )[0]?.v;
        await executor.migrate();
        const changed = await value(variant.column);
        assert.equal(
          Number.isNaN(Number(changed)) ? changed : Number(changed),
          variant.changed !== undefined ? variant.changed : variant.value,
        );
        if (variant.enforced)
          assert.equal(await attempt(variant.enforced.sql), variant.enforced.after);
        await db.query('delete from "thing" where "id" > 1', []);
        await executor.migrate({ target: '0001' });
        const back = await value();
        assert.equal(
          back === null ? null : Number.isNaN(Number(back)) ? back : Number(back),
          variant.changed !== undefined ? variant.changed : variant.value,
        );
        if (variant.enforced) {
          assert.equal(
            await attempt(variant.enforced.sql),
            variant.enforced.after === 'works' ? 'fails' : 'works',
          );
        }
        await executor.migrate({ target: 'zero' });
        await db.query(`delete from "restframework_migrations"`, []);
      });
    }

    it('a shorter char refuses a longer stored value, and the column stays as it was', async (t) => {
      if (dialect.name === 'sqlite') {
        t.skip('SQLite does not enforce varchar(n): the rebuild keeps the value (documented)');
        return;
      }
      const variant: Variant = {
        what: 'shorter char',
        before: { kind: 'char', maxLength: 20 },
        after: { kind: 'char', maxLength: 4 },
        value: null,
      };
      const executor = new MigrationExecutor(db, new MigrationGraph(history(variant)), 'short');
      await executor.migrate({ target: '0001' });
      await db.query(`insert into "thing" ("v", "parent_id") values ('twelve chars', null)`, []);
      await assert.rejects(executor.migrate(), (error) => {
        assert.ok(error instanceof MigrationError);
        assert.equal(error.code, 'REST_ERR_MIGRATION_FAILED');
        return true;
      });
      assert.deepEqual(await db.query('select "v" from "thing"', []), [{ v: 'twelve chars' }]);
      await db.query('delete from "thing"', []);
      // On MySQL the failed statement was the migration's first: nothing blocks another target.
      await executor.migrate({ target: 'zero' });
      await db.query(`delete from "restframework_migrations"`, []);
    });

    it('a relation made unique and back: its index changes, the foreign key stays', async () => {
      const migrations = historyThen({ kind: 'integer', null: true }, '0003_unique', [
        {
          op: 'AlterField',
          model: 'Thing',
          name: 'parent',
          field: {
            kind: 'foreign_key',
            to: 'Parent',
            onDelete: 'CASCADE',
            null: true,
            unique: true,
          },
        },
      ]);
      const executor = new MigrationExecutor(db, new MigrationGraph(migrations), 'unique-fk');
      await executor.migrate();
      await db.query('insert into "parent" ("id") values (1)', []);
      const twice = 'insert into "thing" ("v", "parent_id") values (null, 1)';
      assert.equal(await attempt(twice), 'works');
      assert.equal(await attempt(twice), 'fails');
      assert.equal(
        await attempt('insert into "thing" ("v", "parent_id") values (null, 9)'),
        'fails',
      );
      await executor.migrate({ target: '0002' });
      assert.equal(await attempt(twice), 'works');
      assert.equal(
        await attempt('insert into "thing" ("v", "parent_id") values (null, 9)'),
        'fails',
      );
      await emptyAndUndo(executor);
    });

    it('a relation and its model renamed: the foreign key and index follow, and still hold', async () => {
      const migrations = historyThen({ kind: 'positive_integer', null: true }, '0003_renames', [
        { op: 'RenameField', model: 'Thing', from: 'parent', to: 'owner' },
        { op: 'RenameModel', from: 'Thing', to: 'Item', table: 'item' },
      ]);
      const executor = new MigrationExecutor(db, new MigrationGraph(migrations), 'renames');
      await executor.migrate();
      await db.query('insert into "parent" ("id") values (1)', []);
      assert.equal(await attempt('insert into "item" ("v", "owner_id") values (1, 1)'), 'works');
      // The foreign key and the check, now under the new names, still refuse.
      assert.equal(await attempt('insert into "item" ("v", "owner_id") values (1, 9)'), 'fails');
      assert.equal(await attempt('insert into "item" ("v", "owner_id") values (-1, 1)'), 'fails');
      assert.equal(await db.adapter.indexExists(db.kysely, 'item_owner_id_idx'), true);
      // CASCADE still: the parent's deletion takes its item along.
      await db.query('delete from "parent" where "id" = 1', []);
      assert.deepEqual(
        await db
          .query('select count(*) as "n" from "item"', [])
          .then((r) => Number((r[0] as { n: unknown }).n)),
        0,
      );
      await executor.migrate({ target: '0002' });
      assert.equal(await db.adapter.indexExists(db.kysely, 'thing_parent_id_idx'), true);
      await db.query('insert into "parent" ("id") values (2)', []);
      assert.equal(await attempt('insert into "thing" ("v", "parent_id") values (1, 2)'), 'works');
      assert.equal(await attempt('insert into "thing" ("v", "parent_id") values (1, 9)'), 'fails');
      assert.equal(await attempt('insert into "thing" ("v", "parent_id") values (-1, 2)'), 'fails');
      await emptyAndUndo(executor);
    });

    it('a relation re-targeted and its on-delete changed, the foreign key following', async () => {
      const migrations = historyThen({ kind: 'integer', null: true }, '0003_retarget', [
        {
          op: 'AlterField',
          model: 'Thing',
          name: 'parent',
          field: { kind: 'foreign_key', to: 'Other', onDelete: 'SET_NULL', null: true },
        },
      ]);
      const executor = new MigrationExecutor(db, new MigrationGraph(migrations), 'relation');
      await executor.migrate({ target: '0002' });
      await db.query('insert into "parent" ("id") values (1)', []);
      await db.query('insert into "other" ("id") values (2)', []);
      assert.equal(
        await attempt('insert into "thing" ("v", "parent_id") values (null, 1)'),
        'works',
      );
      assert.equal(
        await attempt('insert into "thing" ("v", "parent_id") values (null, 2)'),
        'fails',
      );
      await db.query('delete from "thing"', []);
      await executor.migrate();
      assert.equal(
        await attempt('insert into "thing" ("v", "parent_id") values (null, 2)'),
        'works',
      );
      assert.equal(
        await attempt('insert into "thing" ("v", "parent_id") values (null, 1)'),
        'fails',
      );
      // SET_NULL now: deleting the other row keeps the thing, without its parent.
      await db.query('delete from "other" where "id" = 2', []);
      assert.deepEqual(await db.query('select "parent_id" from "thing"', []), [
        { parent_id: null },
      ]);
      await executor.migrate({ target: '0002' });
      assert.equal(
        await attempt('insert into "thing" ("v", "parent_id") values (null, 1)'),
        'works',
      );
      // CASCADE again: deleting the parent deletes its things.
      await db.query('delete from "parent" where "id" = 1', []);
      assert.deepEqual(
        await db
          .query('select count(*) as "n" from "thing" where "parent_id" is not null', [])
          .then((r) => Number((r[0] as { n: unknown }).n)),
        0,
      );
    });
  });
}
