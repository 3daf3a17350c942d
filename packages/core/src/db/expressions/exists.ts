/**
 * `Exists(queryset)`, `Subquery(queryset)` and `OuterRef('path')`: another query inside this
 * one, correlated with its rows, as Django's.
 * @module
 */
import { type Expression, sql } from 'kysely';
import { ImproperlyConfigured } from '../../errors/improperly-configured.ts';
import type { AnyModel } from '../../models/model.ts';
import { bindWhere, EB } from '../plan/bound-where.ts';
import { integer } from '../plan/prepared-select.ts';
import { JoinSet, resolveOrdering } from '../plan/query-paths.ts';
import type { QueryState } from '../query-state.ts';
import { bindPath } from './f.ts';
import {
  type BindContext,
  type BoundExpression,
  expressionError,
  NotExpression,
  QueryExpression,
  readBoolean,
} from './query-expression.ts';
import { joinAll } from './relation-subquery.ts';

/** What `Exists` and `Subquery` read of a query set: its model and state. */
export interface InnerQuery {
  /** The inner query's model. */
  readonly model: AnyModel;
  /** The inner query's state (filters, ordering, slices). */
  readonly queryState: QueryState;
}

/**
 * A field of the query around this one (Django's `OuterRef`), in a filter of the query set
 * given to `Exists` or `Subquery`; made by {@link OuterRef}.
 *
 * @example
 * ```ts
 * import { Exists, OuterRef } from '@restframework/core';
 *
 * const users = User.objects.filter(Exists(Profile.objects.filter({ user: OuterRef('pk') })));
 * ```
 */
export class OuterReference<T = unknown> extends QueryExpression<T> {
  /** The outer query's field path (`pk`, `author__id`). */
  readonly path: string;

  constructor(path: string) {
    super();
    this.path = path;
  }

  bind(context: BindContext): BoundExpression {
    const outer = context.outer;
    if (outer === undefined) {
      throw expressionError(
        context.where,
        `OuterRef('${this.path}') refers to the query around this one: use it inside Exists() or Subquery().`,
      );
    }
    let bound: BoundExpression;
    try {
      bound = bindPath(outer, this.path);
    } catch (error) {
      if (!(error instanceof ImproperlyConfigured)) throw error;
      // The path's own message says what it does not find; say where it was looked for.
      throw expressionError(
        context.where,
        `OuterRef('${this.path}') names no field of ${outer.model.name}, the query around this one (${error.message}). ` +
          `Name one of its fields, a path across its relations ('author__id') or one of its annotations.`,
      );
    }
    return { ...bound, shape: `outer:${bound.shape}` };
  }
}

/**
 * A field of the outer query, in a query set given to {@link Exists} or {@link Subquery}.
 *
 * @example
 * ```ts-fragment
 * const favorited = Exists(Favorite.objects.filter({ article: OuterRef('pk'), user: me }));
 * ```
 */
export function OuterRef<T = unknown>(path: string): OuterReference<NoInfer<T>> {
  return new OuterReference<T>(path);
}

/**
 * The inner query's model, joins and WHERE, bound with `context` as its outer query. Its
 * table goes by an alias of its depth (`q1`, `q2` inside that...) when a query around it
 * reads the same table (`User` rows with an older `User`), so that its columns and the outer
 * row's stay apart; its joins always do (`q1_author`), so that they never hide the outer
 * query's joins of the same path from an `OuterRef`.
 */
function bindInner(context: BindContext, query: InnerQuery, name: string) {
  const model = query.model;
  const state = query.queryState;
  const where = `${context.where} ${name}(${model.name})`;
  if (state.annotations !== null) {
    throw expressionError(where, 'takes a query set without annotations.');
  }
  let depth = 1;
  let sameTable = false;
  for (let c: BindContext | undefined = context; c !== undefined; c = c.outer) {
    if (c.joins.model.table === model.table) sameTable = true;
    if (c.outer !== undefined) depth++;
  }
  const alias = `q${depth}`;
  const joins = new JoinSet(model, sameTable ? alias : model.table, `${alias}_`);
  const bound = bindWhere(model, state.conditions, context.db, joins, undefined, {
    ...context,
    where,
  });
  if (!bound.cacheable) {
    throw expressionError(where, 'takes a query set whose where() conditions have a shape.');
  }
  const from = sameTable ? `${model.table} as ${alias}` : model.table;
  return { model, state, joins, bound, where, from };
}

/**
 * `EXISTS (subquery)`; made by {@link Exists}.
 *
 * @example
 * ```ts
 * import { Exists, OuterRef } from '@restframework/core';
 *
 * const withProfile = Exists(Profile.objects.filter({ user: OuterRef('pk') }));
 * const rows = await User.objects.annotate({ has_profile: withProfile }).execute();
 * rows[0]?.has_profile; // boolean
 * const without = User.objects.filter(withProfile.not());
 * ```
 */
