/**
 * Argon2 in Django's encoded format (its `Argon2PasswordHasher`): `argon2` followed by the PHC
 * string, `argon2$argon2id$v=19$m=102400,t=2,p=8$<salt>$<hash>` (older Django hashes say
 * `argon2i`, and the oldest lack `v=`). Through the optional `@node-rs/argon2` package (a
 * prebuilt binary inside the npm package), loaded the first time such a hash is met, so that
 * users brought from a Django project that hashed with Argon2 can log in; at their login
 * their hash is replaced by the preferred hasher's.
 *
 * @example
 * ```ts
 * const hashers = new PasswordHashers([new ScryptPasswordHasher(), new Argon2PasswordHasher()]);
 * // A user table moved from Django: 'argon2$argon2id$v=19$m=102400,t=2,p=8$…$…' logs in.
 * ```
 * @module
 */
import { requireOptional } from '../utils/optional-dependency.ts';
import { makeSalt, type PasswordHasher } from './password-hasher.ts';

/** `@node-rs/argon2`'s `Algorithm.Argon2id` (a `const enum`: its value, not an import). */
const ARGON2ID = 2;

/**
 * What the hasher uses of `@node-rs/argon2`, declared here so that this package's types never
 * name an optional package (a consumer without it still type-checks).
 */
export interface Argon2Library {
  /** Hashes `password` with the given parameters; resolves to the PHC string. */
  hash(
    password: string,
    options: {
      algorithm: number;
      timeCost: number;
      memoryCost: number;
      parallelism: number;
      outputLen: number;
      salt: Uint8Array;
    },
  ): Promise<string>;
  /** Whether `password` matches the PHC string `hashed`. */
  verify(hashed: string, password: string): Promise<boolean>;
}

/** The parameters of a PHC string: `$argon2id$v=19$m=…,t=…,p=…$salt$hash`. */
const PHC =
  /^\$(argon2id|argon2i|argon2d)\$(?:v=(\d{1,3})\$)?m=(\d{1,10}),t=(\d{1,10}),p=(\d{1,10})\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;

/**
 * Argon2id hashes (see the module). The defaults are Django's: 2 passes over 100 MiB, 8 lanes.
 *
 * @example
 * ```ts
 * const hasher = new Argon2PasswordHasher({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
 * const encoded = await hasher.encode('correct horse battery staple'); // 'argon2$argon2id$v=19$…'
 * await hasher.verify('correct horse battery staple', encoded); // true
 * ```
 */
export class Argon2PasswordHasher implements PasswordHasher {
  readonly algorithm = 'argon2';
  /** Passes over memory (Django's `time_cost`, 2). */
  readonly timeCost: number;
  /** KiB of memory (Django's `memory_cost`, 102 400). */
  readonly memoryCost: number;
  /** Lanes (Django's `parallelism`, 8). */
  readonly parallelism: number;

  constructor(options: { timeCost?: number; memoryCost?: number; parallelism?: number } = {}) {
    this.timeCost = options.timeCost ?? 2;
    this.memoryCost = options.memoryCost ?? 102_400;
    this.parallelism = options.parallelism ?? 8;
  }

  /** The `@node-rs/argon2` module (Django's `_load_library`); a clear error when missing. */
  loadLibrary(): Argon2Library {
    return requireOptional<Argon2Library>('@node-rs/argon2', 'A password hashed with Argon2');
  }

  async encode(password: string, salt = makeSalt()): Promise<string> {
    const phc = await this.loadLibrary().hash(password, {
      algorithm: ARGON2ID,
      timeCost: this.timeCost,
      memoryCost: this.memoryCost,
      parallelism: this.parallelism,
      outputLen: 32,
      salt: Buffer.from(salt),
    });
    return `${this.algorithm}${phc}`;
  }

  #decode(encoded: string): { m: number; t: number; p: number; variant: string } | null {
    if (!encoded.startsWith(`${this.algorithm}$`)) return null;
    const match = PHC.exec(encoded.slice(this.algorithm.length));
    if (!match) return null;
    const [, variant, , m, t, p] = match;
    const params = { m: Number(m), t: Number(t), p: Number(p), variant: variant as string };
    // A stored hash's cost is the server's own data, but bound it all the same (1 GiB).
    if (params.m > 1_048_576 || params.t > 64 || params.p > 64 || !params.t || !params.p)
      return null;
    return params;
  }

  async verify(password: string, encoded: string): Promise<boolean> {
    if (!this.#decode(encoded)) return false;
    // Outside the `try`: a missing library is the deployment's error, not a wrong password.
    const argon2 = this.loadLibrary();
    try {
      return await argon2.verify(encoded.slice(this.algorithm.length), password);
    } catch {
      return false; // a hash the library cannot read matches nothing
    }
  }

  mustUpdate(encoded: string): boolean {
    const decoded = this.#decode(encoded);
    return (
      decoded !== null &&
      (decoded.variant !== 'argon2id' ||
        decoded.m !== this.memoryCost ||
        decoded.t !== this.timeCost ||
        decoded.p !== this.parallelism)
    );
  }
}
