/**
 * Aggregates (Django's `Count`, `Sum`, `Avg`, `Min`, `Max`): over the rows of a query in
 * `aggregate()`, over a relation of each row in `annotate()`.
 * @module
 */
import { type Expression, type SqlBool, sql } from 'kysely';
import type { AnyModelField } from '../../models/model-field.ts';
import { formatDecimal } from '../dialect/decimal-text.ts';
import { INTEGER_KINDS } from '../lookup-values.ts';
import { bindPath } from './f.ts';
import { Q, type QChild } from './q.ts';
import {
  type BindContext,
  type BoundExpression,
  composite,
  expressionError,
  isQueryExpression,
  QueryExpression,
  readNumber,
  type ValueRead,
} from './query-expression.ts';
import {
  type AggregateFunction,
  aggregateCall,
  multiValuedRelation,
  relationAggregate,
} from './relation-subquery.ts';

/** Options of an aggregate. */
export interface AggregateOptions {
  /** Counts (sums...) each value once. */
  readonly distinct?: boolean;
  /** Only the rows matching it count, as Django's `filter=Q(...)`. */
  readonly filter?: QChild;
}

/**
 * An aggregate over a field path (or an expression) of the rows; made by {@link Count},
 * {@link Sum}, {@link Avg}, {@link Min} and {@link Max}.
 *
 * @example
 * ```ts
 * import { Aggregate, Count } from '@restframework/core';
 *
 * const count: Aggregate<number> = Count('pk', { distinct: true });
 * const { books } = await Book.objects.aggregate({ books: count });
 * ```
 */
export class Aggregate<T = unknown> extends QueryExpression<T> {
  /** The SQL function (`COUNT`, `SUM`, ...). */
  readonly fn: AggregateFunction;
  /** The field path or expression aggregated. */
  readonly source: string | QueryExpression;
  /** True to aggregate distinct values only. */
  readonly distinct: boolean;
  /** Only the rows matching it are aggregated (`filter=` of Django). */
  readonly filter: QChild | undefined;

  constructor(
    fn: AggregateFunction,
    source: string | QueryExpression,
    options: AggregateOptions = {},
  ) {
    super();
    if (typeof source !== 'string' && !isQueryExpression(source)) {
      throw expressionError(
        `${name(fn)}()`,
        `takes a field path or an expression, got ${typeof source}.`,
      );
    }
    this.fn = fn;
    this.source = source;
    this.distinct = options.distinct === true;
    this.filter = options.filter;
  }

  bind(context: BindContext): BoundExpression {
    const fn = this.fn;
    if (typeof this.source === 'string') {
      const path = this.source;
      const cut = path.indexOf('__');
      const relation = multiValuedRelation(context.model, cut === -1 ? path : path.slice(0, cut));
      if (relation) {
        if (context.aggregating) {
          throw expressionError(
            context.where,
            `${name(fn)}('${path}') in aggregate() crosses the relation "${relation.name}": annotate each row with it, or aggregate the related model.`,
          );
        }
        return relationAggregate(
          context,
          fn,
          relation,
          cut === -1 ? null : path.slice(cut + 2),
          this.distinct,
          this.filter,
          (field) => outputOf(fn, field),
        );
      }
    }
    if (!context.aggregating) {
      throw expressionError(
        context.where,
        `${name(fn)}(${typeof this.source === 'string' ? `'${this.source}'` : '...'}) in annotate() needs a many-to-many or reverse relation (Count('tags')); over the query's rows use aggregate().`,
      );
    }
    // `COUNT('*')` and the key count every row.
    const everyRow =
      fn === 'COUNT' && !this.distinct && (this.source === '*' || this.source === 'pk');
    const value = everyRow
      ? null
      : typeof this.source === 'string'
        ? bindPath(context, this.source)
        : this.source.bind(context);
    const condition =
      this.filter === undefined
        ? null
        : (isQueryExpression(this.filter) ? this.filter : Q(this.filter)).bind(context);
    const field =
      typeof this.source === 'string' && !everyRow
        ? context.joins.resolve(this.source, context.where).field
        : undefined;
    const { output, read } = outputOf(fn, field);
    const parts = [value, condition].filter((p): p is BoundExpression => p !== null);
    return composite(
      `${fn}${this.distinct ? 'D' : ''}${value ? 'v' : ''}${condition ? 'f' : ''}`,
      parts,
      output,
      read,
      (built) => {
        let v = value ? (built[0] as Expression<any>) : null;
        if (condition) {
          const c = built[built.length - 1] as Expression<SqlBool>;
          // Django's FILTER (WHERE ...), the way every database has: a CASE that leaves out the rest.
          v = sql`case when ${c} then ${v ?? sql.lit(1)} end`;
        }
        return aggregateCall(fn, this.distinct, v);
      },
    );
  }
}

