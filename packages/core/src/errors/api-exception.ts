/**
 * The HTTP errors of the toolkit: one class per status, each with a default detail and a
 * stable code. Throw them from views, serializers, permissions and filters; the exception
 * handler (`EXCEPTION_HANDLER`) turns them into `{"detail": ...}` (or field errors for
 * {@link ValidationError}) with the status. Their default details are the catalogue of the
 * messages clients get.
 * Every class here has a row in `docs/errors.md`.
 *
 * @example
 * ```ts
 * throw new NotFound();                          // 404 {"detail":"Not found."}
 * throw new ValidationError({ title: ['Too long.'] });
 * throw new PermissionDenied('Only editors may publish.');
 * ```
 * @module
 */
import { resumeStackTraces, suspendStackTraces } from '../utils/stack-traces.ts';
import { interpolate } from '../utils/text.ts';

/** Field errors: messages, nested like the data (`{"group": {"field": ["message"]}}`). */
export type ErrorTree = string[] | { [key: string]: ErrorTree } | ErrorTree[];

/**
 * Base of the HTTP errors: a status, a detail (text or field errors) and a code.
 *
 * @example
 * ```ts
 * class Gone extends APIException {
 *   static override readonly statusCode = 410;
 *   static override readonly defaultDetail = 'This book is no longer available.';
 *   static override readonly defaultCode = 'gone';
 * }
 * throw new Gone(); // 410 {"detail": "This book is no longer available."}
 * ```
 */
export class APIException extends Error {
  /** The HTTP status of this class's errors (DRF's `status_code`). */
  static readonly statusCode: number = 500;
  /** The message when none is given (DRF's `default_detail`). */
  static readonly defaultDetail: string = 'A server error occurred.';
  /** The code when none is given (DRF's `default_code`). */
  static readonly defaultCode: string = 'error';

  /**
   * Not read-only, as DRF's `status_code`: a view answers an authentication error 403 instead
   * of 401 when it has no challenge to send (`WWW-Authenticate`).
   */
  statusCode: number;
  /** The message, or the tree of field errors (`{"title": ["This field is required."]}`). */
  readonly detail: string | ErrorTree;
  /** A machine-readable code (`not_found`, `invalid`, ...). */
  readonly code: string;
  /** Extra response headers (`Allow`, `Retry-After`, ...). */
  readonly headers: Record<string, string> = {};

  constructor(detail?: string | ErrorTree, code?: string) {
    const ctor = new.target as typeof APIException;
    const resolved = detail ?? ctor.defaultDetail;
    // A 4xx is the client's mistake, answered and forgotten: no stack trace (see
    // utils/stack-traces.ts). A 5xx keeps one, for the log.
    const answer = ctor.statusCode < 500;
    const limit = answer ? suspendStackTraces() : 0;
    super(typeof resolved === 'string' ? resolved : 'Invalid input.');
    if (answer) resumeStackTraces(limit);
    this.name = ctor.name;
    this.statusCode = ctor.statusCode;
    this.detail = resolved;
    this.code = code ?? ctor.defaultCode;
  }

  /** The response body: `{"detail": ...}`, or the field errors themselves. */
  toJSON(): unknown {
    return typeof this.detail === 'string' ? { detail: this.detail } : this.detail;
  }
}

/**
 * 400: input failed validation. The body is the field errors.
 *
 * @example
 * ```ts
 * throw new ValidationError({ title: ['This field may not be blank.'] }); // 400 {"title": [...]}
 * throw new ValidationError('Dates overlap.'); // 400 {"non_field_errors": ["Dates overlap."]}
 * ```
 */
export class ValidationError extends APIException {
  static override readonly statusCode = 400;
  static override readonly defaultDetail = 'Invalid input.';
  static override readonly defaultCode = 'invalid';
  declare readonly detail: ErrorTree;

  constructor(detail: string | ErrorTree = ValidationError.defaultDetail, code?: string) {
    super(typeof detail === 'string' ? [detail] : detail, code);
  }

  override toJSON(): unknown {
    return Array.isArray(this.detail) ? { non_field_errors: this.detail } : this.detail;
  }
}

/**
 * 400: the body could not be parsed.
 *
 * @example
 * ```ts
 * throw new ParseError('JSON parse error - Unexpected end of JSON input'); // 400 {"detail": "JSON parse error - ..."}
 * ```
 */
export class ParseError extends APIException {
  static override readonly statusCode = 400;
  static override readonly defaultDetail = 'Malformed request.';
  static override readonly defaultCode = 'parse_error';
}

/**
 * 400: the `Host` header names no allowed host.
 *
 * @example
 * ```ts
 * throw new DisallowedHost(); // 400 {"detail": "Invalid Host header."}
 * ```
 */
export class DisallowedHost extends APIException {
  static override readonly statusCode = 400;
  static override readonly defaultDetail = 'Invalid Host header.';
  static override readonly defaultCode = 'disallowed_host';
}

/**
 * 401: credentials were sent but are wrong.
 *
 * @example
 * ```ts
 * throw new AuthenticationFailed('Invalid token.'); // 401 {"detail": "Invalid token."}
 * ```
 */
