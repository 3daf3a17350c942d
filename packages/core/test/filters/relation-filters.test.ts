/**
 * Filters on relation paths of every kind through HTTP (issue 39): FilterSet filters whose
 * `fieldName` crosses a many-to-many or a reverse relation (`?tag=`, `?favorited=`), search
 * fields and ordering names across them; each row once, the same on every database, and a
 * client's value — any text — a 200 or a 400, never a 500.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CharFilter,
  type Database,
  DjangoFilterBackend,
  FilterSet,
  ModelMultipleChoiceFilter,
  ModelSerializer,
  ModelViewSet,
  NumberFilter,
  OrderingFilter,
  SearchFilter,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { buildApp, request } from '../fixtures/http-app.ts';
import { Article, Favorite, Person, Tag } from '../fixtures/social-models.ts';

class ArticleFilters extends FilterSet.with({
  model: Article,
  fields: { title: ['exact'], tags: ['exact'], tags__name: ['exact', 'in'] },
  filters: {
    tag_any: new ModelMultipleChoiceFilter({ fieldName: 'tags', toFieldName: 'name' }),
    tag_all: new ModelMultipleChoiceFilter({
      fieldName: 'tags',
      toFieldName: 'name',
      conjoined: true,
    }),
    fan: new ModelMultipleChoiceFilter({
      fieldName: 'favorited_by',
      toFieldName: 'username',
      queryset: Person.objects.filter({ username__in: ['bob', 'cy'] }),
    }),
    tag: new CharFilter({ fieldName: 'tags__name' }),
    favorited: new CharFilter({ fieldName: 'favorited_by__username' }),
    followed_by: new NumberFilter({ fieldName: 'author__followers__id' }),
    untagged: new CharFilter({ fieldName: 'tags__name', exclude: true }),
  },
}) {}

class ArticleSerializer extends ModelSerializer.with({ model: Article, fields: ['id', 'title'] }) {}

class ArticleViewSet extends ModelViewSet {
  override queryset = Article.objects.all();
  override serializerClass = ArticleSerializer;
  override filterBackends = [DjangoFilterBackend, SearchFilter, OrderingFilter];
  override paginationClass = null;
  filtersetClass: typeof FilterSet = ArticleFilters;
  searchFields = ['title', 'tags__name', 'favorited_by__username'];
  orderingFields = ['title', 'author__username', 'tags__name'];
  ordering = ['title'];
}

for (const dialect of testDialects()) {
  describe(`filters on relation paths on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;
    let bob = 0;
    const tagIds: number[] = [];
    const status = async (query: string) =>
      (await request(app, { method: 'GET', url: `/api/articles/${query}` })).statusCode;
    const titles = async (query: string) => {
      const response = await request(app, { method: 'GET', url: `/api/articles/${query}` });
      assert.equal(response.statusCode, 200, response.body);
      return (response.json() as { title: string }[]).map((a) => a.title);
    };

    before(async () => {
      db = await dialect.create();
      await db.migrate([Person, Tag, Article, Favorite]);
      const people = Person.objects.using(db);
      const ann = await people.create({ username: 'ann' });
      const b = await people.create({ username: 'bob' });
      bob = b.id;
      const cy = await people.create({ username: 'cy' });
      await Person.related(b, 'follows').using(db).add(ann, cy);
      const [py, web] = await Promise.all(
        ['py', 'web'].map((name) => Tag.objects.using(db).create({ name })),
      );
      tagIds.push(py!.id, web!.id);
      const articles = Article.objects.using(db);
      const a1 = await articles.create({ title: 'a1', author: ann.id });
      const a2 = await articles.create({ title: 'a2', author: b.id });
      await articles.create({ title: 'a3', author: cy.id });
      await Article.related(a1, 'tags').using(db).add(py!, web!);
      await Article.related(a2, 'tags').using(db).add(py!);
      await Article.related(a1, 'favorited_by').using(db).add(b, cy);
      app = await buildApp({ database: db, viewsets: [['articles', ArticleViewSet]] });
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
    });

    it('filters through a many-to-many, its through model and a reverse self relation', async () => {
      assert.deepEqual(await titles('?tag=py'), ['a1', 'a2']);
      assert.deepEqual(await titles('?tags__name=web'), ['a1']);
      assert.deepEqual(await titles('?tags__name__in=py,web'), ['a1', 'a2']);
      assert.deepEqual(await titles('?favorited=cy'), ['a1']);
      assert.deepEqual(await titles('?favorited=ann'), []);
      assert.deepEqual(await titles(`?followed_by=${bob}`), ['a1', 'a3']);
      assert.deepEqual(await titles('?untagged=web'), ['a2', 'a3']);
      assert.deepEqual(await titles('?tag=py&favorited=bob'), ['a1']);
    });

    it('ModelMultipleChoiceFilter: any or all of the chosen rows, within its query set', async () => {
      assert.deepEqual(await titles('?tag_any=py&tag_any=web'), ['a1', 'a2']);
      assert.deepEqual(await titles('?tag_any=web'), ['a1']);
      assert.deepEqual(await titles('?tag_all=py&tag_all=web'), ['a1']);
      assert.deepEqual(await titles('?tag_all=py'), ['a1', 'a2']);
      assert.deepEqual(await titles('?tag_any=nope'), []);
      assert.deepEqual(await titles('?fan=bob'), ['a1']);
      assert.equal(await status('?fan=ann'), 400); // not among the query set's rows
      const response = await request(app, { method: 'GET', url: '/api/articles/?fan=zed' });
      assert.deepEqual(response.json(), {
        fan: ['Select a valid choice. zed is not one of the available choices.'],
      });
      // Generated for a path ending on a many-to-many: keys, repeated.
      const [py, web] = tagIds;
      assert.deepEqual(await titles(`?tags=${web}`), ['a1']);
      assert.deepEqual(await titles(`?tags=${py}&tags=${web}`), ['a1', 'a2']);
      // The comma-separated form of the same lists, and both forms at once (issue 42).
      assert.deepEqual(await titles(`?tags=${py},${web}`), ['a1', 'a2']);
      assert.deepEqual(await titles('?tag_any=py,web'), ['a1', 'a2']);
      assert.deepEqual(await titles('?tag_all=py,web'), ['a1']);
      assert.deepEqual(await titles('?tag_all=py&tag_all=web,py'), ['a1']);
      assert.equal(await status('?tags=x'), 400);
      const many = Array.from({ length: 101 }, (_, i) => `tags=${i}`).join('&');
      assert.equal(await status(`?${many}`), 400);
    });

    it('searches and orders across relations', async () => {
      assert.deepEqual(await titles('?search=we'), ['a1']);
      assert.deepEqual(await titles('?search=cy'), ['a1']);
      assert.deepEqual(await titles('?search=py%20bob'), ['a1']);
      assert.deepEqual(await titles('?ordering=-author__username'), ['a3', 'a2', 'a1']);
      // A row per tag, as Django orders across a many-to-many.
      assert.deepEqual(await titles('?tag=py&ordering=-tags__name,title'), ['a1', 'a1', 'a2']);
    });

    it('any text a client sends is a 200 or a 400, never a 500', async () => {
      const parameters = [
        'tag',
        'favorited',
        'followed_by',
        'untagged',
        'tags__name__in',
        'tags',
        'tag_any',
        'tag_all',
        'fan',
      ];
      const extra = ['search', 'ordering'];
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...parameters, ...extra),
          fc.array(fc.string({ maxLength: 40 }), { minLength: 1, maxLength: 3 }),
          async (name, values) => {
            const query = values.map((v) => `${name}=${encodeURIComponent(v)}`).join('&');
            const value = values.join('&');
            const response = await request(app, { method: 'GET', url: `/api/articles/?${query}` });
            assert.ok(
              response.statusCode === 200 || response.statusCode === 400,
              `${name}=${JSON.stringify(value)}: ${response.statusCode} ${response.body}`,
            );
          },
        ),
        { numRuns: 80 },
      );
    });
  });
}
