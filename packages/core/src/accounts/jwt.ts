/**
 * JSON Web Tokens (djangorestframework-simplejwt's contract): an access/refresh pair, refresh
 * with rotation, and a blacklist of refresh tokens that were rotated or logged out, so that a
 * replayed refresh token is refused. Signing and verification go through the optional `jose`
 * package; only the configured algorithm is accepted (so `alg: none` and an HS256 token signed
 * with an RS256 public key are refused), with the key type it needs.
 *
 * @example
 * ```ts
 * const auth = createAuth({
 *   jwt: { algorithm: 'HS256', signingKey: process.env.JWT_SECRET ?? '', accessLifetimeSeconds: 300 },
 * });
 * ```
 * @module
 */
import { createSecretKey, type KeyObject, randomUUID } from 'node:crypto';
import type * as Jose from 'jose';
import { UniqueViolationError } from '../db/database-errors.ts';
import { InvalidToken } from '../errors/api-exception.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { requireOptional } from '../utils/optional-dependency.ts';
import type { Auth, UserRow } from './auth.ts';

/** The algorithms a key can be configured for. */
export type JwtAlgorithm =
  | 'HS256'
  | 'HS384'
  | 'HS512'
  | 'RS256'
  | 'RS384'
  | 'RS512'
  | 'PS256'
  | 'ES256'
  | 'ES384'
  | 'EdDSA';

/** Options of JWT authentication (simplejwt's `SIMPLE_JWT` settings). */
export interface JwtOptions {
  /** The one algorithm tokens are signed and accepted with. */
  readonly algorithm: JwtAlgorithm;
  /** HS*: the shared secret (32 characters or more); others: the private key, PEM (PKCS #8). */
  readonly signingKey: string;
  /** Asymmetric algorithms: the public key, PEM (SPKI). */
  readonly verifyingKey?: string;
  /** Default 5 minutes. */
  readonly accessLifetimeSeconds?: number;
  /** Default 1 day. */
  readonly refreshLifetimeSeconds?: number;
  /** Refreshing also answers a new refresh token (default true). */
  readonly rotateRefreshTokens?: boolean;
  /** A rotated refresh token is blacklisted, so it cannot be used again (default true). */
  readonly blacklistAfterRotation?: boolean;
  /** The `iss` claim tokens are signed with and must carry (simplejwt's `ISSUER`); default none. */
  readonly issuer?: string;
  /**
   * The `aud` claim tokens are signed with and must carry (simplejwt's `AUDIENCE`); default none.
   */
  readonly audience?: string;
  /** Clock skew allowed when checking `exp` (default 0). */
  readonly leewaySeconds?: number;
  /**
   * The keywords `Authorization` may start with (simplejwt's `AUTH_HEADER_TYPES`), default
   * `['Bearer']`; the first is the one a 401's `WWW-Authenticate` names. `['Token']` for
   * `Authorization: Token <jwt>`.
   */
  readonly authHeaderTypes?: readonly string[];
}

/** An access token and a refresh token. */
export interface TokenPair {
  /** The access token, for `Authorization: Bearer <token>`. */
  readonly access: string;
  /** The refresh token, for a new access token at the refresh view. */
  readonly refresh: string;
}

const ALGORITHMS = new Set<string>([
  'HS256',
  'HS384',
  'HS512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'ES256',
  'ES384',
  'EdDSA',
]);

function jose(): typeof Jose {
  return requireOptional<typeof Jose>('jose', 'JWT authentication');
}

/** A key as `jose` takes it. */
type VerificationKey = KeyObject | Awaited<ReturnType<typeof Jose.importSPKI>>;

/** The claims of a verified token (its own type: jose's stay out of the public types). */
export interface JwtClaims {
  /** `access` or `refresh`: what the token may be used for. */
  readonly token_type?: unknown;
  /** The user's primary key (simplejwt's `USER_ID_CLAIM`). */
  readonly user_id?: unknown;
  /** The token's unique id, by which a refresh token is blacklisted. */
  readonly jti?: string;
  /** When the token expires, in seconds since 1970. */
  readonly exp?: number;
  readonly [claim: string]: unknown;
}

