/**
 * View sets: one class for the routes of a resource; a router maps methods to actions
 * (`GET /books/` → `list`, `PATCH /books/1/` → `partialUpdate`).
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   static override description = 'Book ViewSet.';
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override permissionClasses = [AllowAny];
 * }
 * router.register('books', BookViewSet);
 * ```
 * @module
 */

import type { LookupConverter } from '../routers/lookup-patterns.ts';
import { APIView } from './api-view.ts';
import type { ActionOptions } from './extra-actions.ts';
import { GenericAPIView } from './generic-api-view.ts';
import { httpMethodName } from './http-method-name.ts';
import {
  CreateModelMixin,
  DestroyModelMixin,
  ListModelMixin,
  RetrieveModelMixin,
  UpdateModelMixin,
} from './mixins.ts';

type Handler = (request: any) => any;

/** The method → action map of a route, and the action of this request. */
export interface ViewSetState {
  /** The route's methods and their actions (`{ get: 'retrieve', put: 'update' }`). */
  actionMap: Readonly<Record<string, string>>;
  /** The action of this request (`list`, `retrieve`, an extra action's name), DRF's `self.action`. */
  action: string | undefined;
  /** Whether the route is a detail route (one row), DRF's `self.detail`. */
  detail: boolean;
  /** The registration's basename (`book`), set by the router. */
  basename: string | undefined;
}

/** What every view set declares: its extra actions and its lookup's pattern. */
type ExtraActionsDeclaration = Readonly<Record<string, ActionOptions<any> | undefined>>;

function actionHandler(view: APIView & ViewSetState, method: string): Handler | undefined {
  const name = httpMethodName(method);
  const actionMap = view.actionMap;
  const action = actionMap[name] ?? (name === 'head' ? actionMap.get : undefined);
  const self = view as unknown as Record<string, unknown>;
  if (action) return typeof self[action] === 'function' ? (self[action] as Handler) : undefined;
  if (name === 'options') return view.options as Handler;
  return undefined;
}

/**
 * A view set without model seams: define action methods yourself.
 *
 * @example
 * ```ts
 * class StatusViewSet extends ViewSet {
 *   async list() {
 *     return new Response({ status: 'ok' });
 *   }
 * }
 * // No queryset to derive a basename from: give one.
 * router.register('status', StatusViewSet, { basename: 'status' });
 * // GET /status/ → {"status":"ok"}
 * ```
 */
export class ViewSet extends APIView implements ViewSetState {
  /**
   * The extra actions (DRF's `@action`), routed by the router; see `ExtraActions`.
   * Type it `ExtraActions<YourViewSet>` so that each key must name a method.
   */
  static extraActions: ExtraActionsDeclaration = {};
  // Set by the router for each request; defaults on the prototype (see APIView).
  /** The route's methods and their actions (`{ get: 'retrieve', put: 'update' }`). */
  declare actionMap: Readonly<Record<string, string>>;
  /**
   * The action of this request (`list`, `retrieve`, an extra action's name), DRF's
   * `self.action`: branch on it in `getPermissions()`, `getSerializerClass()`, ...
   */
  declare action: string | undefined;
  /** Whether the route is a detail route (one row), DRF's `self.detail`. */
  declare detail: boolean;
  declare basename: string | undefined;
  /** The pattern of the detail routes' lookup value (DRF's `lookup_value_regex`); no match is a 404. */
  declare lookupValueRegex: string | undefined;
  /** A named lookup pattern instead (`int`, `slug`, `uuid`, `str`: DRF's `lookup_value_converter`). */
  declare lookupValueConverter: LookupConverter | undefined;

  protected override handlerFor(method: string): Handler | undefined {
    return actionHandler(this, method);
  }
}

/**
 * A view set with `GenericAPIView`'s seams and no actions: add the mixins you need.
 *
 * @example
 * ```ts
 * class BookCatalogueViewSet extends ListModelMixin(CreateModelMixin(GenericViewSet)) {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 * router.register('catalogue', BookCatalogueViewSet);
 * // GET and POST /catalogue/; no detail route, as the view set has no detail action
 * ```
 */
export class GenericViewSet extends GenericAPIView implements ViewSetState {
  /**
   * The extra actions (DRF's `@action`), routed by the router; see `ExtraActions`.
   * Type it `ExtraActions<YourViewSet>` so that each key must name a method.
   */
  static extraActions: ExtraActionsDeclaration = {};
  // Set by the router for each request; defaults on the prototype (see APIView).
  /** The route's methods and their actions (`{ get: 'retrieve', put: 'update' }`). */
  declare actionMap: Readonly<Record<string, string>>;
  /**
   * The action of this request (`list`, `retrieve`, an extra action's name), DRF's
   * `self.action`: branch on it in `getPermissions()`, `getSerializerClass()`, ...
   */
  declare action: string | undefined;
  /** Whether the route is a detail route (one row), DRF's `self.detail`. */
  declare detail: boolean;
  declare basename: string | undefined;
  /** The pattern of the detail routes' lookup value (DRF's `lookup_value_regex`); no match is a 404. */
  declare lookupValueRegex: string | undefined;
  /** A named lookup pattern instead (`int`, `slug`, `uuid`, `str`: DRF's `lookup_value_converter`). */
  declare lookupValueConverter: LookupConverter | undefined;

  protected override handlerFor(method: string): Handler | undefined {
    return actionHandler(this, method);
  }
}

for (const ViewSetClass of [ViewSet, GenericViewSet]) {
  Object.assign(ViewSetClass.prototype, {
    actionMap: Object.freeze({}),
    action: undefined,
    detail: false,
    basename: undefined,
    lookupValueRegex: undefined,
    lookupValueConverter: undefined,
  });
}

/**
 * Every action: list, create, retrieve, update, partialUpdate, destroy.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 * router.register('books', BookViewSet);
 * // GET, POST /books/; GET, PUT, PATCH, DELETE /books/:pk/
 * ```
 */
export class ModelViewSet extends CreateModelMixin(
  RetrieveModelMixin(UpdateModelMixin(DestroyModelMixin(ListModelMixin(GenericViewSet)))),
) {}

/**
 * list and retrieve only.
 *
 * @example
 * ```ts
 * class AuthorViewSet extends ReadOnlyModelViewSet {
 *   override queryset = Author.objects.all();
 *   override serializerClass = AuthorSerializer;
 * }
 * router.register('authors', AuthorViewSet);
 * // GET /authors/ and GET /authors/:pk/; POST /authors/ is 405
 * ```
 */
export class ReadOnlyModelViewSet extends RetrieveModelMixin(ListModelMixin(GenericViewSet)) {}
