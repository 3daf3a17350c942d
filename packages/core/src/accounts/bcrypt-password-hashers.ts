/**
 * bcrypt in Django's encoded formats (its `BCryptSHA256PasswordHasher` and
 * `BCryptPasswordHasher`): `bcrypt_sha256$$2b$12$<salt and hash>`, where the password is first
 * made the hex SHA-256 digest of its UTF-8 bytes (bcrypt reads only 72 bytes), and
 * `bcrypt$$2b$12$…` of the password itself. Through the optional `bcryptjs` package (plain
 * JavaScript, nothing to build), loaded the first time such a hash is met, so that users
 * brought from a Django project that hashed with bcrypt can log in; at their login their hash
 * is replaced by the preferred hasher's.
 *
 * @example
 * ```ts
 * const hashers = new PasswordHashers([new ScryptPasswordHasher(), new BCryptSHA256PasswordHasher()]);
 * // A user table moved from Django: 'bcrypt_sha256$$2b$12$…' logs in.
 * ```
 * @module
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { requireOptional } from '../utils/optional-dependency.ts';
import type { PasswordHasher } from './password-hasher.ts';

/**
 * What the hashers use of `bcryptjs`, declared here so that this package's types never name an
 * optional package (a consumer without it still type-checks).
 */
export interface BCryptLibrary {
  hash(password: string, salt: string): Promise<string>;
  genSalt(rounds: number): Promise<string>;
}

/** `$2b$12$` and 53 characters of salt and hash (`$2a$`/`$2y$` from other libraries too). */
const BCRYPT = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;

/**
 * bcrypt with the password first hashed by SHA-256 (see the module). 2^12 rounds by default,
 * Django's.
 *
 * @example
 * ```ts
 * const hasher = new BCryptSHA256PasswordHasher({ rounds: 10 });
 * const encoded = await hasher.encode('correct horse battery staple'); // 'bcrypt_sha256$$2b$10$…'
 * await hasher.verify('correct horse battery staple', encoded); // true
 * ```
 */
export class BCryptSHA256PasswordHasher implements PasswordHasher {
  readonly algorithm: string = 'bcrypt_sha256';
  /** The log2 of bcrypt's rounds (Django's `rounds`, 12). */
  readonly rounds: number;

  constructor(options: { rounds?: number } = {}) {
    this.rounds = options.rounds ?? 12;
  }

  /** The `bcryptjs` module (Django's `_load_library`); a clear error when missing. */
  loadLibrary(): BCryptLibrary {
    return requireOptional<BCryptLibrary>('bcryptjs', 'A password hashed with bcrypt');
  }

  /** What bcrypt is given: the hex SHA-256 digest of the password (72 bytes at most are read). */
  prepare(password: string): string {
    return createHash('sha256').update(password).digest('hex');
  }

  /** `salt` is a bcrypt salt (`$2b$12$` and 22 characters); a new one by default. */
  async encode(password: string, salt?: string): Promise<string> {
    const bcrypt = this.loadLibrary();
    const data = await bcrypt.hash(
      this.prepare(password),
      salt ?? (await bcrypt.genSalt(this.rounds)),
    );
    // bcryptjs writes `$2b$`, as Python's bcrypt does.
    return `${this.algorithm}$${data}`;
  }

  #data(encoded: string): string | null {
    const prefix = `${this.algorithm}$`;
    if (!encoded.startsWith(prefix)) return null;
    const data = encoded.slice(prefix.length);
    const match = BCRYPT.exec(data);
    // A stored hash's cost is the server's own data, but bound it all the same (2^4 to 2^20).
    if (!match || Number(match[1]) < 4 || Number(match[1]) > 20) return null;
    return data;
  }

  async verify(password: string, encoded: string): Promise<boolean> {
    const data = this.#data(encoded);
    if (!data) return false;
    const bcrypt = this.loadLibrary();
    // Hashed again with the stored salt and compared in constant time, as Django does.
    const again = Buffer.from(await bcrypt.hash(this.prepare(password), data.slice(0, 29)));
    const stored = Buffer.from(data);
    return again.length === stored.length && timingSafeEqual(again, stored);
  }

  mustUpdate(encoded: string): boolean {
    const data = this.#data(encoded);
    return data !== null && Number(data.slice(4, 6)) !== this.rounds;
  }
}

/**
 * bcrypt of the password itself (Django's `BCryptPasswordHasher`): only its first 72 bytes
 * count, which is why Django prefers the SHA-256 variant. For hashes moved from Django.
 *
 * @example
 * ```ts
 * const hasher = new BCryptPasswordHasher();
 * await hasher.verify('correct horse battery staple', 'bcrypt$$2b$12$…'); // as Django's check_password
 * ```
 */
export class BCryptPasswordHasher extends BCryptSHA256PasswordHasher {
  override readonly algorithm: string = 'bcrypt';

  override prepare(password: string): string {
    return password;
  }
}
