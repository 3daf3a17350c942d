/**
 * Lookup values checked against the column they are compared with, as Django's
 * `Field.get_prep_value` does: `filter({ pages: 'many' })` on an integer column throws
 * {@link InvalidLookupValueError} instead of comparing text with numbers and finding nothing
 * (SQLite) or failing in the driver (PostgreSQL).
 * @module
 */
import type { AnyModelField } from '../models/model-field.ts';
import { canonicalTime, canonicalUuid } from './column-values.ts';
import { InvalidLookupValueError } from './database-errors.ts';

/** The kinds of column that hold whole numbers. */
export const INTEGER_KINDS: ReadonlySet<string> = new Set([
  'auto',
  'integer',
  'positive_integer',
  'big_integer',
  'small_integer',
  'positive_small_integer',
  'duration',
]);
const INTEGER_TEXT = /^[+-]?\d{1,18}$/;
const DECIMAL_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d{1,4})?$/;
const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;
// ISO 8601 date and time, with optional seconds, fraction and offset (what Date.parse reads
// the same way everywhere).
const DATETIME_TEXT =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** True when `year-month-day` is a day of the calendar (2023-02-30 is not). */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1 || year < 1) return false;
  const last = new Date(Date.UTC(2000, month, 0)).getUTCDate();
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 ? (leap ? 29 : 28) : last);
}

/** `YYYY-MM-DD` text naming a real day, or undefined. */
export function parseDateText(text: string): string | undefined {
  const m = DATE_TEXT.exec(text);
  if (!m) return undefined;
  return isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3])) ? text : undefined;
}

/** ISO 8601 date-time text naming a real instant (with a real day), or undefined. */
export function parseDateTimeText(text: string): string | undefined {
  if (!DATETIME_TEXT.test(text) || parseDateText(text.slice(0, 10)) === undefined) return undefined;
  return Number.isNaN(Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text))
    ? undefined
    : text;
}

function fail(field: AnyModelField, expected: string, value: unknown): never {
  const shown = typeof value === 'string' ? value : JSON.stringify(value);
  throw new InvalidLookupValueError(
    `Field '${field.name}' expected ${expected} but got ${JSON.stringify(shown ?? String(value))}.`,
    field,
    value,
  );
}

/**
 * `value` as the column compares it: integer text becomes a number, a date is checked to be
 * a real day; anything the column cannot hold throws {@link InvalidLookupValueError}. A
 * relation compares its key, so its value is checked as the related primary key.
 */
export function lookupValue(field: AnyModelField, value: unknown): unknown {
  const kind = field.isRelation ? field.relatedModel.pk.kind : field.kind;
  if (INTEGER_KINDS.has(kind)) {
    if (typeof value === 'number') {
      if (Number.isInteger(value)) return value;
      return fail(field, 'a whole number', value);
    }
    if (typeof value === 'bigint') return value;
    if (typeof value === 'string' && INTEGER_TEXT.test(value)) return Number(value);
    return fail(field, 'a number', value);
  }
  switch (kind) {
    case 'decimal':
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      if (typeof value === 'string' && value.length <= 100 && DECIMAL_TEXT.test(value))
        return value;
      return fail(field, 'a number', value);
    case 'float':
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      if (typeof value === 'string' && value.length <= 100 && DECIMAL_TEXT.test(value))
        return Number(value);
      return fail(field, 'a number', value);
    case 'uuid': {
      const uuid = typeof value === 'string' ? canonicalUuid(value) : undefined;
      return uuid ?? fail(field, 'a UUID', value);
    }
    case 'time': {
      const time = typeof value === 'string' ? canonicalTime(value) : undefined;
      return time ?? fail(field, 'a time (HH:MM[:SS[.ffffff]])', value);
    }
    case 'json':
      return fail(field, 'no value (a JSONField is filtered with isnull only)', value);
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 1 || value === 0) return value === 1;
      return fail(field, 'either True or False', value);
    case 'date':
      if (value instanceof Date && !Number.isNaN(value.getTime()))
        return value.toISOString().slice(0, 10);
      if (typeof value === 'string' && parseDateText(value) !== undefined) return value;
      return fail(field, 'a date (YYYY-MM-DD)', value);
    case 'datetime':
      if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
      if (typeof value === 'string' && parseDateTimeText(value) !== undefined) return value;
      return fail(field, 'a date and time (ISO 8601)', value);
    default:
      // Text columns: Django compares str(value); objects and arrays are a caller's mistake.
      // NUL cannot be stored in PostgreSQL text (it would fail in the driver), nor match.
      if (typeof value === 'string')
        return value.includes('\u0000')
          ? fail(field, 'a string without NUL characters', value)
          : value;
      if (typeof value === 'number' || typeof value === 'bigint') return String(value);
      return fail(field, 'a string', value);
  }
}

/** A whole number for a date part lookup (`publication_date__year=2021`). */
export function datePartValue(field: AnyModelField, part: string, value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^[+-]?\d{1,9}$/.test(value)) return Number(value);
  throw new InvalidLookupValueError(
    `Field '${field.name}__${part}' expected a number but got ${JSON.stringify(typeof value === 'string' ? value : String(value))}.`,
    field,
    value,
  );
}
