/**
 * The project the starter generates answers as its OpenAPI document says (issue 42): the
 * bookstore's replay (requests over every operation, valid and invalid, each answer validated
 * by openapi-backend) run on the template's app, which has a different shape from the
 * bookstore (a hyperlinked serializer, choices, a nullable date, a custom query parameter).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Database } from '@restframework/core';
import type { FastifyInstance } from 'fastify';
// The replay helper is the bookstore's (its dev dependencies bring openapi-backend and ajv).
import { replay } from '../../../examples/bookstore/test/openapi/replay.ts';
import { buildApp } from '../template/src/app.ts';
import { ALL_MODELS, Task } from '../template/src/models.ts';

describe("the starter's app answers as its OpenAPI document says", () => {
  let db: Database;
  let app: FastifyInstance;
  let document: any;

  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(ALL_MODELS);
    await db.run(async () => {
      for (let i = 0; i < 3; i++) await Task.objects.create({ title: `Task ${i}` } as never);
    });
    app = await buildApp(db);
    const schema = await app.inject({ url: '/schema/', headers: { host: '127.0.0.1' } });
    assert.equal(schema.statusCode, 200, schema.body);
    document = schema.json();
  });

  after(async () => {
    await app.close();
    await db.close();
  });

  it('lists every status, media type and body of every operation', async () => {
    const result = await replay(app, document);
    assert.ok(result.operations >= 6, `${result.operations} operations`);
    for (const status of ['200', '201', '204', '400', '404', '406', '415'])
      assert.ok(result.statuses.has(status), `no ${status} among ${[...result.statuses]}`);
  });
});
