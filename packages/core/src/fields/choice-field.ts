/**
 * One value out of a fixed list.
 * @module
 */
import type { Choice } from '../models/model-field.ts';
import {
  Field,
  type FieldDescription,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  type RunContext,
} from './field.ts';

/** The input as DRF's message shows it: Python's `str()`, so `True` rather than `true`. */
function inputText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (typeof data === 'boolean') return data ? 'True' : 'False';
  if (typeof data === 'number') return String(data);
  return JSON.stringify(data);
}

/** Options of {@link ChoiceField}. */
export interface ChoiceFieldOptions extends FieldOptions<string | number> {
  /** `[value, displayName]` pairs, or bare values (shown as themselves). */
  readonly choices: readonly (Choice | string | number)[];
  /** Accepts `''` as a value (default false). */
  readonly allowBlank?: boolean;
}

/**
 * One of `choices`. `"1"` and `1` both select the choice `1`, as in DRF.
 *
 * @example
 * ```ts
 * const state = new ChoiceField({ choices: [['published', 'Published'], ['draft', 'Draft']] });
 * ```
 */
export class ChoiceField<const O extends ChoiceFieldOptions = ChoiceFieldOptions> extends Field<
  O['choices'][number] extends readonly [infer V, string] ? V : O['choices'][number],
  O['choices'][number] extends readonly [infer V, string] ? V : O['choices'][number],
  O
> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid_choice: '"{input}" is not a valid choice.',
  };
  static override metadataType = 'choice';

  /** The `[value, displayName]` pairs, bare values made pairs. */
  readonly choices: readonly Choice[];
  /** Whether `''` is accepted. */
  readonly allowBlank: boolean;
  readonly #byText: Map<string, string | number>;
  // Every value a string: a string is its own representation, with no lookup.
  readonly #stringValues: boolean;

  constructor(options: O) {
    super(options);
    this.choices = options.choices.map((c) =>
      Array.isArray(c) ? (c as Choice) : ([c, String(c)] as Choice),
    );
    this.allowBlank = options.allowBlank ?? false;
    this.#byText = new Map(this.choices.map(([value]) => [String(value), value]));
    this.#stringValues = this.choices.every(([value]) => typeof value === 'string');
  }

  toInternalValue(data: unknown, _ctx?: RunContext): any {
    if (data === '' && this.allowBlank) return '';
    if (typeof data === 'string' || (typeof data === 'number' && Number.isFinite(data))) {
      const value = this.#byText.get(String(data));
      if (value !== undefined) return value;
    }
    return this.fail('invalid_choice', { input: inputText(data) });
  }

  toRepresentation(value: unknown): any {
    if (typeof value === 'string') {
      if (this.#stringValues || (value === '' && this.allowBlank)) return value;
      return this.#byText.get(value) ?? value;
    }
    return this.#byText.get(String(value)) ?? value;
  }

  /** `enum` of the values (with `''` when blank is allowed); display names in `description`. */
  protected override valueSchema(_options: JsonSchemaOptions): JsonSchema {
    const values: (string | number)[] = this.choices.map(([value]) => value);
    if (this.allowBlank && !values.includes('')) values.push('');
    const types = [...new Set(values.map((v) => (typeof v === 'number' ? 'integer' : 'string')))];
    const schema: JsonSchema = { type: types.length === 1 ? types[0] : types, enum: values };
    if (this.choices.some(([value, name]) => String(value) !== name)) {
      schema.description = this.choices
        .map(([value, name]) => `* \`${value}\` - ${name}`)
        .join('\n');
    }
    return schema;
  }

  override describe(): FieldDescription {
    const description = super.describe();
    if (!this.readOnly) {
      description.choices = this.choices.map(([value, displayName]) => ({
        value,
        display_name: displayName,
      }));
    }
    return description;
  }
}
