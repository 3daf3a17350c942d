/**
 * Relation fields with many (issue 40): `PrimaryKeyRelatedField.many()`,
 * `SlugRelatedField(.many())`, nested serializers over many-to-manys and reverse relations,
 * and ModelSerializer writing many-to-manys after the row, in the same transaction. Runs on
 * every test dialect.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  Database,
  defineModel,
  ModelSerializer,
  models,
  PrimaryKeyRelatedField,
  type Row,
  SlugRelatedField,
} from '@restframework/core';
import { setPrefetched } from '@restframework/core/internal';
import { assertImproperlyConfigured, testDialects } from '@restframework/core/testing';

const Writer = defineModel({
  name: 'Writer',
  table: 'mrf_writer',
  fields: { username: models.CharField({ maxLength: 30, unique: true }) },
});

const Label = defineModel({
  name: 'Label',
  table: 'mrf_label',
  fields: { name: models.CharField({ maxLength: 20, unique: true }) },
});

const Post = defineModel({
  name: 'Post',
  table: 'mrf_post',
  fields: {
    title: models.CharField({ maxLength: 50 }),
    author: models.ForeignKey(Writer, { onDelete: 'CASCADE', relatedName: 'posts' }),
    labels: models.ManyToManyField(Label, { relatedName: 'posts' }),
    readers: models.ManyToManyField(Writer, { relatedName: 'read', blank: true }),
  },
});

const ALL = [Writer, Label, Post];

class LabelSerializer extends ModelSerializer.with({ model: Label, fields: ['id', 'name'] }) {}

class PostSerializer extends ModelSerializer.with({
  model: Post,
  fields: ['id', 'title', 'author', 'labels', 'readers'],
}) {}

class SluggedPostSerializer extends ModelSerializer.with({
  model: Post,
  fields: ['id', 'title', 'author', 'tagList', 'labelRows'],
  declaredFields: {
    tagList: SlugRelatedField.many({
      slugField: 'name',
      queryset: Label.objects.all(),
      source: 'labels',
      maxLength: 3,
    }),
    labelRows: LabelSerializer.many({ source: 'labels', readOnly: true }),
  },
}) {}

// A reverse name is not part of the model's type (the relation is declared on Post): a typed
// declaration lists it in readOnlyFields too, or declares its field; both build the same.
class WriterSerializer extends ModelSerializer.with({
  model: Writer,
  fields: ['id', 'username', 'posts'],
  readOnlyFields: ['posts'],
}) {}

class TypedWriterSerializer extends ModelSerializer.with({
  model: Writer,
  fields: ['id', 'username', 'posts'],
  declaredFields: {
    posts: PrimaryKeyRelatedField.many({ queryset: Post.objects.all(), readOnly: true }),
  },
}) {}

describe('many relation fields, declared', () => {
  it('build a many-to-many as PrimaryKeyRelatedField.many(): required unless blank', () => {
    const fields = PostSerializer.prepare().byName;
    const labels = fields.get('labels')?.describe();
    assert.equal(labels?.required, true);
    assert.equal(labels?.read_only, false);
    assert.equal(fields.get('readers')?.describe().required, false);
    assert.deepEqual(fields.get('labels')?.jsonSchema({ mode: 'request' }), {
      type: 'array',
      items: { type: 'integer' },
      maxItems: 1000,
      minItems: 1,
    });
  });

  it('build a reverse relation read-only, as DRF', () => {
    const posts = WriterSerializer.prepare().byName.get('posts');
    assert.equal(posts?.readOnly, true);
    const row = { id: 3, username: 'ann' };
    setPrefetched(row, 'posts', [{ id: 8 }, { id: 9 }]);
    assert.deepEqual(new WriterSerializer({ instance: row }).data, {
      id: 3,
      username: 'ann',
      posts: [8, 9],
    });
    assert.deepEqual(new TypedWriterSerializer({ instance: row }).data, {
      id: 3,
      username: 'ann',
      posts: [8, 9],
    });
  });

  it('render prefetched rows, and fail naming the prefetch when none were loaded', () => {
    const row = { id: 1, title: 'T', author_id: 2 };
    setPrefetched(row, 'labels', [
      { id: 5, name: 'js' },
      { id: 6, name: 'ts' },
    ]);
    setPrefetched(row, 'readers', []);
    assert.deepEqual(new PostSerializer({ instance: row }).data, {
      id: 1,
      title: 'T',
      author: 2,
      labels: [5, 6],
      readers: [],
    });
    assert.deepEqual(
      (new SluggedPostSerializer({ instance: row }).data as Record<string, unknown>).tagList,
      ['js', 'ts'],
    );
    assert.deepEqual(
      (new SluggedPostSerializer({ instance: row }).data as Record<string, unknown>).labelRows,
      [
        { id: 5, name: 'js' },
        { id: 6, name: 'ts' },
      ],
    );
    assertImproperlyConfigured(
      () => new PostSerializer({ instance: { id: 1, title: 'T', author_id: 2 } }).data,
      'REST_ERR_FIELD_SOURCE',
      /Post\.labels is not loaded\. Add \.prefetchRelated\('labels'\)/,
    );
  });

  it('fail at start-up on a source that is no many relation, or a slug field the model lacks', () => {
    class Bad extends ModelSerializer.with({
      model: Post,
      fields: ['id', 'x'],
      declaredFields: {
        x: PrimaryKeyRelatedField.many({ queryset: Label.objects.all(), source: 'lables' }),
      },
    }) {}
    assertImproperlyConfigured(() => Bad.prepare(), 'REST_ERR_FIELD_SOURCE', /"lables"/);
    assertImproperlyConfigured(
      () => SlugRelatedField.many({ slugField: 'nom', queryset: Label.objects.all() }),
      'REST_ERR_FIELD_OPTIONS',
      /Label has no field "nom"/,
    );
  });
});

for (const dialect of testDialects()) {
  describe(`many relation fields on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let ann: Row<typeof Writer>;
    let bob: Row<typeof Writer>;
    let js: Row<typeof Label>;
    let ts: Row<typeof Label>;
    before(async () => {
      db = await dialect.create();
      await db.migrate(ALL);
      Database.setDefault(db);
    });
    after(async () => {
      Database.setDefault(undefined);
      await dialect.drop(db);
    });
    beforeEach(async () => {
      await Post.objects.using(db).delete();
      await Label.objects.using(db).delete();
      await Writer.objects.using(db).delete();
      ann = await Writer.objects.using(db).create({ username: 'ann' });
      bob = await Writer.objects.using(db).create({ username: 'bob' });
      js = await Label.objects.using(db).create({ name: 'js' });
      ts = await Label.objects.using(db).create({ name: 'ts' });
    });

    const withDb = <T>(fn: () => Promise<T>) => db.transaction(fn);

    it('create sets the many-to-manys after the row, and renders them with no further query', async () => {
      await withDb(async () => {
        const serializer = new PostSerializer({
          data: {
            title: 'Hello',
            author: ann.id,
            labels: [ts.id, String(js.id)],
            readers: [bob.id],
          },
        });
        assert.equal(await serializer.isValid(), true, JSON.stringify(serializer.errors));
        const row = (await serializer.save()) as Row<typeof Post>;
        assert.deepEqual(serializer.data, {
          id: row.id,
          title: 'Hello',
          author: ann.id,
          labels: [ts.id, js.id],
          readers: [bob.id],
        });
        const stored = await Post.related(row, 'labels').orderBy('name').execute();
        assert.deepEqual(
          stored.map((label) => label.name),
          ['js', 'ts'],
        );
      });
    });

    it('refuses bad lists with DRF messages and writes nothing', async () => {
      await withDb(async () => {
        const cases: [unknown, unknown][] = [
          ['x', ['Expected a list of items but got type "str".']],
          [{ a: 1 }, ['Expected a list of items but got type "dict".']],
          [[], ['This list may not be empty.']],
          [[js.id, 999999], ['Invalid pk "999999" - object does not exist.']],
          [[js.id, 'x'], ['Incorrect type. Expected pk value, received str.']],
          [[js.id, null], ['Incorrect type. Expected pk value, received NoneType.']],
          [
            Array.from({ length: 1001 }, () => js.id),
            ['Ensure this field has no more than 1000 elements.'],
          ],
        ];
        for (const [labels, messages] of cases) {
          const serializer = new PostSerializer({ data: { title: 'X', author: ann.id, labels } });
          assert.equal(await serializer.isValid(), false, JSON.stringify(labels).slice(0, 40));
          assert.deepEqual(serializer.errors, { labels: messages });
        }
        assert.equal(await Post.objects.count(), 0);
      });
    });

    it('writes and renders slugs; PATCH sets only what it sends', async () => {
      await withDb(async () => {
        const created = new SluggedPostSerializer({
          data: { title: 'Slugs', author: ann.id, tagList: ['ts'] },
        });
        assert.equal(await created.isValid(), true, JSON.stringify(created.errors));
        const row = (await created.save()) as Row<typeof Post>;
        assert.deepEqual(created.data, {
          id: row.id,
          title: 'Slugs',
          author: ann.id,
          tagList: ['ts'],
          labelRows: [{ id: ts.id, name: 'ts' }],
        });
        const patch = new SluggedPostSerializer({
          instance: row,
          data: { tagList: ['js', 'ts'] },
          partial: true,
        });
        assert.equal(await patch.isValid(), true);
        await patch.save();
        assert.deepEqual((patch.data as { tagList: string[] }).tagList, ['js', 'ts']);
        const title = new SluggedPostSerializer({
          instance: patch.instance,
          data: { title: 'Renamed' },
          partial: true,
        });
        assert.equal(await title.isValid(), true);
        await title.save();
        // Not sent: the set stays, read back once for the response.
        assert.deepEqual([...(title.data as { tagList: string[] }).tagList].sort(), ['js', 'ts']);
        const bad = new SluggedPostSerializer({
          data: { title: 'X', author: ann.id, tagList: ['js', 'nope'] },
        });
        assert.equal(await bad.isValid(), false);
        assert.deepEqual(bad.errors, { tagList: ['Object with name=nope does not exist.'] });
        const many = new SluggedPostSerializer({
          data: { title: 'X', author: ann.id, tagList: ['a', 'b', 'c', 'd'] },
        });
        assert.equal(await many.isValid(), false);
        assert.deepEqual(many.errors, {
          tagList: ['Ensure this field has no more than 3 elements.'],
        });
        const nul = new SluggedPostSerializer({
          data: { title: 'X', author: ann.id, tagList: ['a\u0000', { a: 1 }] },
        });
        assert.equal(await nul.isValid(), false);
      });
    });

    it('a failed set rolls the row back with it (one transaction)', async () => {
      class Failing extends ModelSerializer.with({
        model: Post,
        fields: ['id', 'title', 'author', 'labels'],
      }) {
        protected override async setManyRelations(): Promise<void> {
          throw new Error('boom');
        }
      }
      const serializer = new Failing({ data: { title: 'X', author: ann.id, labels: [js.id] } });
      assert.equal(await serializer.isValid(), true);
      await assert.rejects(() => serializer.save(), /boom/);
      assert.equal(await Post.objects.using(db).count(), 0);
    });
  });
}
