/**
 * The default exception handler (DRF's `views.exception_handler`): the one function that turns
 * an error into the response a client gets, wherever it was raised (a view, a body Fastify
 * refused, a route that does not exist, a URL Node could not parse). The `EXCEPTION_HANDLER`
 * setting replaces it; a replacement usually calls it and reshapes what it answers.
 *
 * @example
 * ```ts
 * import { exceptionHandler, type ExceptionHandler, Response } from '@restframework/core';
 *
 * // Every error body as {"error": {...}}, the status and headers as the default has them.
 * const wrapped: ExceptionHandler = (exc, context) => {
 *   const response = exceptionHandler(exc, context);
 *   if (response) response.data = { error: response.data };
 *   return response; // null: not handled, answered 500 and logged
 * };
 * await app.register(restFramework, { database: db, settings: { EXCEPTION_HANDLER: wrapped } });
 * ```
 * @module
 */
import type { FastifyRequest } from 'fastify';
import {
  DatabaseUnavailableError,
  DataError,
  DoesNotExist,
  IntegrityError,
  InvalidLookupValueError,
} from '../db/database-errors.ts';
import { logUnavailable } from '../db/unavailable-log.ts';
import {
  APIException,
  NotFound,
  ServiceUnavailable,
  ValidationError,
} from '../errors/api-exception.ts';
import type { Request } from '../http/request.ts';
import { Response } from '../http/response.ts';
import type { Kwargs } from '../routers/path-kwargs.ts';
import type { APIView } from './api-view.ts';
import { warningLogger } from './unhandled-error-log.ts';

/** Where an error was raised: what a handler may look at (DRF's `context`). */
export interface ExceptionContext {
  /** The view that was handling the request; null before any view (an unknown route, say). */
  readonly view: APIView | null;
  /** The toolkit's request, once a view has started. */
  readonly request: Request | null;
  /** Fastify's request; null for bytes that never became one (a request Node could not parse). */
  readonly raw: FastifyRequest | null;
  /** The route parameters as the view gets them (`{ pk: 1 }` behind `<int:pk>`); empty outside a route. */
  readonly kwargs: Kwargs;
}

/**
 * Turns an error into a response, or answers null for an error it does not handle (which is
 * then logged and answered 500 without details). Synchronous, as DRF's. A handler that throws
 * is a bug of the server: 500 too, logged.
 */
export type ExceptionHandler = (exc: unknown, context: ExceptionContext) => Response | null;

/**
 * The context of an error raised before any view ran (a refused host, an unknown route, a
 * request Node could not parse): no view, no toolkit request, no route parameters.
 */
export function contextOutsideView(raw: FastifyRequest | null): ExceptionContext {
  return { view: null, request: null, raw, kwargs: {} };
}

/** The body of a unique or foreign-key violation the serializer could not place on a field. */
const CONFLICT = 'The data conflicts with stored data.';
/** The body of a value the column cannot hold (out of range, too long) that validation let through. */
const UNSTORABLE = 'The data holds a value the database cannot store.';

/**
 * The HTTP error an error stands for, or null for one that is not the client's doing: an
 * `APIException` as it is; a missing row 404; an unavailable database 503 (logged once per
 * interval); a query value or row the database refused 400.
 */
export function toApiException(exc: unknown, context: ExceptionContext): APIException | null {
  if (exc instanceof APIException) return exc;
  if (exc instanceof DoesNotExist) return new NotFound();
  if (exc instanceof DatabaseUnavailableError) {
    // Once per interval, not once per request: an outage fails every request alike.
    logUnavailable(warningLogger(context.raw?.log), exc);
    return new ServiceUnavailable();
  }
  // A query value the database refused (an invalid regular expression): the client's.
  if (exc instanceof InvalidLookupValueError) return new ValidationError({ detail: [exc.message] });
  if (exc instanceof IntegrityError) return new ValidationError({ non_field_errors: [CONFLICT] });
  if (exc instanceof DataError) return new ValidationError({ non_field_errors: [UNSTORABLE] });
  return null;
}

/**
 * The default `EXCEPTION_HANDLER`: the error's status, its headers (`WWW-Authenticate`,
 * `Retry-After`, `Allow`, ...) and its body (`{"detail": ...}` or the field errors); null for
 * an error that is not an HTTP error (see `toApiException`).
 *
 * @example
 * ```ts
 * declare const context: ExceptionContext; // where the error was thrown
 *
 * exceptionHandler(new NotFound(), context); // Response 404 {"detail": "Not found."}
 * exceptionHandler(new TypeError('x'), context); // null: answered 500, logged
 * ```
 */
export function exceptionHandler(exc: unknown, context: ExceptionContext): Response | null {
  const api = toApiException(exc, context);
  if (!api) return null;
  return new Response(api.toJSON(), api.statusCode, { ...api.headers }, true);
}
