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
 * In a browser (the browsable API, `Accept: text/html`), both behave as Django's login and
 * logout pages: after a login the browser is sent on (303) to `?next=` (or a `next` form
 * field) when it is a path of this service, else to the router's root; a logout with a
 * `next` sends it there. Any other `next` (another site, `//host`) is ignored: no open redirect.
 *
 * @example
 * ```ts
 * router.register('auth/login', SessionLoginView, { basename: 'login' });
 * router.register('auth/logout', SessionLogoutView, { basename: 'logout' });
 * ```
 * @module
 */

import { PermissionDenied } from '../../errors/api-exception.ts';
import type { JsonSchema } from '../../fields/field.ts';
import type { Request } from '../../http/request.ts';
import { Response } from '../../http/response.ts';
import type { MaybePromise } from '../../utils/maybe-promise.ts';
import { safeNextUrl } from '../../utils/safe-next-url.ts';
import { ViewSet } from '../../views/viewsets.ts';
import type { Auth, UserRow } from '../auth.ts';
import { authOf } from '../authentication/basic-authentication.ts';
import { SessionAuthentication } from '../authentication/session-authentication.ts';
import {
  endSession,
  ensureCsrfCookie,
  loginCsrfFailure,
  originFailure,
  requestCookie,
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
  static override schemaResponses: Readonly<Record<string, JsonSchema>> = {
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

  /** The token `list` answered (and set as a cookie), for the page's form. */
  #csrfToken: string | undefined;

  /** The CSRF token to log in with, set as the `csrftoken` cookie when the client has none. */
  list(request: Request): Response {
    this.#csrfToken = ensureCsrfCookie(authOf(request), request);
    return new Response({ csrfToken: this.#csrfToken });
  }

  /**
   * The hidden fields of the browsable API's login form: the page's `next`, and the CSRF token
   * as `csrfmiddlewaretoken`, so that a browser without script logs in too (Django's
   * `{% csrf_token %}`). Only the token of this client's own cookie is written.
   */
  formHiddenFields(request: Request): [string, string][] {
    const fields: [string, string][] = [];
    const next = safeNextUrl(request.queryParam('next'));
    if (next !== undefined) fields.push(['next', next]);
    const token = this.#csrfToken ?? requestCookie(request, authOf(request).session.csrfCookieName);
    if (token) fields.push(['csrfmiddlewaretoken', token]);
    return fields;
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
    if (inBrowser(request)) return seeOther(nextOf(request) ?? this.loginRedirectUrl(request));
    return new Response({ [auth.usernameField]: user[auth.usernameField], csrfToken });
  }

  /**
   * Where a browser goes after logging in without a `next` (Django's `LOGIN_REDIRECT_URL`):
   * the root of the router the login is registered in when it has one (`/manage/api/`), else
   * the login page again (which names the user in its header).
   */
  loginRedirectUrl(request: Request): string {
    const parent = request.path.replace(/[^/]+\/?$/, '');
    const endpoints = request.raw.server.restFramework?.endpoints ?? [];
    return endpoints.some((e) => e.path === parent) ? parent : request.path;
  }
}

/** True when the caller is a person in the browsable API (its answer is a page). */
function inBrowser(request: Request): boolean {
  return request.acceptedRenderer?.mediaType === 'text/html';
}

/** The safe `next` of a browser's login or logout: the query's, else the form's. */
function nextOf(request: Request): string | undefined {
  const data = request.data as Record<string, unknown> | null | undefined;
  return (
    safeNextUrl(request.queryParam('next')) ??
    safeNextUrl(typeof data === 'object' && data !== null ? data.next : undefined)
  );
}

/** 303 See Other: the browser GETs `location`. */
function seeOther(location: string): Response {
  return new Response(null, 303, { Location: location });
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
  static override schemaResponses: Readonly<Record<string, JsonSchema>> = {
    create: {
      type: 'object',
      properties: { detail: { type: 'string', const: 'Logged out.' } },
      required: ['detail'],
    },
  };
  /** A plain view in Django: "Session Logout", not "Session Logout List". */
  static override viewNameSuffix = false;
  override authenticationClasses = [SessionAuthentication];
  override permissionClasses = [];
  override throttleClasses = [];

  /**
   * POST: the session ended; `{"detail": "Logged out."}`, or a redirect to `next` for a browser's
   * form.
   */
  async create(request: Request): Promise<Response> {
    await endSession(authOf(request), request);
    const next = inBrowser(request) ? nextOf(request) : undefined;
    if (next !== undefined) return seeOther(next);
    return new Response({ detail: 'Logged out.' });
  }
}
