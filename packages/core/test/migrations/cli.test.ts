/**
 * The `restframework` command line through child processes, in temporary project folders:
 * config errors, makemigrations (and --check), migrate forwards and back, showmigrations,
 * sqlmigrate, broken migration graphs refused before the database is touched, and
 * irreversible rollbacks refused before anything changes.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Database } from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import {
  type CliProject,
  cliProject,
  type FreshDatabase,
  freshDatabase,
  runCli,
} from '../fixtures/cli-project.ts';

const TAG_V1 = `const Tag = defineModel({ name: 'Tag', table: 'tag', fields: { label: models.CharField({ maxLength: 30 }) } });`;
const TAG_V2 = `const Tag = defineModel({ name: 'Tag', table: 'tag', fields: { label: models.CharField({ maxLength: 60, null: true }), weight: models.IntegerField({ default: 1 }) } });`;
const TAG_V3 = `const Tag = defineModel({ name: 'Tag', table: 'tag', fields: { label: models.CharField({ maxLength: 60, null: true }), weight: models.IntegerField({ default: 1 }), slug: models.CharField({ maxLength: 20 }) } });`;

describe('restframework: configuration and usage errors', () => {
  let project: CliProject;
  before(() => {
    project = cliProject();
  });
  after(() => project.remove());

  it('says what to create when no config file is found (exit 1)', async () => {
    const run = await runCli(project.dir, ['showmigrations']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /REST_ERR_CONFIG: No restframework\.config\.ts/);
    assert.match(run.stderr, /defineConfig\(\{ app, models, databaseUrl, migrations \}\)/);
  });

  const broken: [string, string, RegExp][] = [
    ['a syntax error', 'export default {', /does not load/],
    ['no default export', 'export const x = 1;', /must export default defineConfig/],
    [
      'models that are not models',
      `export default { app: 'shop', models: [{}], databaseUrl: 'sqlite::memory:' };`,
      /models must be a list of models/,
    ],
    [
      'a databaseUrl that is not text',
      `export default { app: 'shop', models: [], databaseUrl: 42 };`,
      /databaseUrl must be a database URL/,
    ],
    [
      'an app that is not a label',
      `export default { app: 'My App', models: [], databaseUrl: 'sqlite::memory:' };`,
      /app must be a lower-case identifier/,
    ],
  ];
  for (const [what, source, message] of broken) {
    it(`names the config file and the problem for ${what} (exit 1)`, async () => {
      writeFileSync(join(project.dir, 'restframework.config.ts'), source);
      const run = await runCli(project.dir, ['makemigrations']);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /REST_ERR_CONFIG/);
      assert.match(run.stderr, /restframework\.config\.ts/);
      assert.match(run.stderr, message);
    });
  }

  it('opens no database for makemigrations; the commands that do need databaseUrl', async () => {
    project.config(TAG_V1, ['Tag']);
    const made = await runCli(project.dir, ['makemigrations', '--check'], { DATABASE_URL: '' });
    assert.equal(made.code, 1, made.stderr); // changes found, and no database needed to say so
    assert.match(made.stderr, /makemigrations would write migrations\/0001_initial\.ts/);
    for (const command of ['migrate', 'showmigrations']) {
      const run = await runCli(project.dir, [command], { DATABASE_URL: '' });
      assert.equal(run.code, 1);
      assert.match(
        run.stderr,
        /REST_ERR_CONFIG: .*restframework\.config\.ts: databaseUrl is empty, and this command opens the database/,
      );
    }
  });

  const usage: [string[], RegExp][] = [
    [['frobnicate'], /Unknown command "frobnicate"/],
    [['makemigrations', '--bogus'], /Unknown option '--bogus'/],
    [['makemigrations', '--rename', 'nocolon'], /use --rename Old:New/],
    [['sqlmigrate'], /sqlmigrate needs an app and a migration name/],
    [[], /Usage: restframework <command>/],
  ];
  for (const [args, message] of usage) {
    it(`exits 2 with the usage for: restframework ${args.join(' ')}`, async () => {
      project.config(TAG_V1, ['Tag']);
      const run = await runCli(project.dir, args, { DATABASE_URL: 'sqlite::memory:' });
      assert.equal(run.code, 2);
      assert.match(run.stderr + run.stdout, message);
    });
  }
});

for (const dialect of testDialects()) {
  describe(`restframework on ${dialect.name}`, { skip: dialect.skip }, () => {
    let project: CliProject;
    let database: FreshDatabase;
    let env: NodeJS.ProcessEnv;
    before(async () => {
      project = cliProject();
      database = await freshDatabase(dialect.name);
      env = { DATABASE_URL: database.url };
    });
    after(async () => {
      project.remove();
      await database.drop();
    });
    const cli = (...args: string[]) => runCli(project.dir, args, env);
    const tables = async () => {
      const db = Database.connect(database.url);
      try {
        return (await db.kysely.introspection.getTables()).map((t) => t.name).sort();
      } finally {
        await db.close();
      }
    };

    it('makemigrations writes the initial migration, then finds no change', async () => {
      project.config(TAG_V1, ['Tag']);
      const first = await cli('makemigrations');
      assert.equal(first.code, 0, first.stderr);
      assert.match(
        first.stdout,
        /Migrations for 'shop':\n {2}migrations\/0001_initial\.ts\n {4}- Create model Tag/,
      );
      const text = readFileSync(join(project.dir, 'migrations', '0001_initial.ts'), 'utf8');
      assert.match(text, /op: 'CreateModel'/);
      assert.match(text, /satisfies Migration;/);
      const again = await cli('makemigrations');
      assert.equal(again.code, 0);
      assert.match(again.stdout, /No changes detected\./);
      assert.equal((await cli('makemigrations', '--check')).code, 0);
    });

    it('makemigrations --check exits 1 on a change and writes nothing; makemigrations writes it', async () => {
      project.config(TAG_V2, ['Tag']);
      const check = await cli('makemigrations', '--check');
      assert.equal(check.code, 1);
      assert.match(check.stderr, /Add field weight to Tag/);
      assert.match(check.stderr, /Alter field label on Tag/);
      assert.deepEqual(readdirSync(join(project.dir, 'migrations')), ['0001_initial.ts']);
      const made = await cli('makemigrations', '--name', 'tag_weight');
      assert.equal(made.code, 0, made.stderr);
      assert.ok(existsSync(join(project.dir, 'migrations', '0002_tag_weight.ts')));
    });

    it('makemigrations refuses a NOT NULL field without a default unless --default gives one', async () => {
      project.config(TAG_V3, ['Tag']);
      const refused = await cli('makemigrations');
      assert.equal(refused.code, 1);
      assert.match(
        refused.stderr,
        /REST_ERR_MIGRATION_DETECT: Tag\.slug is a new NOT NULL field without a default/,
      );
      assert.match(refused.stderr, /--default Tag\.slug=<JSON value>/);
      // No field of Tag went in this change: nothing to rename from, no rename advice.
      assert.doesNotMatch(refused.stderr, /--rename/);
      const made = await cli('makemigrations', '--default', 'Tag.slug="none"');
      assert.equal(made.code, 0, made.stderr);
      assert.match(
        readFileSync(join(project.dir, 'migrations', '0003_tag_slug.ts'), 'utf8'),
        /fill: 'none'/,
      );
    });

    it('sqlmigrate prints the SQL of a migration for the dialect without running it', async () => {
      const run = await cli('sqlmigrate', 'shop', '0002');
      assert.equal(run.code, 0, run.stderr);
      const lines = run.stdout.trim().split('\n');
      if (dialect.name === 'sqlite') {
        // Foreign keys off around the transaction (a rebuilt table is dropped), checked inside.
        assert.deepEqual(lines.slice(0, 2), ['pragma foreign_keys = off;', 'begin;']);
        assert.deepEqual(lines.slice(-3), [
          'pragma foreign_key_check;',
          'commit;',
          'pragma foreign_keys = on;',
        ]);
      } else if (dialect.name === 'postgres') {
        assert.equal(lines[0], 'begin;');
        assert.equal(lines.at(-1), 'commit;');
      } else {
        // MySQL: DDL commits at once, so no transaction is shown (nor run).
        assert.ok(!lines.includes('begin;') && !lines.includes('commit;'), run.stdout);
      }
      if (dialect.name === 'mysql') {
        assert.match(
          run.stdout,
          /alter table `tag` add column `weight` integer not null default 1;/,
        );
        assert.match(run.stdout, /alter table `tag` alter column `weight` drop default;/);
        // MODIFY restates the column: its type with the binary collation, and NULL.
        assert.match(
          run.stdout,
          /alter table `tag` modify `label` varchar\(60\) character set utf8mb4 collate utf8mb4_(nopad|0900)_bin (not )?null;/,
        );
      } else if (dialect.name === 'postgres') {
        assert.match(
          run.stdout,
          /alter table "tag" add column "weight" integer not null default 1;/,
        );
        assert.match(run.stdout, /alter table "tag" alter column "label" type varchar\(60\)/);
      } else {
        assert.match(run.stdout, /create table "new__tag"/);
        assert.match(
          run.stdout,
          /insert into "new__tag" \("id", "label", "weight"\) select "id", "label", 1 from "tag";/,
        );
      }
      assert.deepEqual(await tables(), []);
      const unknown = await cli('sqlmigrate', 'shop', '0009');
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /REST_ERR_MIGRATION_TARGET: shop has no migration "0009"/);
    });

    it('migrate applies, showmigrations lists, migrate APP NAME rolls back', async () => {
      const applied = await cli('migrate');
      assert.equal(applied.code, 0, applied.stderr);
      assert.match(
        applied.stdout,
        /Applying shop\.0001_initial\.\.\. OK\n {2}Applying shop\.0002_tag_weight\.\.\. OK\n {2}Applying shop\.0003_tag_slug\.\.\. OK/,
      );
      assert.match((await cli('migrate')).stdout, /No migrations to apply\./);
      const shown = await cli('showmigrations');
      assert.equal(
        shown.stdout,
        'shop\n [X] 0001_initial\n [X] 0002_tag_weight\n [X] 0003_tag_slug\n',
      );
      const back = await cli('migrate', 'shop', '0001_initial');
      assert.equal(back.code, 0, back.stderr);
      assert.match(
        back.stdout,
        /Unapplying shop\.0003_tag_slug\.\.\. OK\n {2}Unapplying shop\.0002_tag_weight\.\.\. OK/,
      );
      assert.equal(
        (await cli('showmigrations')).stdout,
        'shop\n [X] 0001_initial\n [ ] 0002_tag_weight\n [ ] 0003_tag_slug\n',
      );
      const wrongApp = await cli('migrate', 'books');
      assert.equal(wrongApp.code, 2);
      assert.match(wrongApp.stderr, /No app "books": this project's app is "shop"/);
      assert.equal((await cli('migrate')).code, 0);
    });

    it('refuses an irreversible rollback before changing anything', async () => {
      writeFileSync(
        join(project.dir, 'migrations', '0004_raw.ts'),
        `export default { dependencies: ['0003_tag_slug'], operations: [{ op: 'RunSQL', sql: 'update "tag" set "weight" = 2' }] };\n`,
      );
      assert.equal((await cli('migrate')).code, 0);
      const before = await cli('showmigrations');
      const refused = await cli('migrate', 'shop', 'zero');
      assert.equal(refused.code, 1);
      assert.match(
        refused.stderr,
        /REST_ERR_MIGRATION_IRREVERSIBLE: 0004_raw cannot be rolled back: operation 1 \(Raw SQL: update "tag" set "weight" = 2\) is irreversible/,
      );
      assert.equal((await cli('showmigrations')).stdout, before.stdout);
      assert.ok((await tables()).includes('tag'));
    });
  });
}

describe('restframework: a broken migration graph fails before touching the database', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    [
      'an unknown operation',
      {
        '0002_bad.ts': `export default { dependencies: ['0001_initial'], operations: [{ op: 'AddFeild', model: 'Tag' }] };`,
      },
      /0002_bad\.ts: operation 1 is the unknown operation "AddFeild"/,
    ],
    [
      'a missing dependency',
      { '0002_bad.ts': `export default { dependencies: ['0001_nope'], operations: [] };` },
      /0002_bad\.ts depends on 0001_nope, which is not in the migrations folder/,
    ],
    [
      'a field the replayed state lacks',
      {
        '0002_bad.ts': `export default { dependencies: ['0001_initial'], operations: [{ op: 'RemoveField', model: 'Tag', name: 'colour' }] };`,
      },
      /0002_bad\.ts: operation 1 \(RemoveField\): Tag has no field "colour" in the state the earlier migrations produce \(fields: id, label\)/,
    ],
    [
      'a model the replayed state lacks',
      {
        '0002_bad.ts': `export default { dependencies: ['0001_initial'], operations: [{ op: 'AddField', model: 'Label', name: 'x', field: { kind: 'integer', null: true } }] };`,
      },
      /0002_bad\.ts: operation 1 \(AddField\): model Label does not exist/,
    ],
    [
      'a cycle',
      {
        '0002_a.ts': `export default { dependencies: ['0001_initial', '0003_b'], operations: [] };`,
        '0003_b.ts': `export default { dependencies: ['0002_a'], operations: [] };`,
      },
      /The dependencies of 0002_a\.ts, 0003_b\.ts form a cycle/,
    ],
    [
      'a file that is not a migration',
      { '0002_bad.ts': `export default { operations: 'none' };` },
      /REST_ERR_MIGRATION_FILE: 0002_bad\.ts: operations must be a list/,
    ],
  ];
  for (const [what, files, message] of cases) {
    it(`names the file and the problem: ${what}`, async () => {
      const project = cliProject();
      const database = await freshDatabase('sqlite');
      try {
        project.config(TAG_V1, ['Tag']);
        const env = { DATABASE_URL: database.url };
        assert.equal((await runCli(project.dir, ['makemigrations'], env)).code, 0);
        mkdirSync(join(project.dir, 'migrations'), { recursive: true });
        for (const [name, text] of Object.entries(files)) {
          writeFileSync(join(project.dir, 'migrations', name), `${text}\n`);
        }
        for (const command of ['migrate', 'makemigrations', 'showmigrations']) {
          const run = await runCli(project.dir, [command], env);
          assert.equal(run.code, 1, `${command}: ${run.stdout}${run.stderr}`);
          assert.match(run.stderr, message);
        }
        // Not even the recorder table was created.
        assert.equal(existsSync(database.url.slice('sqlite:'.length)), false);
      } finally {
        project.remove();
        await database.drop();
      }
    });
  }
});
