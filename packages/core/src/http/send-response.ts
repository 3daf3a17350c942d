/**
 * Writes a view's `Response` to Fastify's reply with the negotiated renderer.
 * @module
 */
import { hash } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyReply } from 'fastify';
import { JSONRenderer } from '../renderers/json-renderer.ts';
import type { RenderContext, Renderer } from '../renderers/renderer.ts';
import { isPromiseLike, thenMaybe } from '../utils/maybe-promise.ts';
import { noneMatchHolds, parseEntityTags } from './conditional-headers.ts';
import type { Request } from './request.ts';
import type { Response } from './response.ts';

const FALLBACK = new JSONRenderer();

/**
 * {@link renderResponse}, answering with the reply, as Fastify's hooks and error handlers
 * return it once it is sent.
 */
export function sendResponse(
  request: Request | undefined,
  view: unknown,
  response: Response,
  reply: FastifyReply,
  renderers: readonly Renderer[] = [],
): FastifyReply | Promise<FastifyReply> {
  const sent = renderResponse(request, view, response, reply, renderers);
  return isPromiseLike(sent) ? sent.then(() => reply) : reply;
}

/**
 * Renders and sends. A 204 has no body and no `Content-Type`; a renderer that failed
 * negotiation (406) falls back to JSON, as DRF does. A renderer that answers with a promise
 * (the browsable API) is awaited; its own headers (`getHeaders`) are added. A promise only
 * while a renderer is at work: the reply itself is a thenable, but waiting on it only waits
 * for Fastify to say "already sent", so it is never returned here.
 */
export function renderResponse(
  request: Request | undefined,
  view: unknown,
  response: Response,
  reply: FastifyReply,
  renderers: readonly Renderer[] = [],
): void | Promise<void> {
  reply.code(response.status);
  const headers = response.headers;
  for (const name in headers) {
    if (name === 'Vary') setVary(reply, headers[name] as string);
    else reply.header(name, headers[name]);
  }
  if (request?.closeConnection) reply.header('connection', 'close');
  if (reply.getHeader('connection') === 'close') lingerOnClose(reply);
  if (response.status === 204 || response.status === 304) {
    reply.send();
    return;
  }
  const rendered = response.rendered;
  if (rendered !== undefined) {
    if (response.hashETag && notModified(reply, rendered.body)) {
      reply.code(304).send();
      return;
    }
    reply.header('content-type', rendered.contentType);
    // Bytes go out as they are (Fastify sets their Content-Length without measuring text).
    if (typeof rendered.body === 'string') reply.serializer(asItIs);
    reply.send(rendered.body);
    return;
  }
  const renderer: Renderer = request
    ? (request.acceptedRenderer ??
      renderers.find((r) => r.format === 'json') ??
      renderers[0] ??
      FALLBACK)
    : FALLBACK;
  const context = request ? { request, response, view } : undefined;
  const body = context ? renderer.render(response.data, context) : FALLBACK.render(response.data);
  return thenMaybe(body, (bytes) => {
    if (response.hashETag && response.status === 200 && notModified(reply, bytes)) {
      reply.code(304).send();
      return;
    }
    send(reply, renderer, context, bytes, response.onRendered);
  });
}

/**
 * Sets the weak `ETag` of a rendered body and says whether the request's `If-None-Match`
 * names it. Weak: the tag stands for the representation's data, not for the bytes a
 * compressing proxy or plugin may send instead (RFC 9110, 8.8.1).
 */
function notModified(reply: FastifyReply, bytes: string | Buffer): boolean {
  const etag = `W/"${hash('sha1', bytes, 'base64url')}"`;
  reply.header('etag', etag);
  const ifNoneMatch = reply.request.headers['if-none-match'];
  if (ifNoneMatch === undefined) return false;
  const tags = parseEntityTags(ifNoneMatch);
  // A malformed list is ignored: the client gets the full answer.
  return tags !== null && !noneMatchHolds(tags, etag);
}

/**
 * The view's `Vary`, beside what a hook set before the view ran (CORS's `Origin`): replacing
 * it would let a cache serve one origin's answer to another.
 */
function setVary(reply: FastifyReply, vary: string): void {
  const before = reply.getHeader('vary');
  if (before === undefined) {
    reply.header('vary', vary);
    return;
  }
  const names = String(before)
    .split(',')
    .map((n) => n.trim());
  for (const name of vary.split(',')) {
    const trimmed = name.trim();
    if (!names.some((n) => n.toLowerCase() === trimmed.toLowerCase())) names.push(trimmed);
  }
  reply.header('vary', names.join(', '));
}

/** Sends rendered bytes with the renderer's `Content-Type` and own headers. */
function send(
  reply: FastifyReply,
  renderer: Renderer,
  context: RenderContext | undefined,
  bytes: string | Buffer,
  onRendered?: (contentType: string, body: string) => void,
): void {
  const contentType = renderer.charset
    ? `${renderer.mediaType}; charset=${renderer.charset}`
    : renderer.mediaType;
  reply.header('content-type', contentType);
  // A renderer with headers of its own (the browsable API) is not cached: they would be lost.
  if (onRendered !== undefined && typeof bytes === 'string' && !renderer.getHeaders)
    onRendered(contentType, bytes);
  if (context && renderer.getHeaders) {
    for (const [name, value] of Object.entries(renderer.getHeaders(context)))
      reply.header(name, value);
  }
  if (typeof bytes !== 'string') {
    reply.send(bytes);
    return;
  }
  // Text goes out as it is: Fastify leaves a string alone when the reply has a serializer of
  // its own (without one it adds "; charset=utf-8" to a JSON Content-Type). A string, not its
  // bytes: Node writes the head and a string body in one write, where a Buffer body costs a
  // copy here and a writev of two parts.
  reply.serializer(asItIs).send(bytes);
}

function asItIs(text: string): string {
  return text;
}

/** How long a connection closed with an unread body keeps reading (and dropping) it. */
const LINGER_MS = 2000;

/**
 * Closes the connection after this response gently ("lingering close", as nginx and Apache
 * do): the answer and a FIN go out, what the client still sends is read and dropped for up to
 * {@link LINGER_MS}, then the socket is closed. Closing at once, with the client still
 * sending, makes the kernel reset the connection, and the reset makes the client drop the
 * answer it has not read yet: a browser sending too large an upload would show "connection
 * reset" instead of the 413.
 */
function lingerOnClose(reply: FastifyReply): void {
  const socket = reply.raw.socket as (Socket & { destroySoon?: () => void }) | null;
  if (!socket || socket.destroyed) return;
  // Node calls destroySoon() once a `Connection: close` response is sent.
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    // Read the rest of the body into the void, so the client's writes are not refused.
    reply.request.raw.resume();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}
