/**
 * `Authorization: Bearer <access token>` (simplejwt's `JWTAuthentication`), verified with the
 * `jwt` options of the app's `Auth`; the keywords accepted instead of `Bearer` are its
 * `authHeaderTypes` (simplejwt's `AUTH_HEADER_TYPES`). Needs the optional `jose` package.
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

/** The header's words when it starts with one of `types` (any case), else null. */
function headerWords(request: Request, types: readonly string[]): string[] | null {
  // One type is the usual setting: no loop.
  if (types.length === 1) return authorizationWords(request, types[0] as string);
  for (const type of types) {
    const words = authorizationWords(request, type);
    if (words) return words;
  }
  return null;
}

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
    const words = headerWords(request, jwtOf(request.settings).options.authHeaderTypes);
    if (!words) return null;
    if (words.length !== 2)
      throw new InvalidToken(
        'Authorization header must contain two space-delimited values',
        'bad_authorization_header',
      );
    const user = await jwtOf(request.settings).userOf(words[1] as string);
    return [authOf(request).requestUser(user), words[1]];
  }

  override authenticateHeader(request: Request): string {
    const type = jwtOf(request.settings).options.authHeaderTypes[0];
    return `${type} realm="${this.wwwAuthenticateRealm}"`;
  }

  /** HTTP bearer when `Bearer` is accepted; else an `Authorization` header as an API key. */
  securityScheme(settings?: APISettings): SecurityScheme {
    const jwt = settings ? (settings.AUTH ?? defaultAuth).jwt : undefined;
    const types = jwt?.options.authHeaderTypes ?? ['Bearer'];
    if (types.some((t) => t.toLowerCase() === 'bearer'))
      return { name: 'jwtAuth', scheme: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } };
    return {
      name: 'jwtAuth',
      scheme: {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: `A JWT access token after the keyword: \`${types[0]} <token>\`.`,
      },
    };
  }
}
