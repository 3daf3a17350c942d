/**
 * Any JSON value.
 * @module
 */
import type { JsonValue } from '../migrations/field-spec.ts';
import {
  Field,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  type RunContext,
} from './field.ts';
import { isFormInput } from './form-input.ts';

/** Options of {@link JSONField}. */
export interface JSONFieldOptions extends FieldOptions<JsonValue> {
  /** Input is JSON text to parse (always so for form input). */
  readonly binary?: boolean;
}

/** Form input's text, marked to be parsed. */
class JsonText {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** True when `value` is made of JSON values only (walked without recursion). */
function isJson(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (item === null || typeof item === 'string' || typeof item === 'boolean') continue;
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) return false;
      continue;
    }
    if (Array.isArray(item)) {
      pending.push(...item);
      continue;
    }
    if (typeof item !== 'object') return false;
    const proto = Object.getPrototypeOf(item);
    if (proto !== Object.prototype && proto !== null) return false;
    for (const key in item) pending.push((item as Record<string, unknown>)[key]);
  }
  return true;
}

/**
 * Any JSON value: an object, an array, a string, a finite number, a boolean or `null`.
 * With `binary: true` (and for form input, whose values are text) the input is JSON text,
 * parsed. Anything else gets "Value must be valid JSON.".
 *
 * @example
 * ```ts
 * const settings = new JSONField({ required: false });
 * ```
 */
export class JSONField<const O extends JSONFieldOptions = JSONFieldOptions> extends Field<
  JsonValue,
  JsonValue,
  O
> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid: 'Value must be valid JSON.',
  };
  static override metadataType = 'json';

  /** Whether input is JSON text to parse (always so for form input). */
  readonly binary: boolean;

  constructor(options: O = {} as O) {
    super(options);
    this.binary = options.binary ?? false;
  }

  // A form's value is text to parse, as DRF's JSONString.
  override getValue(data: Readonly<Record<string, unknown>>, ctx: RunContext): unknown {
    const value = super.getValue(data, ctx);
    return typeof value === 'string' && isFormInput(data) ? new JsonText(value) : value;
  }

  toInternalValue(data: unknown, _ctx?: RunContext): JsonValue {
    let value = data;
    const text = data instanceof JsonText ? data.text : this.binary ? data : undefined;
    if (typeof text === 'string') {
      try {
        value = JSON.parse(text);
      } catch {
        this.fail('invalid');
      }
    }
    if (!isJson(value)) this.fail('invalid');
    return value as JsonValue;
  }

  toRepresentation(value: unknown): JsonValue {
    return value as JsonValue;
  }

  protected override valueSchema(_options: JsonSchemaOptions): JsonSchema {
    return {};
  }
}
