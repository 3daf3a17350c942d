/**
 * Every answer the bookstore sends is in its OpenAPI document (issue 42): requests replayed
 * over every operation (valid and invalid) and each answer validated against the document
 * by openapi-backend (ajv). See `openapi/replay.ts`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Database } from '@restframework/core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { auth } from '../src/auth.ts';
import { ALL_MODELS, Book } from '../src/models/index.ts';
import { seed } from '../src/seed.ts';
import { replay } from './openapi/replay.ts';

const PASSWORD = 'the stacks are quiet tonight';

describe('the bookstore answers as its OpenAPI document says', () => {
  let db: Database;
  let app: FastifyInstance;
  let document: any;
  let token: string;

  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(ALL_MODELS);
    await seed(db, { books: 5, authors: 4, users: 3 });
    await db.run(async () => {
      await auth.createPermissions([Book]);
      await auth.createUser({ username: 'admin', password: PASSWORD, is_superuser: true } as never);
    });
    app = await buildApp({ database: db });
    document = (await app.inject({ url: '/schema/', headers: { host: '127.0.0.1' } })).json();
    const login = await app.inject({
      method: 'POST',
      url: '/manage/api/token/',
      headers: { host: '127.0.0.1' },
      payload: { username: 'admin', password: PASSWORD },
    });
    assert.equal(login.statusCode, 200, login.body);
    token = login.json().token;
  });

  after(async () => {
    await app.close();
    await db.close();
  });

  it('lists every status, media type and body of every operation', async () => {
    const result = await replay(app, document, {
      credentials: (path) =>
        path.startsWith('/manage/') ? { authorization: `Token ${token}` } : undefined,
      existing: (path) => (path.startsWith('/api/profile/') ? '2' : '1'),
    });
    assert.ok(result.operations >= 40, `${result.operations} operations`);
    // The replay reached the answers it is about, not only errors.
    for (const status of ['200', '201', '204', '400', '401', '404', '406', '415'])
      assert.ok(result.statuses.has(status), `no ${status} among ${[...result.statuses]}`);
  });

  it('fails on a document that leaves an answer out, mistypes a body or a media type', async () => {
    // Each replay deletes the row it reads (author 1 by the replay above): one row each.
    const replay2 = (doc: any, id: string) => replay(app, doc, { existing: () => id });
    const only = (doc: any) => ({
      ...doc,
      paths: { '/books/api/authors/{pk}/': doc.paths['/books/api/authors/{pk}/'] },
    });
    const noNotFound = structuredClone(document);
    delete noNotFound.paths['/books/api/authors/{pk}/'].get.responses['404'];
    await assert.rejects(replay2(only(noNotFound), '2'), /status not in the document/);
    const mistyped = structuredClone(document);
    mistyped.paths['/books/api/authors/{pk}/'].get.responses['200'].content[
      'application/json'
    ].schema = {
      type: 'object',
      properties: { name: { type: 'integer' } },
    };
    await assert.rejects(replay2(only(mistyped), '3'), /must be integer/);
    const noHtml = structuredClone(document);
    delete noHtml.paths['/books/api/authors/{pk}/'].get.responses['200'].content['text/html'];
    await assert.rejects(replay2(only(noHtml), '4'), /text\/html not declared/);
  });
});
