/**
 * What a password hasher is (Django's `BasePasswordHasher`), and the salts hashers make.
 * The hashers themselves: `password-hashers.ts` (scrypt, PBKDF2 and the list an app accepts),
 * `argon2-password-hasher.ts`, `bcrypt-password-hashers.ts`.
 * @module
 */
import { randomInt } from 'node:crypto';

/** A hashing algorithm. */
export interface PasswordHasher {
  /** The first part of its encoded hashes (`scrypt`, `pbkdf2_sha256`). */
  readonly algorithm: string;
  /** `<algorithm>$...` for `password` with a new random salt. */
  encode(password: string, salt?: string): Promise<string>;
  /** True when `password` hashes to `encoded` (constant-time). */
  verify(password: string, encoded: string): Promise<boolean>;
  /** True when `encoded` was made with a lower cost than this hasher's. */
  mustUpdate(encoded: string): boolean;
}

const SALT_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A random salt of 22 letters and digits (Django's: about 131 bits). */
export function makeSalt(length = 22): string {
  let salt = '';
  for (let i = 0; i < length; i++) salt += SALT_CHARS[randomInt(SALT_CHARS.length)];
  return salt;
}
