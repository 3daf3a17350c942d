/**
 * Relations shown as the related row's string form: DRF's `StringRelatedField`.
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyModel } from '../models/model.ts';
import {
  checkFieldOptions,
  Field,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  type OnlyKnown,
} from './field.ts';
import {
  ManyRelatedField,
  type ManyRelatedFieldOptions,
  splitManyOptions,
} from './many-related-field.ts';

/** Options of {@link StringRelatedField}: every field's but `readOnly`, which it always is. */
export type StringRelatedFieldOptions = Omit<FieldOptions<never>, 'default' | 'validators'>;

/**
 * A relation as its related row's string form (the model's `str`, as Django's `__str__`;
 * `Tag object (3)` when the model declares none). Read-only.
 *
 * @example
 * ```ts
 * const author = new StringRelatedField();
 * const tags = StringRelatedField.many();
 * ```
 */
export class StringRelatedField<
  const O extends StringRelatedFieldOptions = StringRelatedFieldOptions,
> extends Field<never, string, O> {
  /** Type-level only: read-only whatever the options say (for the inferred serializer types). */
  declare readonly alwaysReadOnly: true;
  /** The model of the related rows, once bound to a relation of a model. */
  #related: AnyModel | undefined;

  constructor(options: O & OnlyKnown<O, StringRelatedFieldOptions> = {} as never) {
    if (new.target === StringRelatedField) checkFieldOptions('StringRelatedField', options, []);
    super({ ...options, readOnly: true } as O);
  }

  /**
   * A list of related rows as their string forms (DRF's `many=True`), read from the rows
   * prefetched for the record.
   *
   * @example
   * ```ts
   * const tags = StringRelatedField.many({ label: 'Tags' });
   * ```
   */
  static many<const O extends StringRelatedFieldOptions & ManyRelatedFieldOptions>(
    options: O & OnlyKnown<O, StringRelatedFieldOptions & ManyRelatedFieldOptions> = {} as never,
  ): ManyRelatedField<
    StringRelatedField,
    O & {
      /** Always: a string cannot be written back. */
      readonly readOnly: true;
    }
  > {
    checkFieldOptions('StringRelatedField.many', options, ['allowEmpty', 'maxLength']);
    const { list, child } = splitManyOptions({ ...options, readOnly: true });
    return new ManyRelatedField(new StringRelatedField(child as never), list as never);
  }

  override bind(fieldName: string, parentName: string, model: AnyModel | null): void {
    super.bind(fieldName, parentName, model);
    if (model !== null && this.#related === undefined)
      this.#related = endModel(model, this.sourceAttrs);
  }

  /** The model of the related rows (a many relation's field tells its child). */
  bindRelated(model: AnyModel): void {
    this.#related = model;
  }

  toInternalValue(): never {
    // Read-only: never asked to validate.
    throw new Error('StringRelatedField is read-only.');
  }

  toRepresentation(value: unknown): string {
    if (value === null || typeof value !== 'object') return String(value);
    if (this.#related !== undefined) return this.#related.str(value as Record<string, unknown>);
    const own = (value as { toString?: unknown }).toString;
    if (typeof own === 'function' && own !== Object.prototype.toString) return String(value);
    throw new ImproperlyConfigured(
      'REST_ERR_FIELD_SOURCE',
      `StringRelatedField '${this.fieldName}' renders a row whose model it does not know: declare it ` +
        "on a model serializer, over a relation of the serializer's model.",
    );
  }

  protected override valueSchema(_options: JsonSchemaOptions): JsonSchema {
    return { type: 'string' };
  }
}

/** The model a source path ends on, when it crosses relations of `model` to a related row. */
function endModel(model: AnyModel, path: readonly string[]): AnyModel | undefined {
  let current: AnyModel = model;
  for (const name of path) {
    const field = current.getField(name);
    if (!field?.isRelation) return undefined;
    current = field.relatedModel;
  }
  return current;
}
