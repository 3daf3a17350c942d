/**
 * Many relations and multiple choice fields sent as form input (url-encoded and multipart),
 * as the browsable API's `<select multiple>` sends them: each chosen value as the same key.
 * DRF's rule for HTML input of a list field (`ManyRelatedField.get_value`): every value of the
 * key (`getlist`); a key not sent is `[]` on a create or a PUT, and leaves the relation as it
 * is on a PATCH. Unknown or malformed keys are the field's 400; a flood of repeated keys is a
 * bounded 4xx (the relation's `maxLength`, the body's size), never a 500.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Database,
  defineModel,
  ModelSerializer,
  ModelViewSet,
  MultipleChoiceField,
  models,
} from '@restframework/core';
import { multipartBody } from '@restframework/core/testing';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { buildApp, request } from '../fixtures/http-app.ts';

const Tag = defineModel({
  name: 'Tag',
  table: 'rk_tag',
  fields: { name: models.CharField({ maxLength: 20 }) },
  str: (tag) => tag.name,
});

const Post = defineModel({
  name: 'Post',
  table: 'rk_post',
  fields: {
    title: models.CharField({ maxLength: 50 }),
    formats: models.JSONField({ default: () => [] }),
    tags: models.ManyToManyField(Tag, { relatedName: 'posts', blank: true }),
  },
});

class PostSerializer extends ModelSerializer.with({
  model: Post,
  fields: ['id', 'title', 'formats', 'tags'],
  declaredFields: {
    formats: new MultipleChoiceField({ choices: ['paper', 'ebook', 'audio'], required: false }),
  },
}) {}

class PostViewSet extends ModelViewSet {
  override queryset = Post.objects.all();
  override serializerClass = PostSerializer;
}

type Encoding = 'form' | 'multipart';
type Pairs = readonly (readonly [string, string])[];

function body(
  encoding: Encoding,
  pairs: Pairs,
): { payload: string | Buffer; headers: Record<string, string> } {
  if (encoding === 'multipart')
    return multipartBody(pairs.map(([name, value]) => ({ name, value })));
  return {
    payload: new URLSearchParams(pairs as [string, string][]).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  };
}

describe('repeated form keys for many relations and multiple choices', () => {
  let db: Database;
  let app: FastifyInstance;
  const tagIds: number[] = [];

  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate([Tag, Post]);
    for (const name of ['fiction', 'history', 'poetry', 'science'])
      tagIds.push((await Tag.objects.using(db).create({ name })).id);
    app = await buildApp({ database: db, viewsets: [['posts', PostViewSet]] });
  });
  after(async () => {
    await app?.close();
    await db?.close();
  });

  async function send(
    method: 'POST' | 'PUT' | 'PATCH',
    url: string,
    encoding: Encoding,
    pairs: Pairs,
  ) {
    const response = await request(app, { method, url, ...body(encoding, pairs) });
    return { status: response.statusCode, body: response.json() };
  }

  async function created(tags: readonly number[]): Promise<number> {
    const post = await Post.objects.using(db).create({ title: 'seed', formats: [] });
    await Post.related(post, 'tags').using(db).set(tags);
    return post.id;
  }

  const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b);

  for (const encoding of ['form', 'multipart'] as const) {
    describe(`as ${encoding === 'form' ? 'application/x-www-form-urlencoded' : 'multipart/form-data'}`, () => {
      const cases: {
        name: string;
        method: 'POST' | 'PUT' | 'PATCH';
        pairs: (ids: readonly number[]) => Pairs;
        before?: (ids: readonly number[]) => number[];
        status: number;
        tags?: (ids: readonly number[]) => number[];
        formats?: string[];
        errors?: Record<string, unknown>;
      }[] = [
        {
          name: 'a create takes every value of a repeated key',
          method: 'POST',
          pairs: (ids) => [
            ['title', 'a'],
            ['tags', String(ids[0])],
            ['tags', String(ids[2])],
          ],
          status: 201,
          tags: (ids) => [ids[0] as number, ids[2] as number],
        },
        {
          name: 'one value is a list of one',
          method: 'POST',
          pairs: (ids) => [
            ['title', 'a'],
            ['tags', String(ids[1])],
            ['formats', 'ebook'],
          ],
          status: 201,
          tags: (ids) => [ids[1] as number],
          formats: ['ebook'],
        },
        {
          name: 'nothing chosen is an empty list on a create',
          method: 'POST',
          pairs: () => [['title', 'a']],
          status: 201,
          tags: () => [],
          formats: [],
        },
        {
          name: 'multiple choices keep each value once, in the order sent',
          method: 'POST',
          pairs: () => [
            ['title', 'a'],
            ['formats', 'audio'],
            ['formats', 'paper'],
            ['formats', 'audio'],
          ],
          status: 201,
          tags: () => [],
          formats: ['audio', 'paper'],
        },
        {
          name: 'nothing chosen empties the relation on a PUT',
          method: 'PUT',
          before: (ids) => [ids[0] as number, ids[1] as number],
          pairs: () => [['title', 'b']],
          status: 200,
          tags: () => [],
        },
        {
          name: 'a PUT replaces the relation with what was chosen',
          method: 'PUT',
          before: (ids) => [ids[0] as number],
          pairs: (ids) => [
            ['title', 'b'],
            ['tags', String(ids[3])],
            ['tags', String(ids[1])],
          ],
          status: 200,
          tags: (ids) => [ids[1] as number, ids[3] as number],
        },
        {
          name: 'a PATCH without the key leaves the relation as it is',
          method: 'PATCH',
          before: (ids) => [ids[0] as number, ids[2] as number],
          pairs: () => [['title', 'c']],
          status: 200,
          tags: (ids) => [ids[0] as number, ids[2] as number],
        },
        {
          name: 'a PATCH with the key sets the relation',
          method: 'PATCH',
          before: (ids) => [ids[0] as number],
          pairs: (ids) => [['tags', String(ids[2])]],
          status: 200,
          tags: (ids) => [ids[2] as number],
        },
        {
          name: 'an unknown key is the field error',
          method: 'POST',
          pairs: (ids) => [
            ['title', 'a'],
            ['tags', String(ids[0])],
            ['tags', '9999'],
          ],
          status: 400,
          errors: { tags: ['Invalid pk "9999" - object does not exist.'] },
        },
        {
          name: 'a key that is no number is the field error',
          method: 'PUT',
          before: () => [],
          pairs: () => [
            ['title', 'a'],
            ['tags', 'fiction'],
          ],
          status: 400,
          errors: { tags: ['Incorrect type. Expected pk value, received str.'] },
        },
        {
          name: 'an empty value (an empty option) is the field error',
          method: 'POST',
          pairs: () => [
            ['title', 'a'],
            ['tags', ''],
          ],
          status: 400,
          errors: { tags: ['Incorrect type. Expected pk value, received str.'] },
        },
        {
          name: 'a choice not offered is the field error',
          method: 'POST',
          pairs: () => [
            ['title', 'a'],
            ['formats', 'paper'],
            ['formats', 'vinyl'],
          ],
          status: 400,
          errors: { formats: ['"vinyl" is not a valid choice.'] },
        },
      ];
      for (const c of cases) {
        it(c.name, async () => {
          const id = c.method === 'POST' ? undefined : await created(c.before?.(tagIds) ?? []);
          const url = id === undefined ? '/api/posts/' : `/api/posts/${id}/`;
          const { status, body: answer } = await send(c.method, url, encoding, c.pairs(tagIds));
          assert.equal(status, c.status, JSON.stringify(answer));
          if (c.errors) assert.deepEqual(answer, c.errors);
          if (c.tags) {
            assert.deepEqual(sorted(answer.tags), sorted(c.tags(tagIds)));
            const stored = await Post.related(answer.id as number, 'tags')
              .using(db)
              .execute();
            assert.deepEqual(sorted(stored.map((t) => t.id)), sorted(c.tags(tagIds)));
          }
          if (c.formats) assert.deepEqual(answer.formats, c.formats);
        });
      }

      it('stores the chosen tags for any choice of known keys, repeated or not', async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.array(fc.constantFrom(...tagIds), { maxLength: 12 }),
            async (chosen) => {
              const pairs: Pairs = [
                ['title', 'generated'],
                ...chosen.map((t) => ['tags', String(t)] as const),
              ];
              const { status, body: answer } = await send('POST', '/api/posts/', encoding, pairs);
              assert.equal(status, 201, JSON.stringify(answer));
              assert.deepEqual(sorted(answer.tags), sorted([...new Set(chosen)]));
            },
          ),
          { numRuns: 25, seed: 40 },
        );
      });

      it('refuses any choice with an unknown key, naming the first one', async () => {
        await fc.assert(
          fc.asyncProperty(
            fc
              .array(fc.oneof(fc.constantFrom(...tagIds), fc.integer({ min: 100, max: 10 ** 9 })), {
                minLength: 1,
                maxLength: 12,
              })
              .filter((keys) => keys.some((k) => k >= 100)),
            async (keys) => {
              const pairs: Pairs = [
                ['title', 'generated'],
                ...keys.map((k) => ['tags', String(k)] as const),
              ];
              const { status, body: answer } = await send('POST', '/api/posts/', encoding, pairs);
              assert.equal(status, 400);
              const first = keys.find((k) => k >= 100);
              assert.deepEqual(answer, {
                tags: [`Invalid pk "${first}" - object does not exist.`],
              });
            },
          ),
          { numRuns: 25, seed: 41 },
        );
      });
    });
  }

  it('answers a flood of repeated keys with the relation’s bound, a 400 without a query', async () => {
    const pairs: Pairs = [
      ['title', 'flood'],
      ...Array.from({ length: 5000 }, () => ['tags', String(tagIds[0])] as const),
    ];
    for (const encoding of ['form'] as const) {
      let statements = 0;
      const stop = db.onQuery(() => statements++);
      try {
        const { status, body: answer } = await send('POST', '/api/posts/', encoding, pairs);
        assert.equal(status, 400);
        assert.deepEqual(answer, { tags: ['Ensure this field has no more than 1000 elements.'] });
        assert.equal(statements, 0);
      } finally {
        stop();
      }
    }
    // As multipart, more parts than MAX_UPLOAD_PARTS (1000) is a 413 before any field runs.
    const { status } = await send('POST', '/api/posts/', 'multipart', pairs);
    assert.equal(status, 413);
  });

  it('answers a body of repeated keys past MAX_BODY_SIZE with 413', async () => {
    const response = await request(app, {
      method: 'POST',
      url: '/api/posts/',
      payload: `title=big&${'tags=1&'.repeat(400_000)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(response.statusCode, 413);
  });
});
