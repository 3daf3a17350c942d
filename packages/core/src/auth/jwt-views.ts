/**
 * simplejwt's three views: obtain a pair (`POST {"username", "password"}` → `{"access",
 * "refresh"}`, throttled as logins), refresh (`POST {"refresh"}` → `{"access", "refresh"}`,
 * the old refresh token blacklisted), and blacklist (`POST {"refresh"}`: logout).
 *
 * @example
 * ```ts
 * router.register('token', TokenObtainPairView, { basename: 'token' });
 * router.register('token/refresh', TokenRefreshView, { basename: 'token-refresh' });
 * router.register('token/blacklist', TokenBlacklistView, { basename: 'token-blacklist' });
 * ```
 * @module
 */
import { authOf } from '../authentication/basic-authentication.ts';
import { jwtOf } from '../authentication/jwt-authentication.ts';
import { AuthenticationFailed, ValidationError } from '../errors/api-exception.ts';
import type { Request } from '../http/request.ts';
import { Response } from '../http/response.ts';
import type { ThrottleClass } from '../throttling/throttles.ts';
import { ViewSet } from '../views/viewsets.ts';
import { LoginRateThrottle } from './login-credentials.ts';

/** The body's `refresh`, or DRF's 400. */
function refreshOf(request: Request): string {
  const data = request.data as Record<string, unknown> | null;
  const refresh = data && typeof data === 'object' ? data.refresh : undefined;
  if (refresh === undefined || refresh === null)
    throw new ValidationError({ refresh: ['This field is required.'] });
  if (typeof refresh !== 'string') throw new ValidationError({ refresh: ['Not a valid string.'] });
  if (refresh === '') throw new ValidationError({ refresh: ['This field may not be blank.'] });
  return refresh;
}

/** Views whose failures are 401 with a Bearer challenge, as simplejwt's. */
class TokenView extends ViewSet {
  override authenticationClasses = [];
  override permissionClasses = [];
  override throttleClasses: readonly ThrottleClass[] = [];

  override getAuthenticateHeader(): string {
    return 'Bearer realm="api"';
  }
}

/** Credentials in, a token pair out. */
export class TokenObtainPairView extends TokenView {
  static override description =
    'Exchanges a username and password for an access and a refresh token.';
  override throttleClasses = [LoginRateThrottle];

  async create(request: Request): Promise<Response> {
    const auth = authOf(request);
    const jwt = jwtOf(request.settings);
    const data = (request.data ?? {}) as Record<string, unknown>;
    const errors: Record<string, string[]> = {};
    for (const field of ['username', 'password']) {
      const value = data[field];
      if (value === undefined || value === null) errors[field] = ['This field is required.'];
      else if (typeof value !== 'string') errors[field] = ['Not a valid string.'];
      else if (value === '') errors[field] = ['This field may not be blank.'];
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    const user = await auth.authenticate(data.username, data.password);
    if (!user)
      throw new AuthenticationFailed(
        'No active account found with the given credentials',
        'no_active_account',
      );
    return new Response(await jwt.pair(user));
  }
}

/** A refresh token in, a new access (and refresh) token out. */
export class TokenRefreshView extends TokenView {
  static override description = 'Exchanges a refresh token for a new access token.';

  async create(request: Request): Promise<Response> {
    return new Response(await jwtOf(request.settings).refresh(refreshOf(request)));
  }
}

/** Logs a refresh token out. */
export class TokenBlacklistView extends TokenView {
  static override description = 'Blacklists a refresh token (logout).';

  async create(request: Request): Promise<Response> {
    await jwtOf(request.settings).blacklist(refreshOf(request));
    return new Response({});
  }
}
