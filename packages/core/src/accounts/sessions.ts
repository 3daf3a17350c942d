/**
 * Server-side sessions: a random key in an `HttpOnly` cookie, its SHA-256 digest in the
 * `auth_session` table with the user, an expiry and the session's CSRF token. Logging in
 * always makes a new session and deletes the one the request carried (Django's `cycle_key`:
 * no fixation, and the previous key stops working); logging out deletes it. Before a session
 * exists, the login itself is protected by the `csrftoken` cookie (Django's login CSRF).
 *
 * @example
 * ```ts
 * const auth = createAuth({ session: { maxAgeSeconds: 8 * 3600, secure: true } });
 * ```
 * @module
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';
import { requestMediaType } from '../http/content-negotiation.ts';
import type { Request } from '../http/request.ts';
import { type MaybePromise, thenMaybe } from '../utils/maybe-promise.ts';
import type { Auth, UserRow } from './auth.ts';
import { randomKey } from './random-key.ts';
import { refererFailure } from './referer-check.ts';
import { DatabaseSessionStore, type SessionStore } from './session-store.ts';

/** How sessions and their cookies are made (Django's `SESSION_*` and `CSRF_*` settings). */
export interface SessionOptions {
  /** Default `sessionid`. */
  readonly cookieName?: string;
  /** The cookie holding the CSRF token for scripts to send back; default `csrftoken`. */
  readonly csrfCookieName?: string;
  /** The header an unsafe request carries the CSRF token in; default `X-CSRFToken`. */
  readonly csrfHeaderName?: string;
  /** Default two weeks, Django's `SESSION_COOKIE_AGE`. */
  readonly maxAgeSeconds?: number;
  /** `Secure` cookies (default true; false only for plain-HTTP development). */
  readonly secure?: boolean;
  /** `SameSite` of both cookies (default `lax`). */
  readonly sameSite?: 'lax' | 'strict';
  /**
   * Origins besides the request's own that may send unsafe requests (`https://app.example.org`):
   * matched against the `Origin` header, or over HTTPS without one, the `Referer`'s origin.
   */
  readonly trustedOrigins?: readonly string[];
  /**
   * Where sessions live: the database (`auth_session`, the default) or a
   * `RedisSessionStore`.
   */
  readonly store?: SessionStore;
}

/** {@link SessionOptions} with every default filled in. */
export type ResolvedSessionOptions = Required<SessionOptions>;

export function resolveSessionOptions(options: SessionOptions = {}): ResolvedSessionOptions {
  return Object.freeze({
    cookieName: options.cookieName ?? 'sessionid',
    csrfCookieName: options.csrfCookieName ?? 'csrftoken',
    csrfHeaderName: (options.csrfHeaderName ?? 'X-CSRFToken').toLowerCase(),
    maxAgeSeconds: options.maxAgeSeconds ?? 14 * 24 * 3600,
    secure: options.secure ?? true,
    sameSite: options.sameSite ?? 'lax',
    trustedOrigins: options.trustedOrigins ?? [],
    store: options.store ?? new DatabaseSessionStore(),
  });
}

/** A live session: its row, with the user's. */
export interface SessionRecord {
  readonly id: number | string;
  readonly csrf_secret: string;
  readonly user: UserRow;
}

