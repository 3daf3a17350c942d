/**
 * The `Authorization` header split as DRF's `get_authorization_header().split()`: the scheme
 * and what follows, at runs of whitespace.
 * @module
 */
import type { Request } from '../http/request.ts';

/** The header's words, or null when there is no header. */
export function authorizationWords(request: Request): string[] | null {
  const header = request.raw.headers.authorization;
  if (typeof header !== 'string' || header === '') return null;
  return header.trim().split(/[ \t]+/);
}

/** True when every character is printable ASCII (a header's bytes arrive as Latin-1). */
export function isPrintableAscii(text: string): boolean {
  return /^[\x21-\x7e]*$/.test(text);
}
