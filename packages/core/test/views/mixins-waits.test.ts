/**
 * The model mixins wait only on what is a promise: a row `getObject()` answered at once is used
 * in the same turn (an `await` of it cost a microtask turn per write), and `partialUpdate` hands
 * on `update`'s own promise. Checked by what already ran when the action returns its promise.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultSettings, ModelViewSet, type Request, type Serializer } from '@restframework/core';

const STOP = new Error('stop here');

class Recording extends ModelViewSet {
  steps: string[] = [];
  row: Record<string, unknown> | Promise<Record<string, unknown>> = { id: 1 };

  override getObject() {
    this.steps.push('getObject');
    return this.row;
  }

  override getSerializer(): Serializer<any, any> {
    this.steps.push('getSerializer');
    throw STOP;
  }

  override async performDestroy(): Promise<void> {
    this.steps.push('performDestroy');
    throw STOP;
  }
}

// A request's settings: the writes ask whether preconditions apply (`USE_ETAGS`).
const request = { data: {}, settings: defaultSettings } as unknown as Request;

describe('model mixins and promises', () => {
  for (const action of ['update', 'partialUpdate', 'destroy'] as const) {
    it(`${action}: a row there at once is used in the same turn`, async () => {
      const view = new Recording();
      const pending = view[action](request);
      const next = action === 'destroy' ? 'performDestroy' : 'getSerializer';
      assert.deepEqual(view.steps, ['getObject', next]);
      await assert.rejects(pending, STOP);
    });

    it(`${action}: a row to wait for is waited for`, async () => {
      const view = new Recording();
      let resolve: (row: Record<string, unknown>) => void = () => {};
      view.row = new Promise((done) => {
        resolve = done;
      });
      const pending = view[action](request);
      assert.deepEqual(view.steps, ['getObject']);
      resolve({ id: 1 });
      await assert.rejects(pending, STOP);
      assert.equal(view.steps.length, 2);
    });
  }

  it("partialUpdate returns update's own promise, with partial set", () => {
    const made = Promise.resolve(null as never);
    const seen: unknown[] = [];
    class Partial extends ModelViewSet {
      override update(req: Request, partial?: boolean) {
        seen.push(req, partial);
        return made;
      }
    }
    assert.equal(new Partial().partialUpdate(request), made);
    assert.deepEqual(seen, [request, true]);
  });
});
