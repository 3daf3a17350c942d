/**
 * Authentication: who the caller is. Each class of a view's `authenticationClasses` is asked
 * in turn; the first to recognise credentials sets `request.user` and `request.auth`.
 *
 * @example
 * ```ts
 * declare function findUserByKey(key: string): Promise<{ id: number; username: string } | null>;
 *
 * class ApiKeyAuthentication extends BaseAuthentication {
 *   override async authenticate(request: Request) {
 *     const key = request.raw.headers['x-api-key'];
 *     if (!key) return null;                       // not this scheme: try the next class
 *     const user = await findUserByKey(String(key));
 *     if (!user) throw new AuthenticationFailed('Invalid API key.');
 *     return [{ ...user, isAuthenticated: true }, key] as const;
 *   }
 *   override authenticateHeader() { return 'ApiKey'; }
 * }
 * ```
 * @module
 */
import type { Request, RequestUser } from '../../http/request.ts';
import type { APISettings } from '../../settings/api-settings.ts';

/** What `authenticate` finds: the user and credentials, or null (not this scheme). */
export type AuthenticationResult = readonly [RequestUser, unknown] | null;

/** An authentication scheme. */
export interface Authentication {
  /**
   * The user and credentials, null when the request does not use this scheme. May answer at
   * once (no promise) when it waited for nothing: the request then goes on without one.
   */
  authenticate(request: Request): AuthenticationResult | Promise<AuthenticationResult>;
  /** The `WWW-Authenticate` value of a 401; undefined makes failures 403. */
  authenticateHeader(request: Request): string | undefined;
  /** Start-up check against the app's settings (a missing configuration or package). */
  check?(settings: APISettings): void | Promise<void>;
  /**
   * The OpenAPI security scheme of this class, named (`tokenAuth`); none by default. The
   * generator passes the app's settings (the JWT header keywords depend on them).
   */
  securityScheme?(settings?: APISettings): SecurityScheme | undefined;
}

/** An OpenAPI security scheme and the name it is listed under in `components.securitySchemes`. */
export interface SecurityScheme {
  readonly name: string;
  readonly scheme: Readonly<Record<string, unknown>>;
}

/** An authentication class. */
export type AuthenticationClass = new () => Authentication;

/**
 * Recognises nobody; override `authenticate`.
 *
 * @example
 * ```ts
 * class HeaderUserAuthentication extends BaseAuthentication {
 *   override async authenticate(request: Request) {
 *     const name = request.raw.headers['x-user'];
 *     if (typeof name !== 'string') return null; // not this scheme: the next class is asked
 *     return [{ isAuthenticated: true, username: name }, null] as const;
 *   }
 * }
 * ```
 */
export class BaseAuthentication implements Authentication {
  authenticate(_request: Request): AuthenticationResult | Promise<AuthenticationResult> {
    return null;
  }

  authenticateHeader(_request: Request): string | undefined {
    return undefined;
  }

  check(_settings: APISettings): void | Promise<void> {}
}