export class AuthenticationFailed extends APIException {
  // Typed wide: InvalidToken has its own.
  static override readonly statusCode: number = 401;
  static override readonly defaultDetail: string = 'Incorrect authentication credentials.';
  static override readonly defaultCode: string = 'authentication_failed';
}

/**
 * 401 of a JSON Web Token (simplejwt's `InvalidToken`): the body carries the code, and for an
 * access token the reason of each token type tried, as simplejwt answers.
 *
 * @example
 * ```ts
 * throw new InvalidToken('Given token not valid for any token type', 'token_not_valid', {
 *   messages: [{ token_class: 'AccessToken', token_type: 'access', message: 'Token is invalid or expired' }],
 * });
 * // 401 {"detail": "Given token not valid for any token type", "code": "token_not_valid", "messages": [...]}
 * ```
 */
export class InvalidToken extends AuthenticationFailed {
  static override readonly statusCode = 401;
  static override readonly defaultDetail = 'Token is invalid or expired';
  static override readonly defaultCode = 'token_not_valid';
  /** Members of the body besides `detail` and `code` (simplejwt's `messages`). */
  readonly extra: Readonly<Record<string, unknown>>;

  constructor(detail?: string, code?: string, extra: Readonly<Record<string, unknown>> = {}) {
    super(detail, code);
    this.extra = extra;
  }

  override toJSON(): unknown {
    return { detail: this.detail, code: this.code, ...this.extra };
  }
}

/**
 * 401: no credentials were sent.
 *
 * @example
 * ```ts
 * throw new NotAuthenticated(); // 401 {"detail": "Authentication credentials were not provided."}
 * ```
 */
export class NotAuthenticated extends APIException {
  static override readonly statusCode = 401;
  static override readonly defaultDetail = 'Authentication credentials were not provided.';
  static override readonly defaultCode = 'not_authenticated';
}

/**
 * 403: the caller may not do this.
 *
 * @example
 * ```ts
 * throw new PermissionDenied('Only editors may publish.'); // 403 {"detail": "Only editors may publish."}
 * ```
 */
export class PermissionDenied extends APIException {
  static override readonly statusCode = 403;
  static override readonly defaultDetail = 'You do not have permission to perform this action.';
  static override readonly defaultCode = 'permission_denied';
}

/**
 * 404: no such resource.
 *
 * @example
 * ```ts
 * throw new NotFound(); // 404 {"detail": "Not found."}
 * ```
 */
export class NotFound extends APIException {
  static override readonly statusCode = 404;
  static override readonly defaultDetail = 'Not found.';
  static override readonly defaultCode = 'not_found';
}

/**
 * 405: the route exists but not for this method.
 *
 * @example
 * ```ts
 * throw new MethodNotAllowed('DELETE'); // 405 {"detail": "Method \"DELETE\" not allowed."}
 * ```
 */
export class MethodNotAllowed extends APIException {
  static override readonly statusCode = 405;
  static override readonly defaultDetail = 'Method "{method}" not allowed.';
  static override readonly defaultCode = 'method_not_allowed';

  constructor(method: string, detail?: string) {
    super(detail ?? interpolate(MethodNotAllowed.defaultDetail, { method }));
  }
}

/**
 * 406: no renderer matches the `Accept` header.
 *
 * @example
 * ```ts
 * throw new NotAcceptable(); // 406 {"detail": "Could not satisfy the request Accept header."}
 * ```
 */
export class NotAcceptable extends APIException {
  static override readonly statusCode = 406;
  static override readonly defaultDetail = 'Could not satisfy the request Accept header.';
  static override readonly defaultCode = 'not_acceptable';
}

/**
 * 408: the client stopped sending its body.
 *
 * @example
 * ```ts
 * throw new RequestTimeout(); // 408 {"detail": "The request body did not arrive in time."}
 * ```
 */
export class RequestTimeout extends APIException {
  static override readonly statusCode = 408;
  static override readonly defaultDetail = 'The request body did not arrive in time.';
  static override readonly defaultCode = 'request_timeout';
}

/**
 * 412: a precondition of the request (`If-Match`, `If-Unmodified-Since`, a write's
 * `If-None-Match`) does not hold: the row changed since the client read it.
 *
 * @example
 * ```ts
 * throw new PreconditionFailed(); // 412 {"detail": "Precondition failed: the resource has changed."}
 * ```
 */
export class PreconditionFailed extends APIException {
  static override readonly statusCode = 412;
  static override readonly defaultDetail = 'Precondition failed: the resource has changed.';
  static override readonly defaultCode = 'precondition_failed';
}

/**
 * 428: the view requires a conditional write (`requirePrecondition`) and the request has no
 * `If-Match` or `If-Unmodified-Since`.
 *
 * @example
 * ```ts
 * throw new PreconditionRequired(); // 428 {"detail": "This request must be conditional: ..."}
 * ```
 */
