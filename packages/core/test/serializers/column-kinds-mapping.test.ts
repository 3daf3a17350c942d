/** A model serializer maps the column kinds of issue 39 to their serializer fields. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DurationField,
  defineModel,
  FloatField,
  IntegerField,
  JSONField,
  ModelSerializer,
  models,
  SlugField,
  TimeField,
  UUIDField,
} from '@restframework/core';

const Event = defineModel({
  name: 'Event',
  table: 'mapping_event',
  fields: {
    slug: models.SlugField(),
    score: models.FloatField(),
    seats: models.SmallIntegerField(),
    rank: models.PositiveSmallIntegerField({ default: 1 }),
    starts: models.TimeField(),
    length: models.DurationField(),
    ref: models.UUIDField(),
    extra: models.JSONField({ null: true }),
  },
});

class EventSerializer extends ModelSerializer.with({
  model: Event,
  fields: ['slug', 'score', 'seats', 'rank', 'starts', 'length', 'ref', 'extra'],
}) {}

describe('the serializer fields of the new column kinds', () => {
  it('picks a field class per kind, with the column range for small integers', () => {
    const fields = Object.fromEntries(new EventSerializer().fields);
    assert.ok(fields.slug instanceof SlugField);
    assert.equal((fields.slug as SlugField).maxLength, 50);
    assert.ok(fields.score instanceof FloatField);
    assert.ok(fields.seats instanceof IntegerField);
    assert.equal((fields.seats as IntegerField).minValue, -32768);
    assert.equal((fields.rank as IntegerField).minValue, 0);
    assert.equal((fields.rank as IntegerField).maxValue, 32767);
    assert.ok(fields.starts instanceof TimeField);
    assert.ok(fields.length instanceof DurationField);
    assert.ok(fields.ref instanceof UUIDField);
    assert.ok(fields.extra instanceof JSONField);
    assert.equal(fields.extra?.required, false);
  });

  it('validates input into row values and shows rows as DRF does', async () => {
    const data = {
      slug: 'opening-night',
      score: '4.5',
      seats: 120,
      starts: '19:30',
      length: '02:15:00',
      ref: '6F1C7C6E4B2E4C5A9D3E1A2B3C4D5E6F',
      extra: { tags: ['jazz'] },
    };
    const serializer = new EventSerializer({ data });
    assert.equal(await serializer.isValid(), true, JSON.stringify(serializer.errors));
    assert.deepEqual(serializer.validatedData, {
      slug: 'opening-night',
      score: 4.5,
      seats: 120,
      starts: '19:30:00',
      length: 8_100_000_000,
      ref: '6f1c7c6e-4b2e-4c5a-9d3e-1a2b3c4d5e6f',
      extra: { tags: ['jazz'] },
    });
    const shown = new EventSerializer({
      instance: { ...serializer.validatedData, rank: 1, id: 1 },
    }).data;
    assert.deepEqual(shown, {
      slug: 'opening-night',
      score: 4.5,
      seats: 120,
      rank: 1,
      starts: '19:30:00',
      length: '02:15:00',
      ref: '6f1c7c6e-4b2e-4c5a-9d3e-1a2b3c4d5e6f',
      extra: { tags: ['jazz'] },
    });
  });

  it('answers each wrong value with its message', async () => {
    const serializer = new EventSerializer({
      data: {
        slug: 'no spaces',
        score: 'high',
        seats: 40000,
        rank: -1,
        starts: '7pm',
        length: 'long',
        ref: 'nope',
        extra: Number.NaN,
      },
    });
    assert.equal(await serializer.isValid(), false);
    assert.deepEqual(serializer.errors, {
      slug: ['Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'],
      score: ['A valid number is required.'],
      seats: ['Ensure this value is less than or equal to 32767.'],
      rank: ['Ensure this value is greater than or equal to 0.'],
      starts: ['Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]].'],
      length: [
        'Duration has wrong format. Use one of these formats instead: [DD] [HH:[MM:]]ss[.uuuuuu].',
      ],
      ref: ['Must be a valid UUID.'],
      extra: ['Value must be valid JSON.'],
    });
  });
});
