/**
 * Type tests of the row types of issue 39's column kinds and relations. Type-checked by
 * `npm run typecheck`, never run.
 */
import {
  type AnyModel,
  defineModel,
  type JsonValue,
  ModelSerializer,
  models,
  type PrimaryKey,
  type RelatedSet,
  type Representation,
  type Row,
  UniqueConstraint,
} from '@restframework/core';
import type { Equal, Expect } from './serializer-types.typecheck.ts';

const Tag = defineModel({
  name: 'Tag',
  fields: {
    id: models.UUIDField({ primaryKey: true, default: () => crypto.randomUUID() }),
    slug: models.SlugField(),
  },
});

const Event = defineModel({
  name: 'Event',
  fields: {
    score: models.FloatField(),
    seats: models.SmallIntegerField(),
    rank: models.PositiveSmallIntegerField({ null: true }),
    starts: models.TimeField(),
    length: models.DurationField(),
    token: models.UUIDField({ null: true }),
    extra: models.JSONField({ null: true }),
    data: models.JSONField(),
    tag: models.ForeignKey(Tag, { onDelete: 'CASCADE' }),
    tags: models.ManyToManyField(Tag, { relatedName: 'events' }),
    follows: models.ManyToManyField('self', { symmetrical: false }),
  },
  constraints: [UniqueConstraint({ fields: ['seats', 'starts'] })],
});

export type EventRow = Expect<
  Equal<
    Row<typeof Event>,
    { id: number } & {
      score: number;
      seats: number;
      rank: number | null;
      starts: string;
      length: number;
      token: string | null;
      extra: JsonValue | null;
      data: JsonValue;
      tag_id: string;
    }
  >
>;
export type TagKey = Expect<Equal<PrimaryKey<typeof Tag>, string>>;

declare const event: Row<typeof Event>;
export const tags: RelatedSet<typeof Tag> = Event.related(event, 'tags');
export const follows = Event.related(event, 'follows');
// A many-to-many to 'self' holds rows of the model itself.
export type FollowsSet = Expect<Equal<typeof follows, RelatedSet<typeof Event>>>;
// A reverse name of a model left out of the ModelRegistry is known at run time only: a set
// of any model.
export const events: RelatedSet<AnyModel> = Tag.related(
  '6f1c7c6e-4b2e-4c5a-9d3e-1a2b3c4d5e6f',
  'events',
);

defineModel({
  name: 'Bad',
  fields: { a: models.IntegerField() },
  // @ts-expect-error: a unique constraint names fields of the model.
  constraints: [UniqueConstraint({ fields: ['a', 'b'] })],
});

class EventSerializer extends ModelSerializer.with({
  model: Event,
  fields: ['id', 'score', 'starts', 'length', 'extra'],
}) {}
export type EventRepresentation = Expect<
  Equal<
    Representation<EventSerializer>,
    { id: number; score: number; starts: string; length: string; extra: JsonValue | null }
  >
>;
