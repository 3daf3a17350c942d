/**
 * What is refused, and how: broken operations in migration files (before any database is
 * touched), model index declarations, a held migration lock, a history that disagrees with
 * the files, an ambiguous target; and the quick path's report of what it created.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Database,
  defineModel,
  ImproperlyConfigured,
  type LoadedMigration,
  MigrationError,
  MigrationExecutor,
  MigrationGraph,
  models,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';

const INITIAL: LoadedMigration = {
  name: '0001_initial',
  file: '/p/migrations/0001_initial.ts',
  dependencies: [],
  operations: [
    {
      op: 'CreateModel',
      name: 'Tag',
      table: 'tag',
      fields: {
        id: { kind: 'auto', primaryKey: true },
        label: { kind: 'char', maxLength: 30 },
        rank: { kind: 'integer', null: true },
      },
      indexes: [{ name: 'tag_label_rank_idx', fields: ['label', 'rank'] }],
    },
  ],
};

function second(operations: unknown[]): LoadedMigration {
  return {
    name: '0002_next',
    file: '/p/migrations/0002_next.ts',
    dependencies: ['0001_initial'],
    operations: operations as LoadedMigration['operations'],
  };
}

describe('a migration graph refuses broken operations, naming the file and the operation', () => {
  const cases: [string, unknown, RegExp][] = [
    ['no op at all', null, /operation 2 is the unknown operation undefined/],
    [
      'an unknown kind of field',
      { op: 'AddField', model: 'Tag', name: 'x', field: { kind: 'colour' } },
      /the kind "colour" is unknown/,
    ],
    [
      'a field that is not an object',
      { op: 'AddField', model: 'Tag', name: 'x', field: 'char' },
      /field must be a field spec/,
    ],
    [
      'a char without maxLength',
      { op: 'AddField', model: 'Tag', name: 'x', field: { kind: 'char', null: true } },
      /a CharField needs maxLength/,
    ],
    [
      'a relation to no model',
      {
        op: 'AddField',
        model: 'Tag',
        name: 'x',
        field: { kind: 'foreign_key', to: 'Nope', onDelete: 'CASCADE', null: true },
      },
      /the model Nope does not exist/,
    ],
    [
      'a field name that is not an identifier',
      { op: 'AddField', model: 'Tag', name: 'a b', field: { kind: 'integer', null: true } },
      /name must be an identifier/,
    ],
    [
      'a field that exists',
      { op: 'AddField', model: 'Tag', name: 'label', field: { kind: 'integer', null: true } },
      /Tag already has a field label/,
    ],
    [
      'altering a field that does not exist',
      { op: 'AlterField', model: 'Tag', name: 'nope', field: { kind: 'integer' } },
      /Tag has no field "nope"/,
    ],
    [
      'renaming onto a field that exists',
      { op: 'RenameField', model: 'Tag', from: 'label', to: 'rank' },
      /Tag already has a field rank/,
    ],
    [
      'removing a field an index uses',
      { op: 'RemoveField', model: 'Tag', name: 'rank' },
      /Tag\.rank is used by the index or constraint tag_label_rank_idx: remove that first/,
    ],
    [
      'creating a model that exists',
      { op: 'CreateModel', name: 'Tag', table: 'tag2', fields: {} },
      /model Tag already exists/,
    ],
    [
      'deleting a model that does not exist',
      { op: 'DeleteModel', name: 'Post' },
      /model Post does not exist/,
    ],
    [
      'removing an index that does not exist',
      { op: 'RemoveIndex', model: 'Tag', name: 'tag_x_idx' },
      /Tag has no index "tag_x_idx".*\(tag_label_rank_idx\)/,
    ],
    [
      'an index over a field that does not exist',
      { op: 'AddIndex', model: 'Tag', index: { name: 'i', fields: ['nope'] } },
      /i: Tag has no field "nope"/,
    ],
    [
      'an index without fields',
      { op: 'AddUniqueConstraint', model: 'Tag', constraint: { name: 'u', fields: [] } },
      /fields must be a non-empty list/,
    ],
    [
      'an index name that is taken',
      { op: 'AddIndex', model: 'Tag', index: { name: 'tag_label_rank_idx', fields: ['label'] } },
      /already has an index or constraint tag_label_rank_idx/,
    ],
    [
      'SQL that is not text',
      { op: 'RunSQL', sql: 42 },
      /sql \(and reverseSql\) must be a statement/,
    ],
    [
      'code that is not a function',
      { op: 'RunCode', code: 'update tag' },
      /code must be a function/,
    ],
  ];
  for (const [what, operation, message] of cases) {
    it(what, () => {
      assert.throws(
        () =>
          new MigrationGraph([
            INITIAL,
            second([{ op: 'RunSQL', sql: 'select 1', reverseSql: [] }, operation]),
          ]),
        (error) => {
          assert.ok(error instanceof MigrationError);
          assert.equal(error.code, 'REST_ERR_MIGRATION_GRAPH');
          assert.match(error.message, /^0002_next\.ts: operation 2/);
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }

  it('renaming a model onto one that exists', () => {
    const post = {
      op: 'CreateModel',
      name: 'Post',
      table: 'post',
      fields: { id: { kind: 'auto', primaryKey: true } },
    };
    assert.throws(
      () =>
        new MigrationGraph([
          INITIAL,
          second([post, { op: 'RenameModel', from: 'Tag', to: 'Post' }]),
        ]),
      /0002_next\.ts: operation 2 \(RenameModel\): model Post already exists/,
    );
  });
});

describe('model indexes and unique constraints are checked at definition', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['no fields', { indexes: [{ fields: [] }] }, /Tag\.indexes: each entry needs fields/],
    [
      'an unknown field',
      { uniqueConstraints: [{ fields: ['nope'] }] },
      /Tag\.uniqueConstraints: unknown field "nope"/,
    ],
    [
      'a relation by its attribute name',
      { indexes: [{ fields: ['owner_id'] }] },
      /unknown field "owner_id"/,
    ],
    [
      'a name that is not an identifier',
      { indexes: [{ fields: ['label'], name: 'bad name' }] },
      /must be a plain identifier/,
    ],
    [
      'the name of a field index',
      { indexes: [{ fields: ['label'] }] },
      /the index tag_label_idx \(on label\) has the name of the index of field label/,
    ],
    [
      'two entries with one name',
      {
        indexes: [{ fields: ['rank'], name: 'x' }],
        uniqueConstraints: [{ fields: ['rank'], name: 'x' }],
      },
      /the index x \(on rank\) has the name of the entry of indexes on rank/,
    ],
  ];
  for (const [what, options, message] of cases) {
    it(`refuses ${what} (REST_ERR_MODEL_INDEX)`, () => {
      const Owner = defineModel({ name: 'Owner', fields: {} });
      assert.throws(
        () =>
          defineModel({
            name: 'Tag',
            fields: {
              label: models.CharField({ maxLength: 10, dbIndex: true }),
              rank: models.IntegerField(),
              owner: models.ForeignKey(Owner, { onDelete: 'CASCADE' }),
            },
            ...options,
          }),
        (error) => {
          assert.ok(error instanceof ImproperlyConfigured);
          assert.equal(error.code, 'REST_ERR_MODEL_INDEX');
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }

  it('names indexes after the table and columns by default', () => {
    const Tag = defineModel({
      name: 'Tag',
      fields: { label: models.CharField({ maxLength: 10 }), owner: models.IntegerField() },
      indexes: [{ fields: ['label', 'owner'] }],
      uniqueConstraints: [{ fields: ['owner', 'label'], name: 'one_label_per_owner' }],
    });
    assert.deepEqual(Tag.indexes, [{ name: 'tag_label_owner_idx', fields: ['label', 'owner'] }]);
    assert.deepEqual(Tag.uniqueConstraints, [
      { name: 'one_label_per_owner', fields: ['owner', 'label'] },
    ]);
  });
});

for (const dialect of testDialects()) {
  describe(`migrations on ${dialect.name}: locks, history and targets`, {
    skip: dialect.skip,
  }, () => {
    let db: Database;
    before(async () => {
      db = await dialect.create();
    });
    after(() => dialect.drop(db));
    const graph = () =>
      new MigrationGraph([
        INITIAL,
        second([
          { op: 'AddField', model: 'Tag', name: 'note', field: { kind: 'text', null: true } },
        ]),
      ]);

    it('db.migrate reports only the indexes it created', async () => {
      const Tag = defineModel({
        name: 'QuickTag',
        fields: {
          label: models.CharField({ maxLength: 10, unique: true }),
          rank: models.IntegerField({ dbIndex: true }),
        },
        uniqueConstraints: [{ fields: ['label', 'rank'] }],
      });
      const first = await db.migrate([Tag]);
      assert.deepEqual(first.createdTables, ['quick_tag']);
      assert.deepEqual(first.createdIndexes.sort(), [
        'quick_tag_label_key',
        'quick_tag_label_rank_uniq',
        'quick_tag_rank_idx',
      ]);
      const again = await db.migrate([Tag]);
      assert.deepEqual(again, { createdTables: [], addedColumns: [], createdIndexes: [] });
    });

    it('refuses an ambiguous or unknown target', async () => {
      const executor = new MigrationExecutor(db, graph(), 'lock');
      assert.throws(
        () => executor.resolveTarget('000'),
        /"000" matches more than one migration of lock \(0001_initial, 0002_next\)/,
      );
      assert.throws(
        () => executor.resolveTarget('0003'),
        (e) => e instanceof MigrationError && e.code === 'REST_ERR_MIGRATION_TARGET',
      );
      assert.equal(executor.resolveTarget('0002')?.name, '0002_next');
    });

    it('waits for a held lock, then says how to release it', async () => {
      const executor = new MigrationExecutor(db, graph(), 'lock');
      const release = await db.adapter.acquireMigrationLock(db.kysely, 1000);
      try {
        const started = Date.now();
        await assert.rejects(executor.migrate({ lockTimeoutMs: 300 }), (error) => {
          assert.ok(error instanceof MigrationError);
          assert.equal(error.code, 'REST_ERR_MIGRATION_LOCKED');
          assert.match(
            error.message,
            /Another process has been migrating this database for more than 300 ms/,
          );
          return true;
        });
        assert.ok(Date.now() - started >= 250);
        assert.deepEqual(await executor.status(), [
          { name: '0001_initial', applied: false },
          { name: '0002_next', applied: false },
        ]);
      } finally {
        await release();
      }
      assert.deepEqual((await executor.migrate()).applied, ['0001_initial', '0002_next']);
    });

    it('after a failure half-way, the next migrate finishes the migration without repeating a step', async (t) => {
      const db = await dialect.create();
      t.after(() => dialect.drop(db));
      let failing = true;
      let counted = 0;
      const app = 'resume';
      const steps = new MigrationGraph([
        INITIAL,
        second([
          { op: 'AddField', model: 'Tag', name: 'note', field: { kind: 'text', null: true } },
          { op: 'RunCode', code: async () => void counted++, reverseCode: async () => {} },
          {
            op: 'RunCode',
            description: 'Fails the first time',
            code: async () => {
              if (failing) throw new Error('not yet');
            },
            reverseCode: async () => {},
          },
          { op: 'AddField', model: 'Tag', name: 'extra', field: { kind: 'integer', null: true } },
        ]),
      ]);
      const executor = new MigrationExecutor(db, steps, app);
      const columns = async () =>
        (await db.kysely.introspection.getTables())
          .find((t) => t.name === 'tag')
          ?.columns.map((c) => c.name)
          .sort();
      await assert.rejects(executor.migrate(), (error) => {
        assert.ok(error instanceof MigrationError);
        assert.equal(error.code, 'REST_ERR_MIGRATION_FAILED');
        assert.match(error.message, /0002_next\.ts: Fails the first time failed: not yet/);
        return true;
      });
      assert.deepEqual(await executor.status(), [
        { name: '0001_initial', applied: true },
        { name: '0002_next', applied: false },
      ]);
      if (db.adapter.supportsTransactionalDdl) {
        // Rolled back: nothing of 0002 is left, and another target is free to run.
        assert.deepEqual(await columns(), ['id', 'label', 'rank']);
        assert.deepEqual((await executor.migrate({ target: '0001' })).applied, []);
      } else {
        // What ran before the failure stays, and is recorded: only finishing it is allowed.
        assert.deepEqual(await columns(), ['id', 'label', 'note', 'rank']);
        await assert.rejects(executor.migrate({ target: '0001' }), (error) => {
          assert.ok(error instanceof MigrationError);
          assert.equal(error.code, 'REST_ERR_MIGRATION_PARTIAL');
          assert.match(
            error.message,
            /resume\.0002_next is half-done: .* after 2 of its statements/,
          );
          return true;
        });
      }
      failing = false;
      const lines: string[] = [];
      const finished = await executor.migrate({ log: (line) => lines.push(line) });
      assert.deepEqual(finished.applied, ['0002_next']);
      assert.deepEqual(await columns(), ['extra', 'id', 'label', 'note', 'rank']);
      // A step that ran before the failure runs again only where the failure rolled it back.
      assert.equal(counted, db.adapter.supportsTransactionalDdl ? 2 : 1);
      assert.equal(
        lines.some((l) => /resumes after the 2 statements/.test(l)),
        !db.adapter.supportsTransactionalDdl,
        lines.join('\n'),
      );
      assert.deepEqual((await executor.migrate({ target: 'zero' })).unapplied, [
        '0002_next',
        '0001_initial',
      ]);
    });

    it('checks every model a plan goes through against the dialect before running anything', async (t) => {
      const db = await dialect.create();
      t.after(() => dialect.drop(db));
      const notes = new MigrationGraph([
        INITIAL,
        second([
          {
            op: 'AddField',
            model: 'Tag',
            name: 'body',
            field: { kind: 'text', unique: true, null: true },
          },
        ]),
      ]);
      const executor = new MigrationExecutor(db, notes, 'limits');
      // What the dialect's adapter refuses of the last state (MySQL: a unique TextField).
      const refusal = (() => {
        try {
          for (const model of Object.values(notes.finalState.renderAll()))
            db.adapter.checkModel(model);
          return undefined;
        } catch (error) {
          return error as ImproperlyConfigured;
        }
      })();
      if (!refusal) {
        assert.deepEqual((await executor.migrate()).applied, ['0001_initial', '0002_next']);
        return;
      }
      assert.equal(refusal.code, 'REST_ERR_DIALECT_LIMIT');
      await assert.rejects(executor.migrate(), (error) => {
        assert.ok(error instanceof ImproperlyConfigured);
        assert.equal(error.code, 'REST_ERR_DIALECT_LIMIT');
        assert.match(error.message, /Tag\.body: a TextField cannot be unique or indexed/);
        return true;
      });
      // Not even 0001, which the dialect could hold, ran.
      const tables = (await db.kysely.introspection.getTables()).map((t) => t.name);
      assert.ok(!tables.includes('tag'), tables.join());
      assert.deepEqual((await executor.migrate({ target: '0001' })).applied, ['0001_initial']);
    });

    it('refuses a history in which a migration is applied without its dependency', async () => {
      const executor = new MigrationExecutor(db, graph(), 'lock');
      await db.query(`delete from "restframework_migrations" where "name" = '0001_initial'`, []);
      await assert.rejects(executor.migrate(), (error) => {
        assert.ok(error instanceof MigrationError);
        assert.equal(error.code, 'REST_ERR_MIGRATION_HISTORY');
        assert.match(error.message, /0002_next is applied but its dependency 0001_initial is not/);
        return true;
      });
    });
  });
}
