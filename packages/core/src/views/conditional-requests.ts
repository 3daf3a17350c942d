/**
 * Conditional requests in generic views (beyond DRF): the validators of a row (`ETag` from a
 * version column, `Last-Modified` from a modification-time column, or a weak `ETag` hashed
 * from the rendered body), 304 for a read the client already has, and the preconditions of a
 * write (412 when the row changed, 428 when the view requires one), checked and written in
 * one statement of the write's transaction (`db/bump-row-version.ts`), so that no update is
 * lost between the check and the write.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override versionField = 'version';         // ETag: "3.json"; If-Match checked on writes
 *   override lastModifiedField = 'updated_at'; // Last-Modified; If-(Un)Modified-Since
 *   override requirePrecondition = true;       // PUT/PATCH/DELETE without If-Match: 428
 * }
 * ```
 * @module
 */
import { bumpRowVersion } from '../db/bump-row-version.ts';
import {
  NotFound,
  ParseError,
  PreconditionFailed,
  PreconditionRequired,
} from '../errors/api-exception.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { evaluatePreconditions, formatHttpDate } from '../http/conditional-headers.ts';
import type { Request } from '../http/request.ts';
import { Response } from '../http/response.ts';
import type { GenericAPIView } from './generic-api-view.ts';

const INTEGER_KINDS = new Set([
  'integer',
  'positive_integer',
  'small_integer',
  'positive_small_integer',
  'big_integer',
]);

/** The validator headers of a row: `ETag`, `Last-Modified`. */
function validatorHeaders(
  etag: string | null,
  lastModified: number | null,
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (etag !== null) headers.ETag = etag;
  if (lastModified !== null) headers['Last-Modified'] = formatHttpDate(new Date(lastModified));
  return headers;
}

/** True when the view declares a validator or requires a precondition. */
function hasValidators(view: GenericAPIView, request: Request): boolean {
  return (
    view.versionField !== undefined ||
    view.lastModifiedField !== undefined ||
    view.requirePrecondition ||
    (view.useETags ?? request.settings.USE_ETAGS)
  );
}

/**
 * The answer of a read (retrieve, list): `response` with the validators of `instance` (null
 * for a list), or 304 with them when the request's preconditions say the client has it.
 * Nothing is asked of the request when the view declares no validator. The response is made
 * before (and dropped on a 304): a function to make it would cost every read a closure.
 *
 * @example
 * ```ts-fragment
 * return thenMaybe(this.getObject(), (instance) =>
 *   conditionalRead(this, instance, new Response(this.getSerializer({ instance }).data)),
 * );
 * ```
 */
export function conditionalRead(
  view: GenericAPIView,
  instance: Record<string, unknown> | null,
  response: Response,
): Response {
  const hashing = view.useETags ?? view.request.settings.USE_ETAGS;
  if (view.versionField === undefined && view.lastModifiedField === undefined && !hashing)
    return response;
  // An HTML page (the browsable API) shows the user, forms and a CSRF token besides the row:
  // a 304 would show a browser its copy of someone else's page state. No validators there.
  if (view.request.acceptedMediaType === 'text/html') return response;
  const etag = instance === null ? null : view.getETag(instance);
  const lastModified = instance === null ? null : view.getLastModified(instance);
  const hashed = etag === null && hashing;
  if (etag === null && lastModified === null && !hashed) return response;
  const request = view.request;
  const outcome = evaluatePreconditions(
    request.raw.headers,
    request.method,
    { etag, lastModified },
    hashed,
  );
  if (outcome.result === 'not-modified')
    return new Response(null, 304, validatorHeaders(etag, lastModified));
  // A GET whose If-Match or If-Unmodified-Since does not hold: 412, as RFC 9110 13.2.2 says.
  if (outcome.result === 'failed') throw new PreconditionFailed();
  Object.assign(response.headers, validatorHeaders(etag, lastModified));
  if (hashed) response.hashETag = true;
  return response;
}

/**
 * The preconditions of a write on `instance` (PUT, PATCH, DELETE), once the view found it and
 * the caller may change it (a 404 or 403 wins over a 412), on a view that declares a validator
 * (`versionField`, `lastModifiedField`, `useETags`) or `requirePrecondition`: 400 for a malformed `If-Match`,
 * 412 when one does not hold, 428 when the view requires one and there is none. Then, in the
 * write's transaction, the row's validator moves on in one statement that also re-checks it:
 * the version column gets 1 more where it still holds the version read (412 if it no longer
 * does), the modification time becomes now where it is still no later than
 * `If-Unmodified-Since`. A promise when the view has validators, else nothing.
 */
