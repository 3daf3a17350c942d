/**
 * Password validators, as Django's `AUTH_PASSWORD_VALIDATORS`: each says what is wrong with a
 * password, and {@link validatePassword} gathers every message into one 400, under the field
 * that carried the password (`{"password": ["This password is too short. ..."]}`).
 *
 * @example
 * ```ts
 * await validatePassword('12345', { username: 'ada' });
 * // ValidationError {"password": ["This password is too short. It must contain at least 8
 * //   characters.", "This password is too common.", "This password is entirely numeric."]}
 * ```
 * @module
 */
import { ValidationError } from '../errors/api-exception.ts';
import { COMMON_PASSWORDS } from './common-passwords.ts';
import { MAX_PASSWORD_LENGTH } from './password-hashers.ts';

/** What a validator may compare a password with (the user's attributes). */
export type UserAttributes = Readonly<Record<string, unknown>>;

/** A password validator: the messages of what is wrong, none when the password is fine. */
export interface PasswordValidator {
  /**
   * The messages of the rules `password` breaks (empty when it passes); `user` holds the attributes
   * of the user it is for, when known.
   */
  validate(password: string, user?: UserAttributes): string[];
  /** A sentence for help texts ("Your password must contain at least 8 characters."). */
  helpText(): string;
}

/**
 * At least `minLength` characters (default 8).
 *
 * @example
 * ```ts
 * new MinimumLengthValidator(12).validate('short one');
 * // ['This password is too short. It must contain at least 12 characters.']
 * ```
 */
export class MinimumLengthValidator implements PasswordValidator {
  /** The fewest characters accepted (Django's default 8). */
  readonly minLength: number;
  constructor(minLength = 8) {
    this.minLength = minLength;
  }

  /** `This password is too short. It must contain at least N characters.` when it is shorter. */
  validate(password: string): string[] {
    if ([...password].length >= this.minLength) return [];
    const unit = this.minLength === 1 ? 'character' : 'characters';
    return [`This password is too short. It must contain at least ${this.minLength} ${unit}.`];
  }

  helpText(): string {
    return `Your password must contain at least ${this.minLength} characters.`;
  }
}

/**
 * Not one of a list of common passwords (compared in lower case).
 *
 * @example
 * ```ts
 * new CommonPasswordValidator().validate('Password'); // ['This password is too common.']
 * ```
 */
export class CommonPasswordValidator implements PasswordValidator {
  readonly #passwords: ReadonlySet<string>;
  constructor(passwords: readonly string[] = COMMON_PASSWORDS) {
    this.#passwords = new Set(passwords.map((p) => p.trim().toLowerCase()));
  }

  /** `This password is too common.` when it is in the list, case ignored. */
  validate(password: string): string[] {
    return this.#passwords.has(password.trim().toLowerCase())
      ? ['This password is too common.']
      : [];
  }

  helpText(): string {
    return "Your password can't be a commonly used password.";
  }
}

/**
 * Not digits only.
 *
 * @example
 * ```ts
 * new NumericPasswordValidator().validate('20251125'); // ['This password is entirely numeric.']
 * ```
 */
export class NumericPasswordValidator implements PasswordValidator {
  /** `This password is entirely numeric.` when it is only digits. */
  validate(password: string): string[] {
    return /^\d+$/.test(password) ? ['This password is entirely numeric.'] : [];
  }

  helpText(): string {
    return "Your password can't be entirely numeric.";
  }
}

/**
 * Python's `SequenceMatcher.quick_ratio`: twice the characters the two texts share (as
 * multisets) over their total length. An upper bound of the similarity, as Django uses it.
 */
function quickRatio(a: string, b: string): number {
  if (a.length + b.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const char of b) counts.set(char, (counts.get(char) ?? 0) + 1);
  let matches = 0;
  for (const char of a) {
    const left = counts.get(char) ?? 0;
    if (left > 0) {
      matches++;
      counts.set(char, left - 1);
    }
  }
  return (2 * matches) / (a.length + b.length);
}

/**
 * Not too similar to the user's username, names or e-mail (or a part of them split at
 * non-word characters), as Django's `UserAttributeSimilarityValidator`.
 *
 * @example
 * ```ts
 * new UserAttributeSimilarityValidator().validate('Lovelace1815', { username: 'lovelace' });
 * // ['The password is too similar to the username.']
 * ```
 */
export class UserAttributeSimilarityValidator implements PasswordValidator {
  /**
   * The user attributes compared with the password (`username`, `first_name`, `last_name`,
   * `email`).
   */
  readonly attributes: readonly string[];
  /**
   * The similarity (0 to 1, Python's `SequenceMatcher.quick_ratio`) from which a password is
   * refused; 0.7 by default.
   */
  readonly maxSimilarity: number;

  constructor(
    attributes: readonly string[] = ['username', 'first_name', 'last_name', 'email'],
    maxSimilarity = 0.7,
  ) {
    this.attributes = attributes;
    this.maxSimilarity = maxSimilarity;
  }

  /**
   * `The password is too similar to the <attribute>.` when it is too close to one of the user's
   * attributes, or to a part of one split at non-word characters.
   */
  validate(password: string, user?: UserAttributes): string[] {
    if (!user) return [];
    const lower = password.toLowerCase();
    for (const attribute of this.attributes) {
      const value = user[attribute];
      if (typeof value !== 'string' || !value) continue;
      const valueLower = value.toLowerCase();
      // Comparing a huge password costs its length: compare its start only.
      const parts = [valueLower, ...valueLower.split(/\W+/).filter(Boolean)];
      for (const part of parts) {
        if (quickRatio(lower.slice(0, 256), part) >= this.maxSimilarity) {
          return [`The password is too similar to the ${attribute.replace(/_/g, ' ')}.`];
        }
      }
    }
    return [];
  }

  helpText(): string {
    return "Your password can't be too similar to your other personal information.";
  }
}

/** Django's four default validators. */
export function defaultPasswordValidators(): PasswordValidator[] {
  return [
    new UserAttributeSimilarityValidator(),
    new MinimumLengthValidator(),
    new CommonPasswordValidator(),
    new NumericPasswordValidator(),
  ];
}

/**
 * Every message of every validator for `password`, raised as one `ValidationError` under
 * `field` (default `password`); nothing when the password passes. A password longer than
 * {@link MAX_PASSWORD_LENGTH} is refused before any validator runs.
 */
export function validatePassword(
  password: string,
  user?: UserAttributes,
  validators: readonly PasswordValidator[] = defaultPasswordValidators(),
  field = 'password',
): void {
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new ValidationError({
      [field]: [`Ensure this field has no more than ${MAX_PASSWORD_LENGTH} characters.`],
    });
  }
  const messages = validators.flatMap((validator) => validator.validate(password, user));
  if (messages.length) throw new ValidationError({ [field]: messages });
}
