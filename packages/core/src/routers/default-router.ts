/**
 * `DefaultRouter`: the routes of view sets, as a Fastify plugin mounted under a prefix, with
 * an API root, named routes for `reverse()`, and a 301 to the trailing slash.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 *
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
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { installBodyParsers } from '../parsers/install-body-parsers.ts';
import type { RestFrameworkState } from '../plugin/rest-framework.ts';
import type { APIView } from '../views/api-view.ts';
import { GenericAPIView } from '../views/generic-api-view.ts';
import { apiRootView } from './api-root-view.ts';
import { type RouteConfig, routeErrorHandler, viewRouteHandler } from './request-adapter.ts';
import { buildRoutePlan, ROUTE_METHODS } from './route-plan.ts';
import { checkLinks, checkViewSet, type PreparedViewSet } from './startup-checks.ts';

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

/**
 * The router; see the module documentation.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 * const router = new DefaultRouter().register('books', BookViewSet);
 * await app.register(router.plugin, { prefix: '/api' });
 * // GET /api/books/ → list, GET /api/books/1/ → retrieve, GET /api/ → the API root
 * ```
 */
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

  /**
   * The Fastify plugin that serves the routes; register it with a `prefix`, and a `namespace`
   * to mount the same routes twice (Django's `include(..., namespace='v1')`): its route names
   * become `v1:book-list`, and `NamespaceVersioning` reads the version from it.
   */
  readonly plugin = async (
    instance: FastifyInstance,
    options: { readonly namespace?: string } = {},
  ): Promise<void> => {
    if (!instance.hasDecorator('restFramework')) {
      throw new ImproperlyConfigured(
        'REST_ERR_ROUTER',
        'Register the restFramework plugin (with a database) before a router: app.register(restFramework, { database }).',
      );
    }
    const state = instance.restFramework;
    const ns = options.namespace;
    if (ns !== undefined && !/^[\w.-]+$/.test(ns)) {
      throw new ImproperlyConfigured(
        'REST_ERR_ROUTER',
        `router.plugin: the namespace ${JSON.stringify(ns)} must be letters, digits, ".", "-" or "_" (it prefixes route names as "${ns}:book-list").`,
      );
    }
    const namespaced = (name: string) => (ns === undefined ? name : `${ns}:${name}`);
    const namespaceExtra = ns === undefined ? {} : { urlNamespace: ns };
    const base = instance.prefix.replace(/\/+$/, '');
    installBodyParsers(instance, state.settings);
    instance.setErrorHandler(routeErrorHandler(state));

    const rootEntries: [string, string][] = [];
    const checked: [Registration, PreparedViewSet][] = [];
    for (const registration of this.#registrations) {
      const probe = new registration.viewset();
      const lookup =
        probe instanceof GenericAPIView ? (probe.lookupUrlKwarg ?? probe.lookupField) : 'pk';
      // The routes whose actions the view set has, each with the actions it answers.
      const shapes = this.routes(lookup).flatMap((shape) => {
        const mapping = Object.fromEntries(
          Object.entries(shape.mapping).filter(
            ([, action]) =>
              typeof (probe as unknown as Record<string, unknown>)[action] === 'function',
          ),
        );
        return Object.keys(mapping).length ? [{ shape, mapping }] : [];
      });
      if (shapes.length === 0) {
        // Nothing to route: silently serving 404s would hide the mistake until a client calls.
        const name = registration.viewset.name;
        throw new ImproperlyConfigured(
          'REST_ERR_ROUTER',
          `router.register(${JSON.stringify(registration.prefix)}, ${name}): ${name} has none of the actions a router routes ` +
            `(list, create, retrieve, update, partialUpdate, destroy). Extend a view set (ModelViewSet, or ViewSet with ` +
            `the actions you need), or mount an APIView yourself with app.route and its handler.`,
        );
      }
      const actions = shapes.flatMap(({ mapping }) => Object.values(mapping));
      checked.push([registration, await checkViewSet(probe, registration, actions, state)]);
      for (const { shape, mapping } of shapes) {
        const url = `/${registration.prefix}${shape.url}`;
        const name = namespaced(shape.name.replace('{basename}', registration.basename));
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
          {
            actionMap: mapping,
            detail: shape.detail,
            suffix: shape.suffix,
            ...namespaceExtra,
          },
          state,
        );
      }
    }
    // Links name routes that any router of the app may register: check them once all are known.
    instance.addHook('onReady', async () => {
      for (const [registration, prepared] of checked) checkLinks(registration, prepared, state);
    });
    const RootView = apiRootView(rootEntries);
    this.#route(instance, '/', RootView, namespaceExtra, state);
    state.endpoints.push({
      path: `${base}/`,
      name: namespaced('api-root'),
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
    const plan = buildRoutePlan(viewset, extra, state.database);
    const config: RouteConfig = { viewset, extra, plan };
    instance.route({
      method: ROUTE_METHODS as unknown as HTTPMethods[],
      url,
      exposeHeadRoute: false,
      prefixTrailingSlash: 'slash',
      config: config as never,
      handler: viewRouteHandler(plan, state),
    });
    const bare = url.replace(/\/$/, '');
    instance.route({
      method: ROUTE_METHODS as unknown as HTTPMethods[],
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
