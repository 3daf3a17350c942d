/**
 * The endpoints of an app: every route a router serves, with its view set and actions, kept on
 * `app.restFramework.endpoints` for what looks at the whole API (the OpenAPI generator, the
 * browsable API's breadcrumbs).
 * @module
 */
import type { ParamPattern } from './lookup-patterns.ts';
import type { ViewSetClass } from './simple-router.ts';

/** One route of a router. */
export interface Endpoint {
  /** The full path with Fastify parameters (`/books/api/books/:pk/`). */
  readonly path: string;
  /** The route name (`book-detail`); the API root's is `api-root` under its router's base. */
  readonly name: string;
  /** The view set (or view) class the route serves. */
  readonly viewset: ViewSetClass;
  /** Lower-case method → action (`{ get: 'list', post: 'create' }`); empty for plain views. */
  readonly actionMap: Readonly<Record<string, string>>;
  /** True for a route of one row (`{pk}` in its path). */
  readonly detail: boolean;
  /** `List` or `Instance` for view set routes. */
  readonly suffix: string | undefined;
  /** The registration prefix (`books`); empty for the API root. */
  readonly prefix: string;
  /** False for routes an API description leaves out (the API root). */
  readonly inSchema: boolean;
  /** The registration's basename (`book`); undefined for views mounted with `path()`. */
  readonly basename?: string;
  /** True for the route of an extra action (`book-publish`). */
  readonly extraAction?: boolean;
  /** The view name of an extra action's route (`Publish`), which its views show. */
  readonly viewName?: string;
  /** What the route sets on its views (`permissionClasses` of an extra action, ...). */
  readonly initkwargs?: Readonly<Record<string, unknown>>;
  /** True for a view mounted with `router.path()`; its `actionMap` names DRF's actions of its methods. */
  readonly plain?: boolean;
  /** The patterns and converters of the path's parameters that have one (`<int:pk>`). */
  readonly params?: Readonly<Record<string, ParamPattern>>;
}
