/**
 * Calendar dates.
 * @module
 */
import {
  Field,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  type RunContext,
} from './field.ts';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when year, month and day name a real day (2023-02-30 does not). */
export function isRealDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
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
    if (typeof data === 'string') {
      const match = ISO_DATE.exec(data);
      if (match && isRealDate(Number(match[1]), Number(match[2]), Number(match[3]))) return data;
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
