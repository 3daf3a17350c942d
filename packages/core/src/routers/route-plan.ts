/**
 * The plan of one route: what serving it needs that is the same for every request (the view
 * class carrying the route's extras, the action of each method, the allowed methods, the
 * `Allow` header, the view name), worked out once when the router registers the route and
 * kept in the route's Fastify `config`, and the caches the route fills on first use. The
 * request path only reads it.
 * @module
 */
import type { Database } from '../db/database.ts';
import { CacheSet } from '../utils/bounded-cache.ts';
import { allowedMethodsOf, defaultViewName } from '../views/api-view.ts';
import type { ParamPattern } from './lookup-patterns.ts';
import type { ViewSetClass } from './simple-router.ts';

/** The methods a router's routes answer (Fastify's upper-case names). */
export const ROUTE_METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
] as const;

/** One route's plan; frozen. */
export interface RoutePlan {
  /** The registered view class: what the route's views are `instanceof` and their `constructor`. */
  readonly viewset: ViewSetClass;
  /** What the route adds to its views (action map, `detail`, `suffix`). */
  readonly extra: Readonly<Record<string, unknown>>;
  /** The class made per request: `viewset` with `extra`, the database and this plan on its prototype. */
  readonly View: ViewSetClass;
  /** The action of each method (`GET` → `retrieve`); undefined for a route without action map. */
  readonly actions: Readonly<Record<string, string | undefined>> | undefined;
  /** The upper-case methods the route answers, in DRF's order. */
  readonly allowedMethods: readonly string[];
  /** `allowedMethods` as the `Allow` header. */
  readonly allow: string;
  /** The view's suffix on this route (`List`, `Instance`). */
  readonly suffix: string | undefined;
  /** The view name with the suffix (`Book List`), or an extra action's name (`Set password`). */
  readonly viewName: string;
  /**
   * The patterns URL parameters must match (a `lookupValueRegex`, a converter, a parent's
   * lookup) with their converters: a value that does not match is a 404 before the view
   * runs, one that does is converted for `this.kwargs`. Undefined when none.
   */
  readonly patterns: Readonly<Record<string, ParamPattern>> | undefined;
  /**
   * What serving the route keeps beyond a request, bounded (the OPTIONS bodies, see
   * `metadata/simple-metadata.ts`): it lives and dies with the route.
   */
  readonly caches: CacheSet;
}

/**
 * Builds the plan of a route of `viewset` with `extra`, on `database`.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 * const plan = buildRoutePlan(BookViewSet, { actionMap: { get: 'list' }, suffix: 'List' }, db);
 * plan.allow; // 'GET, HEAD, OPTIONS'
 * ```
 */
export function buildRoutePlan(
  viewset: ViewSetClass,
  extra: Readonly<Record<string, unknown>>,
  database: Database,
  patterns?: Readonly<Record<string, ParamPattern>>,
  initkwargs?: Readonly<Record<string, unknown>>,
): RoutePlan {
  // A subclass rather than assigning the extras to each view: its prototype holds them once.
  // Its `constructor` is the registered class, so that views look the same as before. An
  // extra action's own options (`serializerClass`, ...) go on each view after construction,
  // as DRF's initkwargs: the class may declare the same names as fields of its instances.
  const own = initkwargs && Object.keys(initkwargs).length ? initkwargs : undefined;
  const View = own
    ? class extends viewset {
        constructor() {
          super();
          Object.assign(this, own);
        }
      }
    : class extends viewset {};
  const proto = View.prototype as unknown as Record<string, unknown>;
  Object.defineProperty(proto, 'constructor', {
    value: viewset,
    writable: true,
    configurable: true,
  });
  Object.assign(proto, extra, { database });
  const actionMap = extra.actionMap as Readonly<Record<string, string>> | undefined;
  const probe = new View();
  const allowedMethods = Object.freeze(allowedMethodsOf(probe));
  const suffix = probe.suffix;
  const plan: RoutePlan = Object.freeze({
    viewset,
    extra,
    View,
    actions: actionMap ? actionsOf(actionMap) : undefined,
    allowedMethods,
    allow: allowedMethods.join(', '),
    suffix,
    viewName: typeof extra.name === 'string' ? extra.name : defaultViewName(probe),
    patterns: patterns ? Object.freeze({ ...patterns }) : undefined,
    caches: new CacheSet(),
  });
  proto.routePlan = plan;
  return plan;
}

/** The action of each method: HEAD as GET and OPTIONS as `metadata` unless mapped. */
function actionsOf(
  actionMap: Readonly<Record<string, string>>,
): Readonly<Record<string, string | undefined>> {
  const actions: Record<string, string | undefined> = Object.create(null);
  for (const method of ROUTE_METHODS) {
    const name = method.toLowerCase();
    actions[method] =
      actionMap[name] ??
      (name === 'head' ? actionMap.get : name === 'options' ? 'metadata' : undefined);
  }
  return Object.freeze(actions);
}
