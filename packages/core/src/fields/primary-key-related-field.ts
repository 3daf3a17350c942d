/**
 * Relations written and shown as the related row's primary key.
 * @module
 */
import { DoesNotExist, InvalidLookupValueError } from '../db/database-errors.ts';
import type { QuerySet } from '../db/query-set.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { PrimaryKey } from '../models/model.ts';
import type { AnyModelField, ModelFieldKind } from '../models/model-field.ts';
import { pythonTypeName } from '../utils/text.ts';
import {
  checkFieldOptions,
  Field,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  type OnlyKnown,
  type RunContext,
} from './field.ts';
import {
  ManyRelatedField,
  type ManyRelatedFieldOptions,
  splitManyOptions,
} from './many-related-field.ts';
import { type RelatedChoice, relatedChoices } from './related-choices.ts';

const INTEGER_KINDS = new Set<ModelFieldKind>([
  'auto',
  'integer',
  'positive_integer',
  'big_integer',
  'small_integer',
  'positive_small_integer',
]);

/** The field that holds a key's values: a relation used as primary key holds its target's. */
function keyField(field: AnyModelField): AnyModelField {
  let current = field;
  while (current.isRelation) current = current.relatedModel.pk;
  return current;
}

/** Options of {@link PrimaryKeyRelatedField}. */
export interface PrimaryKeyRelatedFieldOptions extends FieldOptions<unknown> {
  /** Where valid targets are looked up (required unless read-only). */
  readonly queryset?: QuerySet<any>;
}

/** The key type of the related model of a queryset option (`number` for the automatic `id`). */
export type RelatedKey<O> = O extends { readonly queryset: QuerySet<infer M> }
  ? PrimaryKey<M>
  : number | string;

/**
 * A relation as the related row's primary key: renders `user_id`, accepts a key and checks
 * that the row exists (its validated value is the related row).
 *
 * @example
 * ```ts
 * const user = new PrimaryKeyRelatedField({ queryset: User.objects.all() });
 * ```
 */
export class PrimaryKeyRelatedField<
  const O extends PrimaryKeyRelatedFieldOptions = PrimaryKeyRelatedFieldOptions,
