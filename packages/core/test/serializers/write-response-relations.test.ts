/**
 * A create or update answers the row as the serializer reads it: `ModelSerializer.withRelated`
 * reads the saved row again with the serializer's related and prefetched paths, so nested
 * serializers over many relations (a reverse foreign key, a many-to-many, and what those read
 * in turn) are rendered after a write as after a GET, with the same statements for 2 related
 * rows as for 20 — not a 500 for a relation nobody loaded.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Database,
  ModelSerializer,
  ModelViewSet,
  PrimaryKeyRelatedField,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { Author, BLOG_MODELS, Entry, Tag } from '../fixtures/blog-models.ts';
import { buildApp, json, request } from '../fixtures/http-app.ts';

class TagSerializer extends ModelSerializer.with({ model: Tag, fields: ['id', 'name'] }) {}

class AuthorNameSerializer extends ModelSerializer.with({
  model: Author,
  fields: ['id', 'name'],
}) {}

/** Writes tags by key; reads them back as rows, and its author nested. */
class EntrySerializer extends ModelSerializer.with({
  model: Entry,
  fields: ['id', 'title', 'author', 'tags', 'tagRows', 'writer'],
  declaredFields: {
    tagRows: TagSerializer.many({ source: 'tags', readOnly: true }),
    writer: new AuthorNameSerializer({ source: 'author', readOnly: true }),
  },
}) {}

/** An author with its entries (a reverse foreign key), each with its tags (a many-to-many). */
class AuthorSerializer extends ModelSerializer.with({
  model: Author,
  fields: ['id', 'name', 'entries', 'entryIds'],
  declaredFields: {
    entries: EntrySerializer.many({ readOnly: true }),
    entryIds: PrimaryKeyRelatedField.many({ source: 'entries', readOnly: true }),
  },
}) {}

class EntryViewSet extends ModelViewSet {
  override queryset = Entry.objects.all();
  override serializerClass = EntrySerializer;
}

class AuthorViewSet extends ModelViewSet {
  override queryset = Author.objects.all();
  override serializerClass = AuthorSerializer;
}

for (const dialect of testDialects()) {
  describe(`a write's response reads nested many relations, on ${dialect.name}`, {
    skip: dialect.skip,
  }, () => {
    let db: Database;
    let app: FastifyInstance;
    const tagIds: number[] = [];

    before(async () => {
      db = await dialect.create();
      await db.migrate(BLOG_MODELS);
      for (const name of ['a', 'b', 'c'])
        tagIds.push((await Tag.objects.using(db).create({ name })).id as number);
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

    /** The statements a request runs, its status and its JSON. */
    async function send(
      method: 'GET' | 'POST' | 'PATCH' | 'PUT',
      url: string,
      body?: unknown,
    ): Promise<{ statements: number; status: number; body: any }> {
      let statements = 0;
      const stop = db.onQuery(() => statements++);
      try {
        const response = await request(app, { method, url, ...(body ? json(body) : {}) });
        return { statements, status: response.statusCode, body: response.json() };
      } finally {
        stop();
      }
    }

    /** An author with `count` entries, each with the first `i % 4` tags. */
    async function authorWith(count: number): Promise<number> {
      const author = await Author.objects.using(db).create({ name: `with ${count}` });
      for (let i = 0; i < count; i++) {
        const entry = await Entry.objects
          .using(db)
          .create({ title: `entry ${i}`, author_id: author.id });
        await Entry.related(entry, 'tags')
          .using(db)
          .add(
            ...(await Tag.objects
              .using(db)
              .filter({ id__in: tagIds.slice(0, i % 4) })
              .execute()),
          );
      }
      return author.id as number;
    }

    it('creates an author: its (empty) entries are rendered, not a 500', async () => {
      const created = await send('POST', '/api/authors/', { name: 'new' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(created.body.entries, []);
      assert.deepEqual(created.body.entryIds, []);
    });

    it('updates an author: entries with their tags, as a GET shows them, statements not per entry', async () => {
      const few = await authorWith(2);
      const many = await authorWith(20);
      const small = await send('PATCH', `/api/authors/${few}/`, { name: 'renamed few' });
      const large = await send('PATCH', `/api/authors/${many}/`, { name: 'renamed many' });
      assert.equal(small.status, 200, JSON.stringify(small.body));
      assert.equal(large.status, 200, JSON.stringify(large.body));
      assert.equal(large.body.entries.length, 20);
      assert.equal(large.statements, small.statements);
      const read = await send('GET', `/api/authors/${many}/`);
      assert.deepEqual(large.body, read.body);
      for (const [i, entry] of large.body.entries.entries()) {
        assert.deepEqual(
          entry.tagRows.map((t: { name: string }) => t.name),
          ['a', 'b', 'c'].slice(0, i % 4),
        );
        assert.equal(entry.writer.name, 'renamed many');
      }
      const put = await send('PUT', `/api/authors/${few}/`, { name: 'put few' });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      assert.equal(put.body.entries.length, 2);
    });

    it('creates and updates an entry: the tags just set are rendered as rows, with its author', async () => {
      const author = await authorWith(0);
      const created = await send('POST', '/api/entries/', {
        title: 'tagged',
        author,
        tags: [tagIds[2], tagIds[0]],
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(created.body.tags, [tagIds[2], tagIds[0]]);
      assert.deepEqual(
        created.body.tagRows.map((t: { id: number }) => t.id),
        [tagIds[2], tagIds[0]],
      );
      assert.equal(created.body.writer.id, author);
      const updated = await send('PATCH', `/api/entries/${created.body.id}/`, {
        tags: [tagIds[1]],
      });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assert.deepEqual(
        updated.body.tagRows.map((t: { name: string }) => t.name),
        ['b'],
      );
      const cleared = await send('PATCH', `/api/entries/${created.body.id}/`, { tags: [] });
      assert.deepEqual(cleared.body.tagRows, []);
    });
  });
}
