/**
 * `Authorization: Token <key>` (DRF's `TokenAuthentication`): keys made by
 * {@link issueToken} or the {@link ObtainAuthToken} view. Only a SHA-256 digest of each key is
 * stored, so a copy of the database holds no usable key; the lookup is by digest.
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
import { createHash } from 'node:crypto';
import type { Auth, UserRow } from '../auth/auth.ts';
import { randomKey } from '../auth/random-key.ts';
import { AuthenticationFailed } from '../errors/api-exception.ts';
import type { Request, RequestUser } from '../http/request.ts';
import {
  type AuthenticationResult,
  BaseAuthentication,
  type SecurityScheme,
} from './authentication.ts';
import { authorizationWords, isPrintableAscii } from './authorization-header.ts';
import { authOf } from './basic-authentication.ts';

/** The stored form of a key. */
export function tokenDigest(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Makes a new token for `user` and returns its key (shown once: only its digest is kept). */
export async function issueToken(auth: Auth, user: { id: number }): Promise<string> {
  const key = randomKey(20);
  await auth.Token.objects.create({ digest: tokenDigest(key), user_id: user.id });
  return key;
}

const KEY = /^[0-9a-f]{40}$/;

type AuthenticatedToken = readonly [RequestUser, unknown];

/** The token's user, or the 401: at once when the lookup answered at once. */
function withUser(
  auth: Auth,
  digest: string,
  token: { user_id: number } | undefined,
): AuthenticatedToken | Promise<AuthenticatedToken> {
  if (!token) throw new AuthenticationFailed('Invalid token.');
  const users = auth.User.objects.lookup({ pk: token.user_id }, 1) as
    | UserRow[]
    | Promise<UserRow[]>;
  if (!Array.isArray(users))
    return users.then((later) => authenticated(auth, digest, token, later[0]));
  return authenticated(auth, digest, token, users[0]);
}

function authenticated(
  auth: Auth,
  digest: string,
  token: object,
  user: UserRow | undefined,
): AuthenticatedToken {
  // A token outlives its user only in a database without the foreign key's cascade.
  if (!user || user.is_active === false)
    throw new AuthenticationFailed('User inactive or deleted.');
  const result: AuthenticatedToken = Object.freeze([auth.requestUser(user), Object.freeze(token)]);
  auth.cacheToken(digest, result);
  return result;
}

/** Token authentication (see the module). */
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
    if (cached) return cached;
    // Two lookups by unique keys rather than one join: each has a plan made once and runs at
    // once on an idle SQLite connection, and together they cost SQLite half the join.
    const tokens = auth.Token.objects.lookup({ digest }, 1);
    if (!Array.isArray(tokens)) return tokens.then((later) => withUser(auth, digest, later[0]));
    return withUser(auth, digest, tokens[0]);
  }

  override authenticateHeader(): string {
    return this.keyword;
  }

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
