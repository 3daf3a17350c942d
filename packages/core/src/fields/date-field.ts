/**
 * Calendar dates.
 * @module
 */

import { digitsAt } from '../utils/digits.ts';
import { checkDateFormat, type DateFormat, formatDate, ISO_8601 } from './date-format.ts';
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

/** Options of {@link DateField}. */
export interface DateFieldOptions extends FieldOptions<string> {
  /**
   * How the field writes its values: `'iso-8601'` (`YYYY-MM-DD`) or a `strftime` format of
   * date directives (`'%d/%m/%Y'`); by default the `DATE_FORMAT` setting (DRF's `format`).
   */
  readonly format?: DateFormat;
}

/**
 * A date written `YYYY-MM-DD`; impossible dates (`2023-02-30`) and anything else get
 * "Date has wrong format. Use one of these formats instead: YYYY-MM-DD.". Responses write it
 * in the `format` option, else the `DATE_FORMAT` setting (default ISO 8601).
 *
 * @example
 * ```ts
 * const published = new DateField({ required: false });
 * const shown = new DateField({ readOnly: true, format: '%d/%m/%Y' }); // '02/01/2024'
 * ```
 */
export class DateField<const O extends DateFieldOptions = DateFieldOptions> extends Field<
  string,
  string,
  O
> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid: 'Date has wrong format. Use one of these formats instead: {format}.',
    datetime: 'Expected a date but got a datetime.',
  };
  static override metadataType = 'date';

  constructor(options: O = {} as O) {
    super(options);
    const format = this.options.format;
    if (format !== undefined)
      checkDateFormat(format, 'DateField({ format })', 'date', 'REST_ERR_FIELD_OPTIONS');
  }

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

  /** A request's value is ISO 8601; a response's is written in the field's format. */
  protected override valueSchema(options: JsonSchemaOptions): JsonSchema {
    const format =
      options.mode === 'response'
        ? (this.options.format ?? options.settings?.DATE_FORMAT ?? ISO_8601)
        : ISO_8601;
    if (format === ISO_8601) return { type: 'string', format: 'date' };
    return { type: 'string', description: `A date written as \`${format}\` (strftime).` };
  }

  toRepresentation(value: unknown, ctx?: RunContext): string {
    const iso = isoDate(value);
    const format = this.options.format ?? ctx?.context.request?.settings?.DATE_FORMAT ?? ISO_8601;
    return format === ISO_8601 ? iso : formatDate(new Date(`${iso}T00:00:00Z`), format);
  }
}

/** A date as `YYYY-MM-DD`: drivers give dates as that text (kept as it is), or a `Date`. */
function isoDate(value: unknown): string {
  if (typeof value === 'string') return value.length <= 10 ? value : value.slice(0, 10);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value).slice(0, 10);
}
