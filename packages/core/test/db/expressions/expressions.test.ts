/**
 * Query expressions of issue 39 — F, Q, annotate/aggregate with Count, Sum, Avg, Min, Max —
 * the same rows on every database, and declaration mistakes as ImproperlyConfigured.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Avg,
  Count,
  type Database,
  defineModel,
  Exists,
  ExistsExpression,
  F,
  ImproperlyConfigured,
  InvalidLookupValueError,
  Max,
  Min,
  models,
  OuterRef,
  Q,
  Subquery,
  Sum,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import fc from 'fast-check';

const User = defineModel({
  name: 'User',
  table: 'ex_user',
  fields: {
    username: models.CharField({ maxLength: 30, unique: true }),
    following: models.ManyToManyField('self', { symmetrical: false, relatedName: 'followers' }),
  },
});

const Tag = defineModel({
  name: 'Tag',
  table: 'ex_tag',
  fields: { name: models.CharField({ maxLength: 20, unique: true }) },
});

const Article = defineModel({
  name: 'Article',
  table: 'ex_article',
  fields: {
    title: models.CharField({ maxLength: 50 }),
    views: models.IntegerField({ default: 0 }),
    likes: models.IntegerField({ default: 0 }),
    rank: models.IntegerField({ null: true }),
    author: models.ForeignKey(User, { onDelete: 'CASCADE', relatedName: 'articles' }),
    tags: models.ManyToManyField(Tag, { relatedName: 'articles' }),
    favorited_by: models.ManyToManyField(User, { relatedName: 'favorites' }),
  },
});

const Comment = defineModel({
  name: 'Comment',
  table: 'ex_comment',
  fields: {
    article: models.ForeignKey(Article, { onDelete: 'CASCADE', relatedName: 'comments' }),
    score: models.IntegerField(),
    approved: models.BooleanField({ default: true }),
    amount: models.DecimalField({ maxDigits: 8, decimalPlaces: 2, default: '0.00' }),
  },
});

const ALL = [User, Tag, Article, Comment];

for (const dialect of testDialects()) {
  describe(`query expressions on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    const articles = () => Article.objects.using(db);
    const titles = (rows: readonly { title: string }[]) => rows.map((r) => r.title);

    before(async () => {
      db = await dialect.create();
      await db.migrate(ALL);
      const [ann, bob, cyd] = await Promise.all(
        ['ann', 'bob', 'cyd'].map((username) => User.objects.using(db).create({ username })),
      );
      const [py, web, db2] = await Promise.all(
        ['py', 'web', 'db'].map((name) => Tag.objects.using(db).create({ name })),
      );
      const a = await articles().create({
        title: 'a',
        views: 10,
        likes: 3,
        rank: 2,
        author_id: ann!.id,
      });
      const b = await articles().create({
        title: 'b',
        views: 2,
        likes: 5,
        rank: null,
        author_id: ann!.id,
      });
      const c = await articles().create({
        title: 'c',
        views: 7,
        likes: 7,
        rank: 1,
        author_id: bob!.id,
      });
      await Article.related(a, 'tags').using(db).add(py!, web!, db2!);
      await Article.related(b, 'tags').using(db).add(py!);
      await Article.related(a, 'favorited_by').using(db).add(bob!, cyd!);
      await Article.related(c, 'favorited_by').using(db).add(ann!);
      await User.related(ann!, 'following').using(db).add(bob!, cyd!);
      await User.related(bob!, 'following').using(db).add(ann!);
      for (const [article, score, approved, amount] of [
        [a, 5, true, '1.00'],
        [a, 3, false, '1.00'],
        [a, 5, true, '2.01'],
        [c, 1, true, '0.01'],
      ] as const) {
        await Comment.objects.using(db).create({ article_id: article.id, score, approved, amount });
      }
    });
    after(() => dialect.drop(db));

    it('compares two columns with F, and orders by F with NULL placed', async () => {
      assert.deepEqual(
        titles(
          await articles()
            .filter({ views__gt: F('likes') })
            .orderBy('title')
            .execute(),
        ),
        ['a'],
      );
      assert.deepEqual(
        titles(
          await articles()
            .filter({ views: F('likes') })
            .execute(),
        ),
        ['c'],
      );
      assert.deepEqual(
        titles(
          await articles()
            .exclude({ views__lte: F('likes').sub(1) })
            .orderBy('title')
            .execute(),
        ),
        ['a', 'c'],
      );
      assert.deepEqual(
        titles(
          await articles()
            .orderBy(F('rank').desc({ nullsLast: true }))
            .execute(),
        ),
        ['a', 'c', 'b'],
      );
      assert.deepEqual(
        titles(
          await articles()
            .orderBy(F('rank').asc({ nullsLast: true }))
            .execute(),
        ),
        ['c', 'a', 'b'],
      );
      assert.deepEqual(
        titles(
          await articles()
            .orderBy(F('rank').desc({ nullsFirst: true }))
            .execute(),
        ),
        ['b', 'a', 'c'],
      );
      assert.deepEqual(
        titles(
          await articles()
            .filter({ views__gte: F('author__id') })
            .orderBy('title')
            .execute(),
        ),
        ['a', 'b', 'c'],
      );
    });

    it('updates from the stored value with F, in one statement', async () => {
      const changed = await articles()
        .filter({ title__in: ['a', 'b'] })
        .update({ views: F('views').add(1).mul(2) });
      assert.equal(changed, 2);
      assert.deepEqual(
        (await articles().orderBy('title').execute()).map((r) => r.views),
        [22, 6, 7],
      );
      await articles()
        .filter({ title__in: ['a', 'b'] })
        .update({ views: F('views').div(2).sub(1) });
      assert.deepEqual(
        (await articles().orderBy('title').execute()).map((r) => r.views),
        [10, 2, 7],
      );
    });

    it('combines conditions with Q: or, and, not', async () => {
      const q = Q({ title: 'a' }).or({ views__lt: 5 });
      assert.deepEqual(titles(await articles().filter(q).orderBy('title').execute()), ['a', 'b']);
      assert.deepEqual(titles(await articles().exclude(q).execute()), ['c']);
      assert.deepEqual(titles(await articles().filter(q.not()).execute()), ['c']);
      assert.deepEqual(
        titles(
          await articles()
            .filter(Q.or({ title: 'c' }, Q.and({ views: 2 }, { likes: 5 })))
            .orderBy('title')
            .execute(),
        ),
        ['b', 'c'],
      );
      assert.deepEqual(
        titles(
          await articles()
            .filter(Q.not({ author__username: 'ann' }))
            .execute(),
        ),
        ['c'],
      );
      assert.deepEqual(titles(await articles().filter(Q.or()).execute()), []);
      // A Q is part of the shape: two values, one compiled statement, the right rows each.
      for (const title of ['a', 'b', 'c']) {
        assert.deepEqual(
          titles(
            await articles()
              .filter(Q({ title }).or({ title: 'zz' }))
              .execute(),
          ),
          [title],
        );
      }
    });

    it('counts a relation of each row with a correlated count, without multiplying two counts', async () => {
      const rows = await articles()
        .annotate({
          tags_count: Count('tags'),
          favorites_count: Count('favorited_by'),
          comments_count: Count('comments'),
          approved: Count('comments', { filter: Q({ comments__approved: true }) }),
          scores: Count('comments__score', { distinct: true }),
          total: Sum('comments__score'),
        })
        .orderBy('title')
        .execute();
      assert.deepEqual(
        rows.map((r) => [
          r.title,
          r.tags_count,
          r.favorites_count,
          r.comments_count,
          r.approved,
          r.scores,
          r.total,
        ]),
        [
          ['a', 3, 2, 3, 2, 2, 13],
          ['b', 1, 0, 0, 0, 0, null],
          ['c', 0, 1, 1, 1, 1, 1],
        ],
      );
      const users = await User.objects
        .using(db)
        .annotate({
          followers_count: Count('followers'),
          following_count: Count('following'),
          favorites_count: Count('favorites'),
          articles_count: Count('articles'),
        })
        .orderBy('username')
        .execute();
      assert.deepEqual(
        users.map((u) => [
          u.username,
          u.followers_count,
          u.following_count,
          u.favorites_count,
          u.articles_count,
        ]),
        [
          ['ann', 1, 2, 1, 2],
          ['bob', 1, 1, 1, 1],
          ['cyd', 1, 0, 1, 0],
        ],
      );
    });

    it('filters and orders by an annotation, and counts with it', async () => {
      const annotated = articles().annotate({
        favorites_count: Count('favorited_by'),
        tags_count: Count('tags'),
      });
      assert.deepEqual(
        titles(
          await annotated.filter({ favorites_count__gte: 1 }).orderBy('-favorites_count').execute(),
        ),
        ['a', 'c'],
      );
      assert.deepEqual(titles(await annotated.filter({ favorites_count: 0 }).execute()), ['b']);
      assert.deepEqual(
        titles(
          await annotated
            .filter({ favorites_count__in: [0, 2] })
            .orderBy('title')
            .execute(),
        ),
        ['a', 'b'],
      );
      assert.deepEqual(
        titles(
          await annotated
            .filter({ tags_count__gt: F('favorites_count') })
            .orderBy('title')
            .execute(),
        ),
        ['a', 'b'],
      );
      assert.deepEqual(
        titles(
          await annotated
            .filter(Q({ favorites_count: 1 }).or({ tags_count: 1 }))
            .orderBy('-tags_count')
            .execute(),
        ),
        ['b', 'c'],
      );
      assert.deepEqual(titles(await annotated.orderBy('tags_count', '-title').execute()), [
        'c',
        'b',
        'a',
      ]);
      assert.equal(await annotated.filter({ favorites_count__gte: 1 }).count(), 2);
      assert.deepEqual(
        (
          await annotated.filter({ favorites_count__gte: 1 }).orderBy('title').slice(1, 2).execute()
        ).map((r) => r.favorites_count),
        [1],
      );
      const one = await annotated.get({ title: 'a' });
      assert.equal(one.favorites_count, 2);
      await assert.rejects(
        // @ts-expect-error: the count is a number (a type error too)
        annotated.filter({ favorites_count: 'many' }).execute(),
        InvalidLookupValueError,
      );
    });

    it('aggregates the rows into one object', async () => {
      const stats = await articles().aggregate({
        n: Count('pk'),
        views: Sum('views'),
        mean: Avg('likes'),
        low: Min<number>('views'),
        high: Max<number>('views'),
        ranked: Count('rank'),
        liked: Count('pk', { filter: Q({ likes__gte: 5 }) }),
        authors: Count('author', { distinct: true }),
      });
      assert.deepEqual(stats, {
        n: 3,
        views: 19,
        mean: 5,
        low: 2,
        high: 10,
        ranked: 2,
        liked: 2,
        authors: 2,
      });
      const none = await articles()
        .filter({ title: 'zz' })
        .aggregate({ n: Count('pk'), views: Sum('views'), high: Max('views') });
      assert.deepEqual(none, { n: 0, views: null, high: null });
    });

    it('annotates and filters with Exists and OuterRef, booleans on every database', async () => {
      const Favorite = Article.manyToMany.favorited_by!.through;
      const Follow = User.manyToMany.following!.through;
      const ann = await User.objects.using(db).get({ username: 'ann' });
      const favoritedBy = (user: number) =>
        Exists(Favorite.objects.filter({ article: OuterRef('pk'), user }));
      const rows = await articles()
        .annotate({
          favorited: favoritedBy(ann.id),
          followed: Exists(
            Follow.objects.filter({ from_user: ann.id, to_user: OuterRef('author') }),
          ),
          disapproved: Exists(Comment.objects.filter({ article: OuterRef('pk'), approved: false })),
        })
        .orderBy('title')
        .execute();
      assert.deepEqual(
        rows.map((r) => [r.title, r.favorited, r.followed, r.disapproved]),
        [
          ['a', false, false, true],
          ['b', false, false, false],
          ['c', true, true, false],
        ],
      );
      // The user is a parameter: one statement, each user's rows.
      for (const [username, expected] of [
        ['ann', ['c']],
        ['bob', ['a']],
        ['cyd', ['a']],
      ] as const) {
        const user = await User.objects.using(db).get({ username });
        assert.deepEqual(titles(await articles().filter(favoritedBy(user.id)).execute()), expected);
        assert.deepEqual(
          titles(
            await articles()
              .annotate({ mine: favoritedBy(user.id) })
              .filter({ mine: true })
              .execute(),
          ),
          expected,
        );
      }
      assert.deepEqual(
        titles(await articles().exclude(favoritedBy(ann.id)).orderBy('title').execute()),
        ['a', 'b'],
      );
      assert.deepEqual(
        titles(await articles().filter(favoritedBy(ann.id).not()).orderBy('title').execute()),
        ['a', 'b'],
      );
      assert.deepEqual(
        titles(
          await articles()
            .annotate({ mine: favoritedBy(ann.id) })
            // @ts-expect-error: text is parsed at run time (as a query string's); the type asks for a boolean
            .filter({ mine: 'false' })
            .orderBy('-title')
            .execute(),
        ),
        ['b', 'a'],
      );
    });

    it('reads a page with its author, counts and "by me" flags in one statement, the values as parameters', async () => {
      const Favorite = Article.manyToMany.favorited_by!.through;
      const Follow = User.manyToMany.following!.through;
      const page = (me: number) =>
        articles()
          .selectRelated('author')
          .annotate({
            favorites_count: Count('favorited_by'),
            favorited: Exists(Favorite.objects.filter({ article: OuterRef('pk'), user: me })),
            following: Exists(
              Follow.objects.filter({ from_user: me, to_user: OuterRef('author') }),
            ),
          })
          .orderBy('-favorites_count', 'title')
          .slice(0, 20);
      const users = await User.objects.using(db).orderBy('username').execute();
      const statements: string[] = [];
      const stop = db.onQuery((event) => statements.push(event.sql));
      const seen = [];
      for (const user of users) seen.push(await page(user.id).execute());
      stop();
      assert.equal(statements.length, users.length, 'one statement per page');
      assert.equal(new Set(statements).size, 1, 'the same SQL for every user');
      assert.deepEqual(page(users[0]!.id).compile().sql, page(users[1]!.id).compile().sql);
      const [forAnn] = seen;
      assert.deepEqual(
        forAnn!.map((r) => [
          r.title,
          // selectRelated() nests the row; the row type does not say so.
          (r as unknown as { author: { username: string } }).author.username,
          r.favorites_count,
          r.favorited,
          r.following,
        ]),
        [
          ['a', 'ann', 2, false, false],
          ['c', 'bob', 1, true, true],
          ['b', 'ann', 0, false, false],
        ],
      );
    });

    it('combines annotations with relation paths, distinct() and an ordering by the annotation', async () => {
      const rows = await articles()
        .filter({ tags__name__in: ['py', 'web'] })
        .annotate({ n: Count('tags') })
        .distinct()
        .orderBy('-n', 'title')
        .execute();
      assert.deepEqual(
        rows.map((r) => [r.title, r.n]),
        [
          ['a', 3],
          ['b', 1],
        ],
      );
    });

    it('writes through a filter on an annotation', async () => {
      const unloved = articles()
        .annotate({ n: Count('favorited_by') })
        .filter({ n: 0 });
      assert.equal(await unloved.update({ likes: F('likes').add(0) }), 1);
      assert.deepEqual(titles(await unloved.execute()), ['b']);
    });

    it('answers any client value for an annotation filter with rows or InvalidLookupValueError', async () => {
      const annotated = articles().annotate({
        n: Count('favorited_by'),
        mine: Exists(Comment.objects.filter({ article: OuterRef('pk') })),
      });
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('n', 'n__gte', 'n__lt', 'mine', 'n__in'),
          fc.oneof(
            fc.string({ maxLength: 12 }),
            fc.integer(),
            fc.double(),
            fc.boolean(),
            fc.constant(null),
          ),
          async (key, value) => {
            const filterValue = key === 'n__in' ? [value] : value;
            try {
              const rows = await annotated.filter({ [key]: filterValue }).execute();
              assert.ok(Array.isArray(rows));
            } catch (error) {
              assert.ok(
                error instanceof InvalidLookupValueError,
                `${key}=${JSON.stringify(value)}: ${String(error)}`,
              );
            }
          },
        ),
        { numRuns: 60 },
      );
    });

    it('annotates with the value of a Subquery, null when it finds no row', async () => {
      const best = Comment.objects
        .filter({ article: OuterRef('pk') })
        .orderBy('-score', 'id')
        .slice(0, 1);
      const rows = await articles()
        .annotate({
          best: Subquery<number>(best, 'score'),
          author_name: Subquery<string>(
            User.objects.filter({ pk: OuterRef('author') }),
            'username',
          ),
        })
        .orderBy('title')
        .execute();
      assert.deepEqual(
        rows.map((r) => [r.title, r.best, r.author_name]),
        [
          ['a', 5, 'ann'],
          ['b', null, 'ann'],
          ['c', 1, 'bob'],
        ],
      );
      assert.deepEqual(
        titles(
          await articles()
            .annotate({ best: Subquery<number>(best, 'score') })
            .filter({ best__gte: 1 })
            .orderBy('-best')
            .execute(),
        ),
        ['a', 'c'],
      );
    });

    it("takes Django's spelling: OuterRef('id'), camelCase names, orderBy('-favoritesCount')", async () => {
      const Favorite = Article.manyToMany.favorited_by!.through;
      const bob = await User.objects.using(db).get({ username: 'bob' });
      const rows = await articles()
        .annotate({
          favorited: Exists(Favorite.objects.filter({ article: OuterRef('id'), user: bob.id })),
          favoritesCount: Count('favorited_by'),
        })
        .orderBy('-favoritesCount', 'title')
        .execute();
      assert.deepEqual(
        rows.map((r) => [r.title, r.favorited, r.favoritesCount]),
        [
          ['a', true, 2],
          ['c', false, 1],
          ['b', false, 0],
        ],
      );
    });

    it('sums and averages a DecimalField as text with its places, the same on every database', async () => {
      const comments = Comment.objects.using(db);
      const stats = await comments.aggregate({
        total: Sum<string | null>('amount'),
        mean: Avg<string | null>('amount'),
        low: Min<string>('amount'),
        high: Max<string>('amount'),
      });
      // 4.02 / 4 = 1.005: rounded half up, where SQLite's double alone would give 1.00.
      assert.deepEqual(stats, { total: '4.02', mean: '1.01', low: '0.01', high: '2.01' });
      const none = await comments
        .filter({ score: 99 })
        .aggregate({ total: Sum<string | null>('amount'), mean: Avg<string | null>('amount') });
      assert.deepEqual(none, { total: null, mean: null });
      const rows = await articles()
        .annotate({
          total: Sum<string | null>('comments__amount'),
          mean: Avg<string | null>('comments__amount'),
        })
        .orderBy('title')
        .execute();
      assert.deepEqual(
        rows.map((r) => [r.title, r.total, r.mean]),
        [
          ['a', '4.01', '1.34'],
          ['b', null, null],
          ['c', '0.01', '0.01'],
        ],
      );
      // Integers stay numbers.
      assert.deepEqual(await comments.aggregate({ s: Sum('score'), m: Avg('score') }), {
        s: 14,
        m: 3.5,
      });
    });

    it('runs Exists, Subquery and filtered counts over the table of the query around them', async () => {
      const users = User.objects.using(db);
      const rows = await users
        .annotate({
          earlier: Exists(User.objects.filter({ pk__lt: OuterRef('pk') })),
          previous: Subquery<string>(
            User.objects
              .filter({ pk__lt: OuterRef('pk') })
              .orderBy('-pk')
              .slice(0, 1),
            'username',
          ),
          followed_by_ann: Count('followers', { filter: Q({ followers__username: 'ann' }) }),
        })
        .orderBy('pk')
        .execute();
      // The users were created concurrently: their keys' order is the database's.
      assert.deepEqual(
        rows.map((r) => [r.username, r.earlier, r.previous]),
        rows.map((r, i) => [r.username, i > 0, rows[i - 1]?.username ?? null]),
      );
      assert.deepEqual(Object.fromEntries(rows.map((r) => [r.username, r.followed_by_ann])), {
        ann: 0,
        bob: 1,
        cyd: 1,
      });
      // An article of the same author with more views: the inner Article goes by an alias.
      const outdone = Exists(
        Article.objects.filter({ author: OuterRef('author'), views__gt: OuterRef('views') }),
      );
      assert.deepEqual(titles(await articles().filter(outdone).execute()), ['b']);
      // Two levels: users with an outdone article (Article inside Article inside User).
      const withOutdone = await users
        .filter(Exists(Article.objects.filter({ author: OuterRef('pk') }).filter(outdone)))
        .execute();
      assert.deepEqual(
        withOutdone.map((u) => u.username),
        ['ann'],
      );
    });

    it('names an unknown OuterRef when the query is built, saying what to write', async () => {
      const query = articles().annotate({
        mine: Exists(Comment.objects.filter({ article: OuterRef('artcle') })),
      });
      await assert.rejects(query.execute(), (error: unknown) => {
        assert.ok(error instanceof ImproperlyConfigured);
        assert.equal((error as { code?: string }).code, 'REST_ERR_QUERY_EXPRESSION');
        assert.match(
          String(error),
          /OuterRef\('artcle'\) names no field of Article.*has no field "artcle".*Name one of its fields/,
        );
        return true;
      });
    });

    it('counts without building or writing the annotations its filters do not name', async () => {
      let binds = 0;
      class CountedExists extends ExistsExpression {
        override bind(context: Parameters<ExistsExpression['bind']>[0]) {
          binds++;
          return super.bind(context);
        }
      }
      const annotated = articles().annotate({
        n: Count('favorited_by'),
        mine: new CountedExists(Comment.objects.filter({ article: OuterRef('pk') })),
      });
      const statements: string[] = [];
      const stop = db.onQuery((event) => statements.push(event.sql));
      assert.equal(await annotated.count(), 3);
      assert.equal(await annotated.filter({ n__gte: 1 }).count(), 2);
      assert.equal(await annotated.filter({ mine: true }).count(), 2);
      assert.equal(await annotated.exists(), true);
      stop();
      assert.equal(binds, 1, 'the EXISTS is built for the count that filters on it only');
      assert.doesNotMatch(statements[0] as string, /exists|ex_comment|ex_article_favorited_by/i);
      assert.match(statements[1] as string, /ex_article_favorited_by/);
      assert.doesNotMatch(statements[1] as string, /exists/i);
      assert.match(statements[2] as string, /exists/i);
      assert.doesNotMatch(statements[2] as string, /ex_article_favorited_by/);
      assert.doesNotMatch(statements[3] as string, /exists \(|ex_article_favorited_by/i);
      // Selecting the rows still builds every annotation.
      assert.equal((await annotated.execute()).length, 3);
      assert.equal(binds > 1, true);
      // An annotation across a many-valued relation keeps its join: a row per tag, as Django.
      const perTag = articles().annotate({ tag: F('tags__name') });
      assert.equal(await perTag.count(), (await perTag.execute()).length);
      assert.equal(await perTag.count(), 5);
    });

    it('refuses mistakes with ImproperlyConfigured REST_ERR_QUERY_EXPRESSION', async () => {
      const code = (error: unknown) =>
        error instanceof ImproperlyConfigured &&
        /REST_ERR_QUERY_EXPRESSION|REST_ERR_MODEL_PATH/.test(
          `${(error as { code?: string }).code}`,
        );
      assert.throws(() => articles().annotate({ title: Count('tags') }), code);
      assert.throws(() => articles().annotate({ tags: Count('tags') }), code);
      assert.throws(() => articles().annotate({ 'a b': Count('tags') }), code);
      await assert.rejects(
        articles()
          .annotate({ n: Count('views') })
          .execute(),
        code,
      );
      await assert.rejects(
        articles()
          .annotate({ n: Count('nope') })
          .execute(),
        code,
      );
      await assert.rejects(articles().aggregate({ n: Count('tags') }), code);
      await assert.rejects(
        articles()
          .filter({ views__gt: F('nope') })
          .execute(),
        code,
      );
      await assert.rejects(
        articles()
          // @ts-expect-error: a text match takes text, not an expression (a type error too)
          .filter({ title__icontains: F('title') })
          .execute(),
        code,
      );
      await assert.rejects(articles().update({ views: F('author__id') }), code);
      await assert.rejects(
        articles()
          .annotate({ n: Count('comments', { filter: Q({ score: 1 }) }) })
          .execute(),
        code,
      );
    });
  });
}
