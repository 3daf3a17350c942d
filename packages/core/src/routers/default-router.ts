/**
 * `DefaultRouter`: the routes of view sets, as a Fastify plugin mounted under a prefix, with
 * an API root, named routes for `reverse()`, and a 301 to the trailing slash.
 *
 * @example
 * ```ts
 * const router = new DefaultRouter();
 * router.register('books', BookViewSet, { basename: 'book' });
 * await app.register(restFramework, { database: db });
 * await app.register(router.plugin, { prefix: '/books/api' });
 * // GET /books/api/            → {"books": "http://host/books/api/books/"}
 * // GET /books/api/books/      → list      (route name "book-list")
 * // GET /books/api/books/1/    → retrieve  (route name "book-detail")
 * ```
 * @module
 */
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HTTPMethods,
} from 'fastify';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyField } from '../fields/field.ts';
import { HyperlinkedIdentityField } from '../fields/hyperlinked-identity-field.ts';
import type { FilterBackendClass } from '../filters/filter-backend.ts';
import { Request } from '../http/request.ts';
import { Response } from '../http/response.ts';
import { sendResponse } from '../http/send-response.ts';
import { installBodyParsers } from '../parsers/install-body-parsers.ts';
import { fastifyErrorToApi, type RestFrameworkState } from '../plugin/rest-framework.ts';
import { Serializer } from '../serializers/serializer.ts';
import { APIView } from '../views/api-view.ts';
import { GenericAPIView } from '../views/generic-api-view.ts';

/** A view class a router can route to. */
export type ViewSetClass = new () => APIView & {
  actionMap?: Readonly<Record<string, string>>;
  action?: string | undefined;
  detail?: boolean;
};

/** Options of {@link DefaultRouter.register}. */
export interface RegisterOptions {
  /** The prefix of route names (`book` → `book-list`, `book-detail`); defaults to the model's name in lower case. */
  readonly basename?: string;
}

interface Registration {
  readonly prefix: string;
  readonly viewset: ViewSetClass;
  readonly basename: string;
}

/** One route shape: its URL (relative to the registration prefix) and its method → action map. */
export interface RouteShape {
  readonly url: string;
  readonly mapping: Readonly<Record<string, string>>;
  readonly name: string;
  readonly detail: boolean;
  readonly suffix: string;
}

const ROUTE_METHODS: HTTPMethods[] = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
];

interface RouteConfig {
  readonly viewset: ViewSetClass;
  readonly extra: Readonly<Record<string, unknown>>;
}

/** The router; see the module documentation. */
export class DefaultRouter {
  readonly #registrations: Registration[] = [];

  /** The route shapes: a list route and a detail route, as DRF's `SimpleRouter`. */
  routes(lookup: string): RouteShape[] {
    return [
      {
        url: '/',
        mapping: { get: 'list', post: 'create' },
        name: '{basename}-list',
        detail: false,
        suffix: 'List',
      },
      {
        url: `/:${lookup}/`,
        mapping: { get: 'retrieve', put: 'update', patch: 'partialUpdate', delete: 'destroy' },
        name: '{basename}-detail',
        detail: true,
        suffix: 'Instance',
      },
    ];
  }

