/**
 * One filter of a filter set, as django-filter's `Filter` classes: it reads one query
 * parameter, parses its text by the kind of value the model field holds (so a wrong value is
 * a 400 with Django's message, never an empty list), and narrows the query set with one
 * lookup. `in` and `range` lookups take comma-separated values, each parsed the same way.
 *
 * @example
 * ```ts
 * const filters = {
 *   title: new CharFilter({ lookupExpr: 'icontains' }),
 *   min_price: new NumberFilter({ fieldName: 'price', lookupExpr: 'gte' }),
 *   published_in: new NumberFilter({ fieldName: 'publication_date', lookupExpr: 'year' }),
 * };
 * ```
 * @module
 */
import { INTEGER_KINDS, parseDateText, parseDateTimeText } from '../db/lookup-values.ts';
import type { Lookup } from '../db/lookups.ts';
import type { QuerySet } from '../db/query-set.ts';
import type { AnyModelField } from '../models/model-field.ts';

/**
 * A client's value the filter cannot use; `message` is what the 400 says for its parameter.
 *
 * @example
 * ```ts
 * class EvenFilter extends NumberFilter {
 *   override parseOne(text: string) {
 *     if (Number(text) % 2) throw new FilterValueError('Enter an even number.');
 *     return Number(text);
 *   }
 * }
 * ```
 */
export class FilterValueError extends Error {
  /** Always `FilterValueError`: what logs show of it. */
  override readonly name = 'FilterValueError';
}

/**
 * A `method` filter: narrows `queryset` by the parsed `value` of the parameter `name`. A
 * string names a method of the filter set (`filterInStock(queryset, name, value)`).
 */
export type FilterMethod = (
  queryset: QuerySet<any>,
  name: string,
  value: unknown,
) => QuerySet<any> | Promise<QuerySet<any>>;

/** What every filter accepts (django-filter's arguments, camel-cased). */
export interface FieldFilterOptions {
  /** The model path filtered (`user__email`); defaults to the filter's name in its set. */
  readonly fieldName?: string;
  /** The lookup (`gte`, `icontains`, `in`, `year`...); `exact` by default. */
  readonly lookupExpr?: Lookup;
  /** What people read (the browsable API's form, the OpenAPI description). */
  readonly label?: string;
  /** Filters with this method of the filter set, or this function, instead of a lookup. */
  readonly method?: string | FilterMethod;
  /** Drops the matching rows instead of keeping them (`queryset.exclude()`). */
  readonly exclude?: boolean;
  /** The values a `ChoiceFilter` accepts; by default the model field's choices. */
  readonly choices?: readonly (readonly [string | number, string])[];
}

/**
 * A choice of a filter's form in the browsable API: a value of the query parameter and what
 * people read for it.
 *
 * @example
 * ```ts
 * const yes: FilterChoice = { value: 'true', label: 'Yes' }; // ?in_stock=true
 * ```
 */
export interface FilterChoice {
  /** The text the parameter gets (`true`, `3`, a choice's stored value). */
  readonly value: string;
  /** What the form shows for it (`Yes`, a choice's label). */
  readonly label: string;
}

/** The most values an `in` filter takes (a client sends the list, so it is bounded). */
export const MAX_IN_VALUES = 100;

/** An OpenAPI schema of one value. */
export type ValueSchema = Record<string, unknown>;

/**
 * Base of the filters: parses the text of a query parameter and filters by it. Subclasses
 * override {@link parseOne} (one value) and {@link valueSchema}; the lookup decides whether
 * the text is one value, a list (`in`), a pair (`range`), a boolean (`isnull`) or a number
 * (`year`, `month`, `day`).
 *
 * @example
 * ```ts
 * class EvenFilter extends FieldFilter {
 *   override parseOne(text: string) {
 *     if (!/^\d+$/.test(text) || Number(text) % 2) throw new FilterValueError('Enter an even number.');
 *     return Number(text);
 *   }
 * }
 * ```
 */
