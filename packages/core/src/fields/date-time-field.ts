/**
 * Instants.
 * @module
 */
import { isRealDate } from './date-field.ts';
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

/**
 * An ISO 8601 date and time. A time without offset is taken as UTC. Held as a UTC ISO string
 * with milliseconds; rendered as DRF does (`2024-01-02T03:04:05.123000Z`, no fraction when
 * it is zero).
 *
 * @example
 * ```ts
 * const created = new DateTimeField({ readOnly: true });
 * ```
 */
export class DateTimeField<
  const O extends FieldOptions<string> = FieldOptions<string>,
> extends Field<string, string, O> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid: 'Datetime has wrong format. Use one of these formats instead: {format}.',
    date: 'Expected a datetime but got a date.',
    overflow: 'Datetime value out of range.',
  };
  static override metadataType = 'datetime';

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

  protected override valueSchema(_options: JsonSchemaOptions): JsonSchema {
    return { type: 'string', format: 'date-time' };
  }

  toRepresentation(value: unknown): string {
    const iso = value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
    const ms = iso.slice(20, 23);
    return ms === '000' ? `${iso.slice(0, 19)}Z` : `${iso.slice(0, 19)}.${ms}000Z`;
  }
}
