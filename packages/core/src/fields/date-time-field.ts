/**
 * Instants.
 * @module
 */
import { isRealDate } from './date-field.ts';
import { checkDateFormat, type DateFormat, formatDate, ISO_8601 } from './date-format.ts';
import {
  Field,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  type RunContext,
} from './field.ts';

const ISO_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6})\d*)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const FORMAT = 'YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]';

/** Options of {@link DateTimeField}. */
export interface DateTimeFieldOptions extends FieldOptions<string> {
  /**
   * How the field writes its values: `'iso-8601'` or a `strftime` format (`'%d/%m/%Y %H:%M'`,
   * see `checkDateFormat`); by default the `DATETIME_FORMAT` setting (DRF's `format`).
   */
  readonly format?: DateFormat;
}

/**
 * An ISO 8601 date and time. A time without offset is taken as UTC. Held as a UTC ISO string
 * with milliseconds. Written in one shape whatever the value, by default ISO 8601 with
 * microseconds (`2024-01-02T03:04:05.123000Z`, `2024-01-02T03:04:05.000000Z`), so that a
 * client parses every value alike; the `format` option or the `DATETIME_FORMAT` setting
 * chooses another.
 *
 * @example
 * ```ts
 * const created = new DateTimeField({ readOnly: true });
 * const shown = new DateTimeField({ readOnly: true, format: '%d/%m/%Y %H:%M' }); // '02/01/2024 03:04'
 * ```
 */
export class DateTimeField<
  const O extends DateTimeFieldOptions = DateTimeFieldOptions,
> extends Field<string, string, O> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid: 'Datetime has wrong format. Use one of these formats instead: {format}.',
    date: 'Expected a datetime but got a date.',
    overflow: 'Datetime value out of range.',
  };
  static override metadataType = 'datetime';

  constructor(options: O = {} as O) {
    super(options);
    const format = this.options.format;
    if (format !== undefined)
      checkDateFormat(format, 'DateTimeField({ format })', 'datetime', 'REST_ERR_FIELD_OPTIONS');
  }

  toInternalValue(data: unknown, _ctx?: RunContext): string {
    if (typeof data !== 'string') return this.fail('invalid', { format: FORMAT });
    const m = ISO_DATETIME.exec(data.trim());
    if (!m) return this.fail('invalid', { format: FORMAT });
    const [, y, mo, d, h, mi, s, frac, zone] = m as unknown as string[];
    const year = Number(y);
    const month = Number(mo);
    const day = Number(d);
    const hour = Number(h);
    const minute = Number(mi);
    const second = Number(s ?? 0);
    if (!isRealDate(year, month, day) || hour > 23 || minute > 59 || second > 59) {
      return this.fail('invalid', { format: FORMAT });
    }
    const ms = Math.floor(Number(`0.${frac ?? '0'}`) * 1000);
    let offsetMinutes = 0;
    if (zone && zone.toUpperCase() !== 'Z') {
      const sign = zone.startsWith('-') ? -1 : 1;
      const digits = zone.slice(1).replace(':', '');
      const oh = Number(digits.slice(0, 2));
      const om = Number(digits.slice(2) || 0);
      if (oh > 23 || om > 59) return this.fail('invalid', { format: FORMAT });
      offsetMinutes = sign * (oh * 60 + om);
    }
    // setUTCFullYear, unlike Date.UTC, does not read years 0-99 as 1900-1999.
    const local = new Date(0);
    local.setUTCFullYear(year, month - 1, day);
    local.setUTCHours(hour, minute, second, ms);
    const date = new Date(local.getTime() - offsetMinutes * 60_000);
    if (Number.isNaN(date.getTime())) return this.fail('invalid', { format: FORMAT });
    // A valid time whose offset moves it out of years 1-9999 in UTC: DRF's 'overflow'.
    if (date.getUTCFullYear() < 1 || date.getUTCFullYear() > 9999) return this.fail('overflow');
    return date.toISOString();
  }

  /** A request's value is ISO 8601; a response's is written in the field's format. */
  protected override valueSchema(options: JsonSchemaOptions): JsonSchema {
    const format =
      options.mode === 'response'
        ? (this.options.format ?? options.settings?.DATETIME_FORMAT ?? ISO_8601)
        : ISO_8601;
    if (format === ISO_8601) return { type: 'string', format: 'date-time' };
    return {
      type: 'string',
      description: `A date and time written as \`${format}\` (strftime, UTC).`,
    };
  }

  toRepresentation(value: unknown, ctx?: RunContext): string {
    const date = value instanceof Date ? value : new Date(String(value));
    const format =
      this.options.format ?? ctx?.context.request?.settings?.DATETIME_FORMAT ?? ISO_8601;
    if (format !== ISO_8601) return formatDate(date, format);
    const iso = date.toISOString();
    // Always the fraction, in microseconds as DRF writes them (the milliseconds, then 000).
    return `${iso.slice(0, 23)}000Z`;
  }
}
