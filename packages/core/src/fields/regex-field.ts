/**
 * Text that matches a pattern: DRF's `RegexField`.
 * @module
 */
import { CharField, type CharFieldOptions } from './char-field.ts';
import {
  checkFieldOptions,
  type FieldDescription,
  type JsonSchema,
  type JsonSchemaOptions,
  type OnlyKnown,
} from './field.ts';

/** Options of {@link RegexField}. */
export interface RegexFieldOptions extends CharFieldOptions {
  /** The pattern the text must contain a match of (Django's `RegexValidator` searches). */
  readonly regex: string | RegExp;
}

/**
 * A string in which `regex` finds a match (anchor it with `^…$` to match the whole text), as
 * Django's `RegexValidator`; else "This value does not match the required pattern.". The other
 * checks are `CharField`'s, and all run (every message is reported).
 *
 * @example
 * ```ts
 * const isbn = new RegexField({ regex: /^97[89]\d{10}$/, maxLength: 13 });
 * ```
 */
export class RegexField<
  const O extends RegexFieldOptions = RegexFieldOptions,
> extends CharField<O> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid: 'This value does not match the required pattern.',
  };

  /** The pattern, without the `g` and `y` flags (whose `lastIndex` would make a test stateful). */
  readonly regex: RegExp;

  constructor(options: O & OnlyKnown<O, RegexFieldOptions>) {
    super(options);
    if (new.target === RegexField)
      checkFieldOptions('RegexField', options, [
        'regex',
        'allowBlank',
        'trimWhitespace',
        'maxLength',
        'minLength',
      ]);
    const given = options.regex;
    this.regex =
      typeof given === 'string'
        ? new RegExp(given)
        : new RegExp(given.source, given.flags.replace(/[gy]/g, ''));
    const regex = this.regex;
    this.validators.push((value: string, _ctx, field) => {
      if (!regex.test(value)) field.fail('invalid');
    });
  }

  protected override valueSchema(options: JsonSchemaOptions): JsonSchema {
    return { ...super.valueSchema(options), pattern: this.regex.source };
  }

  override describe(): FieldDescription {
    return { ...super.describe(), pattern: this.regex.source };
  }
}