  /** Adds a view set under `prefix` (`books`). */
  register(prefix: string, viewset: ViewSetClass, options: RegisterOptions = {}): this {
    const clean = prefix.replace(/^\/+|\/+$/g, '');
    if (!/^[\w.~-]+(\/[\w.~-]+)*$/.test(clean)) {
      throw new ImproperlyConfigured(
        'REST_ERR_ROUTER',
        `router.register: the prefix ${JSON.stringify(prefix)} is not a URL path.`,
      );
    }
    this.#registrations.push({
      prefix: clean,
      viewset,
      basename: options.basename ?? defaultBasename(viewset),
    });
    return this;
  }

  /** The registrations, in order. */
  get registry(): readonly Registration[] {
    return this.#registrations;
  }

  /** The Fastify plugin that serves the routes; register it with a `prefix`. */
  readonly plugin = async (instance: FastifyInstance): Promise<void> => {
    if (!instance.hasDecorator('restFramework')) {
      throw new ImproperlyConfigured(
        'REST_ERR_ROUTER',
        'Register the restFramework plugin (with a database) before a router: app.register(restFramework, { database }).',
      );
    }
    const state = instance.restFramework;
    const base = instance.prefix.replace(/\/+$/, '');
    installBodyParsers(instance, state.settings);
    instance.setErrorHandler((error: FastifyError, request, reply) =>
      this.#handleFastifyError(error, request, reply, state),
    );

    const rootEntries: [string, string][] = [];
    for (const registration of this.#registrations) {
      const probe = new registration.viewset();
      checkViewSet(probe, registration, state.settings.DEFAULT_FILTER_BACKENDS);
      checkThrottles(probe, state.settings);
      await checkAuthenticators(probe, state.settings);
      await probe.checkConfiguration(state.settings);
      const lookup =
        probe instanceof GenericAPIView ? (probe.lookupUrlKwarg ?? probe.lookupField) : 'pk';
      for (const shape of this.routes(lookup)) {
        const mapping = Object.fromEntries(
          Object.entries(shape.mapping).filter(
            ([, action]) =>
              typeof (probe as unknown as Record<string, unknown>)[action] === 'function',
          ),
        );
        if (Object.keys(mapping).length === 0) continue;
        const url = `/${registration.prefix}${shape.url}`;
        const name = shape.name.replace('{basename}', registration.basename);
        state.urls.add(name, `${base}${url}`);
        state.endpoints.push({
          path: `${base}${url}`,
          name,
          viewset: registration.viewset,
          actionMap: mapping,
          detail: shape.detail,
          suffix: shape.suffix,
          prefix: registration.prefix,
          inSchema: true,
        });
        if (!shape.detail) rootEntries.push([registration.prefix, name]);
        this.#route(
          instance,
          url,
          registration.viewset,
          { actionMap: mapping, detail: shape.detail, suffix: shape.suffix },
          state,
        );
      }
    }
    // Links name routes that any router of the app may register: check them once all are known.
    instance.addHook('onReady', async () => {
      for (const registration of this.#registrations)
        checkLinks(new registration.viewset(), registration, state);
    });
    const RootView = apiRootView(rootEntries);
    this.#route(instance, '/', RootView, {}, state);
    state.endpoints.push({
      path: `${base}/`,
      name: 'api-root',
      viewset: RootView,
      actionMap: {},
      detail: false,
      suffix: undefined,
      prefix: '',
      inSchema: false,
    });
  };

  #route(
    instance: FastifyInstance,
    url: string,
    viewset: ViewSetClass,
    extra: Readonly<Record<string, unknown>>,
    state: RestFrameworkState,
  ): void {
    const config: RouteConfig = { viewset, extra };
    instance.route({
      method: ROUTE_METHODS,
      url,
      exposeHeadRoute: false,
      prefixTrailingSlash: 'slash',
      config: config as never,
      // Not async: a Fastify handler that answers through `reply` and returns nothing is not
      // waited on, where an async one resolving to the reply (a thenable) cost a promise job
      // per request.
      handler: (req: FastifyRequest, reply: FastifyReply) => {
        try {
          const done = handleRequest(req, reply, viewset, extra, state);
          if (done) done.then(undefined, (error: unknown) => handlerFailed(req, reply, error));
        } catch (error) {
          handlerFailed(req, reply, error);
        }
      },
    });
    const bare = url.replace(/\/$/, '');
    instance.route({
      method: ROUTE_METHODS,
      url: bare,
      exposeHeadRoute: false,
      prefixTrailingSlash: 'no-slash',
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
        const path = req.url.slice(0, req.url.length - query.length);
        // GET and HEAD follow a 301 as browsers do; other methods get a 308, which keeps the body.
        const status = req.method === 'GET' || req.method === 'HEAD' ? 301 : 308;
        return reply
          .code(status)
          .header('Location', `${path}/${query}`)
          .type('text/html; charset=utf-8')
          .send('');
      },
    });
  }

  #handleFastifyError(
    error: FastifyError,
    req: FastifyRequest,
    reply: FastifyReply,
    state: RestFrameworkState,
  ) {
    const api = fastifyErrorToApi(error);
    const config = req.routeOptions.config as Partial<RouteConfig>;
    const view = config.viewset
      ? makeView(config.viewset, config.extra ?? {}, state, req.method)
      : null;
    if (!api) {
      req.log.error({ err: error }, 'unhandled error');
      return sendResponse(
        undefined,
        view,
        new Response({ detail: 'A server error occurred.' }, 500),
        reply,
      );
    }
    const headers: Record<string, string> = { ...api.headers, Vary: 'Accept' };
    if (view) headers.Allow = view.allowedMethods.join(', ');
    // The body was not read to its end; do not wait for the rest of it.
    if (api.statusCode === 413) headers.Connection = 'close';
    return sendResponse(
      undefined,
      view,
      new Response(api.toJSON(), api.statusCode, headers, true),
      reply,
    );
  }
}

