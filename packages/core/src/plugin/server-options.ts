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
 * import { Database, restFramework, serverOptions } from '@restframework/core';
 *
 * const app = Fastify({ logger: true, ...serverOptions({ requestTimeout: 30_000 }) });
 * await app.register(restFramework, { database: Database.connect('sqlite:db.sqlite3') });
 * ```
 * @module
 */
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ParseError,
  RequestHeaderFieldsTooLarge,
  RequestTimeout,
} from '../errors/api-exception.ts';
import { fastifyErrorToApi } from '../errors/fastify-error-to-api.ts';
import { SECURITY_HEADERS, writeRawAnswer } from '../http/raw-answer.ts';
import { sendResponse } from '../http/send-response.ts';
import { genReqId } from '../server/request-id.ts';
import {
  contextOutsideView,
  type ExceptionHandler,
  exceptionHandler,
} from '../views/exception-handler.ts';
import { respondToException } from '../views/exception-response.ts';

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
  /** How long a client may take to send a whole request, in ms (Fastify's own check). */
  readonly requestTimeout: number;
  /** How long an idle connection stays open after its last answer, in ms. */
  readonly keepAliveTimeout: number;
  /** Options of Node's HTTP server: its own deadlines, checked often enough to hold. */
  readonly http: {
    /** The deadline of a whole request (headers and body), in ms. */
    readonly requestTimeout: number;
    /** The deadline of the headers, in ms: the request's own. */
    readonly headersTimeout: number;
    /** How often Node checks the deadlines, in ms: a quarter of the timeout, from 100 to 1000. */
    readonly connectionsCheckingInterval: number;
  };
  /** Answers requests Node's parser gave up on (408, 431, 400) with the usual error body. */
  readonly clientErrorHandler: typeof clientErrorHandler;
  /** Answers what fails while Fastify picks a route (a broken percent-escape) as the app's 400/404. */
  readonly frameworkErrors: typeof frameworkErrors;
  /** A well-formed incoming `X-Request-Id`, else a new UUID (`server/request-id.ts`). */
  readonly genReqId: typeof genReqId;
  /** Off: `genReqId` reads (and checks) `X-Request-Id` itself. */
  readonly requestIdHeader: false;
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
    genReqId,
    requestIdHeader: false,
  };
}

/**
 * Fastify's `clientErrorHandler` option, for requests the HTTP parser gives up on: writes the
 * exception handler's JSON answer to a 408, 431 or 400 (`{"detail": ...}` by default) with the
 * security headers and
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
  const exception =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new RequestHeaderFieldsTooLarge()
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new RequestTimeout()
        : new ParseError();
  this?.log?.debug({ err: error }, 'client error');
  const context = contextOutsideView(null);
  const response = respondToException(exception, context, handlerOf(this), this?.log);
  writeRawAnswer(socket, response.status, response.data, response.headers);
}

/**
 * Fastify's `frameworkErrors` option, for what fails while Fastify picks a route: a URL with
 * a broken percent-escape is 400 `{"detail": "The URL is not valid."}`, a path parameter
 * longer than Fastify accepts is 404 (no row has such a key), each answered by the app's
 * exception handler. Without it Fastify answers in its own shape, without the security
 * headers, echoing the path.
 */
export function frameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply | Promise<FastifyReply> {
  // Each error Fastify passes here is the request's doing (no route can be picked for it).
  const api = fastifyErrorToApi(error) ?? new ParseError();
  const context = contextOutsideView(request);
  const response = respondToException(api, context, handlerOf(request.server));
  // No hook ran for this request: the security headers are set here.
  const headers = response.headers;
  for (const name in SECURITY_HEADERS) headers[name] ??= SECURITY_HEADERS[name] as string;
  headers.Vary ??= 'Accept';
  return sendResponse(undefined, null, response, reply);
}

/**
 * The app's exception handler: these options are made before the app, and the settings come
 * with the restFramework plugin; until it is registered, the default handler.
 */
function handlerOf(app: FastifyInstance | undefined): ExceptionHandler {
  if (!app?.hasDecorator('restFramework')) return exceptionHandler;
  return app.restFramework.settings.EXCEPTION_HANDLER;
}
