/**
 * ModelSerializer's `depth` (DRF's `Meta.depth`): relations built from the model are rendered
 * as nested read-only serializers of every field of the related model, level by level, loaded
 * with the query (joined for one row, prefetched for many): a page of 20 costs the statements
 * of a page of 2, on the three databases.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Database,
  defineModel,
  ImproperlyConfigured,
  ModelSerializer,
  ModelViewSet,
  models,
  PageNumberPagination,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp, json, request } from '../fixtures/http-app.ts';

const House = defineModel({
  name: 'House',
  table: 'dep_house',
  fields: { name: models.CharField({ maxLength: 30 }) },
});

const Author = defineModel({
  name: 'Author',
  table: 'dep_author',
  fields: {
    name: models.CharField({ maxLength: 30 }),
    house: models.ForeignKey(House, { onDelete: 'CASCADE', null: true }),
  },
});

const Tag = defineModel({
  name: 'Tag',
  table: 'dep_tag',
  fields: { name: models.CharField({ maxLength: 20 }) },
  ordering: ['id'],
});

const Entry = defineModel({
  name: 'Entry',
  table: 'dep_entry',
  fields: {
    title: models.CharField({ maxLength: 50 }),
    author: models.ForeignKey(Author, { onDelete: 'CASCADE', null: true, relatedName: 'entries' }),
    tags: models.ManyToManyField(Tag, { relatedName: 'entries', blank: true }),
  },
  ordering: ['id'],
});

class EntrySerializer extends ModelSerializer.with({
  model: Entry,
  fields: ['id', 'title', 'author', 'tags'],
  depth: 2,
}) {}

class ShallowEntrySerializer extends ModelSerializer.with({
  model: Entry,
  fields: ['id', 'title', 'author', 'tags'],
  depth: 1,
}) {}

/** A reverse relation listed in `fields` is nested too. */
class AuthorSerializer extends ModelSerializer.with({
  model: Author,
  // A reverse relation: the model's types do not know its name, readOnlyFields says it.
  fields: ['id', 'name', 'house', 'entries'],
  readOnlyFields: ['entries'],
  depth: 1,
}) {}

class Pages extends PageNumberPagination {
  override pageSize = 2;
  override pageSizeQueryParam = 'size';
}

class EntryViewSet extends ModelViewSet {
  override queryset = Entry.objects.all();
  override serializerClass = EntrySerializer;
  override paginationClass = Pages;
}
class ShallowViewSet extends ModelViewSet {
  override queryset = Entry.objects.all();
  override serializerClass = ShallowEntrySerializer;
  override paginationClass = Pages;
}
class AuthorViewSet extends ModelViewSet {
  override queryset = Author.objects.all().orderBy('id');
  override serializerClass = AuthorSerializer;
  override paginationClass = Pages;
}

for (const dialect of testDialects()) {
  describe(`ModelSerializer depth, on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;

    before(async () => {
      db = await dialect.create();
      await db.migrate([House, Author, Tag, Entry]);
      const tags = [];
      for (const name of ['a', 'b', 'c']) tags.push(await Tag.objects.using(db).create({ name }));
      for (let i = 0; i < 22; i++) {
        const house =
          i % 3 === 0 ? null : await House.objects.using(db).create({ name: `house ${i}` });
        const author = await Author.objects
          .using(db)
          .create({ name: `author ${i}`, house_id: house?.id ?? null });
        const entry = await Entry.objects
          .using(db)
          .create({ title: `entry ${i}`, author_id: i % 5 === 4 ? null : author.id });
        await Entry.related(entry, 'tags')
          .using(db)
          .add(...tags.slice(0, i % 4));
      }
      app = await buildApp({
        database: db,
        viewsets: [
          ['entries', EntryViewSet],
          ['shallow', ShallowViewSet, { basename: 'shallow' }],
          ['authors', AuthorViewSet],
        ],
      });
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
    });

    async function send(method: string, url: string, body?: unknown) {
      let statements = 0;
      const stop = db.onQuery(() => statements++);
      try {
        const response = await request(app, {
          method: method as 'GET',
          url,
          ...(body === undefined ? {} : json(body)),
        });
        return { statements, status: response.statusCode, body: response.json() };
      } finally {
        stop();
      }
    }

    it('nests two levels: the author with its house, the tags, the same statements for 2 or 20', async () => {
      const small = await send('GET', '/api/entries/?size=2');
      const large = await send('GET', '/api/entries/?size=20');
      assert.equal(large.body.results.length, 20);
      assert.equal(large.statements, small.statements);
      // count, page (entries joined with author and house), tags
      assert.equal(small.statements, 3);
      for (const entry of large.body.results) {
        const i = Number(entry.title.split(' ')[1]);
        if (i % 5 === 4) assert.equal(entry.author, null);
        else {
          assert.equal(entry.author.name, `author ${i}`);
          assert.deepEqual(Object.keys(entry.author), ['id', 'name', 'house']);
          if (i % 3 === 0) assert.equal(entry.author.house, null);
          else
            assert.deepEqual(entry.author.house, { id: entry.author.house.id, name: `house ${i}` });
        }
        assert.deepEqual(
          entry.tags.map((t: { name: string }) => t.name),
          ['a', 'b', 'c'].slice(0, i % 4),
        );
        assert.deepEqual(Object.keys(entry.tags[0] ?? { id: 0, name: '' }), ['id', 'name']);
      }
    });

    it('nests one level: the house stays a key', async () => {
      const { body } = await send('GET', '/api/shallow/?size=3');
      const entry = body.results[1];
      assert.equal(typeof entry.author.house, 'number');
    });

    it('nests a reverse relation listed in fields, prefetched', async () => {
      const small = await send('GET', '/api/authors/?size=2');
      const large = await send('GET', '/api/authors/?size=20');
      assert.equal(large.statements, small.statements);
      for (const author of large.body.results) {
        const i = Number(author.name.split(' ')[1]);
        assert.equal(author.entries.length, i % 5 === 4 ? 0 : 1);
        for (const entry of author.entries) assert.equal(entry.author, author.id);
      }
    });

    it('makes nested relations read-only: a write sets the columns, answers the nested rows', async () => {
      const created = await send('POST', '/api/entries/', { title: 'new', author: 1, tags: [1] });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.author, null);
      assert.deepEqual(created.body.tags, []);
      const options = await send('OPTIONS', '/api/entries/');
      assert.deepEqual(Object.keys(options.body.actions.POST), ['id', 'title', 'author', 'tags']);
      assert.equal(options.body.actions.POST.author.read_only, true);
      assert.equal(options.body.actions.POST.tags.read_only, true);
    });
  });
}

describe('ModelSerializer depth: declaration mistakes', () => {
  for (const depth of [-1, 11, 1.5, '2']) {
    it(`refuses depth ${JSON.stringify(depth)} when prepared`, () => {
      class Bad extends ModelSerializer.with({
        model: Entry,
        fields: ['id', 'author'],
        depth: depth as number,
      }) {}
      assert.throws(
        () => Bad.prepare(),
        (error: unknown) =>
          error instanceof ImproperlyConfigured &&
          error.code === 'REST_ERR_SERIALIZER_META' &&
          /'depth' must be an integer from 0 to 10/.test(error.message),
      );
    });
  }
});
