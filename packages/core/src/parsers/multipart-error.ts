/**
 * The error of a multipart body that could not be read, with the reason the parser maps to
 * its answer (400 or 413).
 * @module
 */

/** Why a multipart body could not be read. */
export type MultipartFailure =
  | 'no-boundary'
  | 'too-many-parts'
  | 'field-too-large'
  | 'premature-close'
  | 'malformed';

/**
 * A multipart body that could not be read; `reason` says why, `message` says what to fix.
 *
 * @example
 * ```ts
 * const error = new MultipartError('malformed', 'A part has no name.');
 * error.reason; // 'malformed': the parser answers 400
 * ```
 */
export class MultipartError extends Error {
  readonly reason: MultipartFailure;

  constructor(reason: MultipartFailure, message: string) {
    super(message);
    this.name = 'MultipartError';
    this.reason = reason;
  }
}
