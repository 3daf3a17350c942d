/**
 * The base of the views that exchange a username and password for credentials (a token, a
 * session, a JWT pair): no authentication or permission of their own, login attempts
 * throttled, a serializer that gives the browsable API its login form (and OpenAPI its request
 * body), and two seams, `getUser` (who the credentials are) and `login` (what the answer
 * gives).
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

import type { QuerySet } from '../../db/query-set.ts';
import { CharField } from '../../fields/char-field.ts';
import type { Request } from '../../http/request.ts';
import type { Response } from '../../http/response.ts';
import { Serializer } from '../../serializers/serializer.ts';
import type { ThrottleClass } from '../../throttling/throttles.ts';
import type { SerializerClass } from '../../views/generic-api-view.ts';
import { GenericViewSet } from '../../views/viewsets.ts';
import type { Auth, UserRow } from '../auth.ts';
import { authOf } from '../authentication/basic-authentication.ts';
import { LoginRateThrottle, userFromCredentials } from '../login-credentials.ts';
import { MAX_PASSWORD_LENGTH } from '../password-hashers.ts';

/**
 * The fields of a login (DRF's `AuthTokenSerializer`): the password kept as typed, masked in forms.
 *
 * @example
 * ```ts
 * const serializer = new LoginSerializer({ data: { username: 'ada', password: 'a long passphrase' } });
 * await serializer.isValid(); // true: it checks the shape only; the view checks the password
 * ```
 */
export class LoginSerializer extends Serializer.with({
  fields: {
    /** The username, as the user model stores it. */
    username: new CharField({ maxLength: 150 }),
    /** The raw password: never trimmed, never in a response. */
    password: new CharField({
      maxLength: MAX_PASSWORD_LENGTH,
      writeOnly: true,
      trimWhitespace: false,
      style: { inputType: 'password' },
    }),
  },
}) {}

/**
 * `POST` credentials (see the module).
 *
 * @example
 * ```ts
 * class WhoAmILogin extends LoginView {
 *   override async login(_request: Request, _auth: Auth, user: UserRow) {
 *     return new Response({ id: user.id });
 *   }
 * }
 * router.register('whoami', WhoAmILogin, { basename: 'whoami' });
 * // POST /whoami/ {"username": "ada", "password": "…"} → 200 {"id": 1}
 * ```
 */
export abstract class LoginView extends GenericViewSet {
  /** A plain view in DRF: "Session Login", not "Session Login List". */
  static override viewNameSuffix = false;
  override authenticationClasses = [];
  override permissionClasses = [];
  override throttleClasses: readonly ThrottleClass[] = [LoginRateThrottle];
  override serializerClass: SerializerClass | undefined = LoginSerializer;

  /** The users (nothing is listed: the view only creates credentials). */
  override getQueryset(): QuerySet<any> {
    return authOf(this.request).User.objects.all();
  }

  /** The user of the body's credentials; by default a 400 for wrong ones (DRF's authtoken). */
  getUser(request: Request, auth: Auth): Promise<UserRow> {
    return userFromCredentials(request, auth);
  }

  /** The answer for a user whose credentials were good. */
  abstract login(request: Request, auth: Auth, user: UserRow): Promise<Response>;

  /**
   * POST: the user of the body's credentials ({@link getUser}), then the view's {@link login}
   * answer.
   */
  async create(request: Request): Promise<Response> {
    const auth = authOf(request);
    return this.login(request, auth, await this.getUser(request, auth));
  }
}
