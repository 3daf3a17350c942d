/**
 * Fastify server options for a toolkit app: answers in the toolkit's shape, with the security
 * headers, for what fails before any route runs (a URL that is not valid, a client that takes
 * too long, headers too large, bytes that are not HTTP), and request deadlines that Node
 * actually enforces on time. They are options of `Fastify()` itself, so a plugin cannot set
 * them: spread them into the app's options.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { restFramework, serverOptions } from '@restframework/core';
 *
 * const app = Fastify({ logger: true, ...serverOptions({ requestTimeout: 30_000 }) });
 * await app.register(restFramework, { database });
 * ```
 * @module
 */
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFound, ParseError, RequestTimeout } from '../errors/api-exception.ts';
import { SECURITY_HEADERS, writeRawAnswer } from '../http/raw-answer.ts';
import { Response } from '../http/response.ts';
import { sendResponse } from '../http/send-response.ts';
import { fastifyErrorToApi } from './rest-framework.ts';

/** Options of {@link serverOptions}. */
export interface ServerOptionsInput {
  /**
   * How long a client may take to send a whole request (headers and body), in ms; 408 after
   * that. Default 30 000.
   */
  readonly requestTimeout?: number;
  /**
   * How long an idle connection stays open after its last answer, in ms (default 72 000,
   * Fastify's own, longer than a load balancer's usual 60 s). It is also the bound for a
   * client that never reads answers small enough to sit whole in the kernel's buffers: to the
   * server such a connection is idle.
   */
  readonly keepAliveTimeout?: number;
}

/** What {@link serverOptions} returns: options for `Fastify()`. */
export interface ToolkitServerOptions {
  readonly requestTimeout: number;
  readonly keepAliveTimeout: number;
  readonly http: {
    readonly requestTimeout: number;
    readonly headersTimeout: number;
    readonly connectionsCheckingInterval: number;
  };
  readonly clientErrorHandler: typeof clientErrorHandler;
  readonly frameworkErrors: typeof frameworkErrors;
}

/**
 * Options for `Fastify()`: `requestTimeout` for headers and body alike, checked often enough
 * to be kept (Node checks deadlines every `connectionsCheckingInterval`, 30 s by default,
 * which would let a slow client hold its connection up to twice the timeout), and the two
 * handlers below.
 */
export function serverOptions(input: ServerOptionsInput = {}): ToolkitServerOptions {
  const requestTimeout = input.requestTimeout ?? 30_000;
  return {
    requestTimeout,
    keepAliveTimeout: input.keepAliveTimeout ?? 72_000,
    http: {
      requestTimeout,
      headersTimeout: requestTimeout,
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(requestTimeout / 4))),
    },
    clientErrorHandler,
    frameworkErrors,
  };
}

/**
 * Fastify's `clientErrorHandler` option, for requests the HTTP parser gives up on: writes a
 * 408, 431 or 400 JSON answer (`{"detail": ...}`) with the security headers and
 * `Connection: close`, then closes the socket. Does nothing to a socket that is already
 * gone, and only closes one whose response has begun (a second response would corrupt it).
 */
export function clientErrorHandler(
  this: FastifyInstance | undefined,
  error: Error & { code?: string },
  socket: Socket,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  let status: number;
  let data: unknown;
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    // Not an APIException: no view can raise it, only Node's HTTP parser.
    status = 431;
    data = { detail: 'Request header fields are too large.' };
  } else {
    const exception =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? new RequestTimeout() : new ParseError();
    status = exception.statusCode;
    data = exception.toJSON();
  }
  this?.log?.debug({ err: error }, 'client error');
  writeRawAnswer(socket, status, data);
}

/**
 * Fastify's `frameworkErrors` option, for what fails while Fastify picks a route: a URL with
 * a broken percent-escape is 400 `{"detail": "The URL is not valid."}`, a path parameter
 * longer than Fastify accepts is 404 (no row has such a key). Without it Fastify answers in
 * its own shape, without the security headers, echoing the path.
 */
export function frameworkErrors(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply | Promise<FastifyReply> {
  const api =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new NotFound()
      : (fastifyErrorToApi(error) ?? new ParseError());
  return sendResponse(
    undefined,
    null,
    new Response(api.toJSON(), api.statusCode, { ...SECURITY_HEADERS, Vary: 'Accept' }),
    reply,
  );
}
