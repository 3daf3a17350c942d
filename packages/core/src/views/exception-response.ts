/**
 * The one place an error becomes a response: the app's exception handler is asked, and what it
 * does not handle (or a handler that fails) is the one 500 path, logged once with its stack and
 * the request id (on a fallback logger when the app's drops error lines), with no details for
 * the client.
 * @module
 */
import { APIException } from '../errors/api-exception.ts';
import { Response } from '../http/response.ts';
import {
  type ExceptionContext,
  type ExceptionHandler,
  exceptionHandler,
} from './exception-handler.ts';
import { type AppLogger, logUnhandled } from './unhandled-error-log.ts';

/**
 * The response for `exc`: the handler's, or 500 `{"detail": "A server error occurred."}` when
 * it answers null, throws, or answers something that is not a `Response` (a promise, say),
 * each logged at error level on `log` (see {@link logUnhandled}).
 *
 * @example
 * ```ts
 * declare const context: ExceptionContext; // where the error was thrown
 * declare const settings: APISettings; // the app's
 *
 * const response = respondToException(new NotFound(), context, settings.EXCEPTION_HANDLER, app.log);
 * response.status; // 404
 * ```
 */
export function respondToException(
  exc: unknown,
  context: ExceptionContext,
  handler: ExceptionHandler = exceptionHandler,
  log: AppLogger | undefined = context.raw?.log,
): Response {
  let response: unknown;
  try {
    response = handler(exc, context);
  } catch (failure) {
    logUnhandled(context.raw, log, 'the exception handler failed', failure, exc);
    return serverError();
  }
  if (response instanceof Response) return response;
  const message =
    response === null || response === undefined
      ? 'unhandled error'
      : 'the exception handler answered something other than a Response or null';
  logUnhandled(context.raw, log, message, exc);
  return serverError();
}

/** The 500 every unhandled error gets: the catalogue's detail, nothing of the error itself. */
function serverError(): Response {
  return new Response({ detail: APIException.defaultDetail }, 500, {}, true);
}
