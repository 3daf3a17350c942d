/**
 * Text.
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
import {
  maxLengthValidator,
  minLengthValidator,
  prohibitNullCharacters,
  prohibitSurrogateCharacters,
} from './validators.ts';

/** Options of {@link CharField}. */
export interface CharFieldOptions extends FieldOptions<string> {
  /** Accepts `''` (default false). */
  readonly allowBlank?: boolean;
  /** Strips leading and trailing whitespace (default true). */
  readonly trimWhitespace?: boolean;
  /** The most Unicode code points accepted. */
  readonly maxLength?: number;
  /** The fewest Unicode code points accepted. */
  readonly minLength?: number;
}

/**
 * A string. Numbers are accepted and turned into text; lengths count code points, so an
 * emoji is one character; NUL characters and lone surrogates are refused.
 *
 * @example
 * ```ts
 * const title = new CharField({ maxLength: 100 });
 * ```
 */
export class CharField<const O extends CharFieldOptions = CharFieldOptions> extends Field<
  string,
  string,
  O
> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid: 'Not a valid string.',
    blank: 'This field may not be blank.',
    max_length: 'Ensure this field has no more than {max_length} characters.',
    min_length: 'Ensure this field has at least {min_length} characters.',
    null_characters_not_allowed: 'Null characters are not allowed.',
    surrogate_characters_not_allowed: 'Surrogate characters are not allowed: U+{code_point}.',
  };
  static override metadataType = 'string';

  /** Accepts `''` (`allowBlank` option, default false). */
  readonly allowBlank: boolean;
  /** Strips leading and trailing whitespace (`trimWhitespace` option, default true). */
  readonly trimWhitespace: boolean;
  /** The most Unicode code points accepted (`maxLength` option). */
  readonly maxLength: number | undefined;
  /** The fewest Unicode code points accepted (`minLength` option). */
  readonly minLength: number | undefined;

  constructor(options: O = {} as O) {
    super(options);
    this.allowBlank = options.allowBlank ?? false;
    this.trimWhitespace = options.trimWhitespace ?? true;
    this.maxLength = options.maxLength;
    this.minLength = options.minLength;
    if (this.maxLength !== undefined) this.validators.push(maxLengthValidator(this.maxLength));
    if (this.minLength !== undefined) this.validators.push(minLengthValidator(this.minLength));
    this.validators.push(prohibitNullCharacters, prohibitSurrogateCharacters);
  }

  override runValidation(data: unknown, ctx: RunContext): string | Promise<string> {
    if (data === '' || (this.trimWhitespace && typeof data === 'string' && data.trim() === '')) {
      if (!this.allowBlank) this.fail('blank');
      return '';
    }
    return super.runValidation(data, ctx);
  }

  toInternalValue(data: unknown, _ctx?: RunContext): string {
    if (typeof data === 'string') return this.trimWhitespace ? data.trim() : data;
    if (typeof data === 'number' && Number.isFinite(data)) return String(data);
    return this.fail('invalid');
  }

  toRepresentation(value: unknown): string {
    return typeof value === 'string' ? value : String(value);
  }

  protected override emptyFormValue(): unknown {
    return this.allowBlank ? '' : null;
  }

  protected override valueSchema(_options: JsonSchemaOptions): JsonSchema {
    const schema: JsonSchema = { type: 'string' };
    if (this.minLength !== undefined) schema.minLength = this.minLength;
    if (this.maxLength !== undefined) schema.maxLength = this.maxLength;
    return schema;
  }

  override describe(): FieldDescription {
    const description = super.describe();
    if (this.minLength !== undefined) description.min_length = this.minLength;
    if (this.maxLength !== undefined) description.max_length = this.maxLength;
    return description;
  }
}
