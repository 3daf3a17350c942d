/**
 * The error of a migration command: a broken migration file or graph, a change the
 * autodetector cannot write without help, an operation the database refused.
 * @module
 */
import type { ErrorCode } from '../errors/error-codes.ts';

/**
 * What went wrong while making or applying migrations. `code` is a stable `REST_ERR_*` code
 * listed in `docs/errors.md`; the message names the migration file and what to change.
 *
 * @example
 * ```ts
 * throw new MigrationError('REST_ERR_MIGRATION_GRAPH', '0002_tags.ts depends on 0001_x, which does not exist.');
 * ```
 */
export class MigrationError extends Error {
  /** Always `MigrationError`: what logs and stack traces show. */
  override readonly name = 'MigrationError';
  /** The `REST_ERR_MIGRATION_*` code: its row in docs/errors.md says what to do. */
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
