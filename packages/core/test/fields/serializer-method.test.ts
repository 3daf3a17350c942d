import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CharField, type RunContext, Serializer, SerializerMethodField } from '@restframework/core';
import { assertImproperlyConfigured } from '@restframework/core/testing';

interface Article {
  title: string;
  favoritedBy: string[];
}

class ArticleSerializer extends Serializer.with({
  fields: {
    title: new CharField(),
    favorited: new SerializerMethodField(),
    favorites_count: new SerializerMethodField(),
    shout: new SerializerMethodField({ methodName: 'loud', label: 'Loud title' }),
  },
}) {
  getFavorited(row: Article, ctx: RunContext): boolean {
    return row.favoritedBy.includes(String(ctx.context.user));
  }
  // DRF's spelling is found too.
  get_favorites_count(row: Article): number {
    return row.favoritedBy.length;
  }
  loud(this: ArticleSerializer, row: Article): string | undefined {
    assert.ok(this instanceof ArticleSerializer, 'this is the serializer that renders');
    return row.title === '' ? undefined : row.title.toUpperCase();
  }
}

const dune: Article = { title: 'Dune', favoritedBy: ['ann', 'bob'] };

describe('SerializerMethodField', () => {
  it("renders its method's result for the row, with the run's context", () => {
    const data = new ArticleSerializer({ instance: dune, context: { user: 'ann' } }).data;
    assert.deepEqual(data, { title: 'Dune', favorited: true, favorites_count: 2, shout: 'DUNE' });
    const other = new ArticleSerializer({ instance: dune, context: { user: 'cid' } }).data;
    assert.equal((other as { favorited: boolean }).favorited, false);
  });

  it('renders null for a method that returns nothing', () => {
    const data = new ArticleSerializer({ instance: { title: '', favoritedBy: [] } }).data;
    assert.equal((data as { shout: unknown }).shout, null);
  });

  it("calls a nested serializer's own method, with the root's context, in a list too", () => {
    const Shelf = Serializer.with({
      fields: {
        top: new ArticleSerializer({ readOnly: true }),
        all: ArticleSerializer.many({ readOnly: true }),
      },
    });
    const data = new Shelf({ instance: { top: dune, all: [dune, dune] }, context: { user: 'bob' } })
      .data as { top: { favorited: boolean }; all: { favorites_count: number }[] };
    assert.equal(data.top.favorited, true);
    assert.deepEqual(
      data.all.map((a) => a.favorites_count),
      [2, 2],
    );
  });

  it('is read-only: what a client sends for it is ignored', async () => {
    const serializer = new ArticleSerializer({ data: { title: 'X', favorited: 'yes', shout: 1 } });
    assert.equal(await serializer.isValid(), true);
    assert.deepEqual(serializer.validatedData, { title: 'X' });
  });

  it('is described as read-only in OPTIONS and OpenAPI', () => {
    const fields = new ArticleSerializer().describeFields();
    assert.deepEqual(fields.shout, {
      type: 'field',
      required: false,
      read_only: true,
      label: 'Loud title',
    });
    assert.deepEqual(new ArticleSerializer().fields.get('favorited')?.jsonSchema(), {
      readOnly: true,
    });
  });

  it('fails at start-up when the serializer has no such method', () => {
    const Missing = class MissingSerializer extends Serializer.with({
      fields: { favorited: new SerializerMethodField() },
    }) {};
    assertImproperlyConfigured(
      () => Missing.prepare(),
      'REST_ERR_FIELD_OPTIONS',
      /MissingSerializer\.favorited: SerializerMethodField calls MissingSerializer\.getFavorited\(row, ctx\)/,
    );
    const Named = class NamedSerializer extends Serializer.with({
      fields: { favorited: new SerializerMethodField({ methodName: 'isFavorite' }) },
    }) {};
    assertImproperlyConfigured(() => Named.prepare(), 'REST_ERR_FIELD_OPTIONS', /isFavorite/);
  });

  it('fails at start-up on an option that does not apply', () => {
    for (const option of ['source', 'readOnly', 'writeOnly', 'required', 'default', 'allowNull']) {
      assertImproperlyConfigured(
        () => new SerializerMethodField({ [option]: true } as never),
        'REST_ERR_FIELD_OPTIONS',
        new RegExp(`the option '${option}' does not apply`),
      );
    }
  });
});
