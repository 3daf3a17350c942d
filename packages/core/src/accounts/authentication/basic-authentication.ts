/**
 * `Authorization: Basic <base64 of username:password>`, checked against the app's users
 * (DRF's `BasicAuthentication`). Use it over HTTPS only.
 *
 * @example
 * ```ts
 * class ReportViewSet extends ReadOnlyModelViewSet {
 *   override authenticationClasses = [BasicAuthentication];
 *   override permissionClasses = [IsAuthenticated];
 * }
 * ```
 * @module
 */

import { AuthenticationFailed } from '../../errors/api-exception.ts';
import type { Request, RequestUser } from '../../http/request.ts';
import { type Auth, defaultAuth } from '../auth.ts';
import { BaseAuthentication, type SecurityScheme } from './authentication.ts';
import { authorizationWords } from './authorization-header.ts';

/** The `Auth` of the request's app (`AUTH` setting, else `defaultAuth`). */
export function authOf(request: Request): Auth {
  return request.settings.AUTH ?? defaultAuth;
}

const MAX_CREDENTIALS = 4 * 1024;

/**
 * HTTP Basic authentication (see the module).
 *
 * @example
 * ```ts
 * class ReportViewSet extends ReadOnlyModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override authenticationClasses = [BasicAuthentication];
 *   override permissionClasses = [IsAuthenticated];
 * }
 * // GET with Authorization: Basic YWRhOmEgbG9uZyBwYXNzcGhyYXNl ("ada:a long passphrase")
 * ```
 */
export class BasicAuthentication extends BaseAuthentication {
  /** The realm of the `WWW-Authenticate` challenge. */
  wwwAuthenticateRealm = 'api';

  override async authenticate(request: Request): Promise<readonly [RequestUser, unknown] | null> {
    const words = authorizationWords(request, 'Basic');
    if (!words) return null;
    if (words.length === 1)
      throw new AuthenticationFailed('Invalid basic header. No credentials provided.');
    if (words.length > 2)
      throw new AuthenticationFailed(
        'Invalid basic header. Credentials string should not contain spaces.',
      );
    const encoded = words[1] as string;
    const decoded =
      encoded.length <= MAX_CREDENTIALS && /^[A-Za-z0-9+/]+={0,2}$/.test(encoded)
        ? Buffer.from(encoded, 'base64').toString('utf8')
        : '';
    const colon = decoded.indexOf(':');
    if (colon === -1 || decoded.includes('\uFFFD'))
      throw new AuthenticationFailed(
        'Invalid basic header. Credentials not correctly base64 encoded.',
      );
    return this.authenticateCredentials(request, decoded.slice(0, colon), decoded.slice(colon + 1));
  }

  /** The user for a username and password, or 401 "Invalid username/password.". */
  async authenticateCredentials(
    request: Request,
    username: string,
    password: string,
  ): Promise<readonly [RequestUser, unknown]> {
    const auth = authOf(request);
    const user = await auth.authenticate(username, password);
    if (!user) throw new AuthenticationFailed('Invalid username/password.');
    return [auth.requestUser(user), null];
  }

  override authenticateHeader(): string {
    return `Basic realm="${this.wwwAuthenticateRealm}"`;
  }

  /** The OpenAPI scheme: HTTP `basic`, listed as `basicAuth`. */
  securityScheme(): SecurityScheme {
    return { name: 'basicAuth', scheme: { type: 'http', scheme: 'basic' } };
  }
}
