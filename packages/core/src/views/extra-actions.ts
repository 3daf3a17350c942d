/**
 * Extra actions: DRF's `@action`, declared on the view set as a static `extraActions` map
 * (the toolkit runs TypeScript without a decorator transform, so a declaration rather than a
 * decorator). Each entry names a method of the view set; a router routes it per view set at
 * `{prefix}/{urlPath}/` (list) or `{prefix}/{lookup}/{urlPath}/` (detail), named
 * `{basename}-{urlName}` for `reverse()`, with the entry's per-action options on its views.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   static override extraActions: ExtraActions<BookViewSet> = {
 *     favorite: { detail: true, methods: ['post'], mapping: { delete: 'unfavorite' } },
 *     feed: { detail: false, permissionClasses: [IsAuthenticated] },
 *   };
 *   async favorite(_request: Request) { return new Response({ favorited: true }); }
 *   async unfavorite(_request: Request) { return new Response(null, 204); }
 *   async feed(_request: Request) { return new Response([]); }
 * }
 * // POST, DELETE /books/:pk/favorite/ (book-favorite); GET /books/feed/ (book-feed)
 * ```
 * @module
 */
import type { AuthenticationClass } from '../accounts/authentication/authentication.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { FilterBackendClass } from '../filters/filter-backend.ts';
import type { PaginationClass } from '../pagination/pagination.ts';
import type { ParserClass } from '../parsers/parser.ts';
import type { PermissionClass } from '../permissions/permissions.ts';
import type { RendererClass } from '../renderers/renderer.ts';
import type { ThrottleClass } from '../throttling/throttles.ts';
import { ownPlan } from '../utils/bounded-cache.ts';
import type { SerializerClass } from './generic-api-view.ts';

/** The lower-case methods an extra action may answer. */
export type ActionMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options' | 'trace';

const ACTION_METHODS: ReadonlySet<string> = new Set([
  'get',
  'post',
  'put',
  'patch',
  'delete',
  'options',
  'trace',
]);

/** The names of `V`'s methods (what an extra action may name). */
export type ActionName<V> = {
  [K in keyof V & string]: V[K] extends (...args: any[]) => unknown ? K : never;
}[keyof V & string];

/**
 * One extra action (DRF's `@action(...)` arguments). The class options apply to the views
 * of the action's route only, as DRF's `@action(permission_classes=[...])` does.
 */
export interface ActionOptions<V = Record<string, unknown>> {
  /** A detail action (`/articles/:pk/favorite/`) or a list one (`/articles/feed/`). */
  readonly detail: boolean;
  /** The methods answered by this action's method; default `['get']`. */
  readonly methods?: readonly ActionMethod[];
  /**
   * More methods on the same URL, each handled by another method of the view set (DRF's
   * `@favorite.mapping.delete`); `this.action` is that method's name.
   */
  readonly mapping?: Readonly<Partial<Record<ActionMethod, ActionName<V>>>>;
  /** The URL segment; default the method name in kebab case (`setPassword` → `set-password`). */
  readonly urlPath?: string;
  /** The route name after `{basename}-`; default the method name in kebab case. */
  readonly urlName?: string;
  /** The view name of the route (the browsable API's title); default the method name in words. */
  readonly name?: string;
  /** This action's permissions, in place of the view set's (`permission_classes=`). */
  readonly permissionClasses?: readonly PermissionClass[];
  /** This action's authentication classes, in place of the view set's. */
  readonly authenticationClasses?: readonly AuthenticationClass[];
  /** This action's throttles, in place of the view set's. */
  readonly throttleClasses?: readonly ThrottleClass[];
  /** This action's `ScopedRateThrottle` scope, in place of the view set's. */
  readonly throttleScope?: string;
  /** This action's serializer (`getSerializer()` in it), in place of the view set's. */
  readonly serializerClass?: SerializerClass;
  /** This action's filter backends, in place of the view set's. */
  readonly filterBackends?: readonly FilterBackendClass[];
  /** This action's pagination, in place of the view set's; `null` for none. */
  readonly paginationClass?: PaginationClass | null;
  /** This action's body parsers, in place of the view set's. */
  readonly parserClasses?: readonly ParserClass[];
  /** This action's renderers, in place of the view set's. */
  readonly rendererClasses?: readonly RendererClass[];
}

/**
 * The extra actions of a view set `V`: each key names a method of `V`.
 *
 * @example
 * ```ts
 * class ProfileViewSet extends ReadOnlyModelViewSet {
 *   override queryset = Profile.objects.all();
 *   override serializerClass = ProfileSerializer;
 *   static override extraActions: ExtraActions<ProfileViewSet> = {
 *     me: { detail: false, urlPath: 'current' },
 *   };
 *   async me(request: Request) { return new Response({ id: request.user.pk ?? null }); }
 * }
 * ```
 */
export type ExtraActions<V = Record<string, unknown>> = {
  readonly [K in ActionName<V>]?: ActionOptions<V>;
};

/** The per-action options a route puts on its views. */
const VIEW_OPTIONS = [
  'permissionClasses',
  'authenticationClasses',
  'throttleClasses',
  'throttleScope',
  'serializerClass',
  'filterBackends',
  'paginationClass',
  'parserClasses',
  'rendererClasses',
] as const;

