/**
 * E-mail addresses.
 * @module
 */
import validator from 'validator';
import { CharField, type CharFieldOptions } from './char-field.ts';
import type { JsonSchema, JsonSchemaOptions, Validator } from './field.ts';

// A validator, not a check in toInternalValue: DRF appends Django's EmailValidator after the
// length validators, so a long invalid address reports both messages.
const isEmailAddress: Validator<string> = (value, _ctx, field) => {
  if (!validator.isEmail(value)) field.fail('invalid');
};

/**
 * An e-mail address, checked by the `validator` package's `isEmail`.
 *
 * @example
 * ```ts
 * const email = new EmailField({ maxLength: 254 });
 * ```
 */
export class EmailField<const O extends CharFieldOptions = CharFieldOptions> extends CharField<O> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid: 'Enter a valid email address.',
  };
  static override metadataType = 'email';

  constructor(options: O = {} as O) {
    super(options);
    this.validators.push(isEmailAddress);
  }

  protected override valueSchema(options: JsonSchemaOptions): JsonSchema {
    return { ...super.valueSchema(options), format: 'email' };
  }
}
