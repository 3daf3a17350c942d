/**
 * Fastify's own request errors (a body too large, a `Content-Length` that lies, a URL that is
 * not valid) as the toolkit's HTTP errors, so that they are answered like any error a view
 * raises: by the exception handler, in the toolkit's body.
 * @module
 */
import type { FastifyError } from 'fastify';
import {
  APIException,
  NotFound,
  ParseError,
  PayloadTooLarge,
  UnsupportedMediaType,
} from './api-exception.ts';

/**
 * The HTTP error for one of Fastify's errors, or null when it is not the client's doing (a
 * 5xx of Fastify, or any other error): the one 500 path answers those. An `APIException` is
 * answered as it is.
 *
 * @example
 * ```ts
 * import type { FastifyError } from 'fastify';
 *
 * declare const error: FastifyError; // Fastify refused a body over its bodyLimit
 * fastifyErrorToApi(error); // PayloadTooLarge (FST_ERR_CTP_BODY_TOO_LARGE)
 * ```
 */
export function fastifyErrorToApi(error: FastifyError): APIException | null {
  // Already the toolkit's (raised by a route of the app outside the views, as serveMedia's
  // NotFound): answered as it is, not as a 400 carrying its message.
  if (error instanceof APIException) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new PayloadTooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      // A Content-Type Fastify cannot parse (`application/json, text/plain`, `;`): no parser
      // takes it, as for any other type none takes. Its text is not echoed: it may be anything.
      return new UnsupportedMediaType('', 'Unsupported media type in request.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ParseError('The request body does not match its Content-Length.');
    case 'FST_ERR_BAD_URL':
      return new ParseError('The URL is not valid.');
    case 'FST_ERR_ASYNC_CONSTRAINT':
    // A path parameter longer than Fastify accepts: no row has such a key.
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new NotFound();
    default:
      if (
        typeof error.statusCode === 'number' &&
        error.statusCode >= 400 &&
        error.statusCode < 500
      ) {
        return new ParseError(error.message);
      }
      return null;
  }
}
