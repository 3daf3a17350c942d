/**
 * `prefetchRelated` and `Prefetch` (issue 39): one statement per relation whatever the number
 * of rows — reverse foreign keys, many-to-manys both ways (automatic, through a model, 'self'),
 * one-to-ones both ways, foreign keys (none after `selectRelated`), nested paths, a query set
 * and `toAttr` of one's own — the same rows on every database; related sets answer from the
 * prefetched rows until the set changes; a page of 2 and a page of 20 cost the same statements.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Database,
  ImproperlyConfigured,
  ModelSerializer,
  ModelViewSet,
  PageNumberPagination,
  Prefetch,
  type Row,
} from '@restframework/core';
import { getPrefetched } from '@restframework/core/internal';
import { testDialects } from '@restframework/core/testing';
import { buildApp, request } from '../fixtures/http-app.ts';
import {
  Article,
  Comment,
  Person,
  Profile,
  SOCIAL_MODELS,
  Tag,
} from '../fixtures/social-models.ts';

class ArticleSerializer extends ModelSerializer.with({ model: Article, fields: ['id', 'title'] }) {}

class Pages extends PageNumberPagination {
  override pageSize = 2;
  override pageSizeQueryParam = 'page_size';
}

class ArticleViewSet extends ModelViewSet {
  override queryset = Article.objects
    .selectRelated('author')
    .prefetchRelated('tags', 'favorited_by');
  override serializerClass = ArticleSerializer;
  override paginationClass = Pages;
}

type Rec = Record<string, unknown>;
const names = (rows: readonly unknown[] | undefined, key = 'name') =>
  (rows ?? []).map((r) => (r as Rec)[key]);

for (const dialect of testDialects()) {
  describe(`prefetchRelated on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let ann: Row<typeof Person>;
    let bob: Row<typeof Person>;
    const articles = () => Article.objects.using(db);
    /** The statements `run` sends. */
    const statements = async <T>(run: () => Promise<T>): Promise<[T, string[]]> => {
      const seen: string[] = [];
      const stop = db.onQuery((event) => seen.push(event.sql));
      try {
        return [await run(), seen];
      } finally {
        stop();
      }
    };

    before(async () => {
      db = await dialect.create();
      await db.migrate(SOCIAL_MODELS);
      const people = Person.objects.using(db);
      ann = await people.create({ username: 'ann' });
      bob = await people.create({ username: 'bob' });
      const cy = await people.create({ username: 'cy' });
      await Profile.objects.using(db).create({ person: bob.id, bio: 'hi' });
      await Person.related(ann, 'follows').using(db).add(bob, cy);
      await Person.related(bob, 'follows').using(db).add(cy);
      const [py, web, js] = await Promise.all(
        ['py', 'web', 'js'].map((name) => Tag.objects.using(db).create({ name })),
      );
      const authors = [ann, bob, cy];
      // 24 articles: a1..a24 (two-digit titles sort as numbers), tags and favourites varied.
      for (let i = 1; i <= 24; i++) {
        const title = `a${String(i).padStart(2, '0')}`;
        const article = await articles().create({ title, author: authors[i % 3]!.id });
        const tags = [py, web, js].filter((_, t) => (i + t) % 2 === 0);
        if (tags.length)
          await Article.related(article, 'tags')
            .using(db)
            .add(...tags.map((t) => t!));
        if (i % 4 === 0) await Article.related(article, 'favorited_by').using(db).add(ann, bob);
        if (i <= 2) {
          await Comment.objects
            .using(db)
            .create({ article: article.id, author: cy.id, body: `c${i}` });
          await Comment.objects
            .using(db)
            .create({ article: article.id, author: ann.id, body: `b${i}` });
        }
      }
    });
    after(() => dialect.drop(db));

    it('one statement per relation, nested too, with the rows of each row', async () => {
      const [rows, sent] = await statements(() =>
        articles()
          .prefetchRelated('tags', 'favorited_by', 'comments__author', 'author')
          .slice(0, 4)
          .execute(),
      );
      // articles, tags, favorited_by, comments, comments' authors, authors.
      assert.equal(sent.length, 6, sent.join('\n'));
      const [a1, a2, , a4] = rows as Rec[];
      assert.deepEqual(names(getPrefetched(a1!, 'tags')), ['web']);
      assert.deepEqual(names(getPrefetched(a2!, 'tags')), ['js', 'py']);
      assert.deepEqual(names(getPrefetched(a4!, 'favorited_by'), 'username'), ['ann', 'bob']);
      assert.deepEqual(getPrefetched(a1!, 'favorited_by'), []);
      const comments = getPrefetched(a1!, 'comments') as Rec[];
      assert.deepEqual(names(comments, 'body'), ['b1', 'c1']);
      assert.deepEqual(
        comments.map((c) => (c.author as Rec).username),
        ['ann', 'cy'],
      );
      assert.equal((a2!.author as Rec).username, 'cy');
      // The prefetched rows are invisible to the representation.
      assert.deepEqual(Object.keys(a1!).sort(), ['author', 'author_id', 'id', 'title']);
    });

    it('a page of 2 and a page of 20 cost the same statements', async () => {
      const page = (size: number) =>
        statements(() =>
          articles()
            .selectRelated('author')
            .prefetchRelated('tags', 'favorited_by', 'comments')
            .slice(0, size)
            .execute(),
        );
      const [two, small] = await page(2);
      const [twenty, large] = await page(20);
      assert.equal(two.length, 2);
      assert.equal(twenty.length, 20);
      assert.equal(small.length, 4);
      assert.equal(large.length, small.length);
      // selectRelated loaded the authors: prefetching them again sends nothing.
      const [, again] = await statements(() =>
        articles().selectRelated('author').prefetchRelated('author').slice(0, 20).execute(),
      );
      assert.equal(again.length, 1);
    });

    it('through a paginated view: the prefetches run on the page only', async () => {
      const app = await buildApp({ database: db, viewsets: [['articles', ArticleViewSet]] });
      try {
        const sent = async (url: string) => {
          const [response, seen] = await statements(() => request(app, { method: 'GET', url }));
          assert.equal(response.statusCode, 200, response.body);
          return seen.length;
        };
        assert.equal(await sent('/api/articles/?page_size=20'), await sent('/api/articles/'));
        assert.equal(await sent('/api/articles/'), 4); // count, page, tags, favorited_by
      } finally {
        await app.close();
      }
    });

    it('one-to-ones both ways, reverse keys and a self relation', async () => {
      const [people, sent] = await statements(() =>
        Person.objects
          .using(db)
          .prefetchRelated('profile', 'articles', 'follows', 'followers')
          .execute(),
      );
      assert.equal(sent.length, 5);
      const [a, b, c] = people as Rec[];
      assert.equal(a!.profile, null);
      assert.equal((b!.profile as Rec).bio, 'hi');
      assert.deepEqual(names(getPrefetched(a!, 'follows'), 'username'), ['bob', 'cy']);
      assert.deepEqual(names(getPrefetched(c!, 'followers'), 'username'), ['ann', 'bob']);
      assert.equal(getPrefetched(b!, 'articles')?.length, 8);
      const [profiles] = await statements(() =>
        Profile.objects.using(db).prefetchRelated('person__follows').execute(),
      );
      const person = (profiles[0] as Rec).person as Rec;
      assert.equal(person.username, 'bob');
      assert.deepEqual(names(getPrefetched(person, 'follows'), 'username'), ['cy']);
    });

    it('Prefetch: a query set and an attribute of its own', async () => {
      const [rows, sent] = await statements(() =>
        articles()
          .filter({ title__in: ['a01', 'a02'] })
          .prefetchRelated(
            new Prefetch('tags', {
              queryset: Tag.objects.filter({ name__in: ['js', 'web'] }).orderBy('-name'),
              toAttr: 'some_tags',
            }),
            new Prefetch('comments', {
              queryset: Comment.objects.selectRelated('author').orderBy('-body'),
            }),
            new Prefetch('favorited_by', { queryset: Person.objects.prefetchRelated('profile') }),
          )
          .execute(),
      );
      // articles, tags, comments, favourites (none here: no profiles to ask for)
      assert.equal(sent.length, 4);
      const [a1, a2] = rows as Rec[];
      assert.deepEqual(names(a1!.some_tags as Rec[]), ['web']);
      assert.deepEqual(names(a2!.some_tags as Rec[]), ['js']);
      assert.equal(getPrefetched(a1!, 'tags'), undefined);
      assert.deepEqual(names(getPrefetched(a1!, 'comments'), 'body'), ['c1', 'b1']);
      assert.equal(((getPrefetched(a1!, 'comments') as Rec[])[0]!.author as Rec).username, 'cy');
      const [a4] = (await articles()
        .filter({ title: 'a04' })
        .prefetchRelated(
          new Prefetch('favorited_by', { queryset: Person.objects.prefetchRelated('profile') }),
        )
        .execute()) as Rec[];
      const fans = getPrefetched(a4!, 'favorited_by') as Rec[];
      assert.deepEqual(
        fans.map((p) => (p.profile as Rec | null)?.bio ?? null),
        [null, 'hi'],
      );
    });

    it('related sets read the prefetched rows until the set changes', async () => {
      const article = (await articles().prefetchRelated('tags').get({ title: 'a01' })) as Rec;
      const tags = Article.related(article, 'tags').using(db);
      const [read, sent] = await statements(async () => [await tags.execute(), await tags.count()]);
      assert.equal(sent.length, 0);
      assert.deepEqual(names(read[0] as Rec[]), ['web']);
      assert.equal(read[1], 1);
      const js = await Tag.objects.using(db).get({ name: 'js' });
      await tags.add(js);
      const [after, fresh] = await statements(() => tags.execute());
      assert.equal(fresh.length, 1);
      assert.deepEqual(names(after).sort(), ['js', 'web']);
      await tags.remove(js);
    });

    it('all() of a prefetched set answers its rows without a statement; a filter on it queries', async () => {
      const rows = (await articles().prefetchRelated('tags').orderBy('title').execute()) as Rec[];
      const a01 = rows.find((r) => r.title === 'a01') as Rec;
      const tags = Article.related(a01, 'tags').using(db);
      const [read, sent] = await statements(async () => {
        const all = tags.all();
        const seen: unknown[] = [];
        for await (const tag of all) seen.push(tag);
        return [await all.execute(), await all.count(), await all.exists(), seen];
      });
      assert.deepEqual(sent, [], 'all() of prefetched rows sends no statement');
      assert.deepEqual(names(read[0] as Rec[]), ['web']);
      assert.equal(read[1], 1);
      assert.equal(read[2], true);
      assert.deepEqual(names(read[3] as Rec[]), ['web']);
      // Each page of rows at once, for every row: still no statement.
      const [everyRow, none] = await statements(() =>
        Promise.all(rows.map((row) => Article.related(row, 'tags').using(db).all().execute())),
      );
      assert.equal(none.length, 0);
      assert.equal(everyRow.length, rows.length);
      // A query set made from it queries, as Django's: one statement each.
      const [filtered, one] = await statements(() =>
        tags.all().filter({ name__startswith: 'w' }).execute(),
      );
      assert.equal(one.length, 1);
      assert.deepEqual(names(filtered), ['web']);
      const [ordered, two] = await statements(() => tags.all().orderBy('-name').execute());
      assert.equal(two.length, 1);
      assert.deepEqual(names(ordered), ['web']);
      // Without a prefetch, all() queries.
      const plain = (await articles().get({ title: 'a01' })) as Rec;
      const [, queried] = await statements(() =>
        Article.related(plain, 'tags').using(db).all().execute(),
      );
      assert.equal(queried.length, 1);
    });

    it('runs in chunks past the parameter limit', async () => {
      const adapter = db.adapter as { maxParameters: number };
      const limit = adapter.maxParameters;
      adapter.maxParameters = 1002; // two keys a statement
      try {
        const [rows, sent] = await statements(() =>
          articles().prefetchRelated('tags').slice(0, 5).execute(),
        );
        assert.equal(sent.length, 1 + 3);
        assert.deepEqual(names(getPrefetched(rows[4] as Rec, 'tags')), ['web']);
      } finally {
        adapter.maxParameters = limit;
      }
    });

    it('a mistaken lookup fails naming the fix', async () => {
      const fails = (run: () => Promise<unknown>, code: string, pattern: RegExp) =>
        assert.rejects(
          run,
          (error) =>
            error instanceof ImproperlyConfigured &&
            error.code === code &&
            pattern.test(error.message),
        );
      await fails(
        () => articles().prefetchRelated('nope').execute(),
        'REST_ERR_MODEL_PATH',
        /no relation "nope"/,
      );
      await fails(
        () =>
          articles()
            .prefetchRelated(new Prefetch('tags', { queryset: Person.objects.all() }))
            .execute(),
        'REST_ERR_PREFETCH',
        /query set is of Person; the relation holds Tag rows/,
      );
      await fails(
        () =>
          articles()
            .prefetchRelated(new Prefetch('tags', { queryset: Tag.objects.slice(0, 1) }))
            .execute(),
        'REST_ERR_PREFETCH',
        /sliced/,
      );
      await fails(
        () =>
          articles()
            .prefetchRelated('tags', new Prefetch('tags', { toAttr: 'x' }))
            .execute(),
        'REST_ERR_PREFETCH',
        /prefetched twice/,
      );
      assert.equal(ann.username, 'ann');
      assert.equal(bob.username, 'bob');
    });
  });
}
