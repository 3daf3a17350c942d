/**
 * Several values out of a fixed list: DRF's `MultipleChoiceField`.
 * @module
 */

import type { Choice } from '../models/model-field.ts';
import { pythonTypeName } from '../utils/text.ts';
import { ChoiceField, type ChoiceFieldOptions } from './choice-field.ts';
import {
  checkFieldOptions,
  EMPTY,
  Field,
  type FieldDescription,
  type JsonSchema,
  type JsonSchemaOptions,
  type OnlyKnown,
  type RunContext,
} from './field.ts';
import { isFormInput } from './form-input.ts';
import { formList } from './list-field.ts';

/** Options of {@link MultipleChoiceField}. */
export interface MultipleChoiceFieldOptions extends ChoiceFieldOptions {
  /** Accepts an empty selection (default true). */
  readonly allowEmpty?: boolean;
}

/** The value of one choice of options `O`. */
type ChoiceValue<O extends ChoiceFieldOptions> = O['choices'][number] extends readonly [
  infer V,
  string,
]
  ? V
  : O['choices'][number];

/**
 * A list of values each one of `choices`, kept once each in the order first sent (DRF keeps a
 * set). Refuses what is not a list ("Expected a list of items but got type "str"."), a value
 * that is no choice (""x" is not a valid choice."), and, with `allowEmpty: false`, an empty
 * list ("This selection may not be empty.").
 *
 * @example
 * ```ts
 * const formats = new MultipleChoiceField({ choices: ['paperback', 'hardcover', 'ebook'] });
 * ```
 */
export class MultipleChoiceField<
  const O extends MultipleChoiceFieldOptions = MultipleChoiceFieldOptions,
> extends Field<ChoiceValue<O>[], ChoiceValue<O>[], O> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid_choice: '"{input}" is not a valid choice.',
    not_a_list: 'Expected a list of items but got type "{input_type}".',
    empty: 'This selection may not be empty.',
  };
  static override metadataType = 'multiple choice';
  static override defaultEmptyHtml: unknown = [];

  /** The `[value, displayName]` pairs, bare values made pairs. */
  readonly choices: readonly Choice[];
  /** Whether an empty selection is accepted. */
  readonly allowEmpty: boolean;
  /** Validates and renders one item, with this field's messages. */
  readonly #item: ChoiceField;

  constructor(options: O & OnlyKnown<O, MultipleChoiceFieldOptions>) {
    super(options);
    if (new.target === MultipleChoiceField)
      checkFieldOptions('MultipleChoiceField', options, ['choices', 'allowBlank', 'allowEmpty']);
    this.allowEmpty = options.allowEmpty ?? true;
    this.#item = new ChoiceField({
      choices: options.choices,
      errorMessages: { invalid_choice: this.errorMessages.invalid_choice as string },
    });
    this.choices = this.#item.choices;
  }

  override getValue(data: Readonly<Record<string, unknown>>, ctx: RunContext): unknown {
    if (!isFormInput(data)) return super.getValue(data, ctx);
    const value = formList(data, this.fieldName);
    if (value !== EMPTY || ctx.partial) return value;
    return (this.constructor as typeof MultipleChoiceField).defaultEmptyHtml;
  }

  toInternalValue(data: unknown, ctx?: RunContext): ChoiceValue<O>[] {
    if (!Array.isArray(data)) return this.fail('not_a_list', { input_type: pythonTypeName(data) });
    if (data.length === 0 && !this.allowEmpty) this.fail('empty');
    const chosen: unknown[] = [];
    for (const item of data) {
      const value = this.#item.toInternalValue(item, ctx);
      if (!chosen.includes(value)) chosen.push(value);
    }
    return chosen as ChoiceValue<O>[];
  }

  toRepresentation(value: unknown): ChoiceValue<O>[] {
    const items = Array.isArray(value) || value instanceof Set ? [...value] : [value];
    const rendered: unknown[] = [];
    for (const item of items) {
      const one = this.#item.toRepresentation(item);
      if (!rendered.includes(one)) rendered.push(one);
    }
    return rendered as ChoiceValue<O>[];
  }

  /** An array of the choices' `enum`, each value once. */
  protected override valueSchema(options: JsonSchemaOptions): JsonSchema {
    const { description, ...items } = this.#item.jsonSchema(options);
    const schema: JsonSchema = { type: 'array', items, uniqueItems: true };
    if (!this.allowEmpty) schema.minItems = 1;
    if (description !== undefined) schema.description = description;
    return schema;
  }

  override describe(): FieldDescription {
    const description = super.describe();
    if (!this.readOnly) description.choices = this.#item.describe().choices;
    return description;
  }
}
