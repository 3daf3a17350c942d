/**
 * The adapter between Fastify and a view: a Fastify request becomes the toolkit's `Request`,
 * runs the view's `dispatch`, and its `Response` is sent; what fails outside the view (a body
 * Fastify refused, an error that escaped it) is answered by the app's exception handler.
 * Everything here runs per request; what the router prepares once is in `simple-router.ts`.
 * @module
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Database } from '../db/database.ts';
import { NotFound, PayloadTooLarge } from '../errors/api-exception.ts';
import { fastifyErrorToApi } from '../errors/fastify-error-to-api.ts';
import type { UploadedFile } from '../files/uploaded-file.ts';
import { Request } from '../http/request.ts';
import type { Response } from '../http/response.ts';
import { renderResponse, sendResponse } from '../http/send-response.ts';
import type { RestFrameworkState } from '../plugin/rest-framework.ts';
import { isPromiseLike } from '../utils/maybe-promise.ts';
import { type APIView, allowHeaderOf } from '../views/api-view.ts';
import { respondToException } from '../views/exception-response.ts';
import { logUnhandled } from '../views/unhandled-error-log.ts';
import { routeKwargs } from './lookup-patterns.ts';
import type { RoutePlan } from './route-plan.ts';
import type { UrlAliases, ViewSetClass } from './simple-router.ts';

/** What a route of a router carries in its Fastify `config`: its view, the view's extras, its plan. */
export interface RouteConfig {
  readonly viewset: ViewSetClass;
  readonly extra: Readonly<Record<string, unknown>>;
  readonly plan: RoutePlan;
}

/**
 * The Fastify handler of one route: runs the view of its plan (see `route-plan.ts`).
 *
 * @example
 * ```ts
 * declare const state: RestFrameworkState; // the app's, as restFramework made it
 *
 * class HealthView extends APIView {
 *   async get(_request: Request) {
 *     return new Response({ status: 'ok' });
 *   }
 * }
 * declare const planOf: (view: typeof HealthView) => Parameters<typeof viewRouteHandler>[0];
 * const plan = planOf(HealthView); // buildRoutePlan(HealthView, {}, state.database), in route-plan.ts
 * app.route({ method: 'GET', url: '/health/', handler: viewRouteHandler(plan, state) });
 * ```
 */
export function viewRouteHandler(
  plan: RoutePlan,
  state: RestFrameworkState,
): (req: FastifyRequest, reply: FastifyReply) => void {
  // Not async: a Fastify handler that answers through `reply` and returns nothing is not
  // waited on, where an async one resolving to the reply (a thenable) cost a promise job
  // per request.
  return (req, reply) => {
    try {
      const done = handleRequest(req, reply, plan, state);
      if (isPromiseLike(done))
        done.then(undefined, (error: unknown) => handlerFailed(req, reply, error));
    } catch (error) {
      handlerFailed(req, reply, error);
    }
  };
}

/**
 * The Fastify error handler of a router's routes: Fastify's own errors (a body too large, a
 * `Content-Length` that lies) as the toolkit's, anything else as it is, answered by the app's
 * exception handler with the route's `Allow` and `Vary`.
 */
export function routeErrorHandler(
  state: RestFrameworkState,
): (error: FastifyError, req: FastifyRequest, reply: FastifyReply) => unknown {
  return (error, req, reply) => {
    const api = fastifyErrorToApi(error);
    const config = req.routeOptions.config as Partial<RouteConfig>;
    const view = config.plan ? makeView(config.plan, req.method) : null;
    const params = (req.params ?? {}) as Record<string, string>;
    const patterns = config.plan?.patterns;
    const context = {
      view,
      // Set when the error escaped a view that had started.
      request: req.restRequest ?? null,
      raw: req,
      kwargs: (patterns && routeKwargs(patterns, params)) ?? params,
    };
    const response = respondToException(api ?? error, context, state.settings.EXCEPTION_HANDLER);
    const headers = response.headers;
    headers.Vary ??= 'Accept';
    if (view) headers.Allow ??= allowHeaderOf(view);
    // The body was not read to its end; do not wait for the rest of it.
    if (api instanceof PayloadTooLarge) headers.Connection = 'close';
    return sendResponse(undefined, view, response, reply);
  };
}

/**
 * Runs a view for one request and sends its response: at once when the view answered at
 * once (a read that waited for nothing), else once it has. A promise only while a renderer
 * is at work; what fails later goes to {@link handlerFailed} itself.
 */