export class FieldFilter {
  /** The options the filter was made with, frozen. */
  readonly options: FieldFilterOptions;

  constructor(options: FieldFilterOptions = {}) {
    this.options = Object.freeze({ ...options });
  }

  /** The lookup this filter applies (`options.lookupExpr`, else `exact`). */
  get lookupExpr(): Lookup {
    return this.options.lookupExpr ?? 'exact';
  }

  /**
   * The parsed value of `text` for the model field `field` (undefined for a method filter
   * without a field); throws {@link FilterValueError} with the message of the 400.
   */
  parse(text: string, field: AnyModelField | undefined): unknown {
    // As Django's ProhibitNullCharactersValidator: PostgreSQL refuses NUL in text.
    if (text.includes('\u0000')) throw new FilterValueError('Null characters are not allowed.');
    switch (this.lookupExpr) {
      case 'in': {
        const items = text
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean);
        if (items.length > MAX_IN_VALUES)
          throw new FilterValueError(`Ensure this value has at most ${MAX_IN_VALUES} items.`);
        return items.map((item) => this.parseOne(item, field));
      }
      case 'range': {
        const items = text.split(',').map((item) => item.trim());
        if (items.length !== 2 || !items[0] || !items[1])
          throw new FilterValueError('Range query expects two values.');
        return items.map((item) => this.parseOne(item, field));
      }
      case 'isnull':
        return parseBoolean(text);
      case 'year':
      case 'month':
      case 'day':
        return parseWholeNumber(text);
      default:
        return this.parseOne(text, field);
    }
  }

  /**
   * True when the parameter may repeat (`?tag=a&tag=b`) and the filter takes every value
   * (see {@link parseList}) and narrows the query set itself (see {@link apply}).
   */
  get multiple(): boolean {
    return false;
  }

  /**
   * True when the parameter is a list read as one text (`in`, `range`): its repeated values
   * are joined with commas (`?a__in=1&a__in=2` is `?a__in=1,2`) instead of the last one winning.
   */
  get listShaped(): boolean {
    return this.lookupExpr === 'in' || this.lookupExpr === 'range';
  }

  /** The parsed value of a repeated parameter's texts; by default its last one's. */
  parseList(texts: readonly string[], field: AnyModelField | undefined): unknown {
    return this.parse(texts[texts.length - 1] ?? '', field);
  }

  /**
   * Narrows `queryset` by the parsed `value`, for a filter that does it itself (a
   * {@link multiple} one); `key` is the model path, `param` the parameter. By default the
   * filter set does it, with the plain lookups in one `filter()`.
   */
  apply(
    queryset: QuerySet<any>,
    key: string,
    value: unknown,
    _param: string,
  ): QuerySet<any> | Promise<QuerySet<any>> {
    return this.options.exclude
      ? queryset.exclude({ [key]: value })
      : queryset.filter({ [key]: value });
  }

  /** One value (an item of an `in` list, say). Text is kept as it is. */
  parseOne(text: string, _field: AnyModelField | undefined): unknown {
    return text;
  }

  /** The OpenAPI schema of one value. */
  valueSchema(_field: AnyModelField | undefined): ValueSchema {
    return { type: 'string' };
  }

  /** The OpenAPI schema of the parameter: `in` and `range` are comma-separated arrays. */
  schema(field: AnyModelField | undefined): ValueSchema {
    switch (this.lookupExpr) {
      case 'in':
        return { type: 'array', items: this.valueSchema(field), maxItems: MAX_IN_VALUES };
      case 'range':
        return { type: 'array', items: this.valueSchema(field), minItems: 2, maxItems: 2 };
      case 'isnull':
        return { type: 'boolean' };
      case 'year':
      case 'month':
      case 'day':
        return { type: 'integer' };
      default:
        return this.valueSchema(field);
    }
  }

  /** The choices the browsable API's form offers (booleans, choices), or undefined. */
  formChoices(field: AnyModelField | undefined): readonly FilterChoice[] | undefined {
    if (this.lookupExpr === 'isnull') return BOOLEAN_CHOICES;
    if (this.lookupExpr === 'exact') return this.ownChoices(field);
    return undefined;
  }

  /** Choices of this filter's own values (booleans, a choice field's), or undefined. */
  ownChoices(_field: AnyModelField | undefined): readonly FilterChoice[] | undefined {
    return undefined;
  }
}

