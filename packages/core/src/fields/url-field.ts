/**
 * URLs.
 * @module
 */
import validator from 'validator';
import { blankOr, CharField, type CharFieldOptions } from './char-field.ts';
import type { JsonSchema, JsonSchemaOptions, Validator } from './field.ts';

const PROTOCOLS = ['http', 'https', 'ftp', 'ftps'];
const STRICT = { protocols: PROTOCOLS, require_protocol: true, require_valid_protocol: true };
const LOCALHOST = { ...STRICT, require_tld: false, host_whitelist: ['localhost'] };

// A validator, not a check in toInternalValue: DRF appends Django's URLValidator after the
// length validators, so a long invalid URL reports both messages.
const isUrl: Validator<string> = (value, _ctx, field) => {
  if (!validator.isURL(value, STRICT) && !validator.isURL(value, LOCALHOST)) field.fail('invalid');
};

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

  constructor(options: O = {} as O) {
    super(options);
    this.validators.push(isUrl);
  }

  /**
   * `format: iri`: the field accepts internationalised addresses (`https://例え.jp/パス`), as
   * Django's URLValidator does. A blank value (allowed, or a stored blank a response shows)
   * is no IRI, so then the schema accepts `''` too.
   */
  protected override valueSchema(options: JsonSchemaOptions): JsonSchema {
    return blankOr({ ...super.valueSchema(options), format: 'iri' }, this, options);
  }
}