/**
 * Runs a view for one request and sends its response: at once when the view answered at
 * once (a read that waited for nothing), else a promise of it being sent.
 */
function handleRequest(
  req: FastifyRequest,
  reply: FastifyReply,
  viewset: ViewSetClass,
  extra: Readonly<Record<string, unknown>>,
  state: RestFrameworkState,
): void | Promise<void> {
  const request = new Request(req, reply, state.settings, state.urls);
  req.restRequest = request;
  const view = makeView(viewset, extra, state, req.method);
  const response = state.database.run(() =>
    view.dispatch(request, req.params as Record<string, string>),
  );
  // A view that answered at once read no body, so it has no uploads to remove.
  if (response instanceof Response && request.uploadedFiles.length === 0) {
    const sent = sendResponse(request, view, response, reply, view.getRenderers());
    return sent instanceof Promise ? sent.then(ignore) : undefined;
  }
  return sendWhenDone(request, view, response, reply);
}

async function sendWhenDone(
  request: Request,
  view: APIView,
  pending: Response | Promise<Response>,
  reply: FastifyReply,
): Promise<void> {
  let response: Response;
  try {
    response = await pending;
  } finally {
    // Uploads' temporary files go when the view is done, whatever became of it (the client
    // may be gone).
    const files = request.uploadedFiles;
    if (files.length) await Promise.all(files.map((file) => file.discard()));
  }
  // Not returned: the reply is a thenable, and resolving a promise with it costs a job.
  const sent = sendResponse(request, view, response, reply, view.getRenderers());
  if (sent instanceof Promise) await sent;
}

function ignore(): void {}

/** What escaped a view (its errors are responses): Fastify's error handler, or the log. */
function handlerFailed(req: FastifyRequest, reply: FastifyReply, error: unknown): void {
  if (reply.sent) req.log.error({ err: error }, 'error after the response was sent');
  else reply.send(error instanceof Error ? error : new Error(String(error)));
}

function makeView(
  viewset: ViewSetClass,
  extra: Readonly<Record<string, unknown>>,
  state: RestFrameworkState,
  method: string,
): APIView {
  const view = new viewset() as APIView & Record<string, unknown>;
  view.database = state.database;
  Object.assign(view, extra);
  const actionMap = extra.actionMap as Record<string, string> | undefined;
  if (actionMap) {
    const name = method.toLowerCase();
    view.action =
      actionMap[name] ??
      (name === 'head' ? actionMap.get : name === 'options' ? 'metadata' : undefined);
  }
  return view;
}

