/**
 * Session login and logout views. `GET` on the login view sets the `csrftoken` cookie and
 * answers `{"csrfToken": ...}` (Django's `ensure_csrf_cookie`); `POST {"username",
 * "password"}` with that token as `X-CSRFToken` (or the form field `csrfmiddlewaretoken`)
 * starts a session (cookies `sessionid`, `HttpOnly`, and a new `csrftoken`) and answers the
 * user's username and the CSRF token to send with unsafe requests. A login without the token,
 * or from a foreign `Origin`, is refused with 403 before its credentials are read (Django's
 * login CSRF protection), so it costs no password hash and no login attempt. `POST` to the
 * logout view ends the session (with the CSRF token, as any unsafe request of a session).
 *
 * @example
 * ```ts
 * router.register('auth/login', SessionLoginView, { basename: 'login' });
 * router.register('auth/logout', SessionLogoutView, { basename: 'logout' });
 * ```
 * @module
 */

import { PermissionDenied } from '../../errors/api-exception.ts';
import type { Request } from '../../http/request.ts';
import { Response } from '../../http/response.ts';
import type { MaybePromise } from '../../utils/maybe-promise.ts';
import { ViewSet } from '../../views/viewsets.ts';
import type { Auth, UserRow } from '../auth.ts';
import { authOf } from '../authentication/basic-authentication.ts';
import { SessionAuthentication } from '../authentication/session-authentication.ts';
import {
  endSession,
  ensureCsrfCookie,
  loginCsrfFailure,
  originFailure,
  startSession,
} from '../sessions.ts';
import { LoginView } from './login-view.ts';

/**
 * Starts a session for good credentials (see the module); throttled as logins.
 *
 * @example
 * ```ts
 * router.register('auth/login', SessionLoginView, { basename: 'login' });
 * // GET /auth/login/ → 200 {"csrfToken": "…"}, with the cookie csrftoken
 * // POST /auth/login/ {"username": "ada", "password": "…"}, the cookie and X-CSRFToken
 * //   → 200 {"username": "ada", "csrfToken": "…"}, with the cookies sessionid and csrftoken
 * ```
 */
export class SessionLoginView extends LoginView {
  static override description =
    'Logs in with a username and password: starts a session. GET answers the CSRF token to log in with.';
  static override schemaResponses = {
    list: {
      type: 'object',
      properties: { csrfToken: { type: 'string', description: 'Send it as X-CSRFToken.' } },
      required: ['csrfToken'],
    },
    create: {
      type: 'object',
      description: "The user's username field, and the new CSRF token of the session.",
      properties: {
        username: { type: 'string' },
        csrfToken: { type: 'string', description: 'Send it as X-CSRFToken.' },
      },
      required: ['csrfToken'],
      additionalProperties: { type: 'string' },
    },
  };
  /** The body was parsed by `initial`, for the CSRF form field: not parsed again. */
  #parsed = false;

  /** The CSRF token to log in with, set as the `csrftoken` cookie when the client has none. */
  list(request: Request): Response {
    return new Response({ csrfToken: ensureCsrfCookie(authOf(request), request) });
  }

  /**
   * Login CSRF, before authentication, permissions and throttles: a foreign origin is refused
   * before the body is read; then the body is parsed (the token may be a form field) and the
   * token compared with the `csrftoken` cookie.
   */
  override initial(request: Request): void | Promise<void> {
    if (request.isSafeMethod) return super.initial(request);
    this.performContentNegotiation(request);
    const auth = authOf(request);
    const origin = originFailure(auth, request);
    if (origin) throw new PermissionDenied(`CSRF Failed: ${origin}`);
    return this.#checkToken(request, auth);
  }

  async #checkToken(request: Request, auth: Auth): Promise<void> {
    request.data = await this.parseBody(request);
    this.#parsed = true;
    const reason = loginCsrfFailure(auth, request);
    if (reason) throw new PermissionDenied(`CSRF Failed: ${reason}`);
    await super.initial(request);
  }

  override parseBody(request: Request): MaybePromise<unknown> {
    return this.#parsed ? request.data : super.parseBody(request);
  }

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
  static override schemaResponses = {
    create: {
      type: 'object',
      properties: { detail: { type: 'string', const: 'Logged out.' } },
      required: ['detail'],
    },
  };
  override authenticationClasses = [SessionAuthentication];
  override permissionClasses = [];
  override throttleClasses = [];

  async create(request: Request): Promise<Response> {
    await endSession(authOf(request), request);
    return new Response({ detail: 'Logged out.' });
  }
}
