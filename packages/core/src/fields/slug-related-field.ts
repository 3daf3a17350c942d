/**
 * Relations written and shown as a unique attribute of the related row: DRF's
 * `SlugRelatedField`.
 * @module
 */
import {
  DoesNotExist,
  InvalidLookupValueError,
  MultipleObjectsReturned,
} from '../db/database-errors.ts';
import type { QuerySet } from '../db/query-set.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyModel, Row } from '../models/model.ts';
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

/** Options of {@link SlugRelatedField}. */
export interface SlugRelatedFieldOptions extends FieldOptions<unknown> {
  /** The related model's field that names a row (`name`, `slug`); it should be unique. */
  readonly slugField: string;
  /** Where valid targets are looked up (required unless read-only). */
  readonly queryset?: QuerySet<any>;
}

/** The type of the slug field `S` of the queryset's model (`string` when unknown). */
export type SlugValue<O> = O extends {
  readonly queryset: QuerySet<infer M extends AnyModel>;
  readonly slugField: infer S extends string;
}
  ? S extends keyof Row<M>
    ? Exclude<Row<M>[S], null>
    : string
  : string;

/** True for text no database stores as sent: such a slug matches no row. */
function unstorable(text: string): boolean {
  return (
    text.includes('\u0000') ||
    /[\uD800-\uDFFF]/u.test(text.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ''))
  );
}

/**
 * A relation as an attribute of the related row that names it (`tag.name`): renders it, and
 * accepts one, finding the row with it in `queryset` ("Object with name=x does not exist."
 * when none does; "Invalid value." for what cannot be a name, or names several rows).
 *
 * @example
 * ```ts
 * const books = SlugRelatedField.many({ slugField: 'isbn', queryset: Book.objects.all() });
 * ```
 */
export class SlugRelatedField<
  const O extends SlugRelatedFieldOptions = SlugRelatedFieldOptions,
> extends Field<Record<string, unknown>, SlugValue<O>, O> {
  /** Type-level only: what a client sends, the slug. */
  declare readonly wireInput: SlugValue<O>;
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    does_not_exist: 'Object with {slug_name}={value} does not exist.',
    invalid: 'Invalid value.',
  };

  /** The related row's attribute that names it (DRF's `slug_field`). */
  readonly slugField: string;

  constructor(options: O & OnlyKnown<O, SlugRelatedFieldOptions>) {
    super(options);
    if (new.target === SlugRelatedField)
      checkFieldOptions('SlugRelatedField', options, ['slugField', 'queryset']);
    this.slugField = options.slugField;
    if (typeof this.slugField !== 'string' || this.slugField === '') {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_OPTIONS',
        'SlugRelatedField needs slugField: the related field that names a row (name, slug).',
      );
    }
    if (!options.queryset && !options.readOnly) {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_OPTIONS',
        'SlugRelatedField needs a queryset (where valid targets are found), or readOnly: true.',
      );
    }
    const model = options.queryset?.model;
    if (model && !model.getField(this.slugField)) {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_OPTIONS',
        `SlugRelatedField: ${model.name} has no field "${this.slugField}" (slugField). ` +
          `Fields: ${model.fieldList.map((f: { name: string }) => f.name).join(', ')}.`,
      );
    }
  }

  /**
   * A list of related rows by their slugs (DRF's `many=True`), found in one query.
   *
   * @example
   * ```ts
   * const isbns = SlugRelatedField.many({ slugField: 'isbn', queryset: Book.objects.all(), maxLength: 50 });
   * ```
   */
  static many<const O extends SlugRelatedFieldOptions & ManyRelatedFieldOptions>(
    options: O & OnlyKnown<O, SlugRelatedFieldOptions & ManyRelatedFieldOptions>,
  ): ManyRelatedField<SlugRelatedField<O>, O> {
    const { list, child } = splitManyOptions(options as Readonly<Record<string, unknown>>);
    return new ManyRelatedField(new SlugRelatedField(child as never), list as never);
  }

  /** The slug `data` stands for; fails with `invalid` on what cannot be one. */
  #slug(data: unknown): string {
    if (typeof data === 'string') return data;
    if (typeof data === 'number' && Number.isFinite(data)) return String(data);
    return this.fail('invalid');
  }

  async toInternalValue(data: unknown, _ctx?: RunContext): Promise<Record<string, unknown>> {
    const slug = this.#slug(data);
    const queryset = this.options.queryset as QuerySet<any>;
    if (unstorable(slug)) return this.#doesNotExist(slug);
    try {
      return (await queryset.get({ [this.slugField]: slug })) as Record<string, unknown>;
    } catch (error) {
      if (error instanceof DoesNotExist) return this.#doesNotExist(slug);
      if (error instanceof InvalidLookupValueError || error instanceof MultipleObjectsReturned)
        return this.fail('invalid');
      throw error;
    }
  }

  /** The rows of many slugs in one query, in the order sent; the first bad one fails. */
  async resolveMany(items: readonly unknown[], ctx?: RunContext): Promise<unknown[]> {
    const slugs = items.map((item) => this.#slug(item));
    const first = slugs.find(unstorable);
    if (first !== undefined) return this.#doesNotExist(first);
    if (slugs.length === 0) return [];
    const queryset = this.options.queryset as QuerySet<any>;
    let rows: Record<string, unknown>[];
    try {
      rows = (await queryset
        .filter({ [`${this.slugField}__in`]: [...new Set(slugs)] })
        .execute()) as Record<string, unknown>[];
    } catch (error) {
      if (error instanceof InvalidLookupValueError) {
        for (const item of items) await this.toInternalValue(item, ctx);
      }
      throw error;
    }
    const attname = queryset.model.getField(this.slugField)?.attname ?? this.slugField;
    const bySlug = new Map<string, Record<string, unknown>[]>();
    for (const row of rows) {
      const key = String(row[attname]);
      bySlug.set(key, [...(bySlug.get(key) ?? []), row]);
    }
    return slugs.map((slug) => {
      const found = bySlug.get(slug);
      if (found === undefined) return this.#doesNotExist(slug);
      if (found.length > 1) return this.fail('invalid');
      return found[0];
    });
  }

  #doesNotExist(slug: string): never {
    return this.fail('does_not_exist', { slug_name: this.slugField, value: slug });
  }

  /** The slug field's schema, as a model serializer would build it (a string when unknown). */
  protected override valueSchema(_options: JsonSchemaOptions): JsonSchema {
    const field = this.options.queryset?.model.getField(this.slugField);
    if (field && (field.kind.includes('integer') || field.kind === 'auto'))
      return { type: 'integer' };
    return { type: 'string' };
  }

  /**
   * The rows of the queryset as choices of a form's `<select>`, at most `cutoff` (DRF's
   * `get_choices`): each as this field renders it, named by its model's `str`.
   *
   * @example
   * ```ts
   * const author = new SlugRelatedField({ slugField: 'name', queryset: Author.objects.all() });
   * const choices = await author.getChoices(1000);
   * ```
   */
  getChoices(cutoff?: number, _ctx?: RunContext): Promise<RelatedChoice[]> {
    return relatedChoices(this.options.queryset, (row) => this.toRepresentation(row), cutoff);
  }

  toRepresentation(value: unknown): SlugValue<O> {
    if (value !== null && typeof value === 'object') {
      const row = value as Record<string, unknown>;
      return row[this.slugField] as SlugValue<O>;
    }
    return value as SlugValue<O>;
  }
}