const BOOLEAN_CHOICES: readonly FilterChoice[] = [
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];

const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;
const WHOLE_TEXT = /^[+-]?\d{1,15}$/;

function parseBoolean(text: string): boolean {
  const lower = text.toLowerCase();
  if (lower === 'true' || lower === '1') return true;
  if (lower === 'false' || lower === '0') return false;
  throw new FilterValueError(`Select a valid choice. ${text} is not one of the available choices.`);
}

function parseWholeNumber(text: string): number {
  if (WHOLE_TEXT.test(text)) return Number(text);
  if (/^[+-]?\d+$/.test(text))
    throw new FilterValueError('Ensure that there are no more than 15 digits in total.');
  if (NUMBER_TEXT.test(text) && text.length <= 40)
    throw new FilterValueError('Enter a whole number.');
  throw new FilterValueError('Enter a number.');
}

/**
 * Text, as it is (django-filter's `CharFilter`).
 *
 * @example
 * ```ts
 * const title = new CharFilter({ lookupExpr: 'icontains' }); // ?title=dune
 * ```
 */
export class CharFilter extends FieldFilter {}

/**
 * A number (`NumberFilter`): a whole number for an integer column (`Enter a whole number.`),
 * else a decimal kept as text, so no digit is lost (`Enter a number.`).
 *
 * @example
 * ```ts
 * const minPrice = new NumberFilter({ fieldName: 'price', lookupExpr: 'gte' }); // ?min_price=9.99
 * ```
 */
export class NumberFilter extends FieldFilter {
  override parseOne(text: string, field: AnyModelField | undefined): unknown {
    if (field && INTEGER_KINDS.has(field.kind)) return parseWholeNumber(text);
    if (NUMBER_TEXT.test(text) && text.length <= 40) return text;
    throw new FilterValueError('Enter a number.');
  }

  override valueSchema(field: AnyModelField | undefined): ValueSchema {
    return field && INTEGER_KINDS.has(field.kind) ? { type: 'integer' } : { type: 'number' };
  }
}

/**
 * `true`/`false` (also `1`/`0`, any case), as django-filter's `BooleanWidget`.
 *
 * @example
 * ```ts
 * const inStock = new BooleanFilter({ method: 'filterInStock' }); // ?in_stock=true
 * ```
 */
export class BooleanFilter extends FieldFilter {
  override parseOne(text: string): unknown {
    return parseBoolean(text);
  }

  override valueSchema(): ValueSchema {
    return { type: 'boolean' };
  }

  override ownChoices(): readonly FilterChoice[] {
    return BOOLEAN_CHOICES;
  }
}

/**
 * A day as `YYYY-MM-DD` that the calendar has (`Enter a valid date.`).
 *
 * @example
 * ```ts
 * const since = new DateFilter({ fieldName: 'publication_date', lookupExpr: 'gte' }); // ?since=2024-01-31
 * ```
 */
export class DateFilter extends FieldFilter {
  override parseOne(text: string): unknown {
    if (parseDateText(text) === undefined) throw new FilterValueError('Enter a valid date.');
    return text;
  }

  override valueSchema(): ValueSchema {
    return { type: 'string', format: 'date' };
  }
}

