/**
 * Calendar dates.
 * @module
 */

import { digitsAt } from '../utils/digits.ts';
import {
  Field,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  type RunContext,
} from './field.ts';

/** True when year, month and day name a real day (2023-02-30 does not). */
export function isRealDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  // Four-digit years, the only ones the fields read: counted, no Date (the calendar is the
  // proleptic Gregorian one, as Date's).
  if (year <= 9999 && Number.isInteger(year) && Number.isInteger(month) && Number.isInteger(day))
    return day <= daysInMonth(year, month);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/** The days of `month` (1-12) of `year` in the proleptic Gregorian calendar. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * A date written `YYYY-MM-DD`; impossible dates (`2023-02-30`) and anything else get
 * "Date has wrong format. Use one of these formats instead: YYYY-MM-DD.".
 *
 * @example
 * ```ts
 * const published = new DateField({ required: false });
 * ```
 */
export class DateField<const O extends FieldOptions<string> = FieldOptions<string>> extends Field<
  string,
  string,
  O
> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid: 'Date has wrong format. Use one of these formats instead: {format}.',
    datetime: 'Expected a date but got a datetime.',
  };
  static override metadataType = 'date';

  toInternalValue(data: unknown, _ctx?: RunContext): string {
    // `YYYY-MM-DD` read by one scan, no regular expression.
    if (typeof data === 'string' && data.length === 10) {
      if (data.charCodeAt(4) === 45 && data.charCodeAt(7) === 45) {
        const year = digitsAt(data, 0, 4);
        const month = digitsAt(data, 5, 7);
        const day = digitsAt(data, 8, 10);
        if (year >= 0 && month >= 0 && day >= 0 && isRealDate(year, month, day)) return data;
      }
    }
    return this.fail('invalid', { format: 'YYYY-MM-DD' });
  }

  protected override valueSchema(_options: JsonSchemaOptions): JsonSchema {
    return { type: 'string', format: 'date' };
  }

  toRepresentation(value: unknown): string {
    // Drivers give dates as 'YYYY-MM-DD' text: as they are.
    if (typeof value === 'string') return value.length <= 10 ? value : value.slice(0, 10);
    if (value instanceof Date) return value.toISOString().slice(0, 10);
    return String(value).slice(0, 10);
  }
}