function defaultBasename(viewset: ViewSetClass): string {
  const probe = new viewset();
  const queryset = probe instanceof GenericAPIView ? probe.queryset : undefined;
  if (!queryset) {
    throw new ImproperlyConfigured(
      'REST_ERR_ROUTER',
      `router.register(${viewset.name}): no basename was given, and it cannot be derived because ${viewset.name} has no queryset. ` +
        `Give ${viewset.name} a \`queryset\`, or pass { basename: '...' } when it overrides \`getQueryset()\`.`,
    );
  }
  return queryset.model.name.toLowerCase();
}

/**
 * Start-up checks: what a request would otherwise discover as a 500. Filter backends check
 * the view too (`FilterBackend.check`), the view's own or else the settings' defaults.
 */
function checkViewSet(
  view: APIView,
  registration: Registration,
  defaultFilterBackends: readonly FilterBackendClass[],
): void {
  if (!(view instanceof GenericAPIView)) return;
  const where = `${registration.viewset.name} (registered as "${registration.prefix}")`;
  const ownQueryset = view.getQueryset !== GenericAPIView.prototype.getQueryset;
  if (!view.queryset && !ownQueryset) {
    throw new ImproperlyConfigured(
      'REST_ERR_VIEW_CONFIG',
      `${where} should either include a \`queryset\` attribute, or override the \`getQueryset()\` method.`,
    );
  }
  view.queryset?.model.check();
  const ownSerializerClass =
    view.getSerializerClass !== GenericAPIView.prototype.getSerializerClass;
  if (!view.serializerClass && !ownSerializerClass) {
    throw new ImproperlyConfigured(
      'REST_ERR_VIEW_CONFIG',
      `${where} should either include a \`serializerClass\` attribute, or override the \`getSerializerClass()\` method.`,
    );
  }
  view.serializerClass?.prepare();
  for (const Backend of view.filterBackends ?? defaultFilterBackends) new Backend().check?.(view);
}

/** Each authentication class of a view finds what it needs (JWT keys, say). */
async function checkAuthenticators(
  view: APIView,
  settings: RestFrameworkState['settings'],
): Promise<void> {
  for (const Authentication of view.authenticationClasses ??
    settings.DEFAULT_AUTHENTICATION_CLASSES)
    await new Authentication().check?.(settings);
}

/** Each throttle of a view finds its rate (a missing or malformed one fails here, not per request). */
function checkThrottles(view: APIView, settings: RestFrameworkState['settings']): void {
  for (const Throttle of view.throttleClasses ?? settings.DEFAULT_THROTTLE_CLASSES)
    new Throttle().check?.(settings, view);
}

/**
 * Every hyperlinked field of a view set's serializer, at any depth, must name a registered
 * route, or its first rendering would be a 500.
 */
function checkLinks(view: APIView, registration: Registration, state: RestFrameworkState): void {
  if (!(view instanceof GenericAPIView) || !view.serializerClass) return;
  const visit = (fields: readonly AnyField[], where: string) => {
    for (const field of fields) {
      if (field instanceof HyperlinkedIdentityField && !state.urls.has(field.viewName)) {
        throw new ImproperlyConfigured(
          'REST_ERR_ROUTE_NAME',
          `${where}.${field.fieldName} links to the route "${field.viewName}", which no router registers. ` +
            `Register its view set with { basename: '${field.viewName.replace(/-detail$/, '')}' }, or pass viewName. ` +
            `Known names: ${state.urls.routes.map((r) => r.name).join(', ')}.`,
        );
      }
      if (field instanceof Serializer)
        visit(field.prepared.readable, `${where}.${field.fieldName}`);
    }
  };
  visit(
    view.serializerClass.prepare().readable,
    `${registration.viewset.name} (${view.serializerClass.name})`,
  );
}

/** The API root of a router: a link to each registered list. */
function apiRootView(entries: readonly [string, string][]): ViewSetClass {
  return class ApiRootView extends APIView {
    static override viewName = 'Api Root';
    static override description = 'The default basic root view for DefaultRouter';

    async get(request: Request): Promise<Response> {
      return new Response(
        Object.fromEntries(entries.map(([prefix, name]) => [prefix, request.reverse(name)])),
      );
    }
  };
}
