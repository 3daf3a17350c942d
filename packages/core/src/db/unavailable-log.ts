/**
 * The log of database outages: one warning per kind of outage per interval, not one per
 * request. While the database is gone every request fails the same way; a line (and a stack)
 * each would fill the disk at the request rate and bury the one line that says what happened.
 * Each kind (see `UnavailableKind`) has its own interval, so a lock timeout does not hide that
 * the tables are missing, nor the other way round.
 * @module
 */
import type { DatabaseUnavailableError, UnavailableKind } from './database-errors.ts';

/** At most one warning about an unavailable database per kind per this many ms. */
export const UNAVAILABLE_LOG_INTERVAL_MS = 10_000;

/** What {@link logUnavailable} writes to (a pino or Fastify logger). */
export interface WarningLog {
  warn(details: Record<string, unknown>, message: string): void;
}

/** When a kind was last logged, and how many of its failures went unlogged since. */
interface KindState {
  lastLoggedAt: number;
  unlogged: number;
}

/**
 * The process's state per kind: one entry per kind of a closed set, so it never grows (the
 * failures of one process are one outage, whichever app or database logs them).
 */
const states: Partial<Record<UnavailableKind, KindState>> = {};

/**
 * Logs that the database is unavailable, at warn level, with the kind, the driver's code and
 * message (never a stack, never the connection string), at most once per
 * {@link UNAVAILABLE_LOG_INTERVAL_MS} for each kind; each line says how many failures of its
 * kind went unlogged before it.
 *
 * @example
 * ```ts
 * logUnavailable(app.log, new DatabaseUnavailableError(undefined, { kind: 'locked' }));
 * ```
 */
export function logUnavailable(
  log: WarningLog | undefined,
  error: DatabaseUnavailableError,
  now: number = Date.now(),
): void {
  if (!log) return;
  const kind = error.kind;
  let state = states[kind];
  if (state === undefined) {
    state = { lastLoggedAt: Number.NEGATIVE_INFINITY, unlogged: 0 };
    states[kind] = state;
  }
  if (now - state.lastLoggedAt < UNAVAILABLE_LOG_INTERVAL_MS) {
    state.unlogged++;
    return;
  }
  const cause = error.cause as { code?: unknown; errno?: unknown; message?: unknown } | undefined;
  log.warn(
    {
      kind,
      code: typeof cause?.code === 'string' ? cause.code : undefined,
      errno: typeof cause?.errno === 'number' ? cause.errno : undefined,
      cause: typeof cause?.message === 'string' ? cause.message.slice(0, 500) : undefined,
      unloggedSinceLast: state.unlogged,
    },
    `database unavailable (${kind}), answering 503: ${error.message}`,
  );
  state.lastLoggedAt = now;
  state.unlogged = 0;
}
