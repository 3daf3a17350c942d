/**
 * `Authorization: Bearer <access token>` (simplejwt's `JWTAuthentication`), verified with the
 * `jwt` options of the app's `Auth`. Needs the optional `jose` package.
 *
 * @example
 * ```ts
 * class NoteViewSet extends ModelViewSet {
 *   override authenticationClasses = [JWTAuthentication];
 *   override permissionClasses = [IsAuthenticated];
 * }
 * ```
 * @module
 */

import { InvalidToken } from '../../errors/api-exception.ts';
import { ImproperlyConfigured } from '../../errors/improperly-configured.ts';
import type { Request, RequestUser } from '../../http/request.ts';
import type { APISettings } from '../../settings/api-settings.ts';
import { defaultAuth } from '../auth.ts';
import type { Jwt } from '../jwt.ts';
import { BaseAuthentication, type SecurityScheme } from './authentication.ts';
import { authorizationWords } from './authorization-header.ts';
import { authOf } from './basic-authentication.ts';

/** The `Jwt` of the app's `Auth`, or `REST_ERR_JWT_CONFIG`. */
export function jwtOf(settings: APISettings): Jwt {
  const jwt = (settings.AUTH ?? defaultAuth).jwt;
  if (!jwt) {
    throw new ImproperlyConfigured(
      'REST_ERR_JWT_CONFIG',
      "JWT authentication needs keys: set the AUTH setting to createAuth({ jwt: { algorithm: 'HS256', signingKey: '<a secret of 32 characters or more>' } }).",
    );
  }
  return jwt;
}

/**
 * JWT bearer authentication (see the module).
 *
 * @example
 * ```ts
 * class NoteViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override authenticationClasses = [JWTAuthentication];
 *   override permissionClasses = [IsAuthenticated];
 * }
 * // GET with Authorization: Bearer <the access token of TokenObtainPairView>
 * ```
 */
export class JWTAuthentication extends BaseAuthentication {
  /** The realm of the `WWW-Authenticate` challenge. */
  wwwAuthenticateRealm = 'api';

  override async check(settings: APISettings): Promise<void> {
    await jwtOf(settings).prepare();
  }

  override async authenticate(request: Request): Promise<readonly [RequestUser, unknown] | null> {
    const words = authorizationWords(request, 'Bearer');
    if (!words) return null;
    if (words.length !== 2)
      throw new InvalidToken(
        'Authorization header must contain two space-delimited values',
        'bad_authorization_header',
      );
    const user = await jwtOf(request.settings).userOf(words[1] as string);
    return [authOf(request).requestUser(user), words[1]];
  }

  override authenticateHeader(): string {
    return `Bearer realm="${this.wwwAuthenticateRealm}"`;
  }

  securityScheme(): SecurityScheme {
    return { name: 'jwtAuth', scheme: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } };
  }
}
