/**
 * simplejwt's views: obtain a pair (`POST {"username", "password"}` → `{"access",
 * "refresh"}`, throttled as logins), refresh (`POST {"refresh"}` → `{"access", "refresh"}`,
 * the old refresh token blacklisted), verify (`POST {"token"}` → `{}`) and blacklist
 * (`POST {"refresh"}`: logout). Token failures are 401 `InvalidToken` with simplejwt's body
 * (`{"detail", "code": "token_not_valid"}`).
 *
 * @example
 * ```ts
 * router.register('token', TokenObtainPairView, { basename: 'token' });
 * router.register('token/refresh', TokenRefreshView, { basename: 'token-refresh' });
 * router.register('token/verify', TokenVerifyView, { basename: 'token-verify' });
 * router.register('token/blacklist', TokenBlacklistView, { basename: 'token-blacklist' });
 * ```
 * @module
 */

import { AuthenticationFailed } from '../../errors/api-exception.ts';
import type { JsonSchema } from '../../fields/field.ts';
import type { Request } from '../../http/request.ts';
import { Response } from '../../http/response.ts';
import type { APISettings } from '../../settings/api-settings.ts';
import type { ThrottleClass } from '../../throttling/throttles.ts';
import { ViewSet } from '../../views/viewsets.ts';
import type { Auth, UserRow } from '../auth.ts';
import { jwtOf } from '../authentication/jwt-authentication.ts';
import { readCredentials, requiredStrings } from '../login-credentials.ts';
import { LoginView } from './login-view.ts';

/** The challenge of the JWT views' 401s, as simplejwt's. */
const BEARER = 'Bearer realm="api"';

/** The body's `refresh`, or DRF's 400. */
function refreshOf(request: Request): string {
  return requiredStrings(request, { refresh: 8192 }).refresh as string;
}

/**
 * Credentials in, a token pair out; wrong credentials are 401, as simplejwt answers.
 *
 * @example
 * ```ts
 * router.register('token', TokenObtainPairView, { basename: 'token' });
 * // POST /token/ {"username": "ada", "password": "…"} → 200 {"access": "…", "refresh": "…"}
 * //   wrong credentials → 401
 * ```
 */
export class TokenObtainPairView extends LoginView {
  static override description =
    'Exchanges a username and password for an access and a refresh token.';
  static override schemaResponses: Readonly<Record<string, JsonSchema>> = {
    create: {
      type: 'object',
      properties: { access: { type: 'string' }, refresh: { type: 'string' } },
      required: ['access', 'refresh'],
    },
  };

  override getAuthenticateHeader(): string {
    return BEARER;
  }

  override async checkConfiguration(settings: APISettings): Promise<void> {
    await jwtOf(settings).prepare();
  }

  override async getUser(request: Request, auth: Auth): Promise<UserRow> {
    const { username, password } = readCredentials(request);
    const user = await auth.authenticate(username, password);
    if (!user)
      throw new AuthenticationFailed(
        'No active account found with the given credentials',
        'no_active_account',
      );
    return user;
  }

  async login(request: Request, _auth: Auth, user: UserRow): Promise<Response> {
    return new Response(await jwtOf(request.settings).pair(user));
  }
}

/** Views that take a refresh token; failures are 401 with a Bearer challenge. */
class RefreshTokenView extends ViewSet {
  /** A plain view in simplejwt: "Token Refresh", not "Token Refresh List". */
  static override viewNameSuffix = false;
  override authenticationClasses = [];
  override permissionClasses = [];
  override throttleClasses: readonly ThrottleClass[] = [];

  override getAuthenticateHeader(): string {
    return BEARER;
  }

  override async checkConfiguration(settings: APISettings): Promise<void> {
    await jwtOf(settings).prepare();
  }
}

/**
 * A refresh token in, a new access (and refresh) token out.
 *
 * @example
 * ```ts
 * router.register('token/refresh', TokenRefreshView, { basename: 'token-refresh' });
 * // POST /token/refresh/ {"refresh": "…"} → 200 {"access": "…"} (and a new "refresh" when rotating)
 * ```
 */
export class TokenRefreshView extends RefreshTokenView {
  static override description = 'Exchanges a refresh token for a new access token.';
  static override schemaResponses: Readonly<Record<string, JsonSchema>> = {
    create: {
      type: 'object',
      properties: { access: { type: 'string' }, refresh: { type: 'string' } },
      required: ['access'],
    },
  };

  /**
   * POST: the body's `refresh` token checked, and a new access token answered (a new refresh token
   * too when they rotate).
   */
  async create(request: Request): Promise<Response> {
    return new Response(await jwtOf(request.settings).refresh(refreshOf(request)));
  }
}

/**
 * Whether a token (access or refresh) is valid: 200 `{}`, else 401 `{"detail": "Token is
 * invalid or expired", "code": "token_not_valid"}` (simplejwt's `TokenVerifyView`). It says
 * nothing of a token's fitness for a particular use.
 *
 * @example
 * ```ts
 * router.register('token/verify', TokenVerifyView, { basename: 'token-verify' });
 * // POST /token/verify/ {"token": "…"} → 200 {}
 * ```
 */
export class TokenVerifyView extends RefreshTokenView {
  static override description = 'Checks that a token is valid.';
  static override schemaResponses: Readonly<Record<string, JsonSchema>> = {
    create: { type: 'object', maxProperties: 0 },
  };

  /** POST: the body's `token` checked; 200 `{}` when it is valid, else 401. */
  async create(request: Request): Promise<Response> {
    const { token } = requiredStrings(request, { token: 8192 });
    await jwtOf(request.settings).verifyToken(token);
    return new Response({});
  }
}

/**
 * Logs a refresh token out.
 *
 * @example
 * ```ts
 * router.register('token/blacklist', TokenBlacklistView, { basename: 'token-blacklist' });
 * // POST /token/blacklist/ {"refresh": "…"} → 200 {}; that refresh token is refused from now on
 * ```
 */
export class TokenBlacklistView extends RefreshTokenView {
  static override description = 'Blacklists a refresh token (logout).';
  static override schemaResponses: Readonly<Record<string, JsonSchema>> = {
    create: { type: 'object', maxProperties: 0 },
  };

  /** POST: the body's `refresh` token checked and blacklisted; 200 `{}`. */
  async create(request: Request): Promise<Response> {
    await jwtOf(request.settings).blacklist(refreshOf(request));
    return new Response({});
  }
}
