/**
 * The cursor of the keyset-paginated book list, in the toolkit's format: base64url of
 * `[fingerprint, flags, isbn]` (flags: 1 = previous page, 2 = the boundary row is included).
 * @module
 */

/** The ordering the cursors stand for, hashed as the toolkit hashes it (FNV-1a, base 36). */
export const FINGERPRINT = fingerprint('books_book.isbn');

function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

/** A decoded cursor. */
export interface BookCursor {
  readonly isbn: string;
  readonly reverse: boolean;
  readonly inclusive: boolean;
}

export function encodeCursor(isbn: string, reverse: boolean, inclusive = false): string {
  const json = JSON.stringify([FINGERPRINT, (reverse ? 1 : 0) | (inclusive ? 2 : 0), isbn]);
  return Buffer.from(json, 'utf8').toString('base64url');
}

/** The cursor of a URL, or null when it is not one of ours (the caller answers 404). */
export function decodeCursor(raw: string): BookCursor | null {
  if (raw.length === 0 || raw.length > 8192 || !/^[A-Za-z0-9_-]+$/.test(raw)) return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(decoded) || decoded.length !== 3) return null;
  const [print, flags, isbn] = decoded as unknown[];
  if (print !== FINGERPRINT || typeof flags !== 'number' || !(flags >= 0 && flags <= 3))
    return null;
  if (typeof isbn !== 'string' || isbn.includes('\u0000')) return null;
  return { isbn, reverse: (flags & 1) === 1, inclusive: (flags & 2) === 2 };
}
