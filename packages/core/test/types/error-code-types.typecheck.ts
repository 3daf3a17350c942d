/**
 * Type tests of the `REST_ERR_*` codes. Type-checked by `npm run typecheck`, never run: a
 * `@ts-expect-error` line that compiles (a misspelt code accepted) fails the check.
 */
import { type ErrorCode, ImproperlyConfigured } from '@restframework/core';

export const known = new ImproperlyConfigured(
  'REST_ERR_SETTINGS',
  'EXCEPTION_HANDLER: not a function.',
);

// @ts-expect-error a misspelt code is not an ErrorCode
export const misspelt = new ImproperlyConfigured('REST_ERR_SETTING', 'typo');

// @ts-expect-error a code outside the catalogue is not an ErrorCode
export const unknown: ErrorCode = 'REST_ERR_SOMETHING_ELSE';

export const code: ErrorCode = known.code;
