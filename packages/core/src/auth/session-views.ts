/**
 * Session login and logout views. `POST {"username", "password"}` to the login view starts a
 * session (cookies `sessionid`, `HttpOnly`, and `csrftoken`) and answers the user's username
 * and the CSRF token to send as `X-CSRFToken` with unsafe requests; `POST` to the logout view
 * ends it (with the CSRF token, as any unsafe request of a session).
 *
 * @example
 * ```ts
 * router.register('auth/login', SessionLoginView, { basename: 'login' });
 * router.register('auth/logout', SessionLogoutView, { basename: 'logout' });
 * ```
 * @module
 */
import { authOf } from '../authentication/basic-authentication.ts';
import { SessionAuthentication } from '../authentication/session-authentication.ts';
import type { Request } from '../http/request.ts';
import { Response } from '../http/response.ts';
import { ViewSet } from '../views/viewsets.ts';
import type { Auth, UserRow } from './auth.ts';
import { LoginView } from './login-view.ts';
import { endSession, startSession } from './sessions.ts';

/**
 * Starts a session for good credentials (see the module); throttled as logins.
 *
 * @example
 * ```ts
 * router.register('auth/login', SessionLoginView, { basename: 'login' });
 * // POST /auth/login/ {"username": "ada", "password": "…"} → 200 {"username": "ada", "csrfToken": "…"},
 * //   with the cookies sessionid and csrftoken
 * ```
 */
export class SessionLoginView extends LoginView {
  static override description = 'Logs in with a username and password: starts a session.';

  async login(request: Request, auth: Auth, user: UserRow): Promise<Response> {
    const csrfToken = await startSession(auth, request, user);
    return new Response({ [auth.usernameField]: user[auth.usernameField], csrfToken });
  }
}

/**
 * Ends the request's session (see the module).
 *
 * @example
 * ```ts
 * router.register('auth/logout', SessionLogoutView, { basename: 'logout' });
 * // POST /auth/logout/ with the session's cookies and X-CSRFToken → 200 {"detail": "Logged out."}
 * ```
 */
export class SessionLogoutView extends ViewSet {
  static override description = 'Logs out: ends the session.';
  override authenticationClasses = [SessionAuthentication];
  override permissionClasses = [];
  override throttleClasses = [];

  async create(request: Request): Promise<Response> {
    await endSession(authOf(request), request);
    return new Response({ detail: 'Logged out.' });
  }
}
