/**
 * Every write request runs in one transaction: a create, update or delete that fails half-way
 * leaves nothing behind, whatever the error, and a unique violation is a 400 at the field that
 * carried the value (also when the database, not the validator, finds it).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Database, type Row, type Serializer, ValidationError } from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp, json, request } from '../fixtures/http-app.ts';
import { Book, Category, STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet, GOLDEN_BOOK, goldenBook, seedBooks } from '../fixtures/store-views.ts';

/** Saves the book, then fails with a programming error: 500, and the row must not stay. */
class CrashAfterCreateViewSet extends BookViewSet {
  override async performCreate(serializer: Serializer<any, any>): Promise<void> {
    await serializer.save();
    throw new Error('crashed after the INSERT');
  }
}

/** Writes two rows, then refuses: 400, and neither row may stay. */
class RefuseAfterCreateViewSet extends BookViewSet {
  override async performCreate(serializer: Serializer<any, any>): Promise<void> {
    await Category.objects.create({ name: 'side effect' });
    await serializer.save();
    throw new ValidationError({ title: ['Refused after saving.'] });
  }
}

class CrashAfterUpdateViewSet extends BookViewSet {
  override async performUpdate(serializer: Serializer<any, any>): Promise<void> {
    await serializer.save();
    throw new Error('crashed after the UPDATE');
  }
}

class CrashAfterDestroyViewSet extends BookViewSet {
  override async performDestroy(instance: Record<string, unknown>): Promise<void> {
    await super.performDestroy(instance);
    throw new Error('crashed after the DELETE');
  }
}

for (const dialect of testDialects()) {
  describe(`transactions on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;
    let seeded: Row<typeof Book>[];
    const books = () => Book.objects.using(db);

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      seeded = await seedBooks(db, 2);
      app = await buildApp({
        database: db,
        prefix: '/api',
        viewsets: [
          ['books', BookViewSet],
          ['crash-create', CrashAfterCreateViewSet, { basename: 'crash-create' }],
          ['refuse-create', RefuseAfterCreateViewSet, { basename: 'refuse-create' }],
          ['crash-update', CrashAfterUpdateViewSet, { basename: 'crash-update' }],
          ['crash-destroy', CrashAfterDestroyViewSet, { basename: 'crash-destroy' }],
        ],
      });
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
    });

    it('rolls back a create that crashes after its INSERT (500, no row)', async () => {
      const response = await request(app, {
        method: 'POST',
        url: '/api/crash-create/',
        ...json(GOLDEN_BOOK),
      });
      assert.equal(response.statusCode, 500);
      assert.equal(response.body, '{"detail":"A server error occurred."}');
      assert.equal(response.headers['content-type'], 'application/json');
      assert.equal(response.headers.allow, 'GET, POST, HEAD, OPTIONS');
      assert.equal(await books().filter({ isbn: 'GOLD-0001' }).exists(), false);
      assert.equal(await books().count(), 2);
    });

    it('rolls back every write of a request refused after saving (400, no rows)', async () => {
      const response = await request(app, {
        method: 'POST',
        url: '/api/refuse-create/',
        ...json(GOLDEN_BOOK),
      });
      assert.equal(response.statusCode, 400);
      assert.equal(response.body, '{"title":["Refused after saving."]}');
      assert.equal(await books().filter({ isbn: 'GOLD-0001' }).exists(), false);
      assert.equal(await Category.objects.using(db).count(), 0);
    });

    it('rolls back an update that crashes after its UPDATE', async () => {
      const book = seeded[0] as Row<typeof Book>;
      const response = await request(app, {
        method: 'PATCH',
        url: `/api/crash-update/${book.id}/`,
        ...json({ title: 'Changed', stock_information: { price: '99.99' } }),
      });
      assert.equal(response.statusCode, 500);
      const stored = await books().get({ id: book.id });
      assert.equal(stored.title, book.title);
      assert.equal(stored.price, book.price);
    });

    it('rolls back a delete that crashes after its DELETE', async () => {
      const book = seeded[1] as Row<typeof Book>;
      const response = await request(app, {
        method: 'DELETE',
        url: `/api/crash-destroy/${book.id}/`,
      });
      assert.equal(response.statusCode, 500);
      assert.equal(await books().filter({ id: book.id }).exists(), true);
    });

    it('answers a unique violation with 400 at the nested field that carried the value', async () => {
      const first = await request(app, {
        method: 'POST',
        url: '/api/books/',
        ...json(GOLDEN_BOOK),
      });
      assert.equal(first.statusCode, 201);
      // Sent together, both pass validation; the database refuses the second INSERT.
      const racing = await Promise.all(
        [1, 2].map(() =>
          request(app, {
            method: 'POST',
            url: '/api/books/',
            ...json(goldenBook('RACE')),
          }),
        ),
      );
      const statuses = racing.map((r) => r.statusCode).sort();
      assert.deepEqual(statuses, [201, 400]);
      const refused = racing.find((r) => r.statusCode === 400);
      assert.equal(
        refused?.body,
        '{"publishing_information":{"isbn":["book with this isbn already exists."]}}',
      );
      const again = await request(app, {
        method: 'POST',
        url: '/api/books/',
        ...json(GOLDEN_BOOK),
      });
      assert.equal(again.statusCode, 400);
      assert.equal(
        again.body,
        '{"publishing_information":{"isbn":["book with this isbn already exists."]}}',
      );
      assert.equal(await books().filter({ isbn: 'RACE' }).count(), 1);
    });
  });
}
