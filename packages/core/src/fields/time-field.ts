/**
 * Times of day.
 * @module
 */
import { canonicalTime } from '../db/column-values.ts';
import {
  Field,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  type RunContext,
} from './field.ts';

/**
 * A time of day written `hh:mm[:ss[.uuuuuu]]` (24-hour clock), held and shown as `HH:MM:SS`,
 * or `HH:MM:SS.ffffff` when it has a fraction of a second; anything else gets "Time has wrong
 * format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]].".
 *
 * @example
 * ```ts
 * const opens = new TimeField();
 * ```
 */
export class TimeField<const O extends FieldOptions<string> = FieldOptions<string>> extends Field<
  string,
  string,
  O
> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid: 'Time has wrong format. Use one of these formats instead: {format}.',
  };
  static override metadataType = 'time';

  toInternalValue(data: unknown, _ctx?: RunContext): string {
    const time = typeof data === 'string' && data.length <= 32 ? canonicalTime(data) : undefined;
    return time ?? this.fail('invalid', { format: 'hh:mm[:ss[.uuuuuu]]' });
  }

  toRepresentation(value: unknown): string {
    const text = String(value);
    return canonicalTime(text) ?? text;
  }

  protected override valueSchema(_options: JsonSchemaOptions): JsonSchema {
    return { type: 'string', format: 'time' };
  }
}
