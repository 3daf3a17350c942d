/**
 * What conditional requests add to an OpenAPI operation of a generic view that declares
 * validators (`versionField`, `lastModifiedField`, `useETags`) or `requirePrecondition`: the
 * `ETag` and `Last-Modified` response headers, the `If-None-Match` / `If-Modified-Since`
 * parameters and the 304 of reads, the `If-Match` / `If-Unmodified-Since` parameters and the
 * 412 (and 428) of writes.
 * @module
 */
import { PreconditionFailed, PreconditionRequired } from '../errors/api-exception.ts';
import type { APIView } from '../views/api-view.ts';
import { GenericAPIView } from '../views/generic-api-view.ts';

const ETAG_HEADER = {
  description:
    'The entity tag of the representation: strong (`"3.json"`) from the row version, weak (`W/"…"`) when hashed from the body.',
  schema: { type: 'string' },
};
const LAST_MODIFIED_HEADER = {
  description: 'When the row last changed (an HTTP date).',
  schema: { type: 'string' },
};

function headerParameter(name: string, description: string, required = false) {
  return { name, in: 'header', required, description, schema: { type: 'string' } };
}

/**
 * Adds the conditional headers, parameters and responses to `operation` (its `responses`
 * given apart, as the generator builds them). `optional(name)` names a shared response and
 * marks it used.
 *
 * @example
 * ```ts-fragment
 * addConditionalHeaders(view, 'get', true, operation, responses, (name) => ref(name));
 * ```
 */
export function addConditionalHeaders(
  view: APIView,
  method: string,
  detail: boolean,
  operation: Record<string, unknown>,
  responses: Record<string, unknown>,
  optional: (name: string) => unknown,
): void {
  if (!(view instanceof GenericAPIView)) return;
  const version = view.versionField !== undefined && detail;
  const modified = view.lastModifiedField !== undefined && detail;
  const hashed = view.versionField === undefined && (view.useETags ?? view.settings.USE_ETAGS);
  const tagged = version || hashed;
  const parameters = (operation.parameters as unknown[] | undefined) ?? [];
  if (method === 'get') {
    if (!tagged && !modified) return;
    const ok = responses['200'] as Record<string, unknown> | undefined;
    const headers: Record<string, unknown> = {};
    if (tagged) headers.ETag = ETAG_HEADER;
    if (modified) headers['Last-Modified'] = LAST_MODIFIED_HEADER;
    if (ok) ok.headers = { ...(ok.headers as object | undefined), ...headers };
    if (tagged)
      parameters.push(
        headerParameter(
          'If-None-Match',
          'Entity tags the client has: 304 when one is current (weak comparison).',
        ),
      );
    if (modified)
      parameters.push(
        headerParameter(
          'If-Modified-Since',
          'An HTTP date: 304 when the row has not changed since.',
        ),
      );
    responses['304'] = {
      description: 'Not modified: the client’s copy is current. No body.',
      headers,
    };
  } else if (detail && (method === 'put' || method === 'patch' || method === 'delete')) {
    if (!tagged && !modified && !view.requirePrecondition) return;
    const required = view.requirePrecondition && !modified;
    parameters.push(
      headerParameter(
        'If-Match',
        'The `ETag` the client read (strong comparison): 412 when the row changed since.',
        required,
      ),
    );
    if (modified)
      parameters.push(
        headerParameter('If-Unmodified-Since', 'An HTTP date: 412 when the row changed after it.'),
      );
    responses['412'] = optional('PreconditionFailed');
    if (view.requirePrecondition) responses['428'] = optional('PreconditionRequired');
    const ok = responses['200'] as Record<string, unknown> | undefined;
    if (ok && (version || modified)) {
      const headers: Record<string, unknown> = {};
      if (version) headers.ETag = ETAG_HEADER;
      if (modified) headers['Last-Modified'] = LAST_MODIFIED_HEADER;
      ok.headers = { ...(ok.headers as object | undefined), ...headers };
    }
  } else return;
  if (parameters.length) operation.parameters = parameters;
}

/** The shared responses of conditional writes, for `components.responses`. */
export function conditionalResponses(
  detail: (description: string, example: string) => Record<string, unknown>,
): Record<string, unknown> {
  return {
    PreconditionFailed: detail(
      'A precondition (`If-Match`, `If-Unmodified-Since`) does not hold: the row changed. Read it again.',
      new PreconditionFailed().message,
    ),
    PreconditionRequired: detail(
      'The view requires `If-Match` (or `If-Unmodified-Since`) on writes.',
      new PreconditionRequired().message,
    ),
  };
}
