/**
 * Password hashing, in Django's encoded format (`<algorithm>$<parameters>$<salt>$<hash>`), so
 * that a table of users moved from Django keeps working: `scrypt` (the default here) and
 * `pbkdf2_sha256` (Django's default) both hash and verify through `node:crypto`; `argon2`,
 * `bcrypt_sha256` and `bcrypt` through optional packages (`argon2-password-hasher.ts`,
 * `bcrypt-password-hashers.ts`). Comparisons are constant-time; a
 * hash made with a lower cost than the preferred hasher's, or by another hasher, is reported by
 * {@link PasswordHashers.check} so that login can store a new one (Django's hash upgrade).
 *
 * @example
 * ```ts
 * const hashers = new PasswordHashers([new ScryptPasswordHasher(), new PBKDF2PasswordHasher()]);
 * const encoded = await hashers.make('correct horse battery staple');
 * const { valid, mustUpdate } = await hashers.check('correct horse battery staple', encoded);
 * ```
 * @module
 */
import { pbkdf2, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { Argon2PasswordHasher } from './argon2-password-hasher.ts';
import { BCryptPasswordHasher, BCryptSHA256PasswordHasher } from './bcrypt-password-hashers.ts';
import { makeSalt, type PasswordHasher } from './password-hasher.ts';

export { makeSalt, type PasswordHasher } from './password-hasher.ts';

const pbkdf2Async = promisify(pbkdf2);
const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: string,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/** The prefix Django gives a password that can never match (`set_unusable_password`). */
export const UNUSABLE_PASSWORD_PREFIX = '!';

/**
 * The longest password hashed, in characters (Django's forms cap it at 4096 too): a hasher's
 * cost grows with the password, and the body is the client's.
 */
export const MAX_PASSWORD_LENGTH = 4096;

/** Constant-time equality of two base64 texts (different lengths differ, without a timing hint). */
function sameHash(expected: string, actual: Buffer): boolean {
  const stored = Buffer.from(expected, 'base64');
  if (stored.length !== actual.length) return false;
  return timingSafeEqual(stored, actual);
}

function positiveInt(text: string | undefined): number | null {
  if (text === undefined || !/^\d{1,10}$/.test(text)) return null;
  const value = Number(text);
  return value > 0 ? value : null;
}

/**
 * PBKDF2 with SHA-256: `pbkdf2_sha256$<iterations>$<salt>$<base64 hash>`, Django's format.
 *
 * @example
 * ```ts
 * const hasher = new PBKDF2PasswordHasher({ iterations: 600_000 });
 * const encoded = await hasher.encode('correct horse battery staple'); // 'pbkdf2_sha256$600000$…$…'
 * await hasher.verify('correct horse battery staple', encoded); // true
 * ```
 */
export class PBKDF2PasswordHasher implements PasswordHasher {
  readonly algorithm = 'pbkdf2_sha256';
  /** Django 5.2's count. */
  readonly iterations: number;

  constructor(options: { iterations?: number } = {}) {
    this.iterations = options.iterations ?? 1_000_000;
  }

  async encode(password: string, salt = makeSalt()): Promise<string> {
    const hash = await pbkdf2Async(password, salt, this.iterations, 32, 'sha256');
    return `${this.algorithm}$${this.iterations}$${salt}$${hash.toString('base64')}`;
  }

  #decode(encoded: string): { iterations: number; salt: string; hash: string } | null {
    const [algorithm, iterations, salt, hash, ...rest] = encoded.split('$');
    const count = positiveInt(iterations);
    if (algorithm !== this.algorithm || count === null || !salt || !hash || rest.length)
      return null;
    // A stored hash's cost is the server's own data, but bound it all the same.
    if (count > 100_000_000) return null;
    return { iterations: count, salt, hash };
  }

  async verify(password: string, encoded: string): Promise<boolean> {
    const decoded = this.#decode(encoded);
    if (!decoded) return false;
    const hash = await pbkdf2Async(password, decoded.salt, decoded.iterations, 32, 'sha256');
    return sameHash(decoded.hash, hash);
  }

  mustUpdate(encoded: string): boolean {
    const decoded = this.#decode(encoded);
    return decoded !== null && decoded.iterations < this.iterations;
  }
}

/**
 * scrypt: `scrypt$<salt>$<N>$<r>$<p>$<base64 hash>`, Django's format (its `ScryptPasswordHasher`),
 * through `node:crypto`.
 *
 * @example
 * ```ts
 * const hasher = new ScryptPasswordHasher();
 * const encoded = await hasher.encode('correct horse battery staple'); // 'scrypt$…'
 * await hasher.verify('Tr0ub4dor&3', encoded); // false
 * ```
 */
export class ScryptPasswordHasher implements PasswordHasher {
  readonly algorithm = 'scrypt';
  /** The work factor N (a power of two; Django's default 2^14). */
  readonly workFactor: number;
  /** The block size r (Django's default 8). */
  readonly blockSize: number;
  /** The parallelism p (Django's default 1). */
  readonly parallelism: number;

  constructor(options: { workFactor?: number; blockSize?: number; parallelism?: number } = {}) {
    this.workFactor = options.workFactor ?? 2 ** 14;
    this.blockSize = options.blockSize ?? 8;
    this.parallelism = options.parallelism ?? 1;
    const n = this.workFactor;
    if (!Number.isInteger(n) || n < 2 || (n & (n - 1)) !== 0) {
      throw new ImproperlyConfigured(
        'REST_ERR_PASSWORD_HASHER',
        `ScryptPasswordHasher: workFactor must be a power of two (e.g. 2 ** 14), got ${n}.`,
      );
    }
  }