/**
 * An ISO 8601 date and time (`IsoDateTimeFilter`; `Enter a valid date/time.`).
 *
 * @example
 * ```ts
 * const joinedBefore = new DateTimeFilter({ fieldName: 'date_joined', lookupExpr: 'lt' });
 * // ?joined_before=2024-01-31T12:00:00Z
 * ```
 */
export class DateTimeFilter extends FieldFilter {
  override parseOne(text: string): unknown {
    if (parseDateTimeText(text) === undefined)
      throw new FilterValueError('Enter a valid date/time.');
    return text;
  }

  override valueSchema(): ValueSchema {
    return { type: 'string', format: 'date-time' };
  }
}

/**
 * One of the choices (the filter's `choices`, else the model field's):
 * `Select a valid choice. sold is not one of the available choices.`
 *
 * @example
 * ```ts
 * const state = new ChoiceFilter({
 *   choices: [
 *     ['published', 'Published'],
 *     ['in_progress', 'In progress'],
 *   ],
 * }); // ?state=published
 * ```
 */
export class ChoiceFilter extends FieldFilter {
  #choices(field: AnyModelField | undefined): readonly (readonly [string | number, string])[] {
    return this.options.choices ?? field?.options.choices ?? [];
  }

  override parseOne(text: string, field: AnyModelField | undefined): unknown {
    const found = this.#choices(field).find(([value]) => String(value) === text);
    if (!found)
      throw new FilterValueError(
        `Select a valid choice. ${text} is not one of the available choices.`,
      );
    return found[0];
  }

  override valueSchema(field: AnyModelField | undefined): ValueSchema {
    const values = this.#choices(field).map(([value]) => value);
    return {
      type: values.every((value) => typeof value === 'number') ? 'integer' : 'string',
      enum: values,
    };
  }

  override ownChoices(field: AnyModelField | undefined): readonly FilterChoice[] {
    return this.#choices(field).map(([value, label]) => ({ value: String(value), label }));
  }
}

/**
 * A related row by its primary key (`ModelChoiceFilter`): a key of the wrong form is
 * `Select a valid choice. That choice is not one of the available choices.`
 *
 * @example
 * ```ts
 * const user = new ModelChoiceFilter({ fieldName: 'user' }); // ?user=3 on profiles
 * ```
 */
export class ModelChoiceFilter extends FieldFilter {
  override parseOne(text: string, field: AnyModelField | undefined): unknown {
    const key = field?.isRelation ? field.relatedModel.pk : field;
    if (!key || !INTEGER_KINDS.has(key.kind)) return text;
    if (WHOLE_TEXT.test(text)) return Number(text);
    throw new FilterValueError(
      'Select a valid choice. That choice is not one of the available choices.',
    );
  }

  override valueSchema(field: AnyModelField | undefined): ValueSchema {
    const key = field?.isRelation ? field.relatedModel.pk : field;
    return key && INTEGER_KINDS.has(key.kind) ? { type: 'integer' } : { type: 'string' };
  }
}

/**
 * The filter class django-filter picks for a model field and lookup: a choice field's exact
 * (and `in`) values are choices; text lookups take text; relations take the related key.
 */
export function filterClassFor(field: AnyModelField, lookup: Lookup): typeof FieldFilter {
  if (lookup === 'isnull') return BooleanFilter;
  if (lookup === 'year' || lookup === 'month' || lookup === 'day') return NumberFilter;
  if (field.options.choices && (lookup === 'exact' || lookup === 'in')) return ChoiceFilter;
  if (field.isRelation) return ModelChoiceFilter;
  switch (field.kind) {
    case 'auto':
    case 'integer':
    case 'positive_integer':
    case 'big_integer':
    case 'small_integer':
    case 'positive_small_integer':
    case 'float':
    case 'duration':
    case 'decimal':
      return NumberFilter;
    case 'boolean':
      return BooleanFilter;
    case 'date':
      return DateFilter;
    case 'datetime':
      return DateTimeFilter;
    default:
      return CharFilter;
  }
}
