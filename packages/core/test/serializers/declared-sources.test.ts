/**
 * Declared fields that are no columns, as DRF allows them: a read-only field reads any
 * attribute of the row (an annotation, an attribute a developer set, a method's result), a
 * write-only field need not be a column (its value reaches the validated data and the
 * serializer's create()/update() decide). Runs on every test dialect.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  CharField,
  Database,
  IntegerField,
  ModelSerializer,
  ReadOnlyField,
  type RunContext,
} from '@restframework/core';
import { assertImproperlyConfigured, testDialects } from '@restframework/core/testing';
import { ALL_MODELS, Book, Profile } from '../fixtures/library-models.ts';

const ctx: RunContext = { partial: false, context: {}, instance: undefined };

describe('declared fields that are no columns', () => {
  class CountedSerializer extends ModelSerializer.with({
    model: Book,
    fields: ['id', 'title', 'favorites_count', 'shout'],
    declaredFields: {
      favorites_count: new ReadOnlyField<number>(),
      shout: new CharField({ readOnly: true, source: 'loud_title' }),
    },
  }) {}

  it('reads a read-only field from an attribute the model does not declare (an annotation)', () => {
    const row = { id: 1, title: 'Dune', favorites_count: 3, loud_title: 'DUNE' };
    assert.deepEqual(new CountedSerializer({ instance: row }).data, {
      id: 1,
      title: 'Dune',
      favorites_count: 3,
      shout: 'DUNE',
    });
  });

  it('calls a method found there, on the row', () => {
    const row = {
      id: 1,
      title: 'Dune',
      favorites_count: 0,
      loud_title(this: { title: string }) {
        return this.title.toUpperCase();
      },
    };
    assert.equal(
      (new CountedSerializer({ instance: row }).toRepresentation(row, ctx) as { shout: unknown })
        .shout,
      'DUNE',
    );
  });

  it('renders null for an annotation that is null', () => {
    const row = { id: 1, title: 'Dune', favorites_count: null, loud_title: null };
    const data = new CountedSerializer({ instance: row }).data as Record<string, unknown>;
    assert.equal(data.favorites_count, null);
    assert.equal(data.shout, null);
  });

  it('fails when rendering a row that has no such attribute, naming the source', () => {
    const row = { id: 1, title: 'Dune', loud_title: 'DUNE' };
    assertImproperlyConfigured(
      () => new CountedSerializer({ instance: row }).data,
      'REST_ERR_FIELD_SOURCE',
      /CountedSerializer\.favorites_count: the source "favorites_count" does not resolve.*annotate/s,
    );
  });

  it('still fails at start-up on a read-only source past a relation that the related model lacks', () => {
    class Bad extends ModelSerializer.with({
      model: Profile,
      fields: ['id', 'name'],
      declaredFields: { name: new ReadOnlyField({ source: 'user.nam' }) },
    }) {}
    assertImproperlyConfigured(() => Bad.prepare(), 'REST_ERR_FIELD_SOURCE', /"nam"/);
  });

  it('still fails at start-up on a writable, readable field that is no column', () => {
    class Bad extends ModelSerializer.with({
      model: Book,
      fields: ['id', 'tagline'],
      declaredFields: { tagline: new CharField() },
    }) {}
    assertImproperlyConfigured(() => Bad.prepare(), 'REST_ERR_FIELD_SOURCE', /"tagline"/);
  });

  it('puts a write-only field that is no column in the validated data, and never reads it', async () => {
    class TaggedSerializer extends ModelSerializer.with({
      model: Book,
      fields: ['id', 'title', 'tagList'],
      declaredFields: { tagList: new CharField({ writeOnly: true, source: 'tag_list' }) },
    }) {}
    assert.doesNotThrow(() => TaggedSerializer.prepare());
    const serializer = new TaggedSerializer({ data: { title: 'Dune', tagList: 'sf' } });
    assert.equal(await serializer.isValid(), true);
    assert.deepEqual(serializer.validatedData, { title: 'Dune', tag_list: 'sf' });
    assert.deepEqual(new TaggedSerializer({ instance: { id: 1, title: 'Dune' } }).data, {
      id: 1,
      title: 'Dune',
    });
  });
});

for (const dialect of testDialects()) {
  describe(`write-only fields that are no columns on ${dialect.name}`, {
    skip: dialect.skip,
  }, () => {
    let db: Database;
    before(async () => {
      db = await dialect.create();
      await db.migrate(ALL_MODELS);
      Database.setDefault(db);
    });
    after(async () => {
      Database.setDefault(undefined);
      await dialect.drop(db);
    });
    beforeEach(async () => {
      await Book.objects.delete();
    });

    const declaration = {
      model: Book,
      fields: ['id', 'title', 'isbn', 'price', 'copies'],
      declaredFields: { copies: new IntegerField({ writeOnly: true, minValue: 1 }) },
    } as const;

    it("fails clearly when ModelSerializer's create() is left to save it", async () => {
      class Plain extends ModelSerializer.with(declaration) {}
      const serializer = new Plain({
        data: { title: 'Dune', isbn: '1', price: '9.99', copies: 2 },
      });
      assert.equal(await serializer.isValid(), true);
      await assert.rejects(
        () => serializer.save(),
        (error: Error & { code?: string }) =>
          error.code === 'REST_ERR_FIELD_NOT_COLUMN' &&
          /Plain\.create\(\): the validated data holds 'copies' \(from the field 'copies'\)/.test(
            error.message,
          ),
      );
      assert.equal(await Book.objects.count(), 0);
    });

    it("reaches the developer's create() and update(), which decide", async () => {
      const seen: unknown[] = [];
      class Copying extends ModelSerializer.with(declaration) {
        override async create(validated: any) {
          const { copies, ...rest } = validated;
          seen.push(copies);
          return super.create(rest);
        }
        override async update(instance: unknown, validated: any) {
          const { copies, ...rest } = validated;
          seen.push(copies);
          return super.update(instance, rest);
        }
      }
      const created = new Copying({ data: { title: 'Dune', isbn: '1', price: '9.99', copies: 2 } });
      assert.equal(await created.isValid(), true);
      await created.save();
      assert.deepEqual(created.data, {
        id: (created.instance as { id: number }).id,
        title: 'Dune',
        isbn: '1',
        price: '9.99',
      });
      const updated = new Copying({
        instance: created.instance,
        data: { copies: 5, title: 'Dune II' },
        partial: true,
      });
      assert.equal(await updated.isValid(), true);
      await updated.save();
      assert.deepEqual(seen, [2, 5]);
      assert.equal((await Book.objects.get({ isbn: '1' })).title, 'Dune II');
      const refused = new Copying({ data: { title: 'X', isbn: '2', price: '1', copies: 0 } });
      assert.equal(await refused.isValid(), false);
      assert.deepEqual(refused.errors, {
        copies: ['Ensure this value is greater than or equal to 1.'],
      });
    });
  });
}
