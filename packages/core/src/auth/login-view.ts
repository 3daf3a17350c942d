/**
 * The base of the views that exchange a username and password for credentials (a token, a
 * session, a JWT pair): no authentication or permission of their own, login attempts
 * throttled, and two seams, `getUser` (who the credentials are) and `login` (what the
 * answer gives).
 *
 * @example
 * ```ts
 * class WhoAmILogin extends LoginView {
 *   override async login(_request: Request, _auth: Auth, user: UserRow) {
 *     return new Response({ id: user.id });
 *   }
 * }
 * ```
 * @module
 */
import { authOf } from '../authentication/basic-authentication.ts';
import type { Request } from '../http/request.ts';
import type { Response } from '../http/response.ts';
import type { ThrottleClass } from '../throttling/throttles.ts';
import { ViewSet } from '../views/viewsets.ts';
import type { Auth, UserRow } from './auth.ts';
import { LoginRateThrottle, userFromCredentials } from './login-credentials.ts';

/** `POST` credentials (see the module). */
export abstract class LoginView extends ViewSet {
  override authenticationClasses = [];
  override permissionClasses = [];
  override throttleClasses: readonly ThrottleClass[] = [LoginRateThrottle];

  /** The user of the body's credentials; by default a 400 for wrong ones (DRF's authtoken). */
  getUser(request: Request, auth: Auth): Promise<UserRow> {
    return userFromCredentials(request, auth);
  }

  /** The answer for a user whose credentials were good. */
  abstract login(request: Request, auth: Auth, user: UserRow): Promise<Response>;

  async create(request: Request): Promise<Response> {
    const auth = authOf(request);
    return this.login(request, auth, await this.getUser(request, auth));
  }
}
