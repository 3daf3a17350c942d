/**
 * Start-up checks of the adapters' numeric and boolean options. A wrong value here would not
 * fail at once: `NaN` as a lock timeout waits forever, a pool of `'10'` connections or of 0
 * hangs the first request. So each adapter refuses it when it is built, naming the option.
 *
 * @example
 * ```ts
 * requireWholeNumber('poolSize', 10, 1, 'connections in the pool'); // passes
 * requireWholeNumber('poolSize', 0.5, 1, 'connections in the pool'); // throws REST_ERR_DATABASE_OPTION
 * ```
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';

/**
 * Throws `REST_ERR_DATABASE_OPTION` unless `value` is absent or a whole number of at least
 * `min`; `meaning` says what the number counts (`'milliseconds, 0 for no limit'`).
 */
export function requireWholeNumber(
  name: string,
  value: unknown,
  min: number,
  meaning: string,
): void {
  if (value === undefined) return;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min) return;
  throw new ImproperlyConfigured(
    'REST_ERR_DATABASE_OPTION',
    `${name} must be a whole number, ${min} or more (${meaning}); got ${describe(value)}.`,
  );
}

/** Throws `REST_ERR_DATABASE_OPTION` unless `value` is absent, `true` or `false`. */
export function requireBoolean(name: string, value: unknown): void {
  if (value === undefined || typeof value === 'boolean') return;
  throw new ImproperlyConfigured(
    'REST_ERR_DATABASE_OPTION',
    `${name} must be true or false; got ${describe(value)}.`,
  );
}

/**
 * The checks of the options every database server's adapter takes (PostgreSQL, MySQL):
 * `poolSize`, `connectionTimeoutMs`, `statementTimeoutMs`.
 */
export function requireServerOptions(options: {
  readonly poolSize?: unknown;
  readonly connectionTimeoutMs?: unknown;
  readonly statementTimeoutMs?: unknown;
  readonly lockTimeoutMs?: unknown;
}): void {
  requireWholeNumber('poolSize', options.poolSize, 1, 'connections in the pool');
  requireWholeNumber('connectionTimeoutMs', options.connectionTimeoutMs, 0, 'milliseconds');
  requireWholeNumber(
    'statementTimeoutMs',
    options.statementTimeoutMs,
    0,
    'milliseconds; 0 for no limit',
  );
  requireWholeNumber('lockTimeoutMs', options.lockTimeoutMs, 0, 'milliseconds; 0 for no limit');
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
