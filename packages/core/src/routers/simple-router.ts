/**
 * `SimpleRouter`: the routes of view sets (list, detail and their extra actions) and of plain
 * views mounted with `path()`, as a Fastify plugin under a prefix, with named routes for
 * `reverse()`. `DefaultRouter` adds the API root.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 * const router = new SimpleRouter({ trailingSlash: false });
 * router.register('books', BookViewSet);
 * await app.register(router.plugin, { prefix: '/api' });
 * // GET /api/books → list (book-list), GET /api/books/1 → retrieve (book-detail)
 * ```
 * @module
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { installBodyParsers } from '../parsers/install-body-parsers.ts';
import type { RestFrameworkState } from '../plugin/rest-framework.ts';
import type { APIView } from '../views/api-view.ts';
import { extraActionsOf } from '../views/extra-actions.ts';
import { GenericAPIView } from '../views/generic-api-view.ts';
import type { Endpoint } from './endpoint.ts';
import { lookupPattern, type ParamPattern, parseRoute } from './lookup-patterns.ts';
import type { KwargsFit } from './path-kwargs.ts';
import { type RouteConfig, routeErrorHandler, viewRouteHandler } from './request-adapter.ts';
import { buildRoutePlan, ROUTE_METHODS } from './route-plan.ts';
import { checkLinks, checkViewSet, type PreparedViewSet } from './startup-checks.ts';

/** A view class a router can route to. */
export type ViewSetClass = new () => APIView & {
  /** Lower-case method → action of the route serving the request (a view set's). */
  actionMap?: Readonly<Record<string, string>>;
  /** The action serving the request (`list`, `retrieve`, ...). */
  action?: string | undefined;
  /** True on a route of one row. */
  detail?: boolean;
};

/** Options of {@link SimpleRouter.register}. */
export interface RegisterOptions {
  /** The prefix of route names (`book` → `book-list`, `book-detail`); defaults to the model's name in lower case. */
  readonly basename?: string;
}

/** Options of a router. */
export interface RouterOptions {
  /**
   * `true` (the default): routes end with `/`, and the path without it answers 301/308 to it.
   * `false`: routes have no trailing slash (DRF's `trailing_slash=''`). `'/?'`: both paths
   * answer (DRF's `trailing_slash='/?'`).
   */
  readonly trailingSlash?: boolean | '/?';
}

/** Options of {@link SimpleRouter.path}. */
export interface PathOptions {
  /** The route name for `reverse()`. */
  readonly name?: string;
}

/** A registration: its prefix (with the parent lookups of a nested one), view set and basename. */
export interface Registration {
  readonly prefix: string;
  readonly viewset: ViewSetClass;
  readonly basename: string;
  /** The patterns of the prefix's parameters (a nested registration's parent lookups). */
  readonly patterns: Readonly<Record<string, ParamPattern>>;
}

interface PathRegistration {
  /** The URL pattern, with `{prefix}`, `{lookup}` and `{trailingSlash}` to fill. */
  readonly url: string;
  readonly view: ViewSetClass;
  readonly name: string | undefined;
  readonly patterns: Readonly<Record<string, ParamPattern>>;
}

/** One route shape: its URL (relative to the registration prefix) and its method → action map. */
export interface RouteShape {
  /** The URL pattern, with `{prefix}`, `{lookup}` and `{trailingSlash}` to fill. */
  readonly url: string;
  /** Lower-case method → action (`{ get: 'list', post: 'create' }`). */
  readonly mapping: Readonly<Record<string, string>>;
  /** The route name pattern (`{basename}-list`). */
  readonly name: string;
  /** True for a route of one row. */
  readonly detail: boolean;
  /** `List` or `Instance`, for the view's name. */
  readonly suffix: string | undefined;
  /**
   * A shape for the view set's extra actions of this `detail` kind: `{urlPath}` in `url` and
   * `{urlName}` in `name` are the action's, its mapping the action's methods.
   */
  readonly dynamic?: boolean;
}

