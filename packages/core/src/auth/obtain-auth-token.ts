/**
 * The obtain-token endpoint (DRF's `obtain_auth_token`): `POST {"username", "password"}`
 * answers `{"token": "<key>"}` for `Authorization: Token <key>`. Register it on a router with a
 * basename; login attempts are throttled by {@link LoginRateThrottle}.
 *
 * @example
 * ```ts
 * router.register('api-token-auth', ObtainAuthToken, { basename: 'api-token-auth' });
 * ```
 * @module
 */
import { authOf } from '../authentication/basic-authentication.ts';
import { issueToken } from '../authentication/token-authentication.ts';
import type { Request } from '../http/request.ts';
import { Response } from '../http/response.ts';
import { ViewSet } from '../views/viewsets.ts';
import { LoginRateThrottle, userFromCredentials } from './login-credentials.ts';

/** `POST` credentials, get a token (see the module). */
export class ObtainAuthToken extends ViewSet {
  static override description = 'Exchanges a username and password for an API token.';
  override authenticationClasses = [];
  override permissionClasses = [];
  override throttleClasses = [LoginRateThrottle];

  async create(request: Request): Promise<Response> {
    const auth = authOf(request);
    const user = await userFromCredentials(request, auth);
    return new Response({ token: await issueToken(auth, user) });
  }
}
