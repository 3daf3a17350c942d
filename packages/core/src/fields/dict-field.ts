/**
 * An object whose every value is one field's: DRF's `DictField`.
 * @module
 */
import { pythonTypeName } from '../utils/text.ts';
import {
  type AnyField,
  checkFieldOptions,
  Field,
  type FieldDescription,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  type OnlyKnown,
  type RunContext,
} from './field.ts';
import { formInputUnder, isFormInput } from './form-input.ts';
import { validateItems } from './list-field.ts';
import { UnvalidatedField } from './unvalidated-field.ts';

/** What a client sends for one value of field `C`. */
type ValueInput<C> = C extends { readonly wireInput: infer W }
  ? W
  : C extends { readonly valueType: infer V }
    ? V
    : unknown;

/** The child field options `O` declare (any value without one). */
type ChildOf<O> = O extends { readonly child: infer C } ? C : UnvalidatedField;
/** What the child of options `O` validates to. */
type ChildValue<O> = ChildOf<O> extends { readonly valueType: infer V } ? V : unknown;
/** What the child of options `O` renders. */
type ChildRepr<O> = ChildOf<O> extends { readonly representationType: infer R } ? R : unknown;

/** Options of {@link DictField}. */
export interface DictFieldOptions extends FieldOptions<Record<string, unknown>> {
  /** The field of each value (default: any value, unvalidated). */
  readonly child?: AnyField;
  /** Accepts `{}` (default true). */
  readonly allowEmpty?: boolean;
}

/** True for a plain object (not a list, not null). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An object with any keys whose every value `child` validates and renders. Refuses what is not
 * an object with "Expected a dictionary of items but got type "list".", an empty object with
 * `allowEmpty: false`; a value's errors are reported under its key. Keys such as `__proto__`
 * stay plain keys of the result.
 *
 * @example
 * ```ts
 * const limits = new DictField({ child: new IntegerField({ minValue: 0 }) });
 * ```
 */
export class DictField<const O extends DictFieldOptions = DictFieldOptions> extends Field<
  Record<string, ChildValue<O>>,
  Record<string, ChildRepr<O>>,
  O
> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    not_a_dict: 'Expected a dictionary of items but got type "{input_type}".',
    empty: 'This dictionary may not be empty.',
  };
  static override metadataType = 'dict';

  /** Type-level only: what a client sends. */
  declare readonly wireInput: Record<string, ValueInput<ChildOf<O>>>;

  /** The field every value is validated and rendered with. */
  readonly child: AnyField;
  /** Whether `{}` is accepted. */
  readonly allowEmpty: boolean;

  constructor(options: O & OnlyKnown<O, DictFieldOptions> = {} as never) {
    super(options);
    if (new.target === DictField) checkFieldOptions('DictField', options, ['child', 'allowEmpty']);
    this.child = options.child ?? new UnvalidatedField();
    this.allowEmpty = options.allowEmpty ?? true;
    this.child.bind('', this.constructor.name, null);
  }

  override clone(): this {
    const Ctor = this.constructor as new (options: O) => this;
    return new Ctor({ ...this.options, child: this.child.clone() } as O);
  }

  // A form sends `name.key=value` pairs (DRF's `parse_html_dict`).
  override getValue(data: Readonly<Record<string, unknown>>, ctx: RunContext): unknown {
    if (!isFormInput(data)) return super.getValue(data, ctx);
    return (
      formInputUnder(data as Record<string, unknown>, this.fieldName) ?? super.getValue(data, ctx)
    );
  }

  toInternalValue(
    data: unknown,
    ctx: RunContext,
  ): Record<string, ChildValue<O>> | Promise<Record<string, ChildValue<O>>> {
    if (!isPlainObject(data)) return this.fail('not_a_dict', { input_type: pythonTypeName(data) });
    const entries = Object.entries(data);
    if (entries.length === 0 && !this.allowEmpty) this.fail('empty');
    return validateItems(
      this.child,
      entries,
      ctx,
      (validated) => Object.fromEntries(validated) as Record<string, ChildValue<O>>,
    );
  }

  toRepresentation(value: unknown, ctx: RunContext): Record<string, ChildRepr<O>> {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [
        key,
        item === null || item === undefined ? null : this.child.toRepresentation(item, ctx),
      ]),
    );
  }

  protected override valueSchema(options: JsonSchemaOptions): JsonSchema {
    const schema: JsonSchema = {
      type: 'object',
      additionalProperties: this.child.jsonSchema(options),
    };
    if (!this.allowEmpty) schema.minProperties = 1;
    return schema;
  }

  override describe(): FieldDescription {
    const description = super.describe();
    description.child = this.child.describe();
    return description;
  }
}
