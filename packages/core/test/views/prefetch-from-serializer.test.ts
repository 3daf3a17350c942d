/**
 * Generic views load what their serializer reads of many relations (a list of keys, a nested
 * serializer over a many-to-many or a reverse relation, and what that nested serializer reads
 * in turn) with `prefetchRelated`, as they load foreign keys with `selectRelated`: a page costs
 * the same statements for 2 rows as for 20, and no field fails for a relation nobody loaded.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Database,
  ModelSerializer,
  ModelViewSet,
  PageNumberPagination,
  PrimaryKeyRelatedField,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { Author, BLOG_MODELS, Entry, Tag } from '../fixtures/blog-models.ts';
import { buildApp, request } from '../fixtures/http-app.ts';

class TagSerializer extends ModelSerializer.with({ model: Tag, fields: ['id', 'name'] }) {}

class EntrySerializer extends ModelSerializer.with({
  model: Entry,
  fields: ['id', 'title', 'tags', 'tagRows'],
  declaredFields: { tagRows: TagSerializer.many({ source: 'tags', readOnly: true }) },
}) {}

/** An author with its entries, each with its tags: `entries` and `entries__tags`. */
class AuthorSerializer extends ModelSerializer.with({
  model: Author,
  fields: ['id', 'name', 'entries', 'entryIds'],
  declaredFields: {
    entries: EntrySerializer.many({ readOnly: true }),
    entryIds: PrimaryKeyRelatedField.many({ source: 'entries', readOnly: true }),
  },
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

class AuthorViewSet extends ModelViewSet {
  override queryset = Author.objects.all();
  override serializerClass = AuthorSerializer;
  override paginationClass = Pages;
}

for (const dialect of testDialects()) {
  describe(`generic views prefetch what the serializer reads, on ${dialect.name}`, {
    skip: dialect.skip,
  }, () => {
    let db: Database;
    let app: FastifyInstance;

    before(async () => {
      db = await dialect.create();
      await db.migrate(BLOG_MODELS);
      const tags = [];
      for (const name of ['a', 'b', 'c']) tags.push(await Tag.objects.using(db).create({ name }));
      for (let i = 0; i < 24; i++) {
        const author = await Author.objects.using(db).create({ name: `author ${i}` });
        for (let j = 0; j < 2; j++) {
          const entry = await Entry.objects
            .using(db)
            .create({ title: `entry ${i}.${j}`, author_id: author.id });
          await Entry.related(entry, 'tags')
            .using(db)
            .add(...tags.slice(0, (i + j) % 4));
        }
      }
      app = await buildApp({
        database: db,
        viewsets: [
          ['entries', EntryViewSet],
          ['authors', AuthorViewSet],
        ],
      });
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
    });

    /** The statements a GET runs, and its JSON. */
    async function get(url: string): Promise<{ statements: number; body: any }> {
      let statements = 0;
      const stop = db.onQuery(() => statements++);
      try {
        const response = await request(app, { method: 'GET', url });
        assert.equal(response.statusCode, 200, response.body);
        return { statements, body: response.json() };
      } finally {
        stop();
      }
    }

    it('lists entries with their tags as keys and as rows, the same statements for 2 or 20', async () => {
      const small = await get('/api/entries/?size=2');
      const large = await get('/api/entries/?size=20');
      assert.equal(small.body.results.length, 2);
      assert.equal(large.body.results.length, 20);
      assert.equal(large.statements, small.statements);
      // count, page, tags
      assert.equal(small.statements, 3);
      for (const entry of large.body.results) {
        const [, i, j] = /entry (\d+)\.(\d+)/.exec(entry.title) as unknown as string[];
        const count = (Number(i) + Number(j)) % 4;
        assert.equal(entry.tags.length, count, entry.title);
        assert.deepEqual(
          entry.tagRows.map((t: { name: string }) => t.name),
          ['a', 'b', 'c'].slice(0, count),
        );
        assert.deepEqual(
          entry.tagRows.map((t: { id: number }) => t.id),
          [...entry.tags].sort((x: number, y: number) => x - y),
        );
      }
    });

    it('nests entries with their tags under authors: entries and entries__tags prefetched', async () => {
      const small = await get('/api/authors/?size=2');
      const large = await get('/api/authors/?size=20');
      assert.equal(large.statements, small.statements);
      // count, page, entries, tags of the entries
      assert.equal(small.statements, 4);
      for (const author of large.body.results) {
        assert.equal(author.entries.length, 2);
        assert.deepEqual(
          author.entryIds,
          author.entries.map((e: { id: number }) => e.id),
        );
        for (const entry of author.entries) assert.equal(entry.tagRows.length, entry.tags.length);
      }
    });

    it('retrieves one row with its many relations loaded', async () => {
      const { body } = await get('/api/authors/?size=1');
      const id = body.results[0].id;
      const detail = await get(`/api/authors/${id}/`);
      assert.equal(detail.body.entries.length, 2);
      assert.ok(detail.statements <= 3, `${detail.statements} statements`);
    });
  });
}
