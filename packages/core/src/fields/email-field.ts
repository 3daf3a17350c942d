/**
 * E-mail addresses.
 * @module
 */
import { CharField, type CharFieldOptions } from './char-field.ts';
import { isEmailAddress } from './email-address.ts';
import type { JsonSchema, JsonSchemaOptions, Validator } from './field.ts';

// A validator, not a check in toInternalValue: DRF appends Django's EmailValidator after the
// length validators, so a long invalid address reports both messages.
const emailAddress: Validator<string> = (value, _ctx, field) => {
  if (!isEmailAddress(value)) field.fail('invalid');
};

/**
 * An e-mail address, checked as Django's `EmailValidator` checks it (see
 * `isEmailAddress`): an ASCII local part (a dot-atom or a quoted string) and a domain that
 * is a host name (an IDN, or its punycode), an IP address in brackets, or `localhost`.
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
    this.validators.push(emailAddress);
  }

  protected override valueSchema(options: JsonSchemaOptions): JsonSchema {
    return { ...super.valueSchema(options), format: 'email' };
  }
}
