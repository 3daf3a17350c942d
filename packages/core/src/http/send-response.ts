/**
 * Writes a view's `Response` to Fastify's reply with the negotiated renderer.
 * @module
 */
import type { FastifyReply } from 'fastify';
import { JSONRenderer } from '../renderers/json-renderer.ts';
import type { Renderer } from '../renderers/renderer.ts';
import type { Request } from './request.ts';
import type { Response } from './response.ts';

const FALLBACK = new JSONRenderer();

/**
 * Renders and sends. A 204 has no body and no `Content-Type`; a renderer that failed
 * negotiation (406) falls back to JSON, as DRF does.
 */
export function sendResponse(
  request: Request | undefined,
  view: unknown,
  response: Response,
  reply: FastifyReply,
  renderers: readonly Renderer[] = [],
): FastifyReply {
  reply.code(response.status);
  for (const [name, value] of Object.entries(response.headers)) reply.header(name, value);
  if (request?.closeConnection) reply.header('Connection', 'close');
  if (response.status === 204 || response.status === 304) return reply.send();
  const renderer =
    request?.acceptedRenderer ??
    renderers.find((r) => r.format === 'json') ??
    renderers[0] ??
    FALLBACK;
  const body = request
    ? renderer.render(response.data, { request, response, view })
    : FALLBACK.render(response.data);
  reply.header(
    'Content-Type',
    renderer.charset ? `${renderer.mediaType}; charset=${renderer.charset}` : renderer.mediaType,
  );
  // Fastify adds "; charset=utf-8" to JSON sent as a string; bytes go out as they are.
  return reply.send(typeof body === 'string' ? Buffer.from(body) : body);
}
