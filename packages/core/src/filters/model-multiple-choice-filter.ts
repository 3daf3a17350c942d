/**
 * django-filter's `ModelMultipleChoiceFilter`: related rows chosen by a repeated parameter
 * (`?tags=python&tags=web`), rows matching any of them (or, `conjoined`, all of them).
 * @module
 */
import { INTEGER_KINDS } from '../db/lookup-values.ts';
import type { QuerySet } from '../db/query-set.ts';
import { ValidationError } from '../errors/api-exception.ts';
import type { AnyModel } from '../models/model.ts';
import type { AnyModelField } from '../models/model-field.ts';
import {
  FieldFilter,
  type FieldFilterOptions,
  FilterValueError,
  type ValueSchema,
} from './field-filter.ts';

/** Options of {@link ModelMultipleChoiceFilter}. */
export interface ModelMultipleChoiceFilterOptions extends FieldFilterOptions {
  /**
   * The related rows a client may choose from: a value naming none of them is a 400
   * (`Select a valid choice. x is not one of the available choices.`); by default any.
   */
  readonly queryset?: QuerySet<any>;
  /** The related model's field the values name (`name`, `username`); its primary key by default. */
  readonly toFieldName?: string;
  /** Rows related to every value chosen, instead of to any of them. */
  readonly conjoined?: boolean;
}

/** The most values one parameter may repeat (a client sends them, so they are bounded). */
export const MAX_CHOICES = 100;

/**
 * Rows related to the chosen rows through a relation of any kind (`fieldName: 'tags'`, a
 * many-to-many; `'favorited_by'`; a foreign key), the values naming the related rows by their
 * key or by `toFieldName`. The parameter repeats (`?tag=python&tag=web`): rows related to any
 * of them, or to all of them with `conjoined`. With `queryset`, a value naming no row of it
 * is a 400. Generated for the `exact` filter of a path ending on a many-to-many or a reverse
 * relation (`fields: ['tags']`).
 *
 * @example
 * ```ts
 * const filters = {
 *   tag: new ModelMultipleChoiceFilter({ fieldName: 'tags', toFieldName: 'name' }),
 *   // ?tag=python&tag=web: articles tagged python or web
 * };
 * ```
 */
export class ModelMultipleChoiceFilter extends FieldFilter {
  /** The options the filter was made with, frozen. */
  declare readonly options: ModelMultipleChoiceFilterOptions;

  constructor(options: ModelMultipleChoiceFilterOptions = {}) {
    super(options);
  }

  override get multiple(): boolean {
    return true;
  }

  /** The field the values are compared with: `toFieldName` of the related model, or its key. */
  targetField(field: AnyModelField | undefined): AnyModelField | undefined {
    if (!field) return undefined;
    const related: AnyModel = field.isRelation ? field.relatedModel : field.model;
    const name = this.options.toFieldName;
    return name === undefined ? related.pk : related.getField(name);
  }

  override parseList(texts: readonly string[], field: AnyModelField | undefined): unknown {
    if (texts.length > MAX_CHOICES)
      throw new FilterValueError(`Ensure this value has at most ${MAX_CHOICES} items.`);
    const values: unknown[] = [];
    for (const text of texts) {
      if (text === '') continue;
      const value = this.parseOne(text, field);
      if (!values.includes(value)) values.push(value);
    }
    return values;
  }

  override parse(text: string, field: AnyModelField | undefined): unknown {
    return this.parseList([text], field);
  }

  override parseOne(text: string, field: AnyModelField | undefined): unknown {
    if (text.includes('\u0000')) throw new FilterValueError('Null characters are not allowed.');
    const target = this.targetField(field);
    if (!target || !INTEGER_KINDS.has(target.kind)) return text;
    if (/^[+-]?\d{1,15}$/.test(text)) return Number(text);
    throw new FilterValueError(
      `Select a valid choice. ${text} is not one of the available choices.`,
    );
  }

  override valueSchema(field: AnyModelField | undefined): ValueSchema {
    const target = this.targetField(field);
    return target && INTEGER_KINDS.has(target.kind) ? { type: 'integer' } : { type: 'string' };
  }

  override schema(field: AnyModelField | undefined): ValueSchema {
    return { type: 'array', items: this.valueSchema(field), maxItems: MAX_CHOICES };
  }

  /**
   * Narrows `queryset` to rows related to the chosen rows (`values`), after checking them
   * against the filter's `queryset`; `key` is the filter's path (`tags`), `param` its name.
   */
  override apply(
    queryset: QuerySet<any>,
    key: string,
    values: unknown,
    param: string,
  ): QuerySet<any> | Promise<QuerySet<any>> {
    const chosen = values as readonly unknown[];
    if (chosen.length === 0) return queryset;
    const to = this.options.toFieldName;
    const path = to === undefined ? key : `${key}__${to}`;
    const narrow = (): QuerySet<any> => {
      if (!this.options.conjoined) return queryset.filter({ [`${path}__in`]: chosen });
      // One filter() per value: each may be a different related row.
      let narrowed = queryset;
      for (const value of chosen) narrowed = narrowed.filter({ [path]: value });
      return narrowed;
    };
    const allowed = this.options.queryset;
    if (allowed === undefined) return narrow();
    const field = to ?? 'pk';
    return allowed
      .using(queryset.db)
      .filter({ [`${field}__in`]: chosen })
      .execute()
      .then((rows) => {
        const attname = allowed.model.getField(field)?.attname ?? field;
        const found = new Set(rows.map((row) => String((row as Record<string, unknown>)[attname])));
        const missing = chosen.find((value) => !found.has(String(value)));
        if (missing !== undefined) {
          throw new ValidationError({
            [param]: [
              `Select a valid choice. ${String(missing)} is not one of the available choices.`,
            ],
          });
        }
        return narrow();
      });
  }
}
