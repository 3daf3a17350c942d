/**
 * Double-underscore paths across every kind of relation (issue 39): forward and reverse
 * foreign keys, one-to-ones both ways, many-to-manys both ways (automatic, through a model of
 * one's own, to 'self'), in filter, exclude, filterAny and orderBy; the same rows on every
 * database, with Django's semantics: one filter() call describes one related row, chained
 * calls each their own, exclude() drops rows with any matching related row.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Database, ImproperlyConfigured, type Row } from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import {
  Article,
  Comment,
  Person,
  Profile,
  SOCIAL_MODELS,
  Tag,
} from '../fixtures/social-models.ts';

const titles = (rows: readonly { title: string }[]) => rows.map((r) => r.title).sort();
const usernames = (rows: readonly { username: string }[]) => rows.map((r) => r.username).sort();

for (const dialect of testDialects()) {
  describe(`relation paths on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let ann: Row<typeof Person>;
    let bob: Row<typeof Person>;
    let cy: Row<typeof Person>;
    let py: Row<typeof Tag>;
    let web: Row<typeof Tag>;
    const articles = () => Article.objects.using(db);
    const people = () => Person.objects.using(db);

    before(async () => {
      db = await dialect.create();
      await db.migrate(SOCIAL_MODELS);
      ann = await people().create({ username: 'ann' });
      bob = await people().create({ username: 'bob' });
      cy = await people().create({ username: 'cy' });
      await Profile.objects.using(db).create({ person: bob.id, bio: 'hi' });
      await Person.related(ann, 'follows').using(db).add(bob, cy);
      await Person.related(bob, 'follows').using(db).add(cy);
      py = await Tag.objects.using(db).create({ name: 'py' });
      web = await Tag.objects.using(db).create({ name: 'web' });
      await Tag.objects.using(db).create({ name: 'js' });
      const a1 = await articles().create({ title: 'a1', author: ann.id });
      const a2 = await articles().create({ title: 'a2', author: bob.id });
      await articles().create({ title: 'a3', author: cy.id });
      await Article.related(a1, 'tags').using(db).add(py, web);
      await Article.related(a2, 'tags').using(db).add(py);
      await Article.related(a1, 'favorited_by').using(db).add(bob, cy);
      await Article.related(a2, 'favorited_by').using(db).add(ann);
      const comments = Comment.objects.using(db);
      await comments.create({ article: a1.id, author: bob.id, body: 'nice' });
      await comments.create({ article: a1.id, author: cy.id, body: 'meh' });
      await comments.create({ article: a2.id, author: ann.id, body: 'ok' });
    });
    after(() => dialect.drop(db));

    it('follows a many-to-many both ways, each row once', async () => {
      assert.deepEqual(titles(await articles().filter({ tags__name: 'py' }).execute()), [
        'a1',
        'a2',
      ]);
      // a1 has both tags: still one row, where Django's join would repeat it.
      assert.deepEqual(
        titles(
          await articles()
            .filter({ tags__name__in: ['py', 'web'] })
            .execute(),
        ),
        ['a1', 'a2'],
      );
      assert.equal(
        await articles()
          .filter({ tags__name__in: ['py', 'web'] })
          .count(),
        2,
      );
      assert.deepEqual(titles(await articles().filter({ tags: web.id }).execute()), ['a1']);
      assert.deepEqual(
        titles(
          await articles()
            .filter({ tags__in: [py.id] })
            .execute(),
        ),
        ['a1', 'a2'],
      );
      const tags = await Tag.objects.using(db).filter({ articles__title: 'a1' }).execute();
      assert.deepEqual(tags.map((t) => t.name).sort(), ['py', 'web']);
    });

    it('follows a many-to-many through a model of its own, and to self', async () => {
      assert.deepEqual(
        titles(await articles().filter({ favorited_by__username: 'cy' }).execute()),
        ['a1'],
      );
      assert.deepEqual(usernames(await people().filter({ favorites__title: 'a2' }).execute()), [
        'ann',
      ]);
      assert.deepEqual(usernames(await people().filter({ follows__username: 'cy' }).execute()), [
        'ann',
        'bob',
      ]);
      assert.deepEqual(usernames(await people().filter({ followers__isnull: true }).execute()), [
        'ann',
      ]);
      // Single-valued, then multi-valued: articles whose author ann follows.
      assert.deepEqual(
        titles(await articles().filter({ author__followers__username: 'ann' }).execute()),
        ['a2', 'a3'],
      );
      assert.deepEqual(
        titles(await articles().filter({ author__followers__id: bob.id }).execute()),
        ['a3'],
      );
    });

    it('follows reverse foreign keys and one-to-ones both ways', async () => {
      assert.deepEqual(usernames(await people().filter({ articles__title: 'a2' }).execute()), [
        'bob',
      ]);
      assert.deepEqual(
        titles(await articles().filter({ comments__author__username: 'ann' }).execute()),
        ['a2'],
      );
      assert.deepEqual(usernames(await people().filter({ articles__isnull: false }).execute()), [
        'ann',
        'bob',
        'cy',
      ]);
      // Each of them wrote a comment; only bob wrote 'nice'.
      assert.deepEqual(usernames(await people().filter({ comments__isnull: true }).execute()), []);
      assert.deepEqual(usernames(await people().filter({ comments__body: 'nice' }).execute()), [
        'bob',
      ]);
      assert.deepEqual(usernames(await people().filter({ profile__bio: 'hi' }).execute()), ['bob']);
      assert.deepEqual(usernames(await people().filter({ profile__isnull: true }).execute()), [
        'ann',
        'cy',
      ]);
      const profiles = await Profile.objects
        .using(db)
        .filter({ person__username: 'bob' })
        .execute();
      assert.equal(profiles.length, 1);
      // Across three relations: people whose articles have a comment by cy.
      assert.deepEqual(
        usernames(await people().filter({ articles__comments__author__username: 'cy' }).execute()),
        ['ann'],
      );
    });

    it('one filter() describes one related row; chained calls one each', async () => {
      const same = articles().filter({ comments__author__username: 'bob', comments__body: 'meh' });
      assert.deepEqual(titles(await same.execute()), []);
      const chained = articles()
        .filter({ comments__author__username: 'bob' })
        .filter({ comments__body: 'meh' });
      assert.deepEqual(titles(await chained.execute()), ['a1']);
      assert.deepEqual(
        titles(await articles().filter({ tags__isnull: true, tags__name: 'py' }).execute()),
        [],
      );
    });

    it('exclude() drops the rows with any matching related row', async () => {
      assert.deepEqual(titles(await articles().exclude({ tags__name: 'py' }).execute()), ['a3']);
      assert.deepEqual(titles(await articles().exclude({ tags__name: 'web' }).execute()), [
        'a2',
        'a3',
      ]);
      assert.deepEqual(titles(await articles().exclude({ tags__isnull: true }).execute()), [
        'a1',
        'a2',
      ]);
      assert.deepEqual(usernames(await people().exclude({ profile__bio: 'hi' }).execute()), []);
      assert.deepEqual(
        titles(await articles().exclude({ favorited_by__username: 'bob' }).execute()),
        ['a2', 'a3'],
      );
    });

    it('filterAny() alternatives across relations', async () => {
      const any = articles().filterAny([{ tags__name: 'web' }, { favorited_by__username: 'ann' }]);
      assert.deepEqual(titles(await any.execute()), ['a1', 'a2']);
    });

    it('orders across a many-to-many as Django does: a row per related row', async () => {
      const rows = await articles()
        .filter({ tags__isnull: false })
        .orderBy('tags__name', 'title')
        .execute();
      assert.deepEqual(
        rows.map((r) => r.title),
        ['a1', 'a2', 'a1'],
      );
      const byBio = await people()
        .filter({ profile__isnull: false })
        .orderBy('-profile__bio')
        .execute();
      assert.deepEqual(usernames(byBio), ['bob']);
    });

    it('distinct() with ordering, count() and slicing', async () => {
      // Rows repeated by a custom condition's join through a many-to-many: distinct() folds them.
      const joined = articles().where((eb, ref) => eb(ref('tags__name'), 'is not', null));
      assert.equal((await joined.execute()).length, 3);
      const distinct = joined.distinct();
      assert.equal(distinct.isDistinct, true);
      assert.deepEqual(titles(await distinct.execute()), ['a1', 'a2']);
      assert.equal(await distinct.count(), 2);
      assert.equal(await joined.count(), 3);
      // Ordered by a column of a joined row the select list lacks (PostgreSQL and MySQL want it there).
      const byAuthor = await distinct.orderBy('-author__username').execute();
      assert.deepEqual(
        byAuthor.map((r) => r.title),
        ['a2', 'a1'],
      );
      assert.deepEqual(Object.keys(byAuthor[0] as object).sort(), ['author_id', 'id', 'title']);
      const page = await distinct.orderBy('title').slice(1, 2).execute();
      assert.deepEqual(
        page.map((r) => r.title),
        ['a2'],
      );
      assert.equal(await distinct.orderBy('title').slice(1, 5).count(), 1);
      assert.equal(await distinct.exists(), true);
      // As Django: an ordering across a many-to-many is part of each row compared.
      const byTag = await articles()
        .distinct()
        .filter({ tags__isnull: false })
        .orderBy('tags__name', 'title')
        .execute();
      assert.deepEqual(
        byTag.map((r) => r.title),
        ['a1', 'a2', 'a1'],
      );
      const related = await articles()
        .selectRelated('author')
        .distinct()
        .orderBy('author__username')
        .execute();
      assert.deepEqual(
        related.map((r) => (r as unknown as { author: { username: string } }).author.username),
        ['ann', 'bob', 'cy'],
      );
    });

    it('writes and lookups through multi-valued paths', async () => {
      assert.equal(await articles().exists({ tags__name: 'web' }), true);
      const found = await articles().get({ favorited_by__username: 'ann' });
      assert.equal(found.title, 'a2');
      const tags = Tag.objects.using(db);
      assert.equal(await tags.filter({ articles__isnull: true }).delete(), 1); // js
      assert.equal(await tags.count(), 2);
    });

    it('an unknown path or a multi-valued selectRelated fails naming the fix', async () => {
      const fails = (run: () => unknown, pattern: RegExp) =>
        assert.throws(
          run,
          (error) =>
            error instanceof ImproperlyConfigured &&
            error.code === 'REST_ERR_MODEL_PATH' &&
            pattern.test(error.message),
        );
      // @ts-expect-error: Tag has no field nope (a type error too)
      fails(() => articles().filter({ tags__nope: 1 }).compile(), /nope/);
      // @ts-expect-error: Article has no relation nope (a type error too)
      fails(() => articles().filter({ nope__name: 1 }).compile(), /nope/);
      fails(() => articles().orderBy('favorited_by__nope').compile(), /nope/);
      fails(() => articles().selectRelated('tags').compile(), /prefetchRelated\("tags"\)/);
    });
  });
}
