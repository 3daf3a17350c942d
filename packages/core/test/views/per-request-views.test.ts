/**
 * A view is made per request, and what a view set declares as class fields is evaluated per
 * request (TypeScript runs field initializers in every constructor): a field one request
 * changes is never seen by another, however requests interleave. This is the contract the
 * route plan keeps (see "Overrides" in docs/architecture.md): it holds only what is the same
 * for every request, never a view's fields.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Database, type Request, Response } from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp, request } from '../fixtures/http-app.ts';
import { STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet, seedBooks } from '../fixtures/store-views.ts';

/** Resolves once `count` handlers have started: every request is then in flight at once. */
function barrier(count: number): () => Promise<void> {
  let started = 0;
  let release: () => void = () => {};
  const all = new Promise<void>((resolve) => {
    release = resolve;
  });
  return () => {
    started += 1;
    if (started === count) release();
    return all;
  };
}

const CONCURRENT = 8;
let arrive = barrier(CONCURRENT);
let constructed = 0;

/** Fields of every kind a view set declares: a mutable list, a record, a value from a call. */
class FieldsViewSet extends BookViewSet {
  seen: string[] = [];
  notes: Record<string, string> = {};
  serial = ++constructed;

  override async retrieve(request: Request): Promise<Response> {
    const tag = request.queryParam('tag') ?? '';
    this.seen.push(tag);
    this.notes[tag] = request.params.pk as string;
    this.headers['X-Tag'] = tag;
    // Every request pauses here until all of them have arrived.
    await arrive();
    return new Response({
      seen: this.seen,
      notes: this.notes,
      serial: this.serial,
      sameRequest: this.request === request,
      tag: this.request.queryParam('tag'),
      kwargs: this.kwargs,
      action: (this as { action?: string }).action,
    });
  }
}

for (const dialect of testDialects()) {
  describe(`views per request on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      await seedBooks(db, 2);
      app = await buildApp({ database: db, viewsets: [['fields', FieldsViewSet]] });
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
    });

    it('evaluates class fields per request: concurrent requests never share one', async () => {
      arrive = barrier(CONCURRENT);
      const before = constructed;
      const tags = Array.from({ length: CONCURRENT }, (_, i) => `t${i}`);
      const responses = await Promise.all(
        tags.map((tag, i) =>
          request(app, { method: 'GET', url: `/api/fields/${(i % 2) + 1}/?tag=${tag}` }),
        ),
      );
      const serials = new Set<number>();
      responses.forEach((response, i) => {
        const tag = tags[i] as string;
        const pk = String((i % 2) + 1);
        assert.equal(response.statusCode, 200);
        assert.equal(response.headers['x-tag'], tag);
        const body = JSON.parse(response.body);
        assert.deepEqual(body.seen, [tag]);
        assert.deepEqual(body.notes, { [tag]: pk });
        assert.equal(body.sameRequest, true);
        assert.equal(body.tag, tag);
        assert.deepEqual(body.kwargs, { pk });
        assert.equal(body.action, 'retrieve');
        serials.add(body.serial);
      });
      // One constructor run per request, each with its own field values.
      assert.equal(serials.size, CONCURRENT);
      assert.equal(constructed - before, CONCURRENT);
    });

    it('starts every request from the declared values, whatever the last one left', async () => {
      arrive = barrier(1);
      for (const tag of ['a', 'b', 'c']) {
        const response = await request(app, { method: 'GET', url: `/api/fields/1/?tag=${tag}` });
        const body = JSON.parse(response.body);
        assert.deepEqual(body.seen, [tag]);
        assert.deepEqual(body.notes, { [tag]: '1' });
        assert.equal(response.headers['x-tag'], tag);
      }
    });
  });
}
