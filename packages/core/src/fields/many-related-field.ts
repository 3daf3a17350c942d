/**
 * A relation to many rows: DRF's `ManyRelatedField`, what `PrimaryKeyRelatedField.many()`,
 * `SlugRelatedField.many()` and `StringRelatedField.many()` make.
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyModel } from '../models/model.ts';
import { labelFromName, pythonTypeName } from '../utils/text.ts';
import { isManyRelation, prefetchedRows } from './attribute-getter.ts';
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
} from './field.ts';
import { isFormInput } from './form-input.ts';
import { formList } from './list-field.ts';
import { hasRelatedChoices, type RelatedChoice } from './related-choices.ts';

/** The most items a many relation accepts unless told otherwise: a bound on the IN query. */
export const DEFAULT_MANY_MAX_LENGTH = 1000;

/** A relation field that can look up many items in one query (see {@link ManyRelatedField}). */
export interface ResolvesMany {
  /** The related rows of `items`, in their order; fails as one item would, at the first bad one. */
  resolveMany(items: readonly unknown[], ctx: RunContext): Promise<unknown[]>;
}

/**
 * A relation field that renders with the related model (`StringRelatedField`): a many
 * relation's field tells it, since its items are bound without a model.
 */
export interface KnowsRelatedModel {
  bindRelated(model: AnyModel): void;
}

/** The model of the rows of the many relation `name` of `model`. */
function manyRelationModel(model: AnyModel, name: string): AnyModel {
  const plan = model.relationPlan(name);
  if (plan === undefined) return model;
  if (plan.kind !== 'many_to_many') return plan.field.model;
  return plan.reverse ? plan.relation.model : plan.relation.relatedModel;
}

/** Options of {@link ManyRelatedField} (and of the `many()` of relation fields). */
export interface ManyRelatedFieldOptions extends FieldOptions<unknown[]> {
  /** Accepts `[]` (default true). */
  readonly allowEmpty?: boolean;
  /** The most items accepted (default {@link DEFAULT_MANY_MAX_LENGTH}): more is a 400. */
  readonly maxLength?: number;
}

/** The options of the list, which the child relation does not take. */
const LIST_KEYS = new Set([
  'allowEmpty',
  'maxLength',
  'required',
  'default',
  'allowNull',
  'source',
  'label',
  'helpText',
  'writeOnly',
  'errorMessages',
  'validators',
  'style',
]);

/**
 * Splits the options of a relation field's `many()` into the list's and the child's (DRF's
 * `MANY_RELATION_KWARGS`): `queryset`, `slugField` and the like go to the child; `readOnly` to
 * both.
 */
export function splitManyOptions(options: Readonly<Record<string, unknown>>): {
  list: Record<string, unknown>;
  child: Record<string, unknown>;
} {
  const list: Record<string, unknown> = {};
  const child: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (key === 'readOnly') {
      list[key] = value;
      child[key] = value;
    } else if (LIST_KEYS.has(key)) list[key] = value;
    else child[key] = value;
  }
  return { list, child };
}

/** What a client sends for one item of relation `C`. */
type ItemInput<C> = C extends { readonly wireInput: infer W }
  ? W
  : C extends { readonly valueType: infer V }
    ? V
    : unknown;

/**
 * A list of related rows, each through the relation field `child`: a many-to-many, a reverse
 * relation (`relatedName`), or any list of rows. Reading it uses the rows `prefetchRelated`
 * loaded for the record (no query per record); a model serializer that writes or reads it
 * after a save loads them itself. Validating it refuses what is not a list ("Expected a list of
 * items but got type "str"."), an empty list with `allowEmpty: false`, a list longer than
 * `maxLength` (1000 by default) and, with the child's message, the first item that is wrong;
 * items are looked up in one query when the child can (`PrimaryKeyRelatedField`,
 * `SlugRelatedField`).
 *
 * @example
 * ```ts
 * const books = PrimaryKeyRelatedField.many({ queryset: Book.objects.all(), required: false });
 * ```
 */
export class ManyRelatedField<
  C extends AnyField = AnyField,
  const O extends ManyRelatedFieldOptions = ManyRelatedFieldOptions,
