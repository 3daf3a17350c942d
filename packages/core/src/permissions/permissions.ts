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
  hasPermission(request: Request, view: unknown): boolean | Promise<boolean>;
  hasObjectPermission(request: Request, view: unknown, obj: unknown): boolean | Promise<boolean>;
}

/** A permission class. */
export type PermissionClass = new () => Permission;

/** Allows everything; override one of the two checks. */
export class BasePermission implements Permission {
  hasPermission(_request: Request, _view: unknown): boolean | Promise<boolean> {
    return true;
  }

  hasObjectPermission(
    _request: Request,
    _view: unknown,
    _obj: unknown,
  ): boolean | Promise<boolean> {
    return true;
  }
}

/** Any caller, authenticated or not (the default). */
export class AllowAny extends BasePermission {}

/** Authenticated callers only. */
export class IsAuthenticated extends BasePermission {
  override hasPermission(request: Request): boolean {
    return request.user.isAuthenticated;
  }
}

/** Anyone may read; authenticated callers may write. */
export class IsAuthenticatedOrReadOnly extends BasePermission {
  override hasPermission(request: Request): boolean {
    return request.isSafeMethod || request.user.isAuthenticated;
  }
}

/** Staff users only. */
export class IsAdminUser extends BasePermission {
  override hasPermission(request: Request): boolean {
    return request.user.isAuthenticated && request.user.isStaff === true;
  }
}
