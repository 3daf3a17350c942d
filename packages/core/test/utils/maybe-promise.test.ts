/** The one "value now or a promise" helper: every kind of value, thenables included. */
// biome-ignore-all lint/suspicious/noThenProperty: thenables are what this file tests
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  allMaybe,
  catchMaybe,
  eachMaybe,
  firstMaybe,
  isPromiseLike,
  type MaybePromise,
  thenMaybe,
} from '@restframework/core/internal';
import fc from 'fast-check';

describe('isPromiseLike', () => {
  const table: [string, unknown, boolean][] = [
    ['a promise', Promise.resolve(1), true],
    ['a plain thenable', { then: (ok: (v: number) => void) => ok(1) }, true],
    ['a function with then', Object.assign(() => 1, { then: () => undefined }), true],
    ['null', null, false],
    ['undefined', undefined, false],
    ['a number', 0, false],
    ['a string', 'then', false],
    ['an array', [], false],
    ['an object whose then is not a function', { then: 1 }, false],
    ['an object without then', { value: 1 }, false],
  ];
  for (const [name, value, expected] of table) {
    it(`${name}: ${expected}`, () => assert.equal(isPromiseLike(value), expected));
  }
});

describe('thenMaybe', () => {
  it('calls next at once for a value', () => {
    assert.equal(
      thenMaybe(2, (n) => n * 2),
      4,
    );
  });

  it('waits for a promise and for a plain thenable', async () => {
    const later = thenMaybe(Promise.resolve(2), (n) => n * 2);
    assert.ok(isPromiseLike(later));
    assert.equal(await later, 4);
    const thenable: PromiseLike<number> = { then: (ok) => Promise.resolve(3).then(ok) };
    assert.equal(await thenMaybe(thenable, (n) => n + 1), 4);
  });

  it('passes a rejection through without calling next', async () => {
    let called = false;
    const failed = thenMaybe(Promise.reject(new Error('no')), () => {
      called = true;
    });
    await assert.rejects(Promise.resolve(failed), /no/);
    assert.equal(called, false);
  });
});

/** A step's answer: at once, or later, as generated. */
function answer<T>(value: T, later: boolean): MaybePromise<T> {
  return later ? Promise.resolve(value) : value;
}

describe('catchMaybe', () => {
  it('answers at once for a value and for a throw', () => {
    assert.equal(
      catchMaybe(
        () => 1,
        () => 2,
      ),
      1,
    );
    assert.equal(
      catchMaybe(
        () => {
          throw new Error('no');
        },
        (error) => (error as Error).message,
      ),
      'no',
    );
  });

  it('catches a rejection and leaves a fulfilment alone', async () => {
    const failed = catchMaybe(
      () => Promise.reject(new Error('later')),
      (error) => (error as Error).message,
    );
    assert.ok(isPromiseLike(failed));
    assert.equal(await failed, 'later');
    assert.equal(
      await catchMaybe(
        () => Promise.resolve(3),
        () => 4,
      ),
      3,
    );
  });
});

describe('eachMaybe, firstMaybe, allMaybe', () => {
  // Each item says whether its step waits: the combinators must visit the same items in the
  // same order whatever waits, and answer at once exactly when nothing waited.
  const steps = fc.array(fc.record({ later: fc.boolean(), hit: fc.boolean() }), { maxLength: 8 });

  it('eachMaybe visits every item in order, at once when none waits', async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (items) => {
        const seen: number[] = [];
        const done = eachMaybe(items, (item) => {
          seen.push(items.indexOf(item));
          return answer(undefined, item.later);
        });
        assert.equal(
          isPromiseLike(done),
          items.some((item) => item.later),
        );
        await done;
        assert.deepEqual(
          seen,
          items.map((item) => items.indexOf(item)),
        );
      }),
    );
  });

  it('eachMaybe stops at the first throw or rejection', async () => {
    const seen: number[] = [];
    const failing = eachMaybe([0, 1, 2], (n) => {
      seen.push(n);
      return n === 1 ? Promise.reject(new Error('stop')) : undefined;
    });
    await assert.rejects(Promise.resolve(failing), /stop/);
    assert.deepEqual(seen, [0, 1]);
    assert.throws(
      () =>
        eachMaybe([0, 1], () => {
          throw new Error('at once');
        }),
      /at once/,
    );
  });

  it('firstMaybe answers the first hit and asks no further', async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (items) => {
        const asked: number[] = [];
        const indexed = items.map((item, index) => ({ ...item, index }));
        const found = firstMaybe(indexed, (item) => {
          asked.push(item.index);
          return answer(item.hit ? `item ${item.index}` : null, item.later);
        });
        const first = indexed.findIndex((item) => item.hit);
        const upTo = first === -1 ? indexed : indexed.slice(0, first + 1);
        assert.equal(
          isPromiseLike(found),
          upTo.some((item) => item.later),
        );
        assert.equal(await found, first === -1 ? undefined : `item ${first}`);
        assert.deepEqual(
          asked,
          upTo.map((item) => item.index),
        );
      }),
    );
  });

  it('allMaybe starts every step before waiting, at once when none waits', async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (items) => {
        let started = 0;
        const done = allMaybe(items, (item) => {
          started++;
          return answer(undefined, item.later);
        });
        assert.equal(started, items.length);
        assert.equal(
          isPromiseLike(done),
          items.some((item) => item.later),
        );
        assert.equal(await done, undefined);
      }),
    );
  });
});
