/**
 * UUIDs.
 * @module
 */
import { canonicalUuid } from '../db/column-values.ts';
import {
  Field,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  type RunContext,
} from './field.ts';

/**
 * A UUID: 32 hexadecimal digits, with or without dashes (also in braces or after
 * `urn:uuid:`), held and shown lower-case with dashes; anything else gets "Must be a valid
 * UUID.".
 *
 * @example
 * ```ts
 * const token = new UUIDField({ readOnly: true });
 * ```
 */
export class UUIDField<const O extends FieldOptions<string> = FieldOptions<string>> extends Field<
  string,
  string,
  O
> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid: 'Must be a valid UUID.',
  };
  static override metadataType = 'string';

  toInternalValue(data: unknown, _ctx?: RunContext): string {
    const uuid = typeof data === 'string' && data.length <= 64 ? canonicalUuid(data) : undefined;
    return uuid ?? this.fail('invalid');
  }

  toRepresentation(value: unknown): string {
    const text = String(value);
    return canonicalUuid(text) ?? text;
  }

  protected override valueSchema(_options: JsonSchemaOptions): JsonSchema {
    return { type: 'string', format: 'uuid' };
  }
}