/** Which kind of value an aggregate answers and how it is read. */
function outputOf(
  fn: AggregateFunction,
  field: AnyModelField | undefined,
): Pick<BoundExpression, 'output' | 'read'> {
  if (fn === 'COUNT') return { output: 'integer', read: readCount };
  // A decimal's aggregates are decimals, as its rows' values: text with the field's places.
  // The drivers differ (SQLite answers a double, PostgreSQL and MariaDB text with more or
  // fewer places), so each is rounded half up to the field's places here.
  if (field && field.kind === 'decimal') return { output: 'value', read: decimalReader(field) };
  if (fn === 'AVG') return { output: 'number', read: readNumber };
  if (field && INTEGER_KINDS.has(field.kind))
    return { output: fn === 'SUM' ? 'integer' : 'integer', read: readNumber };
  if (field && field.kind === 'float') return { output: 'number', read: readNumber };
  return { output: 'value', read: undefined };
}

/** Reads a decimal aggregate as the field's text (see {@link outputOf}); null stays null. */
function decimalReader(field: AnyModelField): ValueRead {
  const places = field.extra.decimalPlaces as number;
  return (value) =>
    value === null || value === undefined ? null : formatDecimal(value as number | string, places);
}

/** A count: a number, 0 for none. */
const readCount: ValueRead = (value) => (value === null || value === undefined ? 0 : Number(value));

function name(fn: AggregateFunction): string {
  return fn === 'COUNT' ? 'Count' : fn[0] + fn.slice(1).toLowerCase();
}

/**
 * The number of related rows of each row (`annotate({ n: Count('tags') })`), or of the rows
 * (`aggregate({ n: Count('pk') })`); `distinct` counts each value once, `filter` counts only
 * the rows matching it. Always a number (0 for none).
 *
 * @example
 * ```ts-fragment
 * const articles = await Article.objects
 *   .annotate({ favorites_count: Count('favorited_by'), tags_count: Count('tags') })
 *   .filter({ favorites_count__gte: 2 })
 *   .orderBy('-favorites_count')
 *   .execute(); // each row has favorites_count and tags_count, numbers
 * ```
 */
export function Count(
  source: string | QueryExpression,
  options?: AggregateOptions,
): Aggregate<number> {
  return new Aggregate<number>('COUNT', source, options);
}

/**
 * The sum of a field over related rows or over the rows; null when there are none. Of an
 * integer or float field a number; of a `DecimalField` a decimal as its rows hold one, text
 * with the field's decimal places (`'4.01'`), the same on every database: name it,
 * `Sum<string | null>('price')`.
 *
 * @example
 * ```ts-fragment
 * const { pages } = await Book.objects.aggregate({ pages: Sum('pages') }); // number | null
 * const { total } = await Item.objects.aggregate({ total: Sum<string | null>('price') }); // '12.50'
 * ```
 */
export function Sum<T = number | null>(
  source: string | QueryExpression,
  options?: AggregateOptions,
): Aggregate<NoInfer<T>> {
  return new Aggregate<T>('SUM', source, options);
}

/**
 * The mean of a field; null when there are no rows. Of an integer or float field a number; of
 * a `DecimalField` text with the field's decimal places, rounded half up (`'1.34'` for 1.00,
 * 1.00 and 2.01), the same on every database, as Django gives on SQLite: name it,
 * `Avg<string | null>('price')`.
 *
 * @example
 * ```ts-fragment
 * const { mean } = await Book.objects.aggregate({ mean: Avg('pages') }); // number | null
 * const { price } = await Item.objects.aggregate({ price: Avg<string | null>('price') }); // '1.34'
 * ```
 */
export function Avg<T = number | null>(
  source: string | QueryExpression,
  options?: AggregateOptions,
): Aggregate<NoInfer<T>> {
  return new Aggregate<T>('AVG', source, options);
}

/** The smallest value of a field; null when there are no rows. */
export function Min<T = unknown>(
  source: string | QueryExpression,
  options?: AggregateOptions,
): Aggregate<NoInfer<T> | null> {
  return new Aggregate<T | null>('MIN', source, options);
}

/** The largest value of a field; null when there are no rows. */
export function Max<T = unknown>(
  source: string | QueryExpression,
  options?: AggregateOptions,
): Aggregate<NoInfer<T> | null> {
  return new Aggregate<T | null>('MAX', source, options);
}
