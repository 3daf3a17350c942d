/**
 * Many-to-many relations through migrations on every dialect: the autodetector adds them once
 * both sides exist, the join table follows a renamed model (table and key column), a renamed
 * field and a SQLite table rebuild with its rows, `sqlmigrate` shows its SQL, removing the
 * relation drops it, and everything rolls back to zero.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type AnyModel,
  type Database,
  defineModel,
  loadMigrations,
  MigrationExecutor,
  MigrationGraph,
  makeMigration,
  models,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';

interface Version {
  readonly tags?: boolean;
  readonly follows?: boolean;
  readonly articleName?: string;
  readonly articleTable?: string;
  readonly tagsField?: string;
  readonly titleLength?: number;
}

function version(v: Version) {
  const Tag = defineModel({
    name: 'Tag',
    table: 'mm_tag',
    fields: { name: models.CharField({ maxLength: 20 }) },
  });
  const Person = defineModel({
    name: 'Person',
    table: 'mm_person',
    fields: {
      username: models.CharField({ maxLength: 20 }),
      ...(v.follows
        ? {
            follows: models.ManyToManyField('self', {
              symmetrical: false,
              relatedName: 'followers',
            }),
          }
        : {}),
    },
  });
  const Article = defineModel({
    name: v.articleName ?? 'Article',
    table: v.articleTable ?? 'mm_article',
    fields: {
      title: models.CharField({ maxLength: v.titleLength ?? 50 }),
      ...(v.tags ? { [v.tagsField ?? 'tags']: models.ManyToManyField(Tag) } : {}),
    },
  });
  return { Tag, Person, Article, all: [Tag, Person, Article] as AnyModel[] };
}

for (const dialect of testDialects()) {
  describe(`many-to-many migrations on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let folder: string;
    before(async () => {
      db = await dialect.create();
      folder = mkdtempSync(join(tmpdir(), 'rf-m2m-'));
    });
    after(async () => {
      await dialect.drop(db);
      rmSync(folder, { recursive: true, force: true });
    });

    const executor = async () =>
      new MigrationExecutor(db, new MigrationGraph(await loadMigrations(folder)), 'blog');
    const make = async (v: Version, options: Parameters<typeof makeMigration>[2] = {}) => {
      const made = await makeMigration(folder, version(v).all, options);
      assert.ok(made, 'a migration was written');
      return made;
    };
    const migrate = async (target?: string) =>
      (await executor()).migrate(target === undefined ? {} : { target });
    const tables = async () =>
      (await db.kysely.introspection.getTables()).map((t) => t.name).sort();
    const tagNames = async (v: Version, field = 'tags') => {
      const { Article } = version(v);
      const post = await Article.objects.using(db).get({ title: 'post' });
      return (await Article.related(post, field).using(db).execute()).map((t) => t.name).sort();
    };

    it('adds, renames, rebuilds around, removes and rolls back join tables', async () => {
      await make({});
      await migrate();

      // A relation added to existing models: its join table, with a key to each side.
      const added = await make({ tags: true, follows: true });
      assert.deepEqual(
        added.operations.map((o) => [o.op, (o as { name?: string }).name]),
        [
          ['AddField', 'follows'],
          ['AddField', 'tags'],
        ],
      );
      const sql = (await (await executor()).sqlFor(added.name)).join('\n');
      assert.match(sql, /create table .mm_article_tags./);
      assert.match(sql, /create table .mm_person_follows./);
      await migrate();
      assert.ok((await tables()).includes('mm_article_tags'));
      const v2 = version({ tags: true, follows: true });
      const post = await v2.Article.objects.using(db).create({ title: 'post' });
      const [web, py] = await Promise.all(
        ['web', 'py'].map((name) => v2.Tag.objects.using(db).create({ name })),
      );
      await v2.Article.related(post, 'tags').using(db).add(web!, py!);
      const [ann, bob] = await Promise.all(
        ['ann', 'bob'].map((username) => v2.Person.objects.using(db).create({ username })),
      );
      await v2.Person.related(ann!, 'follows').using(db).add(bob!);

      // The model renamed, its table too: the join table and its key column follow.
      const renamedModel = {
        tags: true,
        follows: true,
        articleName: 'Post',
        articleTable: 'mm_post',
      };
      const rename = await make(renamedModel, { renames: new Map([['Article', 'Post']]) });
      assert.deepEqual(
        rename.operations.map((o) => o.op),
        ['RenameModel'],
      );
      await migrate();
      assert.ok((await tables()).includes('mm_post_tags'));
      assert.ok(!(await tables()).includes('mm_article_tags'));
      assert.deepEqual(
        version(renamedModel).Article.manyToMany.tags!.through.fieldList.map((f) => f.column),
        ['id', 'post_id', 'tag_id'],
      );
      assert.deepEqual(await tagNames(renamedModel), ['py', 'web']);

      // The field renamed: its join table follows.
      const renamedField = { ...renamedModel, tagsField: 'labels' };
      await make(renamedField, { renames: new Map([['Post.tags', 'labels']]) });
      await migrate();
      assert.ok((await tables()).includes('mm_post_labels'));
      assert.deepEqual(await tagNames(renamedField, 'labels'), ['py', 'web']);

      // A column of the model altered (a rebuild on SQLite): the join rows stay.
      const longer = { ...renamedField, titleLength: 80 };
      await make(longer);
      await migrate();
      assert.deepEqual(await tagNames(longer, 'labels'), ['py', 'web']);
      const v5 = version(longer);
      assert.equal(await v5.Person.related(ann!, 'follows').using(db).count(), 1);

      // Removed: the join table goes.
      const removed = { ...longer, tags: false };
      const removal = await make(removed);
      assert.deepEqual(
        removal.operations.map((o) => o.op),
        ['RemoveField'],
      );
      await migrate();
      assert.ok(!(await tables()).includes('mm_post_labels'));

      // Back to zero: every table goes; forward again: they come back.
      await migrate('zero');
      assert.deepEqual(
        (await tables()).filter((t) => t.startsWith('mm_')),
        [],
      );
      await migrate();
      assert.ok((await tables()).includes('mm_person_follows'));
    });

    it('a model created with a many-to-many: the relation comes after both tables', async () => {
      const local = mkdtempSync(join(tmpdir(), 'rf-m2m-new-'));
      try {
        const made = await makeMigration(local, version({ tags: true }).all);
        assert.ok(made);
        assert.deepEqual(
          made.operations.map((o) => [o.op, (o as { name?: string }).name]),
          [
            ['CreateModel', 'Tag'],
            ['CreateModel', 'Person'],
            ['CreateModel', 'Article'],
            ['AddField', 'tags'],
          ],
        );
        assert.equal(await makeMigration(local, version({ tags: true }).all), null);
      } finally {
        rmSync(local, { recursive: true, force: true });
      }
    });
  });
}

describe('a renamed through model', () => {
  function throughVersion(name: string) {
    const Reader = defineModel({
      name: 'Reader',
      table: 'tm_reader',
      fields: { name: models.CharField({ maxLength: 20 }) },
    });
    const Story = defineModel({
      name: 'Story',
      table: 'tm_story',
      fields: {
        title: models.CharField({ maxLength: 20 }),
        liked_by: models.ManyToManyField(Reader, { through: (): AnyModel => Like }),
      },
    });
    const Like = defineModel({
      name,
      table: 'tm_like',
      fields: {
        reader: models.ForeignKey(Reader, { onDelete: 'CASCADE', relatedName: '+' }),
        story: models.ForeignKey(Story, { onDelete: 'CASCADE', relatedName: '+' }),
      },
    });
    return [Reader, Story, Like];
  }

  it('is followed by the relation that goes through it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'rf-m2m-through-'));
    try {
      assert.ok(await makeMigration(folder, throughVersion('Like')));
      const renamed = await makeMigration(folder, throughVersion('Favourite'), {
        renames: new Map([['Like', 'Favourite']]),
      });
      assert.deepEqual(
        renamed?.operations.map((o) => o.op),
        ['RenameModel'],
      );
      assert.equal(await makeMigration(folder, throughVersion('Favourite')), null);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
