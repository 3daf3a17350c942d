/**
 * `update(request, partial?)` and `partialUpdate(request)` call each other safely: an `update`
 * override that answers PUT as PATCH by calling `partialUpdate` (DRF's spelling of it recurses
 * until the stack overflows, a 500) updates the row once, on PUT and on PATCH; an override of
 * `partialUpdate` that calls `update` runs once; the base actions keep DRF's semantics (a PUT
 * missing a required field is a 400).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Database,
  defineModel,
  ModelSerializer,
  ModelViewSet,
  models,
  type Request,
  type Response,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp, json, request } from '../fixtures/http-app.ts';

const Memo = defineModel({
  name: 'Memo',
  table: 'update_memo',
  fields: {
    title: models.CharField({ maxLength: 50 }),
    body: models.CharField({ maxLength: 50 }),
  },
  ordering: ['id'],
});

class MemoSerializer extends ModelSerializer.with({
  model: Memo,
  fields: ['id', 'title', 'body'],
}) {}

/** What the overrides below saw, per view class. */
const calls: Record<string, string[]> = {};

function record(name: string, step: string): void {
  calls[name] ??= [];
  calls[name].push(step);
}

class MemoViewSet extends ModelViewSet {
  override queryset = Memo.objects.all();
  override serializerClass = MemoSerializer;
}

/** PUT as PATCH through `partialUpdate`: recursed in DRF. */
class PutAsPatch extends MemoViewSet {
  override update(request: Request): Promise<Response> {
    record('put-as-patch', `update ${request.method}`);
    return this.partialUpdate(request);
  }
}

/** The same, waiting for something before it calls `partialUpdate`. */
class PutAsPatchLater extends MemoViewSet {
  override async update(request: Request): Promise<Response> {
    record('put-as-patch-later', `update ${request.method}`);
    await new Promise((resolve) => setImmediate(resolve));
    return this.partialUpdate(request);
  }
}

/** PUT as PATCH the recommended way: `super.update(request, true)`. */
class PutAsPatchSuper extends MemoViewSet {
  override update(request: Request): Promise<Response> {
    return super.update(request, true);
  }
}

/** An override of `partialUpdate` that calls `update`. */
class LoggedPatch extends MemoViewSet {
  override partialUpdate(request: Request): Promise<Response> {
    record('logged-patch', 'partialUpdate');
    return this.update(request, true);
  }

  override update(request: Request, partial?: boolean): Promise<Response> {
    record('logged-patch', `update ${String(partial)}`);
    return super.update(request, partial);
  }
}

/** Both overridden, each handing on to the other or to `super`. */
class Both extends MemoViewSet {
  override update(request: Request): Promise<Response> {
    record('both', 'update');
    return this.partialUpdate(request);
  }

  override partialUpdate(request: Request): Promise<Response> {
    record('both', 'partialUpdate');
    return super.partialUpdate(request);
  }
}

for (const dialect of testDialects()) {
  describe(`update and partialUpdate on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;
    let id = 0;

    before(async () => {
      db = await dialect.create();
      await db.migrate([Memo]);
      app = await buildApp({
        database: db,
        viewsets: [
          ['plain', MemoViewSet],
          ['put-as-patch', PutAsPatch, { basename: 'put-as-patch' }],
          ['put-as-patch-later', PutAsPatchLater, { basename: 'put-as-patch-later' }],
          ['put-as-patch-super', PutAsPatchSuper, { basename: 'put-as-patch-super' }],
          ['logged-patch', LoggedPatch, { basename: 'logged-patch' }],
          ['both', Both, { basename: 'both' }],
        ],
      });
    });

    after(async () => {
      await app?.close();
      await dialect.drop(db);
    });

    async function memo(): Promise<number> {
      const row = await db.run(() => Memo.objects.create({ title: 'a', body: 'b' }));
      id = row.id as number;
      return id;
    }

    async function send(method: 'PUT' | 'PATCH', prefix: string, body: unknown) {
      const pk = await memo();
      const response = await request(app, { method, url: `/api/${prefix}/${pk}/`, ...json(body) });
      const row = await db.run(() => Memo.objects.get({ pk }));
      return { status: response.statusCode, body: response.json(), row };
    }

    it('the base PUT still requires every field; PATCH does not', async () => {
      const put = await send('PUT', 'plain', { title: 'x' });
      assert.equal(put.status, 400);
      assert.deepEqual(put.body, { body: ['This field is required.'] });
      assert.equal(put.row.title, 'a', 'nothing changed');
      const patch = await send('PATCH', 'plain', { title: 'x' });
      assert.equal(patch.status, 200);
      assert.equal(patch.row.title, 'x');
    });

    for (const prefix of ['put-as-patch', 'put-as-patch-later', 'put-as-patch-super']) {
      for (const method of ['PUT', 'PATCH'] as const) {
        it(`${prefix}: ${method} with one field updates it, once, without recursing`, async () => {
          calls[prefix] = [];
          const sent = await send(method, prefix, { title: `${method} ${prefix}` });
          assert.equal(sent.status, 200, JSON.stringify(sent.body));
          assert.deepEqual(sent.body, { id, title: `${method} ${prefix}`, body: 'b' });
          assert.equal(sent.row.title, `${method} ${prefix}`);
          assert.equal(sent.row.body, 'b');
          if (prefix !== 'put-as-patch-super') {
            // PUT: the override, then partialUpdate calls it once more; PATCH: once.
            const expected = method === 'PUT' ? 2 : 1;
            assert.deepEqual(calls[prefix], Array(expected).fill(`update ${method}`));
          }
        });
      }
    }

    it('an override of partialUpdate that calls update runs each once', async () => {
      calls['logged-patch'] = [];
      const sent = await send('PATCH', 'logged-patch', { body: 'c' });
      assert.equal(sent.status, 200);
      assert.equal(sent.row.body, 'c');
      assert.deepEqual(calls['logged-patch'], ['partialUpdate', 'update true']);
    });

    it('both overridden, each handing on: the row updated, no recursion', async () => {
      calls.both = [];
      const sent = await send('PATCH', 'both', { body: 'd' });
      assert.equal(sent.status, 200);
      assert.equal(sent.row.body, 'd');
      assert.deepEqual(calls.both, ['partialUpdate', 'update', 'partialUpdate']);
      calls.both = [];
      const put = await send('PUT', 'both', { title: 'e' });
      assert.equal(put.status, 200);
      assert.equal(put.row.title, 'e');
      assert.deepEqual(calls.both, ['update', 'partialUpdate', 'update', 'partialUpdate']);
    });
  });
}
