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
import { BaseAuthentication, type SecurityScheme } from './authentication.ts';
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

/** Token authentication (see the module). */
export class TokenAuthentication extends BaseAuthentication {
  /** The scheme word (`Bearer` for a bearer-token API). */
  keyword = 'Token';

  override async authenticate(request: Request): Promise<readonly [RequestUser, unknown] | null> {
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

  /** The user of a key, or 401 "Invalid token." / "User inactive or deleted.". */
  async authenticateCredentials(
    request: Request,
    key: string,
  ): Promise<readonly [RequestUser, unknown]> {
    // Not a key this toolkit makes: no need to ask the database.
    if (!KEY.test(key)) throw new AuthenticationFailed('Invalid token.');
    const auth = authOf(request);
    const token = (await auth.Token.objects
      .selectRelated('user')
      .filter({ digest: tokenDigest(key) })
      .first()) as (Record<string, unknown> & { user: UserRow }) | undefined;
    if (!token) throw new AuthenticationFailed('Invalid token.');
    if (token.user.is_active === false) throw new AuthenticationFailed('User inactive or deleted.');
    const { user, ...row } = token;
    return [auth.requestUser(user), row];
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