export class PreconditionRequired extends APIException {
  static override readonly statusCode = 428;
  static override readonly defaultDetail =
    'This request must be conditional: send If-Match with the ETag you read (or If-Unmodified-Since).';
  static override readonly defaultCode = 'precondition_required';
}

/**
 * 413: the body, a part or a field is larger than allowed.
 *
 * @example
 * ```ts
 * throw new PayloadTooLarge(); // 413 {"detail": "Request body is too large."}
 * ```
 */
export class PayloadTooLarge extends APIException {
  static override readonly statusCode = 413;
  static override readonly defaultDetail = 'Request body is too large.';
  static override readonly defaultCode = 'payload_too_large';
}

/**
 * 415: no parser accepts the request's `Content-Type`.
 *
 * @example
 * ```ts
 * throw new UnsupportedMediaType('text/csv'); // 415 {"detail": "Unsupported media type \"text/csv\" in request."}
 * ```
 */
export class UnsupportedMediaType extends APIException {
  static override readonly statusCode = 415;
  static override readonly defaultDetail = 'Unsupported media type "{media_type}" in request.';
  static override readonly defaultCode = 'unsupported_media_type';

  constructor(mediaType: string, detail?: string) {
    super(detail ?? interpolate(UnsupportedMediaType.defaultDetail, { media_type: mediaType }));
  }
}

/**
 * 429: too many requests.
 *
 * @example
 * ```ts
 * throw Throttled.withWait(3); // 429 {"detail": "Request was throttled. Expected available in 3 seconds."}, Retry-After: 3
 * ```
 */
export class Throttled extends APIException {
  static override readonly statusCode = 429;
  static override readonly defaultDetail = 'Request was throttled.';
  static override readonly defaultCode = 'throttled';

  /**
   * DRF's `Throttled(wait)`: "Request was throttled. Expected available in 5 seconds." with
   * `Retry-After: 5` (whole seconds, rounded up); without a wait, the default detail alone.
   *
   * @example
   * ```ts
   * throw Throttled.withWait(4.2); // 429, Retry-After: 5
   * ```
   */
  static withWait(waitSeconds: number | null): Throttled {
    if (waitSeconds === null) return new Throttled();
    const wait = Math.max(0, Math.ceil(waitSeconds));
    const unit = wait === 1 ? 'second' : 'seconds';
    const error = new Throttled(
      `${Throttled.defaultDetail} Expected available in ${wait} ${unit}.`,
    );
    error.headers['Retry-After'] = String(wait);
    return error;
  }
}

/**
 * 431: the request's headers are larger than the server accepts (found by Node's HTTP parser).
 *
 * @example
 * ```ts
 * throw new RequestHeaderFieldsTooLarge(); // 431 {"detail": "Request header fields are too large."}
 * ```
 */
export class RequestHeaderFieldsTooLarge extends APIException {
  static override readonly statusCode = 431;
  static override readonly defaultDetail = 'Request header fields are too large.';
  static override readonly defaultCode = 'request_header_fields_too_large';
}

/**
 * 503: the database (or another dependency) is unavailable right now.
 *
 * @example
 * ```ts
 * throw new ServiceUnavailable(); // 503 {"detail": "Service temporarily unavailable, try again later."}, Retry-After: 1
 * ```
 */
export class ServiceUnavailable extends APIException {
  static override readonly statusCode = 503;
  // Typed wide: StorageUnavailable has its own detail and code.
  static override readonly defaultDetail: string =
    'Service temporarily unavailable, try again later.';
  static override readonly defaultCode: string = 'service_unavailable';

  constructor(detail?: string, code?: string) {
    super(detail, code);
    // An outage is short, or meant to be: clients may retry after a second.
    this.headers['Retry-After'] = '1';
  }
}

/**
 * 503 of a file storage that cannot serve now: an object store (`S3Storage`) that cannot be
 * reached, times out or answers with a server error while a request stores, reads or serves a
 * file. No fault of the client's, and worth a retry (`Retry-After: 1`, as every 503). A write
 * that failed this way is rolled back: no row names a file that was not stored. The storage's
 * own error is the `cause`, for the log.
 *
 * @example
 * ```ts
 * throw new StorageUnavailable(); // 503 {"detail": "The file storage is unavailable, try again later."}
 * ```
 */
export class StorageUnavailable extends ServiceUnavailable {
  static override readonly defaultDetail = 'The file storage is unavailable, try again later.';
  static override readonly defaultCode = 'storage_unavailable';
}

/** Every HTTP error class, for the catalogue test and the docs. */
export const API_EXCEPTIONS = [
  ValidationError,
  ParseError,
  DisallowedHost,
  AuthenticationFailed,
  InvalidToken,
  NotAuthenticated,
  PermissionDenied,
  NotFound,
  MethodNotAllowed,
  NotAcceptable,
  RequestTimeout,
  PreconditionFailed,
  PayloadTooLarge,
  UnsupportedMediaType,
  PreconditionRequired,
  Throttled,
  RequestHeaderFieldsTooLarge,
  ServiceUnavailable,
  StorageUnavailable,
] as const;
