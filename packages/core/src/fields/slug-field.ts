/**
 * Slugs.
 * @module
 */
import { CharField, type CharFieldOptions } from './char-field.ts';
import type { JsonSchema, JsonSchemaOptions, Validator } from './field.ts';

const SLUG = /^[-a-zA-Z0-9_]+$/;

// A validator after the length ones, as DRF's RegexValidator, so both messages are reported.
const slugText: Validator<string> = (value, _ctx, field) => {
  if (!SLUG.test(value)) field.fail('invalid');
};

/**
 * A slug: ASCII letters, digits, underscores and hyphens.
 *
 * @example
 * ```ts
 * const slug = new SlugField({ maxLength: 50 });
 * ```
 */
export class SlugField<const O extends CharFieldOptions = CharFieldOptions> extends CharField<O> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid: 'Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.',
  };
  static override metadataType = 'slug';

  constructor(options: O = {} as O) {
    super(options);
    this.validators.push(slugText);
  }

  protected override valueSchema(options: JsonSchemaOptions): JsonSchema {
    return { ...super.valueSchema(options), pattern: SLUG.source };
  }
}
