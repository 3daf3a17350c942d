/**
 * Aggregates over a multi-valued relation of each row (`Count('tags')`, `Sum('comments__score')`),
 * as correlated subqueries: `(SELECT COUNT(*) FROM article_tags WHERE article_id = article.id)`.
 * Django joins and groups instead; a subquery per relation gives the same numbers without
 * GROUP BY, and two counts over two relations never multiply each other (a join of both would
 * count every pair).
 * @module
 */
import { type Expression, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { AnyManyToManyField } from '../../models/many-to-many-field.ts';
import { type AnyModel, Model } from '../../models/model.ts';
import type { AnyModelField } from '../../models/model-field.ts';
import { EB } from '../plan/bound-where.ts';
import { applyJoins, JoinSet } from '../plan/query-paths.ts';
import type { Filter } from '../query-state.ts';
import { type QChild, QNode } from './q.ts';
import {
  type BindContext,
  type BoundExpression,
  expressionError,
  isQueryExpression,
  NotExpression,
  type QueryExpression,
} from './query-expression.ts';

/** A relation of a model that holds several rows (or one, for a reverse one-to-one) per row. */
export interface MultiValuedRelation {
  readonly name: string;
  /** The model of the related rows. */
  readonly target: AnyModel;
  /** For a many-to-many: its join model and keys, from the row's side to the target's. */
  readonly join?: {
    readonly model: AnyModel;
    readonly own: AnyModelField;
    readonly other: AnyModelField;
  };
  /** For a reverse foreign key or one-to-one: the target's key to the row. */
  readonly key?: AnyModelField;
}

/**
 * The multi-valued relation `name` of `model` (a many-to-many of it, or the reverse name of a
 * relation pointing to it), or undefined when `name` is none.
 */
export function multiValuedRelation(
  model: AnyModel,
  name: string,
): MultiValuedRelation | undefined {
  const forward = Object.hasOwn(model.manyToMany, name) ? model.manyToMany[name] : undefined;
  if (forward) {
    forward.check();
    return {
      name,
      target: forward.relatedModel,
      join: { model: forward.through, own: forward.sourceField, other: forward.targetField },
    };
  }
  if (model.has(name)) return undefined;
  if (!model.reverseRelations.find(name)) Model.registerPendingRelations();
  const reverse = model.reverseRelations.find(name);
  if (!reverse) return undefined;
  if (reverse.kind === 'many_to_many') {
    const relation = reverse.field as AnyManyToManyField;
    relation.check();
    return {
      name,
      target: reverse.model,
      join: { model: relation.through, own: relation.targetField, other: relation.sourceField },
    };
  }
  return { name, target: reverse.model, key: reverse.field as AnyModelField };
}

/** An aggregate function of SQL. */
export type AggregateFunction = 'COUNT' | 'SUM' | 'AVG' | 'MIN' | 'MAX';

/**
 * The correlated subquery of `fn` over `relation` of each row of `context`'s query: over the
 * related rows' `rest` path (their key when null), DISTINCT or not, the related rows kept by
 * `filter` (whose keys start with the relation's name, as Django's `filter=Q(tags__name=...)`).
 */
export function relationAggregate(
  context: BindContext,
  fn: AggregateFunction,
  relation: MultiValuedRelation,
  rest: string | null,
  distinct: boolean,
  filter: QChild | undefined,
  read: (field: AnyModelField | undefined) => Pick<BoundExpression, 'output' | 'read'>,
): BoundExpression {
  const outer = context.model;
  const outerKey = `${context.joins.rootAlias}.${outer.pk.column}`;
  const { target, join } = relation;
  const label = `${fn}(${relation.name}${rest ? `__${rest}` : ''})`;
  // Counting the join table's rows alone: no target row to read (the common count).
  if (join && rest === null && filter === undefined) {
    const table = join.model.table;
    const own = `${table}.${join.own.column}`;
    const other = `${table}.${join.other.column}`;
    const { output, read: reader } = read(undefined);
    return {
      shape: `${label}:${distinct}`,
      parameters: [],
      output,
      read: reader,
      build: () =>
        sql`(${EB.selectFrom(table)
          .select(
            aggregateCall(fn, distinct, fn === 'COUNT' && !distinct ? null : EB.ref(other)).as('v'),
          )
          .where(EB.ref(own), '=', EB.ref(outerKey))})`,
    };
  }
  // The related rows go by an alias of their depth when a query around reads their table
  // (a user's followers, counted in a query of users), so that theirs and the outer row's
  // columns stay apart; their joins always do (see `bindInner` of Exists).
  let depth = 1;
  let sameTable = false;
  for (let c: BindContext | undefined = context; c !== undefined; c = c.outer) {
    if (c.joins.model.table === target.table) sameTable = true;
    if (c.outer !== undefined) depth++;
  }
  const alias = `a${depth}`;
  const root = sameTable ? alias : target.table;
  const from = sameTable ? `${target.table} as ${alias}` : target.table;
  const joins = new JoinSet(target, root, `${alias}_`);
  const where = `${context.where} ${label}`;
  const valueColumn = rest === null ? undefined : joins.resolve(rest, where);
  const inner: BindContext = { db: context.db, model: target, joins, where, outer: context };
  const condition =
    filter === undefined ? undefined : rekey(filter, relation.name, where).bind(inner);
  const { output, read: reader } = read(valueColumn?.field);
  const value = valueColumn ? EB.ref(valueColumn.ref) : EB.ref(`${root}.${target.pk.column}`);
  return {
    shape: `${label}:${distinct}:${sameTable ? alias : ''}:${condition ? condition.shape : ''}`,
    parameters: condition ? condition.parameters : [],
    output,
    read: reader,
    build: (parameters) => {
      let query = joinAll(EB.selectFrom(from), joins);
      let link: Expression<SqlBool>;
      if (join) {
        const table = join.model.table;
        query = query.innerJoin(
          table,
          `${table}.${join.other.column}`,
          `${root}.${target.pk.column}`,
        );
        link = EB(EB.ref(`${table}.${join.own.column}`), '=', EB.ref(outerKey));
      } else {
        const key = relation.key as AnyModelField;
        link = EB(EB.ref(`${root}.${key.column}`), '=', EB.ref(outerKey));
      }
      query = query.where(link);
      if (condition) query = query.where(condition.build(parameters) as Expression<SqlBool>);
      return sql`(${query.select(aggregateCall(fn, distinct, value).as('v'))})`;
    },
  };
}

/** `query` with the joins of `joins` (LEFT where the row may be missing), as a query set's. */
export function joinAll(
  query: SelectQueryBuilder<any, any, any>,
  joins: JoinSet,
): SelectQueryBuilder<any, any, any> {
  return applyJoins(query, joins);
}

/** `fn([DISTINCT] value)`; `COUNT(*)` when `value` is null. */
export function aggregateCall(
  fn: AggregateFunction,
  distinct: boolean,
  value: Expression<any> | null,
) {
  if (value === null) return sql<number>`count(*)`;
  return sql<unknown>`${sql.raw(fn.toLowerCase())}(${sql.raw(distinct ? 'distinct ' : '')}${value})`;
}

/**
 * `filter` with its keys made relative to the related model: `tags__name` → `name`, `tags` →
 * `pk`. A key outside the relation cannot be read inside its subquery.
 */
function rekey(child: QChild, name: string, where: string): QueryExpression<boolean> {
  const prefix = `${name}__`;
  const map = (node: QChild): QChild => {
    if (node instanceof QNode) return new QNode(node.children.map(map), node.connector);
    if (node instanceof NotExpression)
      return new NotExpression(map(node.condition) as QueryExpression<boolean>);
    if (isQueryExpression(node)) {
      throw expressionError(
        where,
        'the filter of an aggregate over a relation takes Q() of filters only.',
      );
    }
    const rekeyed: Record<string, unknown> = {};
    for (const key of Object.keys(node)) {
      if (key === name) rekeyed.pk = (node as Filter)[key];
      else if (key.startsWith(prefix)) rekeyed[key.slice(prefix.length)] = (node as Filter)[key];
      else {
        throw expressionError(
          where,
          `the filter's key "${key}" is outside the relation "${name}": its keys start with "${prefix}".`,
        );
      }
    }
    return rekeyed;
  };
  const mapped = map(child);
  return mapped instanceof QNode || mapped instanceof NotExpression
    ? (mapped as QueryExpression<boolean>)
    : new QNode([mapped], 'AND');
}
