/**
 * E-mail addresses.
 * @module
 */
import validator from 'validator';
import { CharField, type CharFieldOptions } from './char-field.ts';
import type { RunContext } from './field.ts';

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

  override toInternalValue(data: unknown, ctx?: RunContext): string {
    const value = super.toInternalValue(data, ctx);
    if (!validator.isEmail(value)) this.fail('invalid');
    return value;
  }
}
