/**
 * Query expressions (Django's `F`, `Q`, `Count`, `Exists`...): values computed by the database,
 * usable in `filter`, `exclude`, `orderBy`, `annotate`, `aggregate` and `update`. An expression
 * is bound once per query: it resolves its paths, returns its values as parameters (never in
 * the SQL text) and a `shape` that tells its SQL apart from those values, so a statement of one
 * shape is compiled once and run with new values.
 * @module
 */
import { type Expression, type SqlBool, sql } from 'kysely';
import { ImproperlyConfigured } from '../../errors/improperly-configured.ts';
import type { AnyModel } from '../../models/model.ts';
import type { Database } from '../database.ts';
import { EB } from '../plan/bound-where.ts';
import type { JoinSet } from '../plan/query-paths.ts';

/** What an expression is bound in: the query's model, joins and annotations. */
export interface BindContext {
  readonly db: Database;
  readonly model: AnyModel;
  readonly joins: JoinSet;
  /** Where the expression is used, for error messages (`Article.filter()`). */
  readonly where: string;
  /** The annotations of the query, bound, by name (see `QuerySet.annotate`). */
  readonly annotations?: ReadonlyMap<string, BoundExpression> | undefined;
  /** True in `aggregate()`: aggregates run over the query's rows, not over a relation of each. */
  readonly aggregating?: boolean;
  /** The query an `OuterRef` refers to, inside `Exists` or `Subquery`. */
  readonly outer?: BindContext | undefined;
}

/** How a value read from a row becomes the annotation's value (`COUNT` text to a number). */
export type ValueRead = (value: unknown) => unknown;

/**
 * An expression bound to one query: its parameters, the shape of its SQL, and what builds the
 * SQL from whatever stands in for the parameters (markers while a shape is compiled).
 */
export interface BoundExpression {
  readonly shape: string;
  readonly parameters: readonly unknown[];
  /** What the expression answers: a number, a boolean, or a column's value. */
  readonly output: 'number' | 'integer' | 'boolean' | 'value';
  /** Reads the value of the expression from a row; undefined leaves it as the driver gave it. */
  readonly read: ValueRead | undefined;
  build(parameters: readonly unknown[]): Expression<any>;
}

/** The arithmetic operators of {@link QueryExpression.add} and its siblings. */
export type ArithmeticOperator = '+' | '-' | '*' | '/';

/**
 * A value computed by the database. `T` is the type of the value it answers (its place on an
 * annotated row). JavaScript has no operator overloading: Django's `F('views') + 1` is
 * `F('views').add(1)`, and `-`, `*`, `/` are `sub`, `mul`, `div`.
 *
 * @example
 * ```ts
 * import { F } from '@restframework/core';
 *
 * await Book.objects.filter({ pk: 1 }).update({ stock_count: F('stock_count').sub(1) });
 * ```
 */
export abstract class QueryExpression<T = unknown> {
  /** The type of the value, for the type of annotated rows; never set. */
  declare readonly __value: T;

  /** Binds the expression to one query (see `BoundExpression`). */
  abstract bind(context: BindContext): BoundExpression;

  /** `this + other` (Django's `F('views') + 1`). */
  add(other: QueryExpression<number> | number): QueryExpression<number> {
    return new CombinedExpression(this as QueryExpression, '+', other);
  }

  /** `this - other`. */
  sub(other: QueryExpression<number> | number): QueryExpression<number> {
    return new CombinedExpression(this as QueryExpression, '-', other);
  }

  /** `this * other`. */
  mul(other: QueryExpression<number> | number): QueryExpression<number> {
    return new CombinedExpression(this as QueryExpression, '*', other);
  }

  /** `this / other` (division of whole numbers is whole on PostgreSQL and SQLite, as in SQL). */
  div(other: QueryExpression<number> | number): QueryExpression<number> {
    return new CombinedExpression(this as QueryExpression, '/', other);
  }

  /** Ascending order by this expression (`orderBy(F('rank').asc({ nullsFirst: true }))`). */
  asc(options: NullsPlacement = {}): OrderBy {
    return new OrderBy(this as QueryExpression, false, options);
  }

  /** Descending order by this expression (`orderBy(F('rank').desc({ nullsLast: true }))`). */
  desc(options: NullsPlacement = {}): OrderBy {
    return new OrderBy(this as QueryExpression, true, options);
  }
}

/** True when `value` is a query expression (not a plain value to compare with). */
export function isQueryExpression(value: unknown): value is QueryExpression {
  return value instanceof QueryExpression;
}

/** Where NULL goes in an ordering; without either, NULL is the smallest value everywhere. */
export interface NullsPlacement {
  /** NULL before every value. */
  readonly nullsFirst?: boolean;
  /** NULL after every value. */
  readonly nullsLast?: boolean;
}

/**
 * An ordering by an expression (`F('rank').desc({ nullsLast: true })`), for `orderBy`.
 *
 * @example
 * ```ts
 * import { F } from '@restframework/core';
 *
 * Book.objects.orderBy(F('pages').desc({ nullsLast: true }), 'title');
 * ```
 */
