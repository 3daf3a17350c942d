/**
 * How the column kinds every dialect stores alike travel to and from the database: JSON as
 * text, UUIDs as lower-case text with dashes, times of day as `HH:MM:SS[.ffffff]`, durations
 * as whole microseconds. The adapters' `reader` and `toDb` fall back on these.
 * @module
 */

const TIME_TEXT = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;
const UUID_TEXT =
  /^(?:urn:uuid:)?\{?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}?$/i;

/**
 * A time of day in its one form, `HH:MM:SS` or `HH:MM:SS.ffffff` (six digits, only when the
 * fraction is not zero), or undefined for text that is not a time of day (`24:00`, `7:5`).
 * Digits past the microsecond are dropped, as the databases store none.
 *
 * @example
 * ```ts
 * canonicalTime('09:30'); // '09:30:00'
 * canonicalTime('09:30:00.500'); // '09:30:00.500000'
 * ```
 */
export function canonicalTime(text: string): string | undefined {
  const m = TIME_TEXT.exec(text);
  if (!m) return undefined;
  const hours = Number(m[1]);
  const minutes = Number(m[2]);
  const seconds = m[3] === undefined ? 0 : Number(m[3]);
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  const micro = (m[4] ?? '').slice(0, 6).padEnd(6, '0');
  const base = `${m[1]}:${m[2]}:${String(seconds).padStart(2, '0')}`;
  return micro === '000000' ? base : `${base}.${micro}`;
}

/**
 * A UUID as the columns hold it: lower-case, with dashes. Accepts the forms Django's
 * `uuid.UUID` reads (32 hex digits, with or without dashes, braces or `urn:uuid:`); undefined
 * for anything else.
 *
 * @example
 * ```ts
 * canonicalUuid('6F1C7C6E4B2E4C5A9D3E1A2B3C4D5E6F'); // '6f1c7c6e-4b2e-4c5a-9d3e-1a2b3c4d5e6f'
 * ```
 */
export function canonicalUuid(text: string): string | undefined {
  const m = UUID_TEXT.exec(text);
  return m ? `${m[1]}-${m[2]}-${m[3]}-${m[4]}-${m[5]}`.toLowerCase() : undefined;
}

/** JSON text read back as its value; a value the driver already parsed as it is. */
export const readJsonText = (v: unknown): unknown =>
  typeof v === 'string' ? JSON.parse(v) : v === undefined ? null : v;

/** A time of day as {@link canonicalTime} writes it (drivers pad or trim the fraction). */
export const readTime = (v: unknown): unknown =>
  typeof v === 'string' ? (canonicalTime(v) ?? v) : v === undefined ? null : v;

/** A `bigint` the driver gave as text, as a number. */
export const readWholeNumber = (v: unknown): unknown =>
  typeof v === 'string' || typeof v === 'bigint' ? Number(v) : v === undefined ? null : v;

/** A value of a JSON, UUID or time column as it is stored (NULL stays NULL). */
export function columnValueToDb(kind: string, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  switch (kind) {
    case 'json':
      return JSON.stringify(value);
    case 'uuid':
      return typeof value === 'string' ? (canonicalUuid(value) ?? value) : value;
    case 'time':
      return typeof value === 'string' ? (canonicalTime(value) ?? value) : value;
    default:
      return value;
  }
}
