/**
 * Floating-point numbers.
 * @module
 */
import {
  Field,
  type FieldDescription,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  type RunContext,
} from './field.ts';
import { maxValueValidator, minValueValidator } from './validators.ts';

/** Options of {@link FloatField}. */
export interface FloatFieldOptions extends FieldOptions<number> {
  /** The largest value accepted. */
  readonly maxValue?: number;
  /** The smallest value accepted. */
  readonly minValue?: number;
}

const NUMBER_TEXT = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;
const MAX_STRING_LENGTH = 1000;

/**
 * A floating-point number. Accepts numbers and numeric strings (`"1.5"`, `"2e3"`); refuses
 * booleans, `NaN`, infinities and anything else with "A valid number is required." (no
 * database column stores the non-finite ones alike).
 *
 * @example
 * ```ts
 * const rating = new FloatField({ minValue: 0, maxValue: 5 });
 * ```
 */
export class FloatField<const O extends FloatFieldOptions = FloatFieldOptions> extends Field<
  number,
  number,
  O
> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid: 'A valid number is required.',
    max_value: 'Ensure this value is less than or equal to {max_value}.',
    min_value: 'Ensure this value is greater than or equal to {min_value}.',
    max_string_length: 'String value too large.',
  };
  static override metadataType = 'float';

  /** The largest value accepted. */
  readonly maxValue: number | undefined;
  /** The smallest value accepted. */
  readonly minValue: number | undefined;

  constructor(options: O = {} as O) {
    super(options);
    this.maxValue = options.maxValue;
    this.minValue = options.minValue;
    if (this.maxValue !== undefined) this.validators.push(maxValueValidator(this.maxValue));
    if (this.minValue !== undefined) this.validators.push(minValueValidator(this.minValue));
  }

  toInternalValue(data: unknown, _ctx?: RunContext): number {
    let value: number;
    if (typeof data === 'number') value = data;
    else if (typeof data === 'string') {
      if (data.length > MAX_STRING_LENGTH) this.fail('max_string_length');
      if (!NUMBER_TEXT.test(data)) this.fail('invalid');
      value = Number(data);
    } else return this.fail('invalid');
    if (!Number.isFinite(value)) this.fail('invalid');
    return value === 0 ? 0 : value;
  }

  toRepresentation(value: unknown): number {
    return Number(value);
  }

  protected override valueSchema(_options: JsonSchemaOptions): JsonSchema {
    const schema: JsonSchema = { type: 'number' };
    if (this.minValue !== undefined) schema.minimum = this.minValue;
    if (this.maxValue !== undefined) schema.maximum = this.maxValue;
    return schema;
  }

  override describe(): FieldDescription {
    const description = super.describe();
    if (this.minValue !== undefined) description.min_value = this.minValue;
    if (this.maxValue !== undefined) description.max_value = this.maxValue;
    return description;
  }
}
