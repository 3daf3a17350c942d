/**
 * The `Authorization` header split as DRF's `get_authorization_header().split()`: the scheme
 * and what follows, at runs of whitespace.
 * @module
 */
import type { Request } from '../http/request.ts';

/**
 * The header's words when its first word is `scheme` (any case), else null: the request does
 * not use this scheme.
 */
export function authorizationWords(request: Request, scheme: string): string[] | null {
  const header = request.raw.headers.authorization;
  if (typeof header !== 'string' || header === '') return null;
  const words = header.trim().split(/[ \t]+/);
  return words[0]?.toLowerCase() === scheme.toLowerCase() ? words : null;
}

/** True when every character is printable ASCII (a header's bytes arrive as Latin-1). */
export function isPrintableAscii(text: string): boolean {
  return /^[\x21-\x7e]*$/.test(text);
}
