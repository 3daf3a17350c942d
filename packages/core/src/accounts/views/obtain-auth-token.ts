/**
 * The obtain-token endpoint (DRF's `obtain_auth_token`): `POST {"username", "password"}`
 * answers `{"token": "<key>"}` for `Authorization: Token <key>`: the user's existing token
 * when there is one (DRF's `get_or_create`), a new one otherwise or once it expired (see
 * `obtainToken`). Register it on a router with a
 * basename; login attempts are throttled by {@link LoginRateThrottle}.
 *
 * @example
 * ```ts
 * router.register('api-token-auth', ObtainAuthToken, { basename: 'api-token-auth' });
 * ```
 * @module
 */

import type { JsonSchema } from '../../fields/field.ts';
import type { Request } from '../../http/request.ts';
import { Response } from '../../http/response.ts';
import type { Auth, UserRow } from '../auth.ts';
import { obtainToken } from '../tokens.ts';
import { LoginView } from './login-view.ts';

/**
 * `POST` credentials, get a token (see the module).
 *
 * @example
 * ```ts
 * router.register('api-token-auth', ObtainAuthToken, { basename: 'api-token-auth' });
 * // POST /api-token-auth/ {"username": "ada", "password": "…"} → 200 {"token": "…"}
 * ```
 */
export class ObtainAuthToken extends LoginView {
  static override description = 'Exchanges a username and password for an API token.';
  static override schemaResponses: Readonly<Record<string, JsonSchema>> = {
    create: {
      type: 'object',
      properties: {
        token: { type: 'string', description: 'Send it as `Authorization: Token …`.' },
      },
      required: ['token'],
    },
  };

  async login(_request: Request, auth: Auth, user: UserRow): Promise<Response> {
    return new Response({ token: await obtainToken(auth, user) });
  }
}
