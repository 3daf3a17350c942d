/**
 * Sessions (DRF's `SessionAuthentication`): the user of the session the `sessionid` cookie
 * names. Unsafe methods (POST, PUT, PATCH, DELETE) of a session-authenticated request must
 * carry the session's CSRF token in `X-CSRFToken` (or, in a form body, the field
 * `csrfmiddlewaretoken`, as a browser without script posts it) and come from the service's own origin (or a
 * trusted one), else 403 "CSRF Failed: ...". A request without a session is not this scheme
 * (the next class is asked); there is no challenge, so a refusal is 403, as in DRF.
 *
 * @example
 * ```ts
 * router.register('auth/login', SessionLoginView, { basename: 'login' });
 * router.register('auth/logout', SessionLogoutView, { basename: 'logout' });
 * class NoteViewSet extends ModelViewSet {
 *   override authenticationClasses = [SessionAuthentication, TokenAuthentication];
 * }
 * ```
 * @module
 */

import { PermissionDenied } from '../../errors/api-exception.ts';
import type { Request, RequestUser } from '../../http/request.ts';
import { csrfFailure, findSession } from '../sessions.ts';
import { BaseAuthentication, type SecurityScheme } from './authentication.ts';
import { authOf } from './basic-authentication.ts';

/**
 * Session authentication (see the module).
 *
 * @example
 * ```ts
 * class NoteViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override authenticationClasses = [SessionAuthentication];
 *   override permissionClasses = [IsAuthenticated];
 * }
 * // POST with the sessionid cookie but no X-CSRFToken → 403 {"detail": "CSRF Failed: ..."}
 * ```
 */
export class SessionAuthentication extends BaseAuthentication {
  override async authenticate(request: Request): Promise<readonly [RequestUser, unknown] | null> {
    const auth = authOf(request);
    const session = await findSession(auth, request);
    if (!session || session.user.is_active === false) return null;
    await this.enforceCsrf(request, session);
    return [
      auth.requestUser(session.user),
      { sessionId: session.id, csrfToken: session.csrf_secret },
    ];
  }

  /** The OpenAPI scheme: the `sessionid` cookie, as an API key in a cookie, listed as `cookieAuth`. */
  securityScheme(): SecurityScheme {
    return { name: 'cookieAuth', scheme: { type: 'apiKey', in: 'cookie', name: 'sessionid' } };
  }

  /**
   * 403 "CSRF Failed: <reason>" for an unsafe request without the session's token, in the
   * `X-CSRFToken` header or, in a form body, the `csrfmiddlewaretoken` field. A promise only
   * when a form body had to be read for its field.
   */
  enforceCsrf(request: Request, session: Parameters<typeof csrfFailure>[2]): void | Promise<void> {
    if (request.isSafeMethod || request.method === 'TRACE') return;
    const reason = csrfFailure(authOf(request), request, session);
    if (typeof reason === 'string') throw new PermissionDenied(`CSRF Failed: ${reason}`);
    if (reason === null) return;
    return Promise.resolve(reason).then((late) => {
      if (late) throw new PermissionDenied(`CSRF Failed: ${late}`);
    });
  }
}
