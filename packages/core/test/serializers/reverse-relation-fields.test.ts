/**
 * A reverse relation listed in a model serializer's `fields` (`articles` of a `Tag`, named by
 * `Article`'s many-to-many): the start-up check asks what the types ask
 * (`test/types/reverse-relation-types.typecheck.ts`): `readOnlyFields` (or `extraKwargs`)
 * lists it too, or a declared field reads it. Alone, it is `REST_ERR_SERIALIZER_FIELD`, with
 * a message saying what to write.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Database,
  defineModel,
  ModelSerializer,
  models,
  PrimaryKeyRelatedField,
} from '@restframework/core';
import { assertImproperlyConfigured } from '@restframework/core/testing';

const Tag = defineModel({
  name: 'Tag',
  table: 'rrf_tag',
  fields: { name: models.CharField({ maxLength: 20 }) },
});

const Article = defineModel({
  name: 'Article',
  table: 'rrf_article',
  fields: {
    title: models.CharField({ maxLength: 50 }),
    tags: models.ManyToManyField(Tag, { relatedName: 'articles', blank: true }),
  },
});

describe('a reverse relation listed in fields', () => {
  let db: Database;
  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate([Tag, Article]);
  });
  after(async () => {
    await db?.close();
  });

  const accepted = {
    'with readOnlyFields': ModelSerializer.with({
      model: Tag,
      fields: ['id', 'name', 'articles'],
      readOnlyFields: ['articles'],
    }),
    'with extraKwargs': ModelSerializer.with({
      model: Tag,
      fields: ['id', 'name', 'articles'],
      extraKwargs: { articles: { readOnly: true } },
    }),
    'with a declared field': ModelSerializer.with({
      model: Tag,
      fields: ['id', 'name', 'articles'],
      declaredFields: { articles: PrimaryKeyRelatedField.many({ readOnly: true }) },
    }),
  };
  for (const [name, TagSerializer] of Object.entries(accepted)) {
    it(`reads the related keys ${name}`, async () => {
      await db.run(async () => {
        const tag = await Tag.objects.create({ name: name.slice(0, 20) });
        const one = await Article.objects.create({ title: 'one' });
        const two = await Article.objects.create({ title: 'two' });
        await Article.related(one, 'tags').add(tag);
        await Article.related(two, 'tags').add(tag);
        const row = await Tag.objects.prefetchRelated('articles').get({ pk: tag.id });
        const data = new TagSerializer({ instance: row }).data as { articles: number[] };
        assert.deepEqual([...data.articles].sort(), [one.id, two.id].sort());
      });
    });
  }

  it('refuses it alone at start-up, saying what to write', () => {
    const Alone = ModelSerializer.with({
      model: Tag,
      // The types refuse it too (see the type test); the cast shows the start-up check.
      fields: ['id', 'name', 'articles'] as unknown as ['id', 'name'],
    });
    assertImproperlyConfigured(
      () => Alone.prepare(),
      'REST_ERR_SERIALIZER_FIELD',
      /'articles' is a reverse relation of Tag/,
      /readOnlyFields: \['articles'\]/,
    );
  });
});