export class ExistsExpression extends QueryExpression<boolean> {
  /** The inner query. */
  readonly query: InnerQuery;

  constructor(query: InnerQuery) {
    super();
    if (query === null || typeof query !== 'object' || !('queryState' in query)) {
      throw expressionError('Exists()', 'takes a query set (Model.objects.filter(...)).');
    }
    this.query = query;
  }

  /** Rows for which no row exists (Django's `~Exists(...)`). */
  not(): QueryExpression<boolean> {
    return new NotExpression(this);
  }

  bind(context: BindContext): BoundExpression {
    const { joins, bound, from } = bindInner(context, this.query, 'Exists');
    return {
      shape: `exists(${from}|${joins.joins.map((j) => j.path).join(',')}|${bound.shape})`,
      parameters: bound.parameters,
      output: 'boolean',
      read: readBoolean,
      build: (parameters) => {
        let query = joinAll(EB.selectFrom(from), joins);
        const condition = bound.build((i) => parameters[i]);
        if (condition) query = query.where(condition);
        return EB.exists(query.select(sql.lit(1).as('x')));
      },
    };
  }
}

/**
 * True for the rows for which `queryset` finds a row, as Django's `Exists`: its filters use
 * `OuterRef('path')` for the outer row's fields. Annotate with it (a boolean on every
 * database) or filter with it; `.not()` (or `exclude()`) is `~Exists`.
 *
 * @example
 * ```ts-fragment
 * const rows = await Article.objects
 *   .annotate({ favorited: Exists(Favorite.objects.filter({ article: OuterRef('pk'), user: me })) })
 *   .execute(); // each row: favorited, true or false
 * const mine = Article.objects.filter(Exists(Favorite.objects.filter({ article: OuterRef('pk'), user: me })));
 * ```
 */
export function Exists(queryset: InnerQuery): ExistsExpression {
  return new ExistsExpression(queryset);
}

/**
 * A one-value subquery; made by {@link Subquery}.
 *
 * @example
 * ```ts
 * import { OuterRef, Subquery } from '@restframework/core';
 *
 * const bio = Subquery<string>(Profile.objects.filter({ user: OuterRef('pk') }).slice(0, 1), 'biography');
 * const rows = await User.objects.annotate({ bio }).execute(); // rows[0]?.bio: string | null
 * ```
 */
export class SubqueryExpression<T = unknown> extends QueryExpression<T> {
  /** The inner query. */
  readonly query: InnerQuery;
  /** The inner query's field whose value is taken. */
  readonly field: string;

  constructor(query: InnerQuery, field: string) {
    super();
    if (query === null || typeof query !== 'object' || !('queryState' in query)) {
      throw expressionError('Subquery()', 'takes a query set (Model.objects.filter(...)).');
    }
    this.query = query;
    this.field = field;
  }

  bind(context: BindContext): BoundExpression {
    const { model, state, joins, bound, where, from } = bindInner(context, this.query, 'Subquery');
    const value = bindPath({ db: context.db, model, joins, where }, this.field);
    const order = resolveOrdering(state.order ?? model.ordering, joins);
    const limit = state.limit === null ? null : integer(state.limit);
    const offset = integer(state.offset);
    const adapter = context.db.adapter;
    return {
      shape: `subquery(${from}|${joins.joins.map((j) => j.path).join(',')}|${bound.shape}|${value.shape}|${order.map((t) => `${t.descending ? '-' : ''}${t.path}`).join(',')}|${limit}:${offset})`,
      parameters: bound.parameters,
      output: value.output,
      read: value.read,
      build: (parameters) => {
        let query = joinAll(EB.selectFrom(from), joins);
        const condition = bound.build((i) => parameters[i]);
        if (condition) query = query.where(condition);
        for (const term of order)
          query = query.orderBy(
            term.column.ref,
            adapter.orderDirection(term.descending, term.column.nullable),
          );
        // Written into the SQL: they are the developer's integers, part of the shape.
        if (limit !== null) query = query.limit(sql.lit(limit));
        if (offset !== 0) query = query.offset(sql.lit(offset));
        return sql`(${query.select(sql`${value.build([]) as Expression<any>}`.as('v'))})`;
      },
    };
  }
}

/**
 * The value of `field` in the first row of `queryset`, for each row (Django's
 * `Subquery(qs.values('field')[:1])`): order and slice the query set to pick the row; its
 * filters use `OuterRef(...)`. NULL (null) when it finds no row.
 *
 * @example
 * ```ts-fragment
 * const newest = Comment.objects.filter({ article: OuterRef('pk') }).orderBy('-id').slice(0, 1);
 * const rows = await Article.objects.annotate({ last_score: Subquery<number>(newest, 'score') }).execute();
 * ```
 */
export function Subquery<T = unknown>(
  queryset: InnerQuery,
  field: string,
): SubqueryExpression<NoInfer<T> | null> {
  return new SubqueryExpression<T | null>(queryset, field);
}
