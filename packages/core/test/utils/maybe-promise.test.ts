/** The one "value now or a promise" helper: every kind of value, thenables included. */
// biome-ignore-all lint/suspicious/noThenProperty: thenables are what this file tests
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPromiseLike, thenMaybe } from '@restframework/core/internal';

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
