/**
 * The plugin's database becomes the process default when none is set (Django's `default`
 * database), and a request on the default database runs without a context of its own: both
 * must leave every query on the right database, also with a second app on another database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Database } from '@restframework/core';
import type { FastifyInstance } from 'fastify';
import { buildApp, json, request } from '../fixtures/http-app.ts';
import { Book, STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet, goldenBook, seedBooks } from '../fixtures/store-views.ts';

describe('the default database', () => {
  let first: Database;
  let second: Database;
  let firstApp: FastifyInstance;
  let secondApp: FastifyInstance;

  before(async () => {
    Database.setDefault(undefined);
    first = Database.connect('sqlite::memory:');
    second = Database.connect('sqlite::memory:');
    await first.migrate(STORE_MODELS);
    await second.migrate(STORE_MODELS);
    await seedBooks(first, 1);
    await seedBooks(second, 3);
    firstApp = await buildApp({ database: first, viewsets: [['books', BookViewSet]] });
    secondApp = await buildApp({ database: second, viewsets: [['books', BookViewSet]] });
  });
  after(async () => {
    await firstApp.close();
    await secondApp.close();
    await first.close();
    await second.close();
    Database.setDefault(undefined);
  });

  it('is the first app’s database; a later app does not replace it', () => {
    assert.equal(Database.default, first);
  });

  it('serves queries outside any request', async () => {
    assert.equal(await Book.objects.count(), 1);
  });

  it('keeps each app’s requests on its own database', async () => {
    const one = await request(firstApp, { url: '/api/books/' });
    const three = await request(secondApp, { url: '/api/books/' });
    assert.equal(one.json().length, 1);
    assert.equal(three.json().length, 3);
  });

  it('runs a write of the default app in its transaction, on its database', async () => {
    const created = await request(firstApp, {
      method: 'POST',
      url: '/api/books/',
      ...json(goldenBook('DEFAULT-1')),
    });
    assert.equal(created.statusCode, 201);
    assert.equal(await Book.objects.using(first).filter({ isbn: 'DEFAULT-1' }).count(), 1);
    assert.equal(await Book.objects.using(second).filter({ isbn: 'DEFAULT-1' }).count(), 0);
  });

  it('runs fn as it is when the database is already current', () => {
    const result = first.run(() => Database.current());
    assert.equal(result, first);
    assert.equal(
      second.run(() => Database.current()),
      second,
      'another database still gets a context of its own',
    );
  });

  it('is cleared when its database closes', async () => {
    const third = Database.connect('sqlite::memory:');
    Database.setDefault(third);
    await third.close();
    assert.equal(Database.default, undefined);
    Database.setDefault(first);
  });
});