> extends Field<Record<string, unknown>, RelatedKey<O>, O> {
  /** Type-level only: what a client sends, the related row's key. */
  declare readonly wireInput: RelatedKey<O>;
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    does_not_exist: 'Invalid pk "{pk_value}" - object does not exist.',
    incorrect_type: 'Incorrect type. Expected pk value, received {data_type}.',
  };

  constructor(options: O = {} as O) {
    super(options);
    if (!options.queryset && !options.readOnly) {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_OPTIONS',
        'PrimaryKeyRelatedField needs a queryset (where valid targets are found), or readOnly: true.',
      );
    }
  }

  protected override get relationValue(): 'row' | 'key' {
    return 'key';
  }

  /**
   * A list of related rows (DRF's `many=True`): a {@link ManyRelatedField} of this field, the
   * list options (`allowEmpty`, `maxLength`, `required`, ...) for the list, `queryset` for
   * each item. Every key is looked up in one query.
   *
   * @example
   * ```ts
   * const books = PrimaryKeyRelatedField.many({ queryset: Book.objects.all(), required: false });
   * ```
   */
  static many<const O extends PrimaryKeyRelatedFieldOptions & ManyRelatedFieldOptions>(
    options: O & OnlyKnown<O, PrimaryKeyRelatedFieldOptions & ManyRelatedFieldOptions>,
  ): ManyRelatedField<PrimaryKeyRelatedField<O>, O> {
    checkFieldOptions('PrimaryKeyRelatedField.many', options, [
      'queryset',
      'allowEmpty',
      'maxLength',
    ]);
    const { list, child } = splitManyOptions(options as Readonly<Record<string, unknown>>);
    return new ManyRelatedField(new PrimaryKeyRelatedField(child as O), list as never);
  }

  /** The key `data` stands for, converted as Django does; fails on the wrong type. */
  #key(data: unknown, queryset: QuerySet<any>): number | string {
    if (typeof data !== 'number' && typeof data !== 'string') {
      return this.fail('incorrect_type', { data_type: pythonTypeName(data) });
    }
    if (!INTEGER_KINDS.has(keyField(queryset.model.pk).kind)) {
      // A text key: Django compares str(value), so 7 finds the row '7'.
      return String(data);
    }
    let pk: number;
    // Django converts an integer key with int(): text that is not an integer is the wrong
    // type ("received str."), as is a fraction.
    if (typeof data === 'string') {
      const text = data.trim();
      if (!/^[+-]?\d+$/.test(text)) return this.fail('incorrect_type', { data_type: 'str' });
      pk = Number(text);
    } else if (!Number.isInteger(data)) {
      return this.fail('incorrect_type', { data_type: pythonTypeName(data) });
    } else pk = data;
    // Past 2^53 a number is not the key that was sent; no stored row can match it exactly.
    if (!Number.isSafeInteger(pk)) return this.fail('does_not_exist', { pk_value: String(data) });
    return pk;
  }

  async toInternalValue(data: unknown, _ctx?: RunContext): Promise<Record<string, unknown>> {
    const queryset = this.options.queryset as QuerySet<any>;
    const pk = this.#key(data, queryset);
    try {
      return (await queryset.get({ pk })) as Record<string, unknown>;
    } catch (error) {
      if (error instanceof DoesNotExist)
        return this.fail('does_not_exist', { pk_value: String(data) });
      // A text key the column cannot hold (not a UUID): the wrong type, as Django's ValueError.
      if (error instanceof InvalidLookupValueError)
        return this.fail('incorrect_type', { data_type: pythonTypeName(data) });
      throw error;
    }
  }

  /**
   * The rows of many keys in one query (`pk__in`), in the order sent; the first key of the wrong
   * type, then the first that matches no row, fails as it would alone.
   */
  async resolveMany(items: readonly unknown[], _ctx?: RunContext): Promise<unknown[]> {
    const queryset = this.options.queryset as QuerySet<any>;
    const keys = items.map((item) => this.#key(item, queryset));
    if (keys.length === 0) return [];
    let rows: Record<string, unknown>[];
    try {
      rows = (await queryset.filter({ pk__in: [...new Set(keys)] }).execute()) as Record<
        string,
        unknown
      >[];
    } catch (error) {
      if (error instanceof InvalidLookupValueError) {
        // Which key the column cannot hold: ask one by one, in order, for the right message.
        for (const item of items) await this.toInternalValue(item);
      }
      throw error;
    }
    const attname = queryset.model.pk.attname;
    const byKey = new Map(rows.map((row) => [String(row[attname]), row]));
    return keys.map((key, index) => {
      const row = byKey.get(String(key));
      if (row === undefined) return this.fail('does_not_exist', { pk_value: String(items[index]) });
      return row;
    });
  }

  /** The related model's key: an integer for integer keys, else a string (any value when unknown). */
  protected override valueSchema(_options: JsonSchemaOptions): JsonSchema {
    const pk = this.options.queryset?.model.pk;
    if (!pk) return {};
    return INTEGER_KINDS.has(keyField(pk).kind) ? { type: 'integer' } : { type: 'string' };
  }

  /**
   * The rows of the queryset as choices of a form's `<select>`, at most `cutoff` (DRF's
   * `get_choices`): each as this field renders it, named by its model's `str`.
   *
   * @example
   * ```ts
   * const author = new PrimaryKeyRelatedField({ queryset: Author.objects.all() });
   * const choices = await author.getChoices(1000);
   * ```
   */
  getChoices(cutoff?: number, _ctx?: RunContext): Promise<RelatedChoice[]> {
    return relatedChoices(this.options.queryset, (row) => this.toRepresentation(row), cutoff);
  }

  toRepresentation(value: unknown): RelatedKey<O> {
    if (value !== null && typeof value === 'object') {
      // A related row (validated data holds rows): its primary key, whatever its name.
      const row = value as Record<string, unknown>;
      const key = this.options.queryset?.model.pk.attname ?? 'id';
      return (row[key] ?? row.pk) as RelatedKey<O>;
    }
    return value as RelatedKey<O>;
  }
}
