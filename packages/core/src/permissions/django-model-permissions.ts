/**
 * Permissions from the user's model permissions (DRF's `DjangoModelPermissions`): POST needs
 * `add_<model>`, PUT and PATCH `change_<model>`, DELETE `delete_<model>`, of the model of the
 * view's queryset; reads need an authenticated user (or nothing, for
 * {@link DjangoModelPermissionsOrAnonReadOnly}). Permissions come from the app's `Auth`
 * (the `AUTH` setting): granted to the user or to one of its groups; superusers have all.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override authenticationClasses = [TokenAuthentication];
 *   override permissionClasses = [DjangoModelPermissions];
 * }
 * ```
 * @module
 */

import { permissionCodename } from '../accounts/auth.ts';
import { authOf } from '../accounts/authentication/basic-authentication.ts';
import { MethodNotAllowed } from '../errors/api-exception.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { Request } from '../http/request.ts';
import type { AnyModel } from '../models/model.ts';
import { BasePermission } from './permissions.ts';

/** The actions each method needs, DRF's `perms_map`. */
const PERMS_MAP: Readonly<Record<string, readonly string[]>> = {
  GET: [],
  OPTIONS: [],
  HEAD: [],
  POST: ['add'],
  PUT: ['change'],
  PATCH: ['change'],
  DELETE: ['delete'],
};

interface ViewWithQueryset {
  queryset?: { model: AnyModel } | undefined;
  getQueryset?: () => { model: AnyModel };
}

/**
 * Model permissions for authenticated users (see the module).
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override permissionClasses = [DjangoModelPermissions];
 * }
 * new DjangoModelPermissions().getRequiredPermissions('PUT', Book); // ['books.change_book'] for books_book
 * ```
 */
export class DjangoModelPermissions extends BasePermission {
  /** False lets anonymous callers read (see {@link DjangoModelPermissionsOrAnonReadOnly}). */
  authenticatedUsersOnly = true;
  /** Actions per method; override to require `view` for reads, say. */
  permsMap: Readonly<Record<string, readonly string[]>> = PERMS_MAP;

  /** The permission names a method on a model needs (`['books.change_book']`). */
  getRequiredPermissions(method: string, model: AnyModel): string[] {
    const actions = this.permsMap[method];
    if (!actions) throw new MethodNotAllowed(method);
    return actions.map((action) => permissionCodename(model, action));
  }

  #model(view: unknown): AnyModel {
    const candidate = view as ViewWithQueryset;
    const queryset = candidate.queryset ?? candidate.getQueryset?.();
    if (!queryset) {
      throw new ImproperlyConfigured(
        'REST_ERR_VIEW_CONFIG',
        `${this.constructor.name} needs a view with a \`queryset\` or \`getQueryset()\` (the model whose permissions it checks).`,
      );
    }
    return queryset.model;
  }

  /**
   * True when the user holds every permission the method needs on the view's model
   * (`getRequiredPermissions`); an anonymous caller only where `authenticatedUsersOnly` is false.
   */
  override hasPermission(request: Request, view: unknown): boolean | Promise<boolean> {
    const user = request.user;
    if (!user.isAuthenticated && this.authenticatedUsersOnly) return false;
    const required = this.getRequiredPermissions(request.method, this.#model(view));
    if (required.length === 0) return true;
    return authOf(request).hasPerms(user, required);
  }
}

/**
 * As {@link DjangoModelPermissions}, and anonymous callers may read.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override permissionClasses = [DjangoModelPermissionsOrAnonReadOnly]; // anyone may GET
 * }
 * ```
 */
export class DjangoModelPermissionsOrAnonReadOnly extends DjangoModelPermissions {
  override authenticatedUsersOnly = false;
}