> extends Field<C['valueType'][], C['representationType'][], O> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    not_a_list: 'Expected a list of items but got type "{input_type}".',
    empty: 'This list may not be empty.',
    max_length: 'Ensure this field has no more than {max_length} elements.',
  };
  static override defaultEmptyHtml: unknown = [];

  /** Type-level only: what a client sends. */
  declare readonly wireInput: ItemInput<C>[];

  /** The related field every item is validated and rendered with. */
  readonly child: C;
  /** Whether `[]` is accepted. */
  readonly allowEmpty: boolean;
  /** The most items accepted. */
  readonly maxLength: number;

  constructor(child: C, options: O & OnlyKnown<O, ManyRelatedFieldOptions> = {} as never) {
    super(options);
    if (new.target === ManyRelatedField)
      checkFieldOptions('ManyRelatedField', options, ['allowEmpty', 'maxLength']);
    this.child = child;
    this.allowEmpty = options.allowEmpty ?? true;
    this.maxLength = options.maxLength ?? DEFAULT_MANY_MAX_LENGTH;
    this.child.bind('', this.constructor.name, null);
  }

  override clone(): this {
    const Ctor = this.constructor as new (child: C, options: O) => this;
    return new Ctor(this.child.clone() as C, this.options);
  }

  /**
   * Names the field and compiles how it is read: with a model, `source` must be one of its
   * many-to-manys or reverse relations, read from the rows prefetched for the record; without
   * one, the record's own list.
   */
  override bind(fieldName: string, parentName: string, model: AnyModel | null): void {
    if (this.options.source !== undefined && this.options.source === fieldName) {
      super.bind(fieldName, parentName, model);
      return;
    }
    this.fieldName = fieldName;
    this.label = this.options.label ?? labelFromName(fieldName);
    const source = this.source;
    this.sourceAttrs = source.split('.');
    this.relatedPath = undefined;
    this.prefetchPath = undefined;
    this.attributeKey = undefined;
    const where = `${parentName}.${fieldName}`;
    if (model === null || this.writeOnly) {
      this.getAttribute = (row) => (row == null ? null : (row as Record<string, unknown>)[source]);
      return;
    }
    if (this.sourceAttrs.length !== 1 || !isManyRelation(model, source)) {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_SOURCE',
        `${where}: the source "${source}" is no many-to-many or reverse relation of ${model.name}. ` +
          `Many-to-manys: ${Object.keys(model.manyToMany).join(', ') || 'none'}.`,
      );
    }
    const read = prefetchedRows(source, model.name, [], where);
    this.prefetchPath = source;
    const child = this.child as unknown as Partial<KnowsRelatedModel>;
    if (typeof child.bindRelated === 'function')
      child.bindRelated(manyRelationModel(model, source));
    this.getAttribute = (row) => (row == null ? null : read(row));
  }

  /** The name of the many relation of the model this field reads and writes, if bound to one. */
  get relationName(): string | undefined {
    return this.sourceAttrs.length === 1 ? this.sourceAttrs[0] : undefined;
  }

  override getValue(data: Readonly<Record<string, unknown>>, ctx: RunContext): unknown {
    if (!isFormInput(data)) return super.getValue(data, ctx);
    const value = formList(data, this.fieldName);
    if (value !== EMPTY || ctx.partial) return value;
    return (this.constructor as typeof ManyRelatedField).defaultEmptyHtml;
  }

  /**
   * The rows the child relation accepts, as choices of a form's `<select multiple>`, at most
   * `cutoff` (DRF's `ManyRelatedField.get_choices`); none when the child lists no rows
   * (`StringRelatedField`, a read-only relation).
   *
   * @example
   * ```ts
   * const authors = PrimaryKeyRelatedField.many({ queryset: Author.objects.all() });
   * const choices = await authors.getChoices(1000);
   * ```
   */
  getChoices(cutoff?: number, ctx?: RunContext): Promise<RelatedChoice[]> {
    const child = this.child as unknown;
    return hasRelatedChoices(child) ? child.getChoices(cutoff, ctx) : Promise.resolve([]);
  }

  async toInternalValue(data: unknown, ctx: RunContext): Promise<C['valueType'][]> {
    if (!Array.isArray(data)) return this.fail('not_a_list', { input_type: pythonTypeName(data) });
    if (data.length === 0 && !this.allowEmpty) this.fail('empty');
    if (data.length > this.maxLength) this.fail('max_length', { max_length: this.maxLength });
    const child = this.child as unknown as Partial<ResolvesMany>;
    if (typeof child.resolveMany === 'function') return child.resolveMany(data, ctx);
    const values: unknown[] = [];
    for (const item of data) values.push(await this.child.runValidation(item, ctx));
    return values;
  }

  toRepresentation(value: unknown, ctx: RunContext): C['representationType'][] {
    const items = value as Iterable<unknown>;
    const out: unknown[] = [];
    for (const item of items) out.push(this.child.toRepresentation(item, ctx));
    return out;
  }

  protected override valueSchema(options: JsonSchemaOptions): JsonSchema {
    const schema: JsonSchema = {
      type: 'array',
      items: this.child.jsonSchema(options),
      maxItems: this.maxLength,
    };
    if (!this.allowEmpty) schema.minItems = 1;
    return schema;
  }

  override describe(): FieldDescription {
    const description = super.describe();
    description.child = this.child.describe();
    description.max_length = this.maxLength;
    return description;
  }
}
