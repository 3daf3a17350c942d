/**
 * Type tests of a reverse relation listed in a model serializer's `fields` (`articles` of a
 * `Tag`, named by `Article`'s many-to-many): the model's type cannot know the names other
 * models give their relations to it, so the declaration's types accept such a name when
 * `readOnlyFields` (or `extraKwargs`) lists it too; the start-up check asks the same
 * (`test/serializers/reverse-relation-fields.test.ts`). Type-checked by `npm run typecheck`,
 * never run.
 */
import {
  type CreateInput,
  defineModel,
  ModelSerializer,
  models,
  type PartialInput,
  type Representation,
} from '@restframework/core';
import type { Equal, Expect } from './serializer-types.typecheck.ts';

const Tag = defineModel({
  name: 'Tag',
  table: 'rtt_tag',
  fields: { name: models.CharField({ maxLength: 20 }) },
});

export const Article = defineModel({
  name: 'Article',
  table: 'rtt_article',
  fields: {
    title: models.CharField({ maxLength: 50 }),
    tags: models.ManyToManyField(Tag, { relatedName: 'articles' }),
  },
});

// Listed in readOnlyFields too: a read-only list of related keys (the related model's key type
// is not known from `Tag`).
export class TagSerializer extends ModelSerializer.with({
  model: Tag,
  fields: ['id', 'name', 'articles'],
  readOnlyFields: ['articles'],
}) {}

// Given extraKwargs with readOnly: false: a writable list.
export class WritableTagSerializer extends ModelSerializer.with({
  model: Tag,
  fields: ['id', 'name', 'articles'],
  extraKwargs: { articles: { readOnly: false } },
}) {}

export type ReverseTests = [
  Expect<Equal<Representation<TagSerializer>, { id: number; name: string; articles: unknown[] }>>,
  Expect<Equal<CreateInput<TagSerializer>, { name: string }>>,
  Expect<Equal<PartialInput<WritableTagSerializer>['articles'], unknown[] | undefined>>,
  Expect<
    Equal<Representation<WritableTagSerializer>, { id: number; name: string; articles: unknown[] }>
  >,
];

// @ts-expect-error: a read-only reverse relation is never sent.
export const sentArticles: CreateInput<TagSerializer>['articles'] = [1];

export const refused = [
  // @ts-expect-error: alone in `fields`, the name is unknown to the types (and to the start-up check).
  ModelSerializer.with({ model: Tag, fields: ['id', 'name', 'articles'] }),
  // @ts-expect-error: a name that is nothing is still refused.
  ModelSerializer.with({ model: Tag, fields: ['id', 'nmae'] }),
];
