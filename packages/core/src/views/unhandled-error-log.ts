/**
 * The log of errors nobody handled (the 500 path), written whatever logger the app has.
 *
 * Fastify without a logger (what `Fastify()` makes) drops every line, and so does a logger whose
 * level is above `error`: a 500 then left no trace at all. Such an error is written instead to
 * a fallback, a pino logger (Fastify's own kind) writing error lines to stderr, with the request
 * id that Fastify's request logger would have bound. An app whose logger writes errors gets the
 * line there, as before.
 *
 * A line holds the error's type, message, stack and code (and its causes'), the request id and,
 * on the fallback, the method and path. Never the request's headers, body or query string, nor
 * the error's other properties: any of them may hold a secret (a token, a cookie, a password).
 * @module
 */
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { type Logger, pino } from 'pino';

/** A logger as Fastify hands it out (`app.log`, `request.log`), possibly one that drops lines. */
export type AppLogger = Pick<FastifyBaseLogger, 'error' | 'warn' | 'child'> & {
  readonly level?: unknown;
  readonly isLevelEnabled?: (level: string) => boolean;
};

// Process-wide, as stderr is; made when the first error needs it.
let fallback: Logger | undefined;

/**
 * The fallback logger of unhandled errors and database outages: warn level, JSON lines on
 * stderr.
 *
 * @example
 * ```ts
 * fallbackErrorLogger().error({ reqId: 'req-1' }, 'something nobody handled');
 * ```
 */
export function fallbackErrorLogger(): Logger {
  fallback ??= pino({ level: 'warn', base: { pid: process.pid } }, process.stderr);
  return fallback;
}

/**
 * True when `log` writes a line logged at `level`: false for Fastify's logger of an app made
 * without one (abstract-logging's do-nothing methods, whose `child` is the logger itself), and
 * for a pino logger whose level is above `level` or `silent`.
 */
export function writesErrors(log: AppLogger, level: 'error' | 'warn' = 'error'): boolean {
  if (typeof log.level === 'string') return log.isLevelEnabled?.(level) ?? log.level !== 'silent';
  return log.child({}) !== log;
}

/**
 * The logger that writes warnings for the app: `log` when it writes them, else
 * {@link fallbackErrorLogger} (an outage must leave a line even in an app without a logger).
 */
export function warningLogger(log: AppLogger | undefined): Pick<AppLogger, 'warn'> {
  return log && writesErrors(log, 'warn') ? log : fallbackErrorLogger();
}

/**
 * Logs an error nobody handled, at error level, with its stack: on `log` (the request's logger,
 * which carries the request id) when it writes errors, else on {@link fallbackErrorLogger} with
 * the request id, method and path of `raw`. `cause` is the error being handled when `error`
 * happened (a failing exception handler).
 *
 * @example
 * ```ts
 * import type { FastifyRequest } from 'fastify';
 *
 * declare const request: FastifyRequest;
 *
 * logUnhandled(request, request.log, 'unhandled error', new TypeError('x is undefined'));
 * ```
 */
export function logUnhandled(
  raw: FastifyRequest | null,
  log: AppLogger | undefined,
  message: string,
  error: unknown,
  cause?: unknown,
): void {
  const details: Record<string, unknown> = { err: safeError(error) };
  if (cause !== undefined) details.cause = safeError(cause);
  if (log && writesErrors(log)) {
    log.error(details, message);
    return;
  }
  const request = raw ? { reqId: raw.id, req: { method: raw.method, url: pathOf(raw.url) } } : {};
  fallbackErrorLogger().error({ ...request, ...details }, message);
}

/** The path of a request URL, without its query string (which may carry a token). */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * What a line may say of an error: a copy with its class (so that loggers give its type), its
 * message, stack and code, and its cause copied the same way, and nothing else it carries.
 */
function safeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error) };
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error & {
    code?: unknown;
  };
  Object.defineProperties(copy, {
    name: { value: error.name, enumerable: false },
    message: { value: error.message, enumerable: true },
    stack: { value: error.stack, enumerable: true },
  });
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') copy.code = code;
  // A bounded chain: a cause that refers back to its error must not loop.
  if (error.cause !== undefined && depth < 4) copy.cause = safeError(error.cause, depth + 1);
  return copy;
}
