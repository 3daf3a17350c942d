/**
 * What Django's `EmailValidator` accepts as an e-mail address, checked with the `validator`
 * package's host checks (`isFQDN`, `isIP`) and the RFC grammar of the local part.
 *
 * `validator`'s own `isEmail` is not used: even with `allow_utf8_local_part: false` it takes
 * what Django refuses (a quoted local part with spaces or line breaks, a bare IP address as the
 * domain, a domain of characters past U+FFFF, a top-level domain such as `xn1234`) and refuses
 * what Django takes (`localhost`, a 65-byte local part).
 * @module
 */
import validator from 'validator';

/** Options of `isEmailAddress`. */
export interface EmailAddressOptions {
  /** Domains taken as they are, without a top-level domain (Django's `allowlist`). */
  readonly allowlist?: readonly string[];
}

// RFC 3696, section 3 (Django's bound): at most 320 characters.
const MAX_LENGTH = 320;
// RFC 5322 dot-atom of ASCII `atext`: letters, digits and these signs, atoms joined by dots.
const DOT_ATOM = /^[\w!#$%&'*+/=?^`{|}~-]+(?:\.[\w!#$%&'*+/=?^`{|}~-]+)*$/;
// RFC 5321 quoted string as Django takes it: ASCII but space, tab, CR, LF, `"` and `\` as they
// are, or a backslash before any ASCII but NUL, CR and LF.
const QUOTED =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the grammar allows these controls.
  /^"(?:[\x01-\x08\x0b\x0c\x0e-\x1f\x21\x23-\x5b\x5d-\x7f]|\\[\x01-\x09\x0b\x0c\x0e-\x7f])*"$/;
const LITERAL = /^\[([0-9a-f:.]+)\]$/i;
// A top-level domain of letters (any script, with inner hyphens) or a punycode label.
const TLD = /^(?:[a-z\u00a1-\uffff-]{2,63}|xn--[a-z0-9]{1,59})$/i;
// A character past U+FFFF (a surrogate pair), which Django's domain pattern does not take.
const ASTRAL = /[\ud800-\udfff]/;
const FQDN = { require_tld: true, allow_underscores: false, allow_trailing_dot: false } as const;

/**
 * True when `value` is an e-mail address Django's `EmailValidator` takes: a local part that is
 * an ASCII dot-atom or a quoted string, then a domain that is a host name with a top-level
 * domain (an IDN, or its punycode), an IP address in brackets, or a domain of the allowlist
 * (`localhost` by default); at most 320 characters.
 *
 * Differences, where the `validator` package is stricter than Django: a top-level domain with
 * a hyphen but not punycode (`a@b.x-y`), full-width characters in the domain, and a few
 * symbols and private-use characters in a top-level domain are refused.
 *
 * @example
 * ```ts
 * isEmailAddress('email@exämple.com'); // true: the domain may be an IDN
 * isEmailAddress('ü@exämple.com'); // false: the local part is ASCII
 * isEmailAddress('email@[2001:db8::1]'); // true
 * isEmailAddress('email@127.0.0.1'); // false: an IP address needs its brackets
 * ```
 */
export function isEmailAddress(value: string, options: EmailAddressOptions = {}): boolean {
  if (value.length > MAX_LENGTH && [...value].length > MAX_LENGTH) return false;
  const at = value.lastIndexOf('@');
  if (at === -1) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (!DOT_ATOM.test(local) && !QUOTED.test(local)) return false;
  if ((options.allowlist ?? ['localhost']).includes(domain)) return true;
  const literal = LITERAL.exec(domain);
  if (literal) return validator.isIP(literal[1] as string);
  const tld = domain.slice(domain.lastIndexOf('.') + 1);
  return !ASTRAL.test(domain) && TLD.test(tld) && validator.isFQDN(domain, FQDN);
}
