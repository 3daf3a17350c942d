/**
 * The log of database outages: one warning per interval, not one per request. While the
 * database is gone every request fails the same way; a line (and a stack) each would fill the
 * disk at the request rate and bury the one line that says what happened.
 * @module
 */
import type { DatabaseUnavailableError } from './database-errors.ts';

/** At most one warning about an unavailable database per this many ms. */
export const UNAVAILABLE_LOG_INTERVAL_MS = 10_000;

/** What {@link logUnavailable} writes to (a pino or Fastify logger). */
export interface WarningLog {
  warn(details: Record<string, unknown>, message: string): void;
}

let lastLoggedAt = Number.NEGATIVE_INFINITY;
let unlogged = 0;

/**
 * Logs that the database is unavailable, at warn level, with the driver's code and message
 * (never a stack, never the connection string), at most once per
 * {@link UNAVAILABLE_LOG_INTERVAL_MS}; each line says how many failures went unlogged before
 * it.
 *
 * @example
 * ```ts
 * logUnavailable(app.log, new DatabaseUnavailableError('The database is unavailable; try again.'));
 * ```
 */
export function logUnavailable(
  log: WarningLog | undefined,
  error: DatabaseUnavailableError,
  now: number = Date.now(),
): void {
  if (!log) return;
  if (now - lastLoggedAt < UNAVAILABLE_LOG_INTERVAL_MS) {
    unlogged++;
    return;
  }
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  log.warn(
    {
      code: typeof cause?.code === 'string' ? cause.code : undefined,
      cause: typeof cause?.message === 'string' ? cause.message.slice(0, 500) : undefined,
      unloggedSinceLast: unlogged,
    },
    `database unavailable, answering 503: ${error.message}`,
  );
  lastLoggedAt = now;
  unlogged = 0;
}
