/**
 * Integers.
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

/** Options of {@link IntegerField}. */
export interface IntegerFieldOptions extends FieldOptions<number> {
  /** The largest value accepted. */
  readonly maxValue?: number;
  /** The smallest value accepted. */
  readonly minValue?: number;
}

const INTEGER_TEXT = /^\s*([+-]?\d+)(?:\.0*)?\s*$/;
const MAX_STRING_LENGTH = 1000;

/**
 * An integer. Accepts integral numbers and numeric strings (`"12"`, `"12.0"`); refuses
 * fractions (`1.5`), booleans and anything else with "A valid integer is required.".
 *
 * @example
 * ```ts
 * const pages = new IntegerField({ minValue: 0, maxValue: 2147483647 });
 * ```
 */
export class IntegerField<const O extends IntegerFieldOptions = IntegerFieldOptions> extends Field<
  number,
  number,
  O
> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid: 'A valid integer is required.',
    max_value: 'Ensure this value is less than or equal to {max_value}.',
    min_value: 'Ensure this value is greater than or equal to {min_value}.',
    max_string_length: 'String value too large.',
  };
  static override metadataType = 'integer';

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
    if (typeof data === 'number') {
      if (!Number.isInteger(data)) this.fail('invalid');
      value = data;
    } else if (typeof data === 'string') {
      if (data.length > MAX_STRING_LENGTH) this.fail('max_string_length');
      const match = INTEGER_TEXT.exec(data);
      if (!match) this.fail('invalid');
      value = Number(match[1]);
    } else {
      return this.fail('invalid');
    }
    // Beyond 2^53 a number is no longer exact; give the range message when there is a range.
    if (!Number.isSafeInteger(value)) {
      if (value > 0 && this.maxValue !== undefined)
        this.fail('max_value', { max_value: this.maxValue });
      if (value < 0 && this.minValue !== undefined)
        this.fail('min_value', { min_value: this.minValue });
      this.fail('invalid');
    }
    return value === 0 ? 0 : value;
  }

  toRepresentation(value: unknown): number {
    return Number(value);
  }

  protected override valueSchema(_options: JsonSchemaOptions): JsonSchema {
    const schema: JsonSchema = { type: 'integer' };
    const { minValue, maxValue } = this;
    // DRF's rule: a bound outside 32 bits makes it a 64-bit integer.
    const wide =
      (maxValue !== undefined && maxValue > 2147483647) ||
      (minValue !== undefined && minValue < -2147483648);
    if (wide) schema.format = 'int64';
    if (minValue !== undefined) schema.minimum = minValue;
    if (maxValue !== undefined) schema.maximum = maxValue;
    return schema;
  }

  override describe(): FieldDescription {
    const description = super.describe();
    if (this.minValue !== undefined) description.min_value = this.minValue;
    if (this.maxValue !== undefined) description.max_value = this.maxValue;
    return description;
  }
}
