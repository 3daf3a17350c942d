/**
 * `Field.runValidators`: every validator runs and all their messages are collected, in order;
 * an answer comes at once unless a validator waits (one that queries the database does), and
 * validators that query the database run last, only on a value the others accepted.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CharField,
  markQueriesDatabase,
  type RunContext,
  ValidationError,
  type Validator,
} from '@restframework/core';
import { bindField, testRunContext } from '@restframework/core/testing';

const ctx: RunContext = testRunContext();

/** A text field with `validators` (before its own: NUL characters, lone surrogates). */
function fieldWith(validators: Validator<any>[]): CharField {
  return bindField(new CharField({ validators }));
}

const refuse =
  (message: string): Validator<string> =>
  () => {
    throw new ValidationError([message]);
  };
const refuseLater =
  (message: string): Validator<string> =>
  async () => {
    throw new ValidationError([message]);
  };

describe('Field.runValidators', () => {
  it('answers at once, with the value, when every validator accepts it at once', () => {
    const seen: unknown[] = [];
    const field = fieldWith([(value) => void seen.push(value), (value) => void seen.push(value)]);
    assert.equal(field.runValidators('abc', ctx), 'abc');
    assert.deepEqual(seen, ['abc', 'abc']);
  });

  it('runs every validator and throws all their messages, in order', () => {
    const field = fieldWith([refuse('one'), () => {}, refuse('two')]);
    assert.throws(
      () => field.runValidators('abc', ctx),
      (error) =>
        error instanceof ValidationError &&
        assert.deepEqual(error.detail, ['one', 'two']) === undefined,
    );
  });

  it('waits for a validator that waits, and keeps collecting after it', async () => {
    const field = fieldWith([refuse('one'), refuseLater('two'), refuse('three')]);
    const result = field.runValidators('abc', ctx);
    assert.ok(result instanceof Promise);
    await assert.rejects(result, (error) => {
      assert.ok(error instanceof ValidationError);
      // The sync messages first, then the one that waited.
      assert.deepEqual(error.detail, ['one', 'three', 'two']);
      return true;
    });
    const accepting = fieldWith([async () => {}, () => {}]);
    assert.equal(await accepting.runValidators('abc', ctx), 'abc');
  });

  it('runs validators that query the database last, and only on an accepted value', async () => {
    const order: string[] = [];
    const database = markQueriesDatabase(async (value: string) => {
      order.push(`db ${value}`);
      if (value === 'taken') throw new ValidationError(['Taken.']);
    });
    const field = fieldWith([
      database,
      (value: string) => {
        order.push(`check ${value}`);
        if (value === 'bad') throw new ValidationError(['Bad.']);
      },
    ]);
    assert.equal(await field.runValidators('ok', ctx), 'ok');
    assert.deepEqual(order, ['check ok', 'db ok']);
    order.length = 0;
    // Refused at once by the other check: the database validator never ran, so nothing waited.
    assert.throws(
      () => field.runValidators('bad', ctx),
      (error) => {
        assert.ok(error instanceof ValidationError);
        assert.deepEqual(error.detail, ['Bad.']);
        return true;
      },
    );
    assert.deepEqual(order, ['check bad']);
    await assert.rejects(Promise.resolve(field.runValidators('taken', ctx)), (error) => {
      assert.ok(error instanceof ValidationError);
      assert.deepEqual(error.detail, ['Taken.']);
      return true;
    });
  });

  it('rethrows an error that is not a ValidationError', () => {
    const field = fieldWith([
      () => {
        throw new TypeError('broken');
      },
    ]);
    assert.throws(() => field.runValidators('abc', ctx), TypeError);
  });

  it('is what runValidation runs after the conversion: the declared validators, then the field’s own', () => {
    const field = fieldWith([refuse('custom')]);
    assert.throws(
      () => field.runValidation('a\u0000b', ctx),
      (error) =>
        error instanceof ValidationError &&
        assert.deepEqual(error.detail, ['custom', 'Null characters are not allowed.']) ===
          undefined,
    );
  });
});
