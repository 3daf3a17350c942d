/**
 * An assertion for declaration mistakes: that a model, serializer, view set or setting is
 * refused with the right `REST_ERR_*` code and a message that says what to change.
 *
 * @example
 * ```ts
 * import { defineModel, models } from '@restframework/core';
 * import { assertImproperlyConfigured } from '@restframework/core/testing';
 *
 * assertImproperlyConfigured(
 *   () => defineModel({ name: 'Book', fields: { title: models.CharField({} as never) } }),
 *   'REST_ERR_MODEL_FIELD',
 *   /Book\.title/,
 *   /maxLength/,
 * );
 * ```
 * @module
 */
import assert from 'node:assert/strict';
import type { ErrorCode } from '../errors/error-codes.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';

/**
 * Asserts that `fn` throws {@link ImproperlyConfigured} with `code`, and a message matching
 * every one of `messagePatterns` (checking the code alone would let a message that no longer
 * names the culprit pass). Returns the error for further checks.
 */
export function assertImproperlyConfigured(
  fn: () => unknown,
  code: ErrorCode,
  ...messagePatterns: RegExp[]
): ImproperlyConfigured {
  let thrown: unknown;
  assert.throws(fn, (error: unknown) => {
    thrown = error;
    return true;
  });
  assert.ok(
    thrown instanceof ImproperlyConfigured,
    `expected ImproperlyConfigured, got ${String(thrown)}`,
  );
  assert.equal(thrown.code, code, `code of: ${thrown.message}`);
  for (const pattern of messagePatterns) assert.match(thrown.message, pattern);
  return thrown;
}
