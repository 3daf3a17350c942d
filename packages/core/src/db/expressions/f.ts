/**
 * `F('path')`: the value of a column of the row (or of a related row, `author__name`, or of an
 * annotation) in a query, as Django's `F`.
 * @module
 */
import { INTEGER_KINDS } from '../lookup-values.ts';
import { EB } from '../plan/bound-where.ts';
import {
  type BindContext,
  type BoundExpression,
  QueryExpression,
  readNumber,
} from './query-expression.ts';

/**
 * A reference to a field of the row, across relations with `__`, or to an annotation of the
 * query; made by {@link F}.
 *
 * @example
 * ```ts
 * import { F, type FieldReference } from '@restframework/core';
 *
 * const pages: FieldReference<number> = F<number>('pages');
 * const thick = Book.objects.filter({ pages__gt: pages.mul(2) });
 * ```
 */
export class FieldReference<T = unknown> extends QueryExpression<T> {
  /** The field path (`pages`, `author__name`). */
  readonly path: string;

  constructor(path: string) {
    super();
    this.path = path;
  }

  bind(context: BindContext): BoundExpression {
    return bindPath(context, this.path);
  }
}

/** The bound reference to `path` in `context`: an annotation of that name, else a column. */
export function bindPath(context: BindContext, path: string): BoundExpression {
  const annotation = context.annotations?.get(path);
  if (annotation) return { ...annotation, shape: `@${path}` };
  const column = context.joins.resolve(path, context.where);
  const field = column.field;
  const ref = column.ref;
  const numeric = INTEGER_KINDS.has(field.kind);
  return {
    // The path, not the column: the joins it adds are part of the query's shape already.
    shape: `F${JSON.stringify(path)}`,
    parameters: [],
    output: numeric ? 'integer' : field.kind === 'float' ? 'number' : 'value',
    read: numeric ? readNumber : (context.db.adapter.reader(field) ?? undefined),
    build: () => EB.ref(ref),
  };
}

/**
 * The value of a field in the query itself, as Django's `F`: compare two columns, compute a
 * new value from the stored one in `update()` (no read, no lost update), order by it with
 * NULL placed, or reach an annotation by name. `+ - * /` are `.add()`, `.sub()`, `.mul()` and
 * `.div()`: JavaScript has no operator overloading.
 *
 * @example
 * ```ts
 * import { F } from '@restframework/core';
 *
 * const thick = Book.objects.filter({ pages__gt: F('stock_count') });
 * await Book.objects.filter({ pk: 1 }).update({ stock_count: F('stock_count').add(10) });
 * const ordered = Book.objects.orderBy(F('pages').desc({ nullsLast: true }));
 * ```
 */
export function F<T = unknown>(path: string): FieldReference<NoInfer<T>> {
  return new FieldReference<T>(path);
}