  #hash(password: string, salt: string, n: number, r: number, p: number): Promise<Buffer> {
    return scryptAsync(password, salt, 64, { N: n, r, p, maxmem: 256 * n * r + 16 * 1024 * 1024 });
  }

  async encode(password: string, salt = makeSalt()): Promise<string> {
    const { workFactor: n, blockSize: r, parallelism: p } = this;
    const hash = await this.#hash(password, salt, n, r, p);
    return `${this.algorithm}$${salt}$${n}$${r}$${p}$${hash.toString('base64')}`;
  }

  #decode(encoded: string) {
    const [algorithm, salt, n, r, p, hash, ...rest] = encoded.split('$');
    const N = positiveInt(n);
    const R = positiveInt(r);
    const P = positiveInt(p);
    if (algorithm !== this.algorithm || !salt || !hash || !N || !R || !P || rest.length)
      return null;
    if (N > 2 ** 20 || R > 64 || P > 16 || (N & (N - 1)) !== 0) return null;
    return { salt, n: N, r: R, p: P, hash };
  }

  async verify(password: string, encoded: string): Promise<boolean> {
    const decoded = this.#decode(encoded);
    if (!decoded) return false;
    const hash = await this.#hash(password, decoded.salt, decoded.n, decoded.r, decoded.p);
    return sameHash(decoded.hash, hash);
  }

  mustUpdate(encoded: string): boolean {
    const decoded = this.#decode(encoded);
    return (
      decoded !== null &&
      (decoded.n < this.workFactor || decoded.r < this.blockSize || decoded.p < this.parallelism)
    );
  }
}

/** The outcome of {@link PasswordHashers.check}. */
export interface PasswordCheck {
  /** The password matches the stored hash. */
  readonly valid: boolean;
  /** Valid, but made by another hasher or at a lower cost than the preferred one: store anew. */
  readonly mustUpdate: boolean;
}

/**
 * The hashers an app accepts; the first hashes new passwords (Django's `PASSWORD_HASHERS`).
 *
 * @example
 * ```ts
 * const hashers = new PasswordHashers([new ScryptPasswordHasher(), new PBKDF2PasswordHasher()]);
 * const stored = await new PBKDF2PasswordHasher().encode('a long passphrase'); // Django's hash
 * await hashers.check('a long passphrase', stored); // { valid: true, mustUpdate: true }: scrypt is preferred
 * ```
 */
export class PasswordHashers {
  /** The first hasher: it hashes every new password; a hash of another is upgraded at login. */
  readonly preferred: PasswordHasher;
  readonly #byAlgorithm: Map<string, PasswordHasher>;
  #dummy: Promise<string> | undefined;

  constructor(hashers: readonly PasswordHasher[] = defaultPasswordHashers()) {
    const [preferred] = hashers;
    if (!preferred) {
      throw new ImproperlyConfigured(
        'REST_ERR_PASSWORD_HASHER',
        'PasswordHashers needs at least one hasher (e.g. new ScryptPasswordHasher()).',
      );
    }
    this.preferred = preferred;
    this.#byAlgorithm = new Map(hashers.map((hasher) => [hasher.algorithm, hasher]));
  }

  /** The encoded hash of `password` by the preferred hasher. */
  make(password: string): Promise<string> {
    return this.preferred.encode(password.slice(0, MAX_PASSWORD_LENGTH));
  }

  /**
   * Checks `password` against `encoded`. An unusable, empty or unknown encoding never
   * matches; the work of hashing is still done (with the preferred hasher, on a dummy), so that
   * the time taken does not tell a missing account from a wrong password.
   */
  async check(password: string, encoded: string | null | undefined): Promise<PasswordCheck> {
    const text = String(password).slice(0, MAX_PASSWORD_LENGTH);
    const algorithm = encoded?.split('$', 1)[0] ?? '';
    const hasher =
      encoded && !encoded.startsWith(UNUSABLE_PASSWORD_PREFIX)
        ? this.#byAlgorithm.get(algorithm)
        : undefined;
    if (!hasher || !encoded) {
      await this.hashDummy(text);
      return { valid: false, mustUpdate: false };
    }
    const valid = await hasher.verify(text, encoded);
    const mustUpdate = valid && (hasher !== this.preferred || hasher.mustUpdate(encoded));
    return { valid, mustUpdate };
  }

  /** Hashes `password` against a dummy hash, taking the time a real check takes. */
  async hashDummy(password: string): Promise<void> {
    this.#dummy ??= this.preferred.encode(makeSalt());
    await this.preferred.verify(password, await this.#dummy);
  }
}

/**
 * The hashers an app accepts by default: scrypt (hashing new passwords), then Django's
 * PBKDF2-SHA256, Argon2, bcrypt-SHA256 and bcrypt, so that every hash of a Django project
 * verifies. The last three load their optional package (`@node-rs/argon2`, `bcryptjs`) only
 * when such a hash is met.
 *
 * @example
 * ```ts
 * const hashers = new PasswordHashers(defaultPasswordHashers()); // the same as new PasswordHashers()
 * ```
 */
export function defaultPasswordHashers(): PasswordHasher[] {
  return [
    new ScryptPasswordHasher(),
    new PBKDF2PasswordHasher(),
    new Argon2PasswordHasher(),
    new BCryptSHA256PasswordHasher(),
    new BCryptPasswordHasher(),
  ];
}

/** An encoded value that no password matches (Django's `make_password(None)`). */
export function unusablePassword(): string {
  return UNUSABLE_PASSWORD_PREFIX + makeSalt(40);
}
