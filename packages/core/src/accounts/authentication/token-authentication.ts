/**
 * `Authorization: Token <key>` (DRF's `TokenAuthentication`): keys made by `issueToken` or
 * the `ObtainAuthToken` view (`auth/tokens.ts`). Only a SHA-256 digest of each key is stored,
 * so a copy of the database holds no usable key; the lookup is by digest, one statement with
 * the token's user. A token older than the `Auth`'s `tokenLifetimeSeconds` is refused.
 *
 * @example
 * ```ts
 * class NoteViewSet extends ModelViewSet {
 *   override authenticationClasses = [TokenAuthentication];
 *   override permissionClasses = [IsAuthenticated];
 * }
 * ```
 * @module
 */

import { Database } from '../../db/database.ts';
import { AuthenticationFailed } from '../../errors/api-exception.ts';
import { ImproperlyConfigured } from '../../errors/improperly-configured.ts';
import type { Request, RequestUser } from '../../http/request.ts';
import { isPromiseLike } from '../../utils/maybe-promise.ts';
import type { Auth } from '../auth.ts';
import type { TokenMatch } from '../token-user-query.ts';
import { tokenDigest } from '../tokens.ts';
import {
  type AuthenticationResult,
  BaseAuthentication,
  type SecurityScheme,
} from './authentication.ts';
import { authorizationWords, isPrintableAscii } from './authorization-header.ts';
import { authOf } from './basic-authentication.ts';

const KEY = /^[0-9a-f]{40}$/;

type AuthenticatedToken = readonly [RequestUser, unknown];

/** The request's database, as a query set would find it. */
function databaseOf(): Database {
  const db = Database.current();
  if (!db) {
    throw new ImproperlyConfigured(
      'REST_ERR_NO_DATABASE',
      'No database for TokenAuthentication: register the restFramework plugin with a database, or call Database.setDefault(db).',
    );
  }
  return db;
}

/** The user and token of a match, or DRF's 401s. */
function authenticated(
  auth: Auth,
  digest: string,
  match: TokenMatch | undefined,
  epoch: number,
): AuthenticatedToken {
  // No row: no such token (a token never outlives its user: the foreign key cascades). An
  // expired token is answered as an unknown one, and replaced at the user's next login.
  if (!match || auth.tokenExpired(match.token.created))
    throw new AuthenticationFailed('Invalid token.');
  if (match.user.is_active === false) throw new AuthenticationFailed('User inactive or deleted.');
  const result: AuthenticatedToken = Object.freeze([
    auth.requestUser(match.user as Parameters<Auth['requestUser']>[0]),
    Object.freeze(match.token),
  ]);
  auth.cacheToken(digest, result, epoch);
  return result;
}

/**
 * Token authentication (see the module).
 *
 * @example
 * ```ts
 * const key = await issueToken(defaultAuth, { id: 1 });
 * class NoteViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override authenticationClasses = [TokenAuthentication];
 * }
 * // GET with Authorization: Token <key> → as user 1
 * ```
 */
export class TokenAuthentication extends BaseAuthentication {
  /** The scheme word (`Bearer` for a bearer-token API). */
  keyword = 'Token';

  override authenticate(request: Request): AuthenticationResult | Promise<AuthenticationResult> {
    const words = authorizationWords(request, this.keyword);
    if (!words) return null;
    if (words.length === 1)
      throw new AuthenticationFailed('Invalid token header. No credentials provided.');
    if (words.length > 2)
      throw new AuthenticationFailed(
        'Invalid token header. Token string should not contain spaces.',
      );
    const key = words[1] as string;
    if (!isPrintableAscii(key))
      throw new AuthenticationFailed(
        'Invalid token header. Token string should not contain invalid characters.',
      );
    return this.authenticateCredentials(request, key);
  }

  /**
   * The user of a key, or 401 "Invalid token." / "User inactive or deleted.". At once when
   * the database answered at once (SQLite, its connection idle).
   */
  authenticateCredentials(
    request: Request,
    key: string,
  ): readonly [RequestUser, unknown] | Promise<readonly [RequestUser, unknown]> {
    // Not a key this toolkit makes: no need to ask the database.
    if (!KEY.test(key)) throw new AuthenticationFailed('Invalid token.');
    const auth = authOf(request);
    const digest = tokenDigest(key);
    const cached = auth.cachedToken<AuthenticatedToken>(digest);
    if (cached && !auth.tokenExpired((cached[1] as TokenMatch['token']).created)) return cached;
    // Read before the lookup: a write to the tokens or users while it runs keeps it uncached.
    const epoch = auth.tokenCacheEpoch;
    const match = auth.tokenUserQuery(databaseOf()).find(digest);
    // Answered at once (SQLite): no closure made for a promise that does not come.
    if (!isPromiseLike(match)) return authenticated(auth, digest, match, epoch);
    return Promise.resolve(match).then((found) => authenticated(auth, digest, found, epoch));
  }

  override authenticateHeader(): string {
    return this.keyword;
  }

  /** The OpenAPI scheme: an API key in the `Authorization` header (`Token <key>`), listed as `tokenAuth`. */
  securityScheme(): SecurityScheme {
    return {
      name: 'tokenAuth',
      scheme: {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: `Token-based authentication with required prefix "${this.keyword}"`,
      },
    };
  }
}
