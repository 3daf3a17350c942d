/**
 * Permissions: checked before a view's handler (`hasPermission`) and on the object a detail
 * view works on (`hasObjectPermission`). A failed check answers 403, or 401 when the request
 * carried no credentials and the view has an authentication scheme to ask for.
 *
 * @example
 * ```ts
 * class IsOwner extends BasePermission {
 *   override hasObjectPermission(request: Request, _view: unknown, obj: { owner_id: number }) {
 *     return request.user.id === obj.owner_id;
 *   }
 * }
 * ```
 * @module
 */
import type { Request } from '../http/request.ts';

/** A permission check. */
export interface Permission {
  /** The message of the 403 when the check fails (default: DRF's). */
  readonly message?: string | undefined;
  /**
   * May this request reach the view at all? Asked before the handler, for every request
   * (DRF's `has_permission`); false is a 403 (401 for an anonymous caller with a challenge).
   */
  hasPermission(request: Request, view: unknown): boolean | Promise<boolean>;
  /**
   * May this request act on this row? Asked by `getObject()` once the row is found (DRF's
   * `has_object_permission`); false is a 403. Not asked for lists.
   */
  hasObjectPermission(request: Request, view: unknown, obj: unknown): boolean | Promise<boolean>;
}

/** A permission class. */
export type PermissionClass = new () => Permission;

/**
 * Allows everything; override one of the two checks.
 *
 * @example
 * ```ts
 * class IsOwner extends BasePermission {
 *   override hasObjectPermission(request: Request, _view: unknown, obj: { owner_id: number }) {
 *     return request.user.id === obj.owner_id;
 *   }
 * }
 * ```
 */
export class BasePermission implements Permission {
  /** Allows every request; override to check the request (see {@link Permission.hasPermission}). */
  hasPermission(_request: Request, _view: unknown): boolean | Promise<boolean> {
    return true;
  }

  /** Allows every row; override to check the row (see {@link Permission.hasObjectPermission}). */
  hasObjectPermission(
    _request: Request,
    _view: unknown,
    _obj: unknown,
  ): boolean | Promise<boolean> {
    return true;
  }
}

/**
 * Any caller, authenticated or not (the default).
 *
 * @example
 * ```ts
 * class CatalogViewSet extends ReadOnlyModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override permissionClasses = [AllowAny];
 * }
 * ```
 */
export class AllowAny extends BasePermission {}

/**
 * Authenticated callers only.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override permissionClasses = [IsAuthenticated]; // 401 or 403 for anonymous callers
 * }
 * ```
 */
export class IsAuthenticated extends BasePermission {
  /** True for an authenticated caller. */
  override hasPermission(request: Request): boolean {
    return request.user.isAuthenticated;
  }
}

/**
 * Anyone may read; authenticated callers may write.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override permissionClasses = [IsAuthenticatedOrReadOnly]; // GET for all, POST for users
 * }
 * ```
 */
export class IsAuthenticatedOrReadOnly extends BasePermission {
  /** True for a safe method (GET, HEAD, OPTIONS) or an authenticated caller. */
  override hasPermission(request: Request): boolean {
    return request.isSafeMethod || request.user.isAuthenticated;
  }
}

/**
 * Staff users only.
 *
 * @example
 * ```ts
 * class UserAdminViewSet extends ModelViewSet {
 *   override queryset = Author.objects.all();
 *   override serializerClass = AuthorSerializer;
 *   override permissionClasses = [IsAdminUser]; // users with is_staff only
 * }
 * ```
 */
export class IsAdminUser extends BasePermission {
  /** True for a staff user (`isStaff`). */
  override hasPermission(request: Request): boolean {
    return request.user.isAuthenticated && request.user.isStaff === true;
  }
}