function handleRequest(
  req: FastifyRequest,
  reply: FastifyReply,
  plan: RoutePlan,
  state: RestFrameworkState,
): void | Promise<void> {
  const request = new Request(req, reply, state.settings, state.urls);
  req.restRequest = request;
  const aliases = (plan.extra.urlAliases as UrlAliases | undefined)?.map;
  if (aliases !== undefined) request.urlAliases = aliases;
  const view = makeView(plan, req.method);
  const db = state.database;
  const params = req.params as Record<string, string>;
  const patterns = plan.patterns;
  const kwargs = patterns === undefined ? params : routeKwargs(patterns, params);
  if (kwargs === undefined) {
    // The route does not match (a lookup that is no `int`): 404, as a URL no route has.
    const refused = refuse(view, request, params, new NotFound());
    return renderResponse(request, view, refused, reply, view.getRenderers());
  }
  // Database.run calls its function at once when the database is already the current one
  // (the app's default, the usual case): the view is then dispatched without a closure.
  // An app of several databases records per request what it wrote (its routers read it).
  const response =
    db.routing !== undefined
      ? db.runRequest(() => view.dispatch(request, kwargs))
      : Database.current() === db
        ? view.dispatch(request, kwargs)
        : db.run(() => view.dispatch(request, kwargs));
  // A view that answered at once read no body, so it has no uploads to remove.
  if (!isPromiseLike(response) && request.uploadedFiles.length === 0)
    return renderResponse(request, view, response, reply, view.getRenderers());
  // One reaction on the view's promise, which sends or reports: an async function here cost
  // a promise of its own, and the handler's catch on it another promise and microtask turn.
  Promise.resolve(response).then(
    (done) => sendWhenDone(req, reply, request, view, done),
    (error: unknown) => failWhenDone(req, reply, request, error),
  );
}

/**
 * Sends the response of a view that had to wait, once its uploads' temporary files are gone
 * (whatever became of the view: the client may be gone too).
 */
function sendWhenDone(
  req: FastifyRequest,
  reply: FastifyReply,
  request: Request,
  view: APIView,
  response: Response,
): void {
  try {
    const files = request.uploadedFiles;
    const send = () => renderResponse(request, view, response, reply, view.getRenderers());
    const sent = files.length ? discardAll(files).then(send) : send();
    if (isPromiseLike(sent))
      sent.then(undefined, (error: unknown) => handlerFailed(req, reply, error));
  } catch (error) {
    handlerFailed(req, reply, error);
  }
}

/** A view's promise that failed (a bug: its errors are responses), after its uploads went. */
function failWhenDone(
  req: FastifyRequest,
  reply: FastifyReply,
  request: Request,
  error: unknown,
): void {
  const files = request.uploadedFiles;
  if (files.length === 0) {
    handlerFailed(req, reply, error);
    return;
  }
  // As a `finally` would: an upload that cannot be removed is the error reported.
  discardAll(files).then(
    () => handlerFailed(req, reply, error),
    (discardError: unknown) => handlerFailed(req, reply, discardError),
  );
}

function discardAll(files: readonly UploadedFile[]): Promise<unknown> {
  return Promise.all(files.map((file) => file.discard()));
}

/** What escaped a view (its errors are responses): Fastify's error handler, or the log. */
function handlerFailed(req: FastifyRequest, reply: FastifyReply, error: unknown): void {
  if (reply.sent) logUnhandled(req, req.log, 'error after the response was sent', error);
  else reply.send(error instanceof Error ? error : new Error(String(error)));
}

/** The view's answer to `error` before anything else ran (but content negotiation). */
function refuse(
  view: APIView,
  request: Request,
  params: Readonly<Record<string, string>>,
  error: Error,
): Response {
  view.request = request;
  view.kwargs = params;
  let response: Response;
  try {
    view.performContentNegotiation(request);
    response = view.handleException(error);
  } catch (negotiation) {
    response = view.handleException(negotiation);
  }
  return view.finalizeResponse(request, response);
}

/** A view for one request: the route's view class (extras and database on it), the method's action. */
export function makeView(plan: RoutePlan, method: string): APIView {
  const view = new plan.View() as APIView & { action?: string | undefined };
  const actions = plan.actions;
  if (actions !== undefined) view.action = actions[method];
  return view;
}
