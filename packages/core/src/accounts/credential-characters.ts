/**
 * Characters a username or password may not hold: NUL (PostgreSQL cannot store it), lone
 * surrogates (no database stores them faithfully, and UTF-8 has no bytes for them) and the
 * other control characters (C0, DEL, C1: nothing a person types into a login form). Every
 * credential entry point refuses them before it looks a user up, so the answer and the work
 * done are the same for a known and an unknown user.
 * @module
 */
import { CharField } from '../fields/char-field.ts';

/** Unicode's control characters (category Cc): C0, DEL and C1. */
const CONTROL = /\p{Cc}/u;
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * The field message for the first kind of unusable character `text` holds (DRF's CharField
 * messages for NUL and surrogates), or null when it holds none.
 *
 * @example
 * ```ts
 * unusableCharacter('ada\u0000'); // 'Null characters are not allowed.'
 * unusableCharacter('ada'); // null
 * ```
 */
export function unusableCharacter(text: string): string | null {
  const messages = CharField.defaultErrorMessages;
  if (text.includes('\0')) return messages.null_characters_not_allowed as string;
  if (!text.isWellFormed()) {
    const lone = SURROGATE.exec(text)?.[0] ?? '\uD800';
    const codePoint = (lone.codePointAt(0) as number).toString(16).toUpperCase();
    return (messages.surrogate_characters_not_allowed as string).replace('{code_point}', codePoint);
  }
  if (CONTROL.test(text)) return 'Control characters are not allowed.';
  return null;
}
