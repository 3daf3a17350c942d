/** `assertImproperlyConfigured` fails on each way a start-up error can be wrong. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ImproperlyConfigured } from '@restframework/core';
import { assertImproperlyConfigured } from '@restframework/core/testing';

const refuse = () => {
  throw new ImproperlyConfigured(
    'REST_ERR_MODEL_FIELD',
    'Book.title: a CharField needs maxLength.',
  );
};

describe('assertImproperlyConfigured', () => {
  it('passes on the code and every message pattern, and returns the error', () => {
    const error = assertImproperlyConfigured(
      refuse,
      'REST_ERR_MODEL_FIELD',
      /Book\.title/,
      /maxLength/,
    );
    assert.equal(error.message, 'Book.title: a CharField needs maxLength.');
  });

  it('fails on another code, naming the message', () => {
    assert.throws(
      () => assertImproperlyConfigured(refuse, 'REST_ERR_MODEL_NAME'),
      (error: unknown) =>
        error instanceof assert.AssertionError && /Book\.title/.test(error.message),
    );
  });

  it('fails when one of the patterns does not match', () => {
    assert.throws(
      () => assertImproperlyConfigured(refuse, 'REST_ERR_MODEL_FIELD', /Book/, /minLength/),
      assert.AssertionError,
    );
  });

  it('fails on another error, and when nothing is thrown', () => {
    assert.throws(
      () =>
        assertImproperlyConfigured(() => {
          throw new TypeError('Book.title');
        }, 'REST_ERR_MODEL_FIELD'),
      /expected ImproperlyConfigured, got TypeError: Book\.title/,
    );
    assert.throws(
      () => assertImproperlyConfigured(() => undefined, 'REST_ERR_MODEL_FIELD'),
      assert.AssertionError,
    );
  });
});
