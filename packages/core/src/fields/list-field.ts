/**
 * A list of values of one field: DRF's `ListField`.
 * @module
 */
import { type ErrorTree, ValidationError } from '../errors/api-exception.ts';
import { allMaybe, catchMaybe, thenMaybe } from '../utils/maybe-promise.ts';
import { pythonTypeName } from '../utils/text.ts';
import {
  type AnyField,
  checkFieldOptions,
  EMPTY,
  Field,
  type FieldDescription,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  type OnlyKnown,
  type RunContext,
  SKIPPED,
} from './field.ts';
import { formInputList, isFormInput } from './form-input.ts';
import { UnvalidatedField } from './unvalidated-field.ts';

/** What a client sends for one item of field `C`. */
type ItemInput<C> = C extends { readonly wireInput: infer W }
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

/** Options of {@link ListField}. */
export interface ListFieldOptions extends FieldOptions<unknown[]> {
  /** The field of each item (default: any value, unvalidated). */
  readonly child?: AnyField;
  /** Accepts `[]` (default true). */
  readonly allowEmpty?: boolean;
  /** The fewest items accepted. */
  readonly minLength?: number;
  /** The most items accepted. */
  readonly maxLength?: number;
}

/**
 * Every value of a form's `name` key, in the order sent (`tags=1&tags=2`: DRF's `getlist`),
 * else the values of its `name[0]`, `name[1]`, ... keys in index order (DRF's
 * `parse_html_list`); {@link EMPTY} when neither was sent.
 */
export function formList(data: Readonly<Record<string, unknown>>, name: string): unknown {
  if (Object.hasOwn(data, name)) return formInputList(data, name);
  const prefix = `${name}[`;
  const indexed: [number, unknown][] = [];
  for (const key of Object.keys(data)) {
    if (!key.startsWith(prefix) || !key.endsWith(']')) continue;
    const index = key.slice(prefix.length, -1);
    if (/^\d{1,6}$/.test(index)) indexed.push([Number(index), data[key]]);
  }
  if (indexed.length === 0) return EMPTY;
  return indexed.sort((a, b) => a[0] - b[0]).map(([, value]) => value);
}

/**
 * A list whose every item `child` validates and renders. Refuses what is not a list (a string
 * or an object too) with "Expected a list of items but got type "str".", an empty list
 * with `allowEmpty: false`, and lists outside `minLength`/`maxLength`; an item's errors are
 * reported under its index (`{"1": ["A valid integer is required."]}`), as DRF does.
 *
 * @example
 * ```ts
 * const scores = new ListField({ child: new IntegerField({ minValue: 0 }), maxLength: 10 });
 * ```
 */
export class ListField<const O extends ListFieldOptions = ListFieldOptions> extends Field<
  ChildValue<O>[],
  ChildRepr<O>[],
  O
> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    not_a_list: 'Expected a list of items but got type "{input_type}".',
    empty: 'This list may not be empty.',
    min_length: 'Ensure this field has at least {min_length} elements.',
    max_length: 'Ensure this field has no more than {max_length} elements.',
  };
  static override metadataType = 'list';
  static override defaultEmptyHtml: unknown = [];

  /** Type-level only: what a client sends. */
  declare readonly wireInput: ItemInput<ChildOf<O>>[];

  /** The field every item is validated and rendered with. */
  readonly child: AnyField;
  /** Whether `[]` is accepted. */
  readonly allowEmpty: boolean;
  /** The fewest items accepted. */
  readonly minLength: number | undefined;
  /** The most items accepted. */
  readonly maxLength: number | undefined;

  constructor(options: O & OnlyKnown<O, ListFieldOptions> = {} as never) {
    super(options);
    if (new.target === ListField)
      checkFieldOptions('ListField', options, ['child', 'allowEmpty', 'minLength', 'maxLength']);
    this.child = options.child ?? new UnvalidatedField();
    this.allowEmpty = options.allowEmpty ?? true;
    this.minLength = options.minLength;
    this.maxLength = options.maxLength;
    this.child.bind('', this.constructor.name, null);
  }

  override clone(): this {
    const Ctor = this.constructor as new (options: O) => this;
    return new Ctor({ ...this.options, child: this.child.clone() } as O);
  }

  override getValue(data: Readonly<Record<string, unknown>>, ctx: RunContext): unknown {
    if (!isFormInput(data)) return super.getValue(data, ctx);
    const value = formList(data, this.fieldName);
    if (value !== EMPTY || ctx.partial) return value;
    return (this.constructor as typeof ListField).defaultEmptyHtml;
  }

  toInternalValue(data: unknown, ctx: RunContext): ChildValue<O>[] | Promise<ChildValue<O>[]> {
    if (!Array.isArray(data)) return this.fail('not_a_list', { input_type: pythonTypeName(data) });
    if (data.length === 0 && !this.allowEmpty) this.fail('empty');
    if (this.maxLength !== undefined && data.length > this.maxLength)
      this.fail('max_length', { max_length: this.maxLength });
    if (this.minLength !== undefined && data.length < this.minLength)
      this.fail('min_length', { min_length: this.minLength });
    return validateItems(this.child, data.entries(), ctx, (entries) =>
      entries.map(([, value]) => value as ChildValue<O>),
    );
  }

  toRepresentation(value: unknown, ctx: RunContext): ChildRepr<O>[] {
    const items = value as readonly unknown[];
    return items.map((item) =>
      item === null || item === undefined ? null : this.child.toRepresentation(item, ctx),
    );
  }

  protected override valueSchema(options: JsonSchemaOptions): JsonSchema {
    const schema: JsonSchema = { type: 'array', items: this.child.jsonSchema(options) };
    const min = Math.max(this.allowEmpty ? 0 : 1, this.minLength ?? 0);
    if (min > 0) schema.minItems = min;
    if (this.maxLength !== undefined) schema.maxItems = this.maxLength;
    return schema;
  }

  override describe(): FieldDescription {
    const description = super.describe();
    description.child = this.child.describe();
    if (this.minLength !== undefined) description.min_length = this.minLength;
    if (this.maxLength !== undefined) description.max_length = this.maxLength;
    return description;
  }
}

/**
 * Validates each `[key, item]` of `entries` with `child`, all of them (a failed item does not
 * stop the others), and gives `finish` the validated pairs; the errors of the failed items are
 * thrown together, under their keys (DRF's `run_child_validation`). At once when no item
 * waited.
 */
export function validateItems<K extends string | number, R>(
  child: AnyField,
  entries: Iterable<[K, unknown]>,
  ctx: RunContext,
  finish: (validated: [K, unknown][]) => R,
): R | Promise<R> {
  const pairs = [...entries];
  const validated: [K, unknown][] = new Array(pairs.length);
  let errors: Record<string, ErrorTree> | undefined;
  const done = allMaybe(
    pairs.map((pair, index) => [pair, index] as const),
    ([[key, item], index]) =>
      catchMaybe(
        () =>
          thenMaybe(child.runValidation(item, ctx), (value) => {
            validated[index] = [key, value === SKIPPED ? null : value];
          }),
        (error) => {
          if (!(error instanceof ValidationError)) throw error;
          (errors ??= {})[String(key)] = error.detail;
        },
      ),
  );
  return thenMaybe(done, () => {
    if (errors) throw new ValidationError(errors);
    return finish(validated);
  });
}