export function checkWritePreconditions(
  view: GenericAPIView,
  request: Request,
  instance: Record<string, unknown>,
): void | Promise<void> {
  // A view that declares no validator answers as DRF does: its writes ignore preconditions.
  if (!hasValidators(view, request)) return;
  const etag = view.getETag(instance);
  const lastModified = view.getLastModified(instance);
  const outcome = evaluatePreconditions(request.raw.headers, request.method, {
    etag,
    lastModified,
  });
  if (outcome.result === 'malformed')
    throw new ParseError(`Malformed ${outcome.header} header: expected "*" or quoted entity tags.`);
  if (outcome.result !== 'proceed') throw new PreconditionFailed();
  if (view.requirePrecondition && !outcome.guarded) throw new PreconditionRequired();
  const versionField = view.versionField;
  const lastModifiedField = view.lastModifiedField;
  if (versionField === undefined && lastModifiedField === undefined) return;
  return moveValidators(view, instance, outcome.guarded, outcome.unmodifiedSince);
}

async function moveValidators(
  view: GenericAPIView,
  instance: Record<string, unknown>,
  guarded: boolean,
  unmodifiedSince: number | null,
): Promise<void> {
  const queryset = view.getQueryset();
  const model = queryset.model;
  const pk = instance[model.pk.attname];
  const versionField = view.versionField;
  let written = true;
  if (versionField !== undefined) {
    const read = Number(instance[versionField]);
    written = await bumpRowVersion(view.database, model, pk, versionField, read);
  } else if (view.lastModifiedField !== undefined) {
    const field = view.lastModifiedField;
    const filter: Record<string, unknown> = { pk };
    // HTTP dates have seconds: the row passes while its time is before the next second.
    if (unmodifiedSince !== null) filter[`${field}__lt`] = new Date(unmodifiedSince + 1000);
    const values: Record<string, unknown> = {};
    values[field] = new Date().toISOString();
    written = (await queryset.model.objects.filter(filter).using(view.database).update(values)) > 0;
  }
  if (written) return;
  // Another writer changed (or deleted) the row between the read and this write.
  throw guarded ? new PreconditionFailed() : new NotFound();
}

/**
 * Adds the validators of the row a write stored (`ETag`, `Last-Modified`) to its response.
 */
export function writtenValidators(
  view: GenericAPIView,
  stored: unknown,
  response: Response,
): Response {
  if (view.versionField === undefined && view.lastModifiedField === undefined) return response;
  if (stored === null || typeof stored !== 'object') return response;
  const row = stored as Record<string, unknown>;
  Object.assign(response.headers, validatorHeaders(view.getETag(row), view.getLastModified(row)));
  return response;
}

/**
 * Start-up check of a generic view's conditional fields: `versionField` names an integer
 * field of the query set's model, `lastModifiedField` a date or date-time field.
 */
export function checkConditionalFields(view: GenericAPIView): void {
  const model = view.queryset?.model;
  const { versionField, lastModifiedField } = view;
  if (model === undefined || (versionField === undefined && lastModifiedField === undefined))
    return;
  const name = view.constructor.name;
  if (versionField !== undefined) {
    const field = model.getField(versionField);
    if (!field || !INTEGER_KINDS.has(field.kind)) {
      throw new ImproperlyConfigured(
        'REST_ERR_CONDITIONAL',
        `${name}.versionField = ${JSON.stringify(versionField)}: ${model.name} has no integer field of that name. ` +
          `Add an integer field (version: models.IntegerField({ default: 0 })) and name it, or remove versionField.`,
      );
    }
    // A client that sent the version back would set it (back) itself: its writes are the view's.
    const writable = view.serializerClass?.prepare().writable ?? [];
    const sent = writable.find((f) => (f.source ?? f.fieldName) === versionField);
    if (sent) {
      throw new ImproperlyConfigured(
        'REST_ERR_CONDITIONAL',
        `${name}.versionField = ${JSON.stringify(versionField)}: ${view.serializerClass?.name} lets clients write "${sent.fieldName}". ` +
          `Make it read-only (readOnlyFields: ['${sent.fieldName}']): the view counts the versions.`,
      );
    }
  }
  if (lastModifiedField !== undefined) {
    const field = model.getField(lastModifiedField);
    if (!field || (field.kind !== 'datetime' && field.kind !== 'date')) {
      throw new ImproperlyConfigured(
        'REST_ERR_CONDITIONAL',
        `${name}.lastModifiedField = ${JSON.stringify(lastModifiedField)}: ${model.name} has no date-time field of that name. ` +
          `Name a DateTimeField (updated_at: models.DateTimeField({ autoNow: true })), or remove lastModifiedField.`,
      );
    }
  }
}