export class OrderBy {
  /** What is ordered by. */
  readonly expression: QueryExpression;
  /** True for a descending order. */
  readonly descending: boolean;
  /** Where NULL goes; undefined for the database's default. */
  readonly nulls: 'first' | 'last' | undefined;

  constructor(expression: QueryExpression, descending: boolean, options: NullsPlacement = {}) {
    if (options.nullsFirst && options.nullsLast) {
      throw expressionError('orderBy()', 'nullsFirst and nullsLast exclude each other.');
    }
    this.expression = expression;
    this.descending = descending;
    this.nulls = options.nullsFirst ? 'first' : options.nullsLast ? 'last' : undefined;
  }
}

/**
 * A plain value in an expression (Django's `Value`): always a parameter.
 *
 * @example
 * ```ts
 * import { Value } from '@restframework/core';
 *
 * const rows = await Book.objects.annotate({ source: Value('catalogue') }).execute();
 * rows[0]?.source; // 'catalogue'
 * ```
 */
export class ValueExpression<T = unknown> extends QueryExpression<T> {
  /** The value, sent as a parameter. */
  readonly value: T;

  constructor(value: T) {
    super();
    this.value = value;
  }

  bind(): BoundExpression {
    const value = this.value;
    const output =
      typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'value';
    return {
      shape: '?',
      parameters: [value],
      output,
      read: undefined,
      build: (parameters) => sql`${parameters[0]}`,
    };
  }
}

/** A plain value in an expression (see {@link ValueExpression}), as Django's `Value('x')`. */
export function Value<T>(value: T): ValueExpression<T> {
  return new ValueExpression(value);
}

/** An expression as is, a plain value as a {@link Value}. */
export function asExpression(value: unknown): QueryExpression {
  return isQueryExpression(value) ? value : new ValueExpression(value);
}

/**
 * Bound parts put together: their parameters one after the other, the shape naming each part,
 * and `make` building the whole from the parts built.
 */
export function composite(
  shape: string,
  parts: readonly BoundExpression[],
  output: BoundExpression['output'],
  read: ValueRead | undefined,
  make: (built: Expression<any>[]) => Expression<any>,
): BoundExpression {
  const parameters: unknown[] = [];
  const starts: number[] = [];
  let partsShape = '';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as BoundExpression;
    starts.push(parameters.length);
    for (const value of part.parameters) parameters.push(value);
    partsShape += `${i ? ',' : ''}${part.shape}`;
  }
  return {
    shape: `${shape}(${partsShape})`,
    parameters,
    output,
    read,
    build: (values) =>
      make(
        parts.map((part, i) => {
          const start = starts[i] as number;
          return part.build(values.slice(start, start + part.parameters.length));
        }),
      ),
  };
}

/** Numbers as the database gave them (`COUNT` is text on PostgreSQL): numbers. */
export const readNumber: ValueRead = (value) =>
  value === null || value === undefined ? null : Number(value);

/** `a + b` and its siblings (see {@link QueryExpression.add}). */
export class CombinedExpression extends QueryExpression<number> {
  readonly lhs: QueryExpression;
  readonly operator: ArithmeticOperator;
  readonly rhs: QueryExpression;

  constructor(lhs: QueryExpression, operator: ArithmeticOperator, rhs: unknown) {
    super();
    if (typeof rhs !== 'number' && !isQueryExpression(rhs)) {
      throw expressionError(
        `F().${OPERATOR_NAMES[operator]}()`,
        `takes a number or an expression, got ${typeof rhs}.`,
      );
    }
    this.lhs = lhs;
    this.operator = operator;
    this.rhs = asExpression(rhs);
  }

  bind(context: BindContext): BoundExpression {
    const operator = this.operator;
    const lhs = this.lhs.bind(context);
    return composite(
      operator,
      [lhs, this.rhs.bind(context)],
      lhs.output === 'integer' && operator !== '/' ? 'integer' : 'number',
      lhs.read,
      ([a, b]) => sql`(${a} ${sql.raw(operator)} ${b})`,
    );
  }
}

const OPERATOR_NAMES = { '+': 'add', '-': 'sub', '*': 'mul', '/': 'div' } as const;

/** `NOT (condition)`: `exclude()` of an expression, `~Q(...)`. */
export class NotExpression extends QueryExpression<boolean> {
  readonly condition: QueryExpression<boolean>;

  constructor(condition: QueryExpression<boolean>) {
    super();
    this.condition = condition;
  }

  bind(context: BindContext): BoundExpression {
    return composite('not', [this.condition.bind(context)], 'boolean', readBoolean, ([inner]) =>
      EB.not(inner as Expression<SqlBool>),
    );
  }
}

/** Booleans as every database gives them (1/0 on SQLite and MySQL): booleans. */
export const readBoolean: ValueRead = (value) =>
  value === null || value === undefined ? null : value === true || Number(value) === 1;

/** The error of an expression used the wrong way (`REST_ERR_QUERY_EXPRESSION`). */
export function expressionError(where: string, message: string): Error {
  return new ImproperlyConfigured('REST_ERR_QUERY_EXPRESSION', `${where}: ${message}`);
}
