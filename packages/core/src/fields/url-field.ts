/**
 * URLs.
 * @module
 */
import validator from 'validator';
import { CharField, type CharFieldOptions } from './char-field.ts';
import type { RunContext } from './field.ts';

const PROTOCOLS = ['http', 'https', 'ftp', 'ftps'];
const STRICT = { protocols: PROTOCOLS, require_protocol: true, require_valid_protocol: true };
const LOCALHOST = { ...STRICT, require_tld: false, host_whitelist: ['localhost'] };

/**
 * An absolute http(s) or ftp(s) URL, checked by the `validator` package's `isURL` (a domain
 * with a top-level domain, an IP address, or `localhost`).
 *
 * @example
 * ```ts
 * const website = new URLField({ maxLength: 200, allowBlank: true });
 * ```
 */
export class URLField<const O extends CharFieldOptions = CharFieldOptions> extends CharField<O> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid: 'Enter a valid URL.',
  };
  static override metadataType = 'url';

  override toInternalValue(data: unknown, ctx?: RunContext): string {
    const value = super.toInternalValue(data, ctx);
    if (!validator.isURL(value, STRICT) && !validator.isURL(value, LOCALHOST)) this.fail('invalid');
    return value;
  }
}