function digest(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The value of a cookie of the request, or undefined. */
export function requestCookie(request: Request, name: string): string | undefined {
  const header = request.raw.headers.cookie;
  if (typeof header !== 'string' || header.length > 8192) return undefined;
  try {
    return parseCookie(header)[name];
  } catch {
    return undefined;
  }
}

const SESSION_KEY = /^[0-9a-f]{64}$/;

/**
 * The unexpired session the request's cookie names, with its user (active or not: the caller
 * decides); undefined otherwise.
 */
export async function findSession(
  auth: Auth,
  request: Request,
): Promise<SessionRecord | undefined> {
  const key = requestCookie(request, auth.session.cookieName);
  if (!key || !SESSION_KEY.test(key)) return undefined;
  const found = await auth.session.store.find(auth, digest(key));
  if (!found) return undefined;
  // A store without the join (Redis) gives the user's id: the user is read from the database,
  // so a deleted or deactivated user is seen at once.
  const user = found.user ?? (await auth.userById(found.user_id));
  if (!user) return undefined;
  return { id: found.id, csrf_secret: found.csrf_secret, user };
}

function cookie(
  auth: Auth,
  name: string,
  value: string,
  httpOnly: boolean,
  maxAge: number,
): string {
  const options = auth.session;
  return stringifySetCookie({
    name,
    value,
    path: '/',
    httpOnly,
    secure: options.secure,
    sameSite: options.sameSite,
    maxAge,
  });
}

/**
 * Logs `user` in: a new session and its two cookies on the response (the session key,
 * `HttpOnly`; the CSRF token, readable by scripts). The session the request carried, if any,
 * is deleted first (Django's `cycle_key`): a key known before the login never works after it.
 * Returns the CSRF token.
 */
export async function startSession(auth: Auth, request: Request, user: UserRow): Promise<string> {
  const previous = requestCookie(request, auth.session.cookieName);
  if (previous && SESSION_KEY.test(previous))
    await auth.session.store.delete(auth, digest(previous));
  const key = randomKey(32);
  const csrf = randomKey(32);
  const maxAge = auth.session.maxAgeSeconds;
  await auth.session.store.create(
    auth,
    digest(key),
    { user_id: user.id, csrf_secret: csrf },
    maxAge,
  );
  await auth.User.objects.updateRow(user, { last_login: new Date().toISOString() });
  request.reply.header('set-cookie', [
    cookie(auth, auth.session.cookieName, key, true, maxAge),
    cookie(auth, auth.session.csrfCookieName, csrf, false, maxAge),
  ]);
  return csrf;
}

/** What a CSRF token of this module looks like (the cookie is the client's: checked first). */
const CSRF_TOKEN = /^[0-9a-f]{64}$/;

/**
 * The CSRF token of a client that has no session yet (Django's `ensure_csrf_cookie`): the
 * request's `csrftoken` cookie when it holds one, else a new one set on the response. A
 * client GETs the login route for it, then sends it back as `X-CSRFToken` (or the form field
 * `csrfmiddlewaretoken`) with its login.
 */
export function ensureCsrfCookie(auth: Auth, request: Request): string {
  const current = requestCookie(request, auth.session.csrfCookieName);
  if (current && CSRF_TOKEN.test(current)) return current;
  const token = randomKey(32);
  request.reply.header(
    'set-cookie',
    cookie(auth, auth.session.csrfCookieName, token, false, auth.session.maxAgeSeconds),
  );
  return token;
}

/** Logs out: deletes the request's session (if any) and expires both cookies. */
export async function endSession(auth: Auth, request: Request): Promise<void> {
  const key = requestCookie(request, auth.session.cookieName);
  if (key && SESSION_KEY.test(key)) await auth.session.store.delete(auth, digest(key));
  request.reply.header('set-cookie', [
    cookie(auth, auth.session.cookieName, '', true, 0),
    cookie(auth, auth.session.csrfCookieName, '', false, 0),
  ]);
}

/** Deletes expired sessions (Django's `clearsessions`); returns how many (Redis: 0, its TTL does it). */
export function clearExpiredSessions(auth: Auth): Promise<number> {
  return auth.session.store.clearExpired(auth);
}

/**
 * Why an unsafe request fails the origin half of the CSRF checks, or null when it passes: an
 * `Origin` that is neither the request's own nor trusted; over HTTPS without an `Origin`, a
 * `Referer` missing, malformed, plain HTTP or of another origin (Django's strict Referer
 * check). Cheap and bodiless, so the login view runs it before anything else.
 */
export function originFailure(auth: Auth, request: Request): string | null {
  const origin = request.raw.headers.origin;
  if (typeof origin === 'string' && origin !== 'null') {
    const trusted = origin === request.origin || auth.session.trustedOrigins.includes(origin);
    if (!trusted)
      return `Origin checking failed - ${origin.slice(0, 200)} does not match any trusted origins.`;
  } else if (request.scheme === 'https') {
    return refererFailure(auth, request);
  }
  return null;
}

/** Compares the token a request sent with the expected one, in constant time. */
function tokenFailure(expected: string, sent: unknown): string | null {
  if (typeof sent !== 'string' || sent === '') return 'CSRF token missing.';
  const want = Buffer.from(expected);
  const given = Buffer.from(sent);
  if (given.length !== want.length || !timingSafeEqual(given, want)) return 'CSRF token incorrect.';
  return null;
}

/**
 * Why an unsafe request of a session fails CSRF checks (DRF's reasons), or null when it
 * passes: {@link originFailure}, then a missing or wrong token: the `X-CSRFToken` header when
 * sent, else, in a form body (url-encoded or multipart, as a browser without script posts a
 * form), the field `csrfmiddlewaretoken` (Django's `{% csrf_token %}`), compared alike in
 * constant time. Only such a body is parsed here, once (`request.readBody()`), and only after
 * the origin check passed.
 */
export function csrfFailure(
  auth: Auth,
  request: Request,
  session: SessionRecord,
): MaybePromise<string | null> {
  const origin = originFailure(auth, request);
  if (origin) return origin;
  const header = request.raw.headers[auth.session.csrfHeaderName];
  if ((typeof header === 'string' && header !== '') || !FORM_BODY.has(requestMediaType(request)))
    return tokenFailure(session.csrf_secret, header);
  return thenMaybe(request.readBody(), (data) =>
    tokenFailure(session.csrf_secret, formToken(data)),
  );
}

/**
 * The CSRF token of the session that authenticated `request` (`SessionAuthentication` puts it
 * in `request.auth`), for the hidden `csrfmiddlewaretoken` field of a page's forms; undefined
 * for any other caller.
 */
export function sessionCsrfToken(request: Request): string | undefined {
  const auth = request.auth as { readonly csrfToken?: unknown } | null | undefined;
  return typeof auth?.csrfToken === 'string' ? auth.csrfToken : undefined;
}

/** The media types of the bodies a browser's form sends, which carry the form field. */
const FORM_BODY = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

/** The `csrfmiddlewaretoken` field of a parsed form body (a list when the key repeated). */
function formToken(data: unknown): unknown {
  return typeof data === 'object' && data !== null
    ? (data as Record<string, unknown>).csrfmiddlewaretoken
    : undefined;
}

/**
 * Why a login fails CSRF checks (Django's `csrf_protect` on `LoginView`), or null when it
 * passes: {@link originFailure}, then the `csrftoken` cookie missing ("CSRF cookie not set.")
 * or not matched by `X-CSRFToken` or, in a form body, the `csrfmiddlewaretoken` field. The
 * body must be parsed before: the form field is read from `request.data`.
 */
export function loginCsrfFailure(auth: Auth, request: Request): string | null {
  const origin = originFailure(auth, request);
  if (origin) return origin;
  const expected = requestCookie(request, auth.session.csrfCookieName);
  if (!expected || !CSRF_TOKEN.test(expected)) return 'CSRF cookie not set.';
  const header = request.raw.headers[auth.session.csrfHeaderName];
  const field = formToken(request.data);
  return tokenFailure(expected, typeof header === 'string' && header !== '' ? header : field);
}
