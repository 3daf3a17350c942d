/**
 * A client's mistake is an answer, not a bug: the HTTP errors below 500 are made without a
 * stack trace (capturing one cost a request failing in several fields more than the rest of
 * its work), those of 500 and above keep theirs for the log, and the global limit is left as
 * it was whatever was made. Every class of the catalogue is checked, with a subclass of each.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { API_EXCEPTIONS, APIException, SkipField } from '@restframework/core';

/** The frames of a stack (`    at f (file:1:2)` lines). */
function frames(error: Error): number {
  return (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line)).length;
}

/** Makes the error some frames deep, so that a captured stack has frames to show. */
function deep(depth: number, make: () => Error): Error {
  return depth === 0 ? make() : deep(depth - 1, make);
}

describe('stack traces of the HTTP errors', () => {
  const classes = [...API_EXCEPTIONS, APIException] as unknown as (typeof APIException)[];
  for (const Class of classes) {
    const status = Class.statusCode;
    it(`${Class.name} (${status}) ${status < 500 ? 'has none' : 'keeps its own'}`, () => {
      const limit = Error.stackTraceLimit;
      class Sub extends Class {}
      for (const Made of [Class, Sub]) {
        const error = deep(5, () => new Made());
        assert.equal(error instanceof Error, true);
        if (status < 500) assert.equal(frames(error), 0, `${Made.name}: ${error.stack}`);
        else assert.ok(frames(error) > 0, `${Made.name} lost its stack: ${error.stack}`);
        assert.equal(Error.stackTraceLimit, limit);
      }
      // The message and name are still there for a log line.
      const error = new Class();
      assert.match(String(error.stack), new RegExp(`^${Class.name}`));
    });
  }

  it('leaves other errors alone', () => {
    new (API_EXCEPTIONS[0] as unknown as typeof APIException)();
    new SkipField();
    assert.ok(frames(deep(3, () => new Error('bug'))) > 0);
  });
});
