/**
 * The `Authorization` header split as DRF's `get_authorization_header().split()`: the scheme
 * and what follows, at runs of whitespace.
 * @module
 */
import type { Request } from '../../http/request.ts';

const SEPARATORS = /[ \t]+/;

/** True for a printable ASCII character other than space: one `trim()` keeps at an end. */
function isVisible(code: number): boolean {
  return code > 0x20 && code < 0x7f;
}

/**
 * The header's words when its first word is `scheme` (any case), else null: the request does
 * not use this scheme.
 */
export function authorizationWords(request: Request, scheme: string): string[] | null {
  const header = request.raw.headers.authorization;
  if (typeof header !== 'string' || header === '') return null;
  let words: string[];
  // The usual header, `Token <key>`: visible ends (so trim() would change nothing), one space
  // and no tab. Cut at the space, without the trim, the regular expression and its array
  // (a fifth of what parsing the header cost); any other header goes the general way.
  const space = header.indexOf(' ');
  if (
    space > 0 &&
    isVisible(header.charCodeAt(space + 1)) &&
    isVisible(header.charCodeAt(0)) &&
    isVisible(header.charCodeAt(header.length - 1)) &&
    header.indexOf(' ', space + 1) === -1 &&
    header.indexOf('\t') === -1
  ) {
    words = [header.slice(0, space), header.slice(space + 1)];
  } else {
    words = header.trim().split(SEPARATORS);
  }
  const first = words[0] as string;
  // Most clients send the scheme as it is written: no lower-casing for them.
  if (first === scheme) return words;
  return first.toLowerCase() === scheme.toLowerCase() ? words : null;
}

/** True when every character is printable ASCII (a header's bytes arrive as Latin-1). */
export function isPrintableAscii(text: string): boolean {
  return /^[\x21-\x7e]*$/.test(text);
}