/** One extra action as a router routes it: checked, with its defaults filled in. */
export interface ExtraAction {
  /** The view set's method (`favorite`). */
  readonly name: string;
  readonly detail: boolean;
  /** Lower-case method → the view set method handling it. */
  readonly mapping: Readonly<Record<string, string>>;
  readonly urlPath: string;
  readonly urlName: string;
  /** The view name of the route (`Favorite`). */
  readonly viewName: string;
  /** The options set on the route's views (`permissionClasses`, `serializerClass`, ...). */
  readonly initkwargs: Readonly<Record<string, unknown>>;
}

const PLAN = Symbol('extra actions');

/**
 * The extra actions `viewset` declares, checked once and kept on the class: each must name a
 * method, answer known methods, and have a URL path of its own among the actions of its kind.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   static override extraActions: ExtraActions<BookViewSet> = { feed: { detail: false } };
 *   async feed() { return new Response([]); }
 * }
 * extraActionsOf(BookViewSet).map((a) => a.urlName); // ['feed']
 * ```
 */
export function extraActionsOf(viewset: abstract new () => object): readonly ExtraAction[] {
  return ownPlan(viewset, PLAN, () => checkedActions(viewset));
}

function checkedActions(viewset: abstract new () => object): readonly ExtraAction[] {
  const declared = (viewset as unknown as { extraActions?: unknown }).extraActions;
  if (declared === undefined || declared === null) return Object.freeze([]);
  const where = `${viewset.name}.extraActions`;
  if (typeof declared !== 'object' || Array.isArray(declared))
    fail(`${where} must be an object of method name → action options.`);
  const proto = viewset.prototype as Record<string, unknown>;
  const seen = new Map<string, string>();
  const actions: ExtraAction[] = [];
  for (const [name, options] of Object.entries(declared as Record<string, unknown>)) {
    if (options === undefined) continue;
    const at = `${where}.${name}`;
    if (typeof options !== 'object' || options === null)
      fail(`${at} must be an object such as { detail: true, methods: ['post'] }.`);
    const opts = options as ActionOptions;
    if (typeof proto[name] !== 'function')
      fail(
        `${at} names no method of ${viewset.name}: add \`async ${name}(request)\` to the class.`,
      );
    if (typeof opts.detail !== 'boolean')
      fail(
        `${at} needs \`detail: true\` (one record's URL) or \`detail: false\` (the list's URL).`,
      );
    const methods = opts.methods ?? ['get'];
    if (!Array.isArray(methods) || methods.length === 0)
      fail(
        `${at}.methods must be a non-empty list of lower-case methods, such as ['get', 'post'].`,
      );
    const mapping: Record<string, string> = Object.create(null);
    for (const method of methods) checkMethod(at, method, mapping, name);
    for (const [method, handler] of Object.entries(opts.mapping ?? {})) {
      if (typeof handler !== 'string' || typeof proto[handler] !== 'function')
        fail(`${at}.mapping.${method} names no method of ${viewset.name}.`);
      checkMethod(at, method, mapping, handler as string);
    }
    const urlPath = opts.urlPath ?? kebabCase(name);
    if (
      typeof urlPath !== 'string' ||
      !/^[\w.~-]+(\/[\w.~-]+)*$/.test(urlPath.replace(/^\/+|\/+$/g, ''))
    )
      fail(`${at}.urlPath ${JSON.stringify(urlPath)} is not a URL path (such as 'set-password').`);
    const path = urlPath.replace(/^\/+|\/+$/g, '');
    const key = `${opts.detail ? 'detail' : 'list'} ${path}`;
    const other = seen.get(key);
    if (other)
      fail(
        `${at} and ${where}.${other} both use the ${opts.detail ? 'detail' : 'list'} URL path "${path}": give one another urlPath.`,
      );
    seen.set(key, name);
    const initkwargs: Record<string, unknown> = {};
    for (const option of VIEW_OPTIONS)
      if (opts[option] !== undefined) initkwargs[option] = opts[option];
    actions.push(
      Object.freeze({
        name,
        detail: opts.detail,
        mapping: Object.freeze(mapping),
        urlPath: path,
        urlName: opts.urlName ?? kebabCase(name),
        viewName: opts.name ?? words(name),
        initkwargs: Object.freeze(initkwargs),
      }),
    );
  }
  const names = new Map<string, string>();
  for (const action of actions) {
    const other = names.get(action.urlName);
    if (other)
      fail(
        `${where}.${action.name} and ${where}.${other} have the same urlName "${action.urlName}".`,
      );
    names.set(action.urlName, action.name);
  }
  return Object.freeze(actions);
}

function checkMethod(
  at: string,
  method: unknown,
  mapping: Record<string, string>,
  handler: string,
): void {
  if (typeof method !== 'string' || !ACTION_METHODS.has(method))
    fail(
      `${at}: ${JSON.stringify(method)} is not a method an action answers; use lower-case ${[...ACTION_METHODS].join(', ')}.`,
    );
  if (mapping[method]) fail(`${at}: the method ${method} is given twice.`);
  mapping[method] = handler;
}

function fail(message: string): never {
  throw new ImproperlyConfigured('REST_ERR_EXTRA_ACTION', message);
}

/** `setPassword` → `set-password`. */
export function kebabCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();
}

/** `setPassword` → `Set password` (DRF's pretty name of an action). */
function words(name: string): string {
  const spaced = kebabCase(name).replace(/-/g, ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
