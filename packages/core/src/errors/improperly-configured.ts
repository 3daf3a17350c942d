/**
 * The error thrown at start-up for a mistake in a developer's declarations.
 * @module
 */
import type { ErrorCode } from './error-codes.ts';

/**
 * A mistake in a model, serializer, view set or setting, found at definition or start-up.
 * The message names what is wrong and what to change; `code` is a stable `REST_ERR_*` code
 * of {@link ErrorCode} (a misspelt one does not compile), documented in `docs/errors.md`.
 *
 * @example
 * ```ts
 * throw new ImproperlyConfigured('REST_ERR_MODEL_FIELD', 'Book.title: CharField needs maxLength.');
 * ```
 */
export class ImproperlyConfigured extends Error {
  /** Always `ImproperlyConfigured`: what logs and stack traces show. */
  override readonly name = 'ImproperlyConfigured';
  /** The `REST_ERR_*` code: its row in docs/errors.md says what to change. */
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