type VerifiedClaims = JwtClaims;
type Keys = { sign: VerificationKey; verify: VerificationKey };

/**
 * Signs, verifies, refreshes and blacklists tokens for one `Auth` (see the module).
 *
 * @example
 * ```ts
 * const auth = createAuth({ jwt: { algorithm: 'HS256', signingKey: process.env.JWT_SECRET ?? '' } });
 * const { access } = await auth.jwt.pair({ id: 1 });
 * const claims = await auth.jwt.verify(access, 'access');
 * claims?.user_id; // 1 (null claims for a bad signature, type or expiry)
 * ```
 */
export class Jwt {
  /** The options given, with their defaults filled in. */
  readonly options: Required<
    Omit<JwtOptions, 'verifyingKey' | 'issuer' | 'audience' | 'authHeaderTypes'>
  > & {
    /** The keywords `Authorization` may start with (`['Bearer']` by default). */
    readonly authHeaderTypes: readonly string[];
  } & Pick<JwtOptions, 'verifyingKey' | 'issuer' | 'audience'>;
  readonly #auth: Auth;
  #keys: Promise<Keys> | undefined;

  constructor(auth: Auth, options: JwtOptions) {
    this.#auth = auth;
    const where = 'createAuth({ jwt })';
    if (!ALGORITHMS.has(options.algorithm)) {
      throw new ImproperlyConfigured(
        'REST_ERR_JWT_CONFIG',
        `${where}: algorithm ${JSON.stringify(options.algorithm)} is not supported; use one of ${[...ALGORITHMS].join(', ')}.`,
      );
    }
    const symmetric = options.algorithm.startsWith('HS');
    if (symmetric && (typeof options.signingKey !== 'string' || options.signingKey.length < 32)) {
      throw new ImproperlyConfigured(
        'REST_ERR_JWT_CONFIG',
        `${where}: ${options.algorithm} needs a signingKey of at least 32 characters (a random secret, e.g. from crypto.randomBytes(32).toString('hex')).`,
      );
    }
    if (
      !symmetric &&
      (!options.signingKey?.includes('PRIVATE KEY') ||
        !options.verifyingKey?.includes('PUBLIC KEY'))
    ) {
      throw new ImproperlyConfigured(
        'REST_ERR_JWT_CONFIG',
        `${where}: ${options.algorithm} needs signingKey (a PEM private key, PKCS #8) and verifyingKey (a PEM public key, SPKI).`,
      );
    }
    for (const name of [
      'accessLifetimeSeconds',
      'refreshLifetimeSeconds',
      'leewaySeconds',
    ] as const) {
      const value = options[name];
      if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
        throw new ImproperlyConfigured(
          'REST_ERR_JWT_CONFIG',
          `${where}: ${name} must be a whole number of seconds, got ${value}.`,
        );
      }
    }
    const types = options.authHeaderTypes ?? ['Bearer'];
    if (
      !Array.isArray(types) ||
      types.length === 0 ||
      !types.every((t) => typeof t === 'string' && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(t))
    ) {
      throw new ImproperlyConfigured(
        'REST_ERR_JWT_CONFIG',
        `${where}: authHeaderTypes must be a non-empty list of words such as ['Bearer'] or ['Token'], got ${JSON.stringify(types)}.`,
      );
    }
    this.options = Object.freeze({
      ...options,
      authHeaderTypes: Object.freeze([...types]),
      accessLifetimeSeconds: options.accessLifetimeSeconds ?? 300,
      refreshLifetimeSeconds: options.refreshLifetimeSeconds ?? 86400,
      rotateRefreshTokens: options.rotateRefreshTokens ?? true,
      blacklistAfterRotation: options.blacklistAfterRotation ?? true,
      leewaySeconds: options.leewaySeconds ?? 0,
    });
  }

  /** Loads `jose` and imports the keys (once); fails at start-up when `jose` is missing. */
  async prepare(): Promise<void> {
    await this.#prepared();
  }

  #prepared(): Promise<Keys> {
    if (!this.#keys) {
      const lib = jose();
      const { algorithm, signingKey, verifyingKey } = this.options;
      this.#keys = algorithm.startsWith('HS')
        ? Promise.resolve(createSecretKey(Buffer.from(signingKey))).then((key) => ({
            sign: key,
            verify: key,
          }))
        : Promise.all([
            lib.importPKCS8(signingKey, algorithm),
            lib.importSPKI(verifyingKey as string, algorithm),
          ]).then(([sign, verify]) => ({ sign, verify }));
    }
    return this.#keys;
  }

  async #sign(type: 'access' | 'refresh', userId: number, lifetime: number): Promise<string> {
    const { sign } = await this.#prepared();
    const { algorithm, issuer, audience } = this.options;
    let token = new (jose().SignJWT)({ token_type: type, user_id: userId })
      .setProtectedHeader({ alg: algorithm, typ: 'JWT' })
      .setJti(randomUUID().replaceAll('-', ''))
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + lifetime);
    if (issuer) token = token.setIssuer(issuer);
    if (audience) token = token.setAudience(audience);
    return token.sign(sign);
  }

  /**
   * A new access/refresh pair for a user (simplejwt's `RefreshToken.for_user(user)`): what
   * a sign-up or a social login answers without the password round trip.
   *
   * @example
   * ```ts
   * const auth = createAuth({ jwt: { algorithm: 'HS256', signingKey: 'x'.repeat(32) } });
   * const { access, refresh } = await auth.jwt.pair({ id: 1 });
   * ```
   */
  async pair(user: { id: number }): Promise<TokenPair> {
    return {
      access: await this.#sign('access', user.id, this.options.accessLifetimeSeconds),
      refresh: await this.#sign('refresh', user.id, this.options.refreshLifetimeSeconds),
    };
  }

  /** The claims of a valid token of `type`, or null (bad signature, algorithm, type, expiry). */
  async verify(token: string, type: 'access' | 'refresh' | null): Promise<VerifiedClaims | null> {
    const checked = await this.#check(token, type);
    return typeof checked === 'string' || !Number.isInteger(checked.user_id) ? null : checked;
  }

  /**
   * The claims of a valid token of `type` (any type when null), or why it is not (simplejwt's
   * messages).
   */
  async #check(token: string, type: 'access' | 'refresh' | null): Promise<VerifiedClaims | string> {
    const invalid = 'Token is invalid or expired';
    if (token.length > 8192) return invalid;
    const { verify } = await this.#prepared();
    const { algorithm, issuer, audience, leewaySeconds } = this.options;
    let claims: VerifiedClaims;
    try {
      const { payload } = await jose().jwtVerify(token, verify, {
        algorithms: [algorithm],
        clockTolerance: leewaySeconds,
        requiredClaims: ['exp', 'jti'],
        ...(issuer ? { issuer } : {}),
        ...(audience ? { audience } : {}),
      });
      claims = payload as VerifiedClaims;
    } catch {
      // Every jose error (malformed, wrong signature or algorithm, expired) is the same
      // answer to the client.
      return invalid;
    }
    if (typeof claims.jti !== 'string' || claims.jti.length > 64) return invalid;
    if (typeof claims.token_type !== 'string') return 'Token has no type';
    if (type !== null && claims.token_type !== type) return 'Token has wrong type';
    return claims;
  }

  /**
   * Blacklists a refresh token's `jti`; false when it already was (a replay). The insert is
   * the check, so two concurrent refreshes of one token cannot both pass.
   */
  async #blacklist(claims: VerifiedClaims): Promise<boolean> {
    try {
      await this.#auth.BlacklistedToken.objects.create({
        jti: claims.jti as string,
        expires_at: new Date((claims.exp as number) * 1000).toISOString(),
      });
      return true;
    } catch (error) {
      if (error instanceof UniqueViolationError) return false;
      throw error;
    }
  }

  async #isBlacklisted(jti: string): Promise<boolean> {
    return this.#auth.BlacklistedToken.objects.filter({ jti }).exists();
  }

  async #validRefresh(refresh: unknown): Promise<VerifiedClaims> {
    const claims =
      typeof refresh === 'string' ? await this.#check(refresh, 'refresh') : 'Token is invalid';
    // The views answer every refresh failure as simplejwt's do: InvalidToken(reason).
    if (typeof claims === 'string') throw new InvalidToken(claims);
    return claims;
  }

  /**
   * A new access token for a refresh token (and, with rotation, a new refresh token, the old
   * one blacklisted). 401 "Token is invalid or expired" / "Token is blacklisted".
   */
  async refresh(refresh: unknown): Promise<{
    /** A new access token. */
    access: string;
    /** A new refresh token, when they rotate (`rotateRefreshTokens`). */
    refresh?: string;
  }> {
    const claims = await this.#validRefresh(refresh);
    const blacklisted = 'Token is blacklisted';
    const { rotateRefreshTokens, blacklistAfterRotation } = this.options;
    if (rotateRefreshTokens && blacklistAfterRotation) {
      if (!(await this.#blacklist(claims))) throw new InvalidToken(blacklisted);
    } else if (await this.#isBlacklisted(claims.jti as string)) {
      throw new InvalidToken(blacklisted);
    }
    const user = await this.#auth.userById(claims.user_id);
    if (!user || user.is_active === false) throw new InvalidToken();
    const userId = user.id;
    const access = await this.#sign('access', userId, this.options.accessLifetimeSeconds);
    if (!rotateRefreshTokens) return { access };
    return {
      access,
      refresh: await this.#sign('refresh', userId, this.options.refreshLifetimeSeconds),
    };
  }

  /** Logs a refresh token out (blacklists it); 401 when it is invalid or already was. */
  async blacklist(refresh: unknown): Promise<void> {
    const claims = await this.#validRefresh(refresh);
    if (!(await this.#blacklist(claims))) throw new InvalidToken('Token is blacklisted');
  }

  /**
   * simplejwt's verify: nothing when `token` (of any type) is valid and, for a refresh token,
   * not blacklisted; else 401 `InvalidToken` with the reason.
   */
  async verifyToken(token: unknown): Promise<void> {
    const claims = typeof token === 'string' ? await this.#check(token, null) : 'Token is invalid';
    if (typeof claims === 'string') throw new InvalidToken(claims);
    if (claims.token_type === 'refresh' && (await this.#isBlacklisted(claims.jti as string)))
      throw new InvalidToken('Token is blacklisted');
  }

  /** The user of a valid access token, with simplejwt's 401s (their bodies included). */
  async userOf(access: string): Promise<UserRow> {
    const claims = await this.#check(access, 'access');
    if (typeof claims === 'string')
      throw new InvalidToken('Given token not valid for any token type', 'token_not_valid', {
        messages: [{ token_class: 'AccessToken', token_type: 'access', message: claims }],
      });
    if (!Number.isInteger(claims.user_id))
      throw new InvalidToken('Token contained no recognizable user identification');
    const user = await this.#auth.userById(claims.user_id);
    if (!user) throw new InvalidToken('User not found', 'user_not_found');
    if (user.is_active === false) throw new InvalidToken('User is inactive', 'user_inactive');
    return user;
  }

  /** Deletes blacklist entries of tokens that expired anyway (simplejwt's `flushexpiredtokens`). */
  flushExpiredTokens(): Promise<number> {
    return this.#auth.BlacklistedToken.objects
      .filter({ expires_at__lt: new Date().toISOString() })
      .delete();
  }
}