/** One route a registration makes. */
interface PlannedRoute {
  readonly url: string;
  readonly name: string;
  readonly mapping: Readonly<Record<string, string>>;
  readonly detail: boolean;
  readonly suffix: string | undefined;
  readonly extra: Readonly<Record<string, unknown>>;
  /** What each view of the route gets after construction: an extra action's own options. */
  readonly initkwargs?: Readonly<Record<string, unknown>>;
  readonly extraAction: boolean;
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
 * const router = new SimpleRouter().register('books', BookViewSet);
 * await app.register(router.plugin, { prefix: '/api' });
 * // GET /api/books/ → list, GET /api/books/1/ → retrieve; no API root
 * ```
 */
export class SimpleRouter {
  readonly #registrations: Registration[] = [];
  readonly #paths: PathRegistration[] = [];
  /** How routes end; see {@link RouterOptions.trailingSlash}. */
  readonly trailingSlash: boolean | '/?';

  constructor(options: RouterOptions = {}) {
    const trailingSlash = options.trailingSlash ?? true;
    if (trailingSlash !== true && trailingSlash !== false && trailingSlash !== '/?') {
      throw new ImproperlyConfigured(
        'REST_ERR_ROUTER',
        `Router: trailingSlash must be true, false or '/?', not ${JSON.stringify(trailingSlash)}.`,
      );
    }
    this.trailingSlash = trailingSlash;
  }

  /**
   * The route shapes, as DRF's `SimpleRouter`: the list, the list-level extra actions, the
   * detail, the detail extra actions.
   */
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
        url: '/{urlPath}/',
        mapping: {},
        name: '{basename}-{urlName}',
        detail: false,
        suffix: undefined,
        dynamic: true,
      },
      {
        url: `/:${lookup}/`,
        mapping: { get: 'retrieve', put: 'update', patch: 'partialUpdate', delete: 'destroy' },
        name: '{basename}-detail',
        detail: true,
        suffix: 'Instance',
      },
      {
        url: `/:${lookup}/{urlPath}/`,
        mapping: {},
        name: '{basename}-{urlName}',
        detail: true,
        suffix: undefined,
        dynamic: true,
      },
    ];
  }

  /**
   * Adds a view set under `prefix` (`books`). The prefix may hold parameters
   * (`articles/:article_slug/comments`), passed to the view in `this.kwargs`; see also
   * `NestedSimpleRouter`. The detail routes' lookup is in `this.kwargs` too, a number behind
   * `lookupValueConverter = 'int'`.
   */
  register(prefix: string, viewset: ViewSetClass, options: RegisterOptions = {}): this {
    return this.addRegistration(prefix, viewset, options, {});
  }

  /** {@link register} with the patterns of the prefix's parameters (a nested router's). */
  protected addRegistration(
    prefix: string,
    viewset: ViewSetClass,
    options: RegisterOptions,
    patterns: Readonly<Record<string, ParamPattern>>,
  ): this {
    const clean = prefix.replace(/^\/+|\/+$/g, '');
    if (!/^([\w.~-]+|:\w+)(\/([\w.~-]+|:\w+))*$/.test(clean) || clean.startsWith(':')) {
      throw new ImproperlyConfigured(
        'REST_ERR_ROUTER',
        `router.register: the prefix ${JSON.stringify(prefix)} is not a URL path.`,
      );
    }
    this.#registrations.push({
      prefix: clean,
      viewset,
      basename: options.basename ?? defaultBasename(viewset),
      patterns,
    });
    return this;
  }

  /**
   * Mounts a view (an `APIView`, a generic view such as `ListCreateAPIView`) at `route`, as
   * Django's `path()`: `:name` or `<converter:name>` parameters (`int`, `slug`, `uuid`,
   * `str`) go to `this.kwargs`, an `int` as a number; `name` is its route name for
   * `reverse()`. A view that declares its kwargs (`declare kwargs: PathKwargs<'…'>`) only
   * compiles with a route that gives them.
   *
   * @example
   * ```ts
   * class BookDetail extends RetrieveUpdateDestroyAPIView {
   *   override queryset = Book.objects.all();
   *   override serializerClass = BookSerializer;
   *   declare kwargs: PathKwargs<'books/<int:pk>/'>; // this.kwargs.pk is a number
   * }
   * router.path('books/<int:pk>/', BookDetail, { name: 'book-detail' });
   * ```
   */
  path<R extends string, V extends ViewSetClass>(
    route: R,
    view: V & KwargsFit<R, InstanceType<V>['kwargs']>,
    options: PathOptions = {},
  ): this {
    const parsed = parseRoute(route, `router.path(${JSON.stringify(route)})`);
    this.#paths.push({ url: parsed.url, view, name: options.name, patterns: parsed.patterns });
    return this;
  }

  /** The registrations, in order. */
  get registry(): readonly Registration[] {
    return this.#registrations;
  }

  /** The registration at `prefix` (as given to `register`), for a nested router; undefined if none. */
  registrationAt(prefix: string): Registration | undefined {
    const clean = `${this.nestedPrefix}${prefix.replace(/^\/+|\/+$/g, '')}`;
    return this.#registrations.find((r) => r.prefix === clean);
  }

  /** What `register` puts before a prefix: the parent routes of a nested router; empty here. */
  protected get nestedPrefix(): string {
    return '';
  }

  /** The route of `url` as this router ends it (see {@link RouterOptions.trailingSlash}). */
  protected withSlash(url: string): string {
    return this.trailingSlash === true || url === '/' ? url : url.replace(/\/$/, '');
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
    const base = instance.prefix.replace(/\/+$/, '');
    installBodyParsers(instance, state.settings);
    instance.setErrorHandler(routeErrorHandler(state));

    const rootEntries: [string, string][] = [];
    const checked: [Registration, PreparedViewSet][] = [];
    // Filled once every router is known (onReady), read by each request of this mount.
    const urlAliases: UrlAliases = {};
    const ownEndpoints = state.endpoints.length;
    for (const registration of this.#registrations) {
      const routes = this.#plannedRoutes(registration);
      const actions = routes.filter((r) => !r.extraAction).flatMap((r) => Object.values(r.mapping));
      const prepared = await checkViewSet(new registration.viewset(), registration, actions, state);
      const serializerClasses = new Set(prepared.serializerClasses);
      for (const route of routes) {
        const url = this.withSlash(`/${registration.prefix}${route.url}`);
        const plan = this.#route(
          instance,
          url,
          registration.viewset,
          ns === undefined
            ? { ...route.extra, urlAliases }
            : { ...route.extra, urlNamespace: ns, urlAliases },
          registration.patterns,
          state,
          route.initkwargs,
        );
        if (route.extraAction) {
          // The action's own options (serializer, throttles, ...) are checked as its views get them.
          const more = await checkViewSet(
            new plan.View(),
            registration,
            Object.values(route.mapping),
            state,
          );
          for (const serializerClass of more.serializerClasses)
            serializerClasses.add(serializerClass);
        }
        const name = namespaced(route.name);
        state.urls.add(name, `${base}${url}`);
        state.endpoints.push({
          path: `${base}${url}`,
          name,
          viewset: registration.viewset,
          actionMap: route.mapping,
          detail: route.detail,
          suffix: route.suffix,
          prefix: registration.prefix,
          inSchema: true,
          basename: registration.basename,
          extraAction: route.extraAction,
          ...(plan.patterns ? { params: plan.patterns } : {}),
          ...(route.initkwargs ? { initkwargs: route.initkwargs } : {}),
          ...(typeof route.extra.name === 'string' ? { viewName: route.extra.name } : {}),
        });
        if (route.url === '/' && !registration.prefix.includes(':'))
          rootEntries.push([registration.prefix, name]);
      }
      checked.push([registration, { serializerClasses: [...serializerClasses] }]);
    }
    for (const mounted of this.#paths) {
      const probe = new mounted.view();
      const where = { prefix: mounted.url, viewset: mounted.view };
      checked.push([where as Registration, await checkViewSet(probe, where, [], state)]);
      const url = this.withSlash(mounted.url);
      const extra = ns === undefined ? {} : { urlNamespace: ns };
      const plan = this.#route(instance, url, mounted.view, extra, mounted.patterns, state);
      if (mounted.name !== undefined) state.urls.add(namespaced(mounted.name), `${base}${url}`);
      state.endpoints.push({
        path: `${base}${url}`,
        name: mounted.name === undefined ? `${base}${url}` : namespaced(mounted.name),
        viewset: mounted.view,
        actionMap: plainActionMap(probe, url),
        detail: /:\w+/.test(url),
        suffix: undefined,
        prefix: mounted.url.split('/').find((s) => s && !s.startsWith(':')) ?? '',
        inSchema: true,
        plain: true,
        ...(plan.patterns ? { params: plan.patterns } : {}),
        basename:
          probe instanceof GenericAPIView && probe.queryset
            ? probe.queryset.model.name.toLowerCase()
            : mounted.view.name.replace(/(APIView|View)$/, '').toLowerCase() || 'view',
      });
    }
    // Links name routes that any router of the app may register: check them once all are known.
    const mine = state.endpoints.slice(ownEndpoints);
    instance.addHook('onReady', async () => {
      for (const [registration, prepared] of checked) checkLinks(registration, prepared, state);
      const map = linkAliases(mine, state.endpoints);
      if (Object.keys(map).length) urlAliases.map = map;
    });
    this.mountRoot(instance, base, rootEntries, state, ns);
  };

  /**
   * Mounts the router's root view: none here; `DefaultRouter` mounts the API root.
   * `entries` are `[prefix, list route name]` of the top-level registrations.
   */
  protected mountRoot(
    _instance: FastifyInstance,
    _base: string,
    _entries: readonly [string, string][],
    _state: RestFrameworkState,
    _namespace?: string,
  ): void {}

  /**
   * Mounts a view at `url` (for `mountRoot`), in the router's `namespace` when it has one (so
   * that `NamespaceVersioning` reads the root's version from it, as the other routes').
   */
  protected mountView(
    instance: FastifyInstance,
    url: string,
    view: ViewSetClass,
    state: RestFrameworkState,
    namespace?: string,
  ): void {
    this.#route(
      instance,
      url,
      view,
      namespace === undefined ? {} : { urlNamespace: namespace },
      {},
      state,
    );
  }

  /** The routes of one registration: its standard actions and its extra actions. */
  #plannedRoutes(registration: Registration): PlannedRoute[] {
    const { viewset, basename } = registration;
    const where = `router.register(${JSON.stringify(registration.prefix)}, ${viewset.name})`;
    const { probe, lookup, pattern } = lookupOf(viewset, where);
    const extraActions = extraActionsOf(viewset);
    const self = probe as unknown as Record<string, unknown>;
    const routes: PlannedRoute[] = [];
    for (const shape of this.routes(lookup)) {
      const lookupPatterns = shape.detail && pattern ? { [lookup]: pattern } : undefined;
      if (shape.dynamic) {
        for (const action of extraActions) {
          if (action.detail !== shape.detail) continue;
          routes.push({
            url: shape.url.replace('{urlPath}', action.urlPath),
            name: shape.name.replace('{basename}', basename).replace('{urlName}', action.urlName),
            mapping: action.mapping,
            detail: shape.detail,
            suffix: undefined,
            initkwargs: action.initkwargs,
            extra: {
              actionMap: action.mapping,
              detail: shape.detail,
              suffix: undefined,
              basename,
              name: action.viewName,
              ...(lookupPatterns ? { lookupPatterns } : {}),
            },
            extraAction: true,
          });
        }
        continue;
      }
      // The actions of the shape the view set has.
      const mapping = Object.fromEntries(
        Object.entries(shape.mapping).filter(([, action]) => typeof self[action] === 'function'),
      );
      if (Object.keys(mapping).length === 0) continue;
      routes.push({
        url: shape.url,
        name: shape.name.replace('{basename}', basename),
        mapping,
        detail: shape.detail,
        suffix: shape.suffix,
        extra: {
          actionMap: mapping,
          detail: shape.detail,
          suffix: shape.suffix,
          basename,
          ...(lookupPatterns ? { lookupPatterns } : {}),
        },
        extraAction: false,
      });
    }
    if (routes.length === 0) {
      // Nothing to route: silently serving 404s would hide the mistake until a client calls.
      const name = viewset.name;
      throw new ImproperlyConfigured(
        'REST_ERR_ROUTER',
        `router.register(${JSON.stringify(registration.prefix)}, ${name}): ${name} has none of the actions a router routes ` +
          `(list, create, retrieve, update, partialUpdate, destroy, or extraActions). Extend a view set (ModelViewSet, or ViewSet with ` +
          `the actions you need), or mount an APIView with router.path().`,
      );
    }
    return routes;
  }

  #route(
    instance: FastifyInstance,
    url: string,
    viewset: ViewSetClass,
    extra: Readonly<Record<string, unknown>>,
    prefixPatterns: Readonly<Record<string, ParamPattern>>,
    state: RestFrameworkState,
    initkwargs?: Readonly<Record<string, unknown>>,
  ) {
    const { lookupPatterns, ...rest } = extra as { lookupPatterns?: Record<string, ParamPattern> };
    const patterns = { ...prefixPatterns, ...lookupPatterns };
    const plan = buildRoutePlan(
      viewset,
      rest,
      state.database,
      Object.keys(patterns).length ? patterns : undefined,
      initkwargs,
    );
    const config: RouteConfig = { viewset, extra: rest, plan };
    const handler = viewRouteHandler(plan, state);
    const slashed = url.endsWith('/');
    instance.route({
      method: ROUTE_METHODS as unknown as HTTPMethods[],
      url,
      exposeHeadRoute: false,
      // The root of a router without trailing slashes is its prefix itself (`/api`).
      prefixTrailingSlash:
        slashed && !(url === '/' && this.trailingSlash === false) ? 'slash' : 'no-slash',
      config: config as never,
      handler,
    });
    // The root of a router mounted without prefix has no path without its slash.
    if (url === '/' && (this.trailingSlash === false || instance.prefix === '')) return plan;
    const bare = url.replace(/\/$/, '');
    if (!slashed) {
      if (this.trailingSlash === '/?') {
        instance.route({
          method: ROUTE_METHODS as unknown as HTTPMethods[],
          url: `${url}/`,
          exposeHeadRoute: false,
          config: config as never,
          handler,
        });
      }
      return plan;
    }
    instance.route({
      method: ROUTE_METHODS as unknown as HTTPMethods[],
      url: bare,
      exposeHeadRoute: false,
      prefixTrailingSlash: 'no-slash',
      ...(this.trailingSlash === '/?'
        ? { config: config as never, handler }
        : { handler: redirectToSlash }),
    });
    return plan;
  }
}

/**
 * The lookup of a view set's detail routes (its `lookupUrlKwarg`, else `lookupField`, else
 * `pk`) and the pattern its values must match (`lookupValueRegex`, `lookupValueConverter`).
 */
export function lookupOf(
  viewset: ViewSetClass,
  where: string,
): { probe: APIView; lookup: string; pattern: ParamPattern | undefined } {
  const probe = new viewset();
  const generic = probe instanceof GenericAPIView ? probe : undefined;
  const lookup = generic ? (generic.lookupUrlKwarg ?? generic.lookupField) : 'pk';
  const declared = probe as unknown as {
    lookupValueRegex?: string;
    lookupValueConverter?: string;
  };
  const pattern = lookupPattern(declared.lookupValueRegex, declared.lookupValueConverter, where);
  return { probe, lookup, pattern };
}

/** The path without its slash: 301 (GET, HEAD, as browsers follow) or 308 (keeps the body). */
async function redirectToSlash(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
  const path = req.url.slice(0, req.url.length - query.length);
  const status = req.method === 'GET' || req.method === 'HEAD' ? 301 : 308;
  return reply
    .code(status)
    .header('Location', `${path}/${query}`)
    .type('text/html; charset=utf-8')
    .send('');
}

/**
 * The method → action map of a view mounted with `path()`, for API descriptions: DRF's
 * names for a plain view's methods (`get` is `list` without a parameter, `retrieve` with one).
 */
function plainActionMap(view: APIView, url: string): Record<string, string> {
  const detail = /:\w+/.test(url);
  const names: Record<string, string> = {
    get: detail ? 'retrieve' : 'list',
    post: 'create',
    put: 'update',
    patch: 'partialUpdate',
    delete: 'destroy',
  };
  const map: Record<string, string> = {};
  const self = view as unknown as Record<string, unknown>;
  for (const method of Object.keys(names))
    if (typeof self[method] === 'function') map[method] = names[method] as string;
  return map;
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

/** The route names a mount's requests reverse to another of its own routes (see {@link linkAliases}). */
export interface UrlAliases {
  map?: Readonly<Record<string, string>>;
}

/**
 * Links of records under the router they were listed by: when a route of another mount
 * (`book-detail` under `/books/api/`) serves the same view set as one of this mount's, or one
 * it extends (`ManagedBookViewSet extends BookViewSet`, registered as `managed-book`), a
 * `reverse('book-detail')` made while serving this mount gives this mount's route
 * (`managed-book-detail`): a serializer naming `book-detail` links `/manage/api/books/` rows
 * to `/manage/api/books/N/`. Routes of the same mount are left as they are.
 */
function linkAliases(mine: readonly Endpoint[], all: readonly Endpoint[]): Record<string, string> {
  const own = new Set(mine);
  const aliases: Record<string, string> = Object.create(null);
  for (const other of all) {
    if (own.has(other) || other.basename === undefined || other.extraAction) continue;
    const kind = ['-list', '-detail'].find((k) => other.name === `${other.basename}${k}`);
    if (kind === undefined || aliases[other.name] !== undefined) continue;
    const match = mine.find(
      (e) =>
        e.basename !== undefined &&
        e.basename !== other.basename &&
        !e.extraAction &&
        e.name.endsWith(`${e.basename}${kind}`) &&
        (e.viewset === other.viewset || e.viewset.prototype instanceof other.viewset),
    );
    if (match) aliases[other.name] = match.name;
  }
  return aliases;
}
