/**
 * Relations of issue 39: many-to-many sets (automatic join table, an explicit through model,
 * 'self' symmetrical or not), one-to-ones and reverse accessors named by `relatedName`, the
 * same on every database; declaration mistakes fail with a message that says what to change.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  type AnyModel,
  type Database,
  DoesNotExist,
  defineModel,
  ImproperlyConfigured,
  ModelSerializer,
  models,
  type Row,
  UniqueConstraint,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';

const Person = defineModel({
  name: 'Person',
  table: 'rel_person',
  fields: {
    username: models.CharField({ maxLength: 30, unique: true }),
    follows: models.ManyToManyField('self', { symmetrical: false, relatedName: 'followers' }),
    friends: models.ManyToManyField('self'),
  },
});

const Profile = defineModel({
  name: 'Profile',
  table: 'rel_profile',
  fields: {
    person: models.OneToOneField(Person, { onDelete: 'CASCADE', relatedName: 'profile' }),
    bio: models.TextField({ blank: true }),
  },
});

const Tag = defineModel({
  name: 'Tag',
  table: 'rel_tag',
  fields: { name: models.CharField({ maxLength: 20, unique: true }) },
});

const Article = defineModel({
  name: 'Article',
  table: 'rel_article',
  fields: {
    title: models.CharField({ maxLength: 50 }),
    author: models.ForeignKey(Person, { onDelete: 'CASCADE', relatedName: 'articles' }),
    editor: models.ForeignKey(Person, { onDelete: 'SET_NULL', null: true, relatedName: 'edited' }),
    tags: models.ManyToManyField(Tag, { relatedName: 'articles' }),
    favorited_by: models.ManyToManyField(() => Person, {
      relatedName: 'favorites',
      // Annotated: the two models refer to each other, which TypeScript cannot infer.
      through: (): AnyModel => Favorite,
    }),
  },
});

const Favorite = defineModel({
  name: 'Favorite',
  table: 'rel_favorite',
  fields: {
    person: models.ForeignKey(Person, { onDelete: 'CASCADE', relatedName: '+' }),
    article: models.ForeignKey(Article, { onDelete: 'CASCADE', relatedName: '+' }),
    created: models.DateTimeField({ autoNowAdd: true }),
  },
  constraints: [UniqueConstraint({ fields: ['person', 'article'] })],
});

const ALL = [Person, Profile, Tag, Article, Favorite];

describe('relation declarations', () => {
  it('make a join table per automatic many-to-many, with a key to each side', () => {
    const tags = Article.manyToMany.tags!;
    assert.equal(tags.through.table, 'rel_article_tags');
    assert.deepEqual(
      tags.through.fieldList.map((f) => f.column),
      ['id', 'article_id', 'tag_id'],
    );
    assert.deepEqual(
      Person.manyToMany.follows!.through.fieldList.map((f) => f.column),
      ['id', 'from_person_id', 'to_person_id'],
    );
    assert.equal(Article.manyToMany.favorited_by!.through, Favorite);
    assert.equal(Person.manyToMany.friends!.symmetrical, true);
    assert.equal(Person.manyToMany.follows!.symmetrical, false);
  });

  it('keep many-to-manys out of rows and columns', () => {
    assert.equal(Article.getField('tags'), undefined);
    assert.deepEqual(
      Article.fieldList.map((f) => f.name),
      ['id', 'title', 'author', 'editor'],
    );
    const row: Row<typeof Article> = { id: 1, title: 't', author_id: 1, editor_id: null };
    const wrong: Row<typeof Article> = {
      id: 1,
      title: 't',
      author_id: 1,
      editor_id: null,
      // @ts-expect-error: a many-to-many is no key of a row.
      tags: [],
    };
    void [row, wrong];
  });

  it('register reverse names on the target', () => {
    for (const model of ALL) model.check();
    assert.deepEqual(
      Person.reverseRelations.list().map((r) => [r.name, r.kind, r.model.name]),
      [
        ['followers', 'many_to_many', 'Person'],
        ['profile', 'one_to_one', 'Profile'],
        ['articles', 'foreign_key', 'Article'],
        ['edited', 'foreign_key', 'Article'],
        ['favorites', 'many_to_many', 'Article'],
      ],
    );
    assert.equal(Tag.reverseRelations.get('articles').field, Article.manyToMany.tags);
  });

  it('find a reverse name whose relation gives its target as a function, before any check', () => {
    const Shelf = defineModel({
      name: 'Shelf',
      fields: { label: models.CharField({ maxLength: 5 }) },
    });
    const Volume = defineModel({
      name: 'Volume',
      fields: {
        shelf: models.ForeignKey(() => Shelf, { onDelete: 'CASCADE', relatedName: 'volumes' }),
      },
    });
    const set = Shelf.related(1, 'volumes');
    assert.equal(set.model, Volume);
    assert.equal(set.plan.kind, 'foreign_key');
  });

  const fails = (code: string, pattern: RegExp, make: () => unknown) =>
    assert.throws(
      () => {
        const model = make() as { check(): void; manyToMany: Record<string, { check(): void }> };
        model.check();
      },
      (error: unknown) =>
        error instanceof ImproperlyConfigured && error.code === code && pattern.test(error.message),
    );

  it('fail at start-up on an unknown target, naming the fix', () => {
    fails('REST_ERR_MODEL_RELATION', /relates to an unknown model.*defineModel/, () =>
      defineModel({
        name: 'Lost',
        fields: { things: models.ManyToManyField(() => undefined as never) },
      }),
    );
  });

  it('fail at start-up on a relatedName that clashes with a field or another relation', () => {
    const Target = defineModel({
      name: 'Target',
      fields: { label: models.CharField({ maxLength: 5 }) },
    });
    fails('REST_ERR_MODEL_RELATED_NAME', /relatedName "label" is already a field of Target/, () =>
      defineModel({
        name: 'Pointer',
        fields: {
          target: models.ForeignKey(Target, { onDelete: 'CASCADE', relatedName: 'label' }),
        },
      }),
    );
    defineModel({
      name: 'One',
      fields: { target: models.ForeignKey(Target, { onDelete: 'CASCADE', relatedName: 'ones' }) },
    });
    fails('REST_ERR_MODEL_RELATED_NAME', /also the reverse name of One\.target/, () =>
      defineModel({
        name: 'Two',
        fields: { targets: models.ManyToManyField(Target, { relatedName: 'ones' }) },
      }),
    );
  });

  it('a model serializer listing a many-to-many builds the related keys (issue 40)', () => {
    class ArticleSerializer extends ModelSerializer.with({
      model: Article,
      fields: ['id', 'title', 'tags'],
    }) {}
    const tags = ArticleSerializer.prepare().byName.get('tags');
    assert.equal(tags?.constructor.name, 'ManyRelatedField');
    assert.equal(tags?.readOnly, false);
  });

  it('fail at start-up on a through model without the two keys', () => {
    const Club = defineModel({
      name: 'Club',
      fields: { name: models.CharField({ maxLength: 5 }) },
    });
    const Loose = defineModel({
      name: 'Loose',
      fields: { club: models.ForeignKey(Club, { onDelete: 'CASCADE', relatedName: '+' }) },
    });
    fails('REST_ERR_MODEL_THROUGH', /needs exactly one foreign key to Member.*throughFields/, () =>
      defineModel({
        name: 'Member',
        fields: { clubs: models.ManyToManyField(Club, { through: Loose }) },
      }),
    );
    const Pair = defineModel({
      name: 'Pair',
      fields: {
        a: models.ForeignKey(() => Club, { onDelete: 'CASCADE', relatedName: '+' }),
        b: models.ForeignKey(() => Club, { onDelete: 'CASCADE', relatedName: '+' }),
      },
    });
    fails('REST_ERR_MODEL_THROUGH', /throughFields/, () =>
      defineModel({
        name: 'Clubby',
        fields: { twins: models.ManyToManyField('self', { through: Pair }) },
      }),
    );
  });
});

for (const dialect of testDialects()) {
  describe(`relations on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let ann: Row<typeof Person>;
    let bob: Row<typeof Person>;
    let cy: Row<typeof Person>;
    before(async () => {
      db = await dialect.create();
      await db.migrate(ALL);
    });
    after(() => dialect.drop(db));
    beforeEach(async () => {
      for (const model of [Favorite, Article.manyToMany.tags!.through, Article, Tag, Profile])
        await model.objects.using(db).delete();
      await Person.manyToMany.follows!.through.objects.using(db).delete();
      await Person.manyToMany.friends!.through.objects.using(db).delete();
      await Person.objects.using(db).delete();
      ann = await Person.objects.using(db).create({ username: 'ann' });
      bob = await Person.objects.using(db).create({ username: 'bob' });
      cy = await Person.objects.using(db).create({ username: 'cy' });
    });

    const names = (rows: readonly { username?: unknown; name?: unknown; title?: unknown }[]) =>
      rows.map((r) => r.username ?? r.name ?? r.title).sort();

    it('add, read, remove, set and clear a many-to-many set from both sides', async () => {
      const [web, py, js] = await Promise.all(
        ['web', 'py', 'js'].map((name) => Tag.objects.using(db).create({ name })),
      );
      const post = await Article.objects.using(db).create({ title: 'post', author: ann.id });
      const tags = Article.related(post, 'tags').using(db);
      await tags.add(web!, py!.id);
      await tags.add(web!); // already there: not twice
      assert.deepEqual(names(await tags.execute()), ['py', 'web']);
      assert.equal(await tags.count(), 2);
      assert.equal(await Article.manyToMany.tags!.through.objects.using(db).count(), 2);
      assert.deepEqual(names(await tags.filter({ name__startswith: 'w' }).execute()), ['web']);
      assert.deepEqual(names(await Tag.related(py!, 'articles').using(db).execute()), ['post']);
      await tags.remove(py!);
      assert.deepEqual(names(await tags.execute()), ['web']);
      await tags.set([js!, py!.id]);
      assert.deepEqual(names(await tags.execute()), ['js', 'py']);
      await Tag.related(web!, 'articles').using(db).add(post);
      assert.deepEqual(names(await tags.execute()), ['js', 'py', 'web']);
      await tags.clear();
      assert.equal(await tags.count(), 0);
    });

    it('follows one way, friends both ways', async () => {
      await Person.related(ann, 'follows').using(db).add(bob, cy);
      assert.deepEqual(names(await Person.related(ann, 'follows').using(db).execute()), [
        'bob',
        'cy',
      ]);
      assert.deepEqual(names(await Person.related(bob, 'followers').using(db).execute()), ['ann']);
      assert.equal(await Person.related(bob, 'follows').using(db).count(), 0);
      await Person.related(ann, 'friends').using(db).add(bob);
      assert.deepEqual(names(await Person.related(bob, 'friends').using(db).execute()), ['ann']);
      await Person.related(bob, 'friends').using(db).remove(ann);
      assert.equal(await Person.related(ann, 'friends').using(db).count(), 0);
    });

    it('an explicit through model: rows of its own, read through the relation', async () => {
      const post = await Article.objects.using(db).create({ title: 'post', author: ann.id });
      await Person.related(bob, 'favorites').using(db).add(post);
      await Article.related(post, 'favorited_by').using(db).add(cy);
      const favorites = await Favorite.objects.using(db).execute();
      assert.equal(favorites.length, 2);
      assert.ok(favorites.every((f) => typeof f.created === 'string'));
      assert.deepEqual(names(await Article.related(post, 'favorited_by').using(db).execute()), [
        'bob',
        'cy',
      ]);
    });

    it('reverse foreign keys and one-to-ones', async () => {
      const one = await Article.objects.using(db).create({ title: 'one', author: ann.id });
      await Article.objects.using(db).create({ title: 'two', author: bob.id });
      assert.deepEqual(names(await Person.related(ann, 'articles').using(db).execute()), ['one']);
      await Person.related(ann, 'articles')
        .using(db)
        .add((await Article.objects.using(db).get({ title: 'two' })) as Row<typeof Article>);
      assert.deepEqual(names(await Person.related(ann, 'articles').using(db).execute()), [
        'one',
        'two',
      ]);
      // A NOT NULL key cannot be taken away, only a nullable one.
      await assert.rejects(
        Person.related(ann, 'articles').using(db).remove(one),
        (error: unknown) =>
          error instanceof ImproperlyConfigured && /null: true/.test(error.message),
      );
      await Person.related(cy, 'edited').using(db).set([one]);
      assert.deepEqual(names(await Person.related(cy, 'edited').using(db).execute()), ['one']);
      await Person.related(cy, 'edited').using(db).clear();
      assert.equal((await Article.objects.using(db).get({ title: 'one' })).editor_id, null);

      await assert.rejects(Person.related(ann, 'profile').using(db).get(), DoesNotExist);
      await Profile.objects.using(db).create({ person: ann.id, bio: 'hi' });
      assert.equal((await Person.related(ann, 'profile').using(db).get()).bio, 'hi');
    });

    it('deleting a row deletes its join rows', async () => {
      const tag = await Tag.objects.using(db).create({ name: 'gone' });
      const post = await Article.objects.using(db).create({ title: 'p', author: ann.id });
      await Article.related(post, 'tags').using(db).add(tag);
      await Tag.objects.using(db).filter({ id: tag.id }).delete();
      assert.equal(await Article.related(post, 'tags').using(db).count(), 0);
    });
  });
}
