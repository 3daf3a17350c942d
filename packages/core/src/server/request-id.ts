/**
 * Request ids: each request gets an id that Fastify puts in every log line of the request
 * (`reqId`) and the toolkit's plugin sends back in `X-Request-Id`, so that a client's report,
 * a proxy's log and the app's log can be matched. An id a proxy or client already gave
 * (`X-Request-Id`) is kept when it is well formed: 1 to 128 characters among letters, digits
 * and `-_.:`; anything else (too long, spaces, control characters that could forge log
 * lines) is replaced by a new random UUID.
 *
 * `serverOptions()` sets it as Fastify's `genReqId`.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { genReqId } from '@restframework/core';
 *
 * const app = Fastify({ logger: true, genReqId, requestIdHeader: false });
 * ```
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What an incoming `X-Request-Id` must look like to be kept. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: its well-formed `X-Request-Id`, else a new UUID. */
export function genReqId(raw: IncomingMessage): string {
  const given = raw.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
}
