/**
 * The WHERE of a query, bound: its conditions resolved to columns and lookups, their values
 * as parameters in order, and the shape of their SQL (which the statement cache keys on).
 * Built for every query; the SQL itself is built from it only for a shape not compiled before.
 * @module
 */
import { type Expression, expressionBuilder, type SqlBool, sql } from 'kysely';
import type { AnyModel } from '../../models/model.ts';
import type { Database } from '../database.ts';
import { bindFilterEntry } from '../expressions/filter-entry.ts';
import type { BindContext, BoundExpression } from '../expressions/query-expression.ts';
import type { LookupBinding } from '../lookups.ts';
import type { ColumnRef, Condition, CustomCondition, Filter } from '../query-state.ts';
import type { JoinSet } from './query-paths.ts';
import type { Slot } from './statement-cache.ts';

/**
 * Kysely's expression builder. It holds no state; making one per query (it creates dozens of
 * closures) was 5 % of the CPU time of a detail request.
 */
export const EB = expressionBuilder<any, any>();

/** A filter condition's entries, bound; their parameters follow each other from `start`. */
interface BoundFilter {
  readonly negate: boolean;
  readonly bindings: readonly LookupBinding[];
  readonly start: number;
}

/** Alternatives (`filterAny()`): rows matching any of them. */
interface BoundAny {
  readonly any: readonly BoundFilter[];
}

/** An expression condition (`filter(Q(...))`, `filter(Exists(...))`), with its parameters' start. */
interface BoundCondition {
  readonly expression: BoundExpression;
  readonly start: number;
}

/** A custom condition (`where()`), with the start of its parameters when it has a shape. */
interface BoundCustom {
  readonly condition: CustomCondition;
  readonly start: number;
}

/**
 * The conditions of a query, bound: their parameters in order, the shape of their SQL, and
 * what builds the WHERE expression from whatever stands in for those parameters.
 */
export class BoundWhere {
  /** Tells apart every SQL these conditions can make; '' without conditions. */
  readonly shape: string;
  readonly parameters: unknown[];
  /** False when a custom condition without a shape makes the SQL unknowable from `shape`. */
  readonly cacheable: boolean;
  readonly #parts: readonly (BoundFilter | BoundCustom | BoundAny | BoundCondition)[];
  readonly #joins: JoinSet;
  /** Where the conditions come from, for error messages (`Book.filter()`). */
  readonly #where: string;

  constructor(
    shape: string,
    parameters: unknown[],
    cacheable: boolean,
    parts: readonly (BoundFilter | BoundCustom | BoundAny | BoundCondition)[],
    joins: JoinSet,
    where: string,
  ) {
    this.shape = shape;
    this.parameters = parameters;
    this.cacheable = cacheable;
    this.#parts = parts;
    this.#joins = joins;
    this.#where = where;
  }

  /** The WHERE expression, with whatever `slot(i)` gives in the place of parameter `i`. */
  build(slot: Slot): Expression<SqlBool> | null {
    const ref: ColumnRef = (path) => EB.ref(this.#joins.resolve(path, this.#where).ref);
    const built: Expression<SqlBool>[] = [];
    for (const part of this.#parts) {
      if ('condition' in part) {
        const { build, shape } = part.condition;
        built.push(
          build(EB, ref, shape ? shape.parameters.map((_, i) => slot(part.start + i)) : []),
        );
        continue;
      }
      if ('expression' in part) {
        const { expression, start } = part;
        built.push(expression.build(expression.parameters.map((_, i) => slot(start + i))));
        continue;
      }
      if ('any' in part) {
        built.push(
          part.any.length === 0
            ? sql<SqlBool>`1 = 0`
            : EB.or(part.any.map((alternative) => filterExpression(alternative, slot))),
        );
        continue;
      }
      built.push(filterExpression(part, slot));
    }
    if (built.length === 0) return null;
    return built.length === 1 ? (built[0] as Expression<SqlBool>) : EB.and(built);
  }
}

/** The expression of one bound filter: the AND of its entries (TRUE when it has none). */
function filterExpression(part: BoundFilter, slot: Slot): Expression<SqlBool> {
  let next = part.start;
  const expressions = part.bindings.map((binding) => {
    const start = next;
    next += binding.parameters.length;
    return binding.expression(
      EB,
      binding.parameters.map((_, i) => slot(start + i)),
    );
  });
  if (expressions.length === 0) return sql<SqlBool>`1 = 1`;
  const all =
    expressions.length === 1 ? (expressions[0] as Expression<SqlBool>) : EB.and(expressions);
  return part.negate ? EB.not(all) : all;
}

/**
 * Binds the conditions of a query (see {@link BoundWhere}), resolving their paths in `joins`.
 * The parameters are a new array, the caller's to add to.
 */
export function bindWhere(
  model: AnyModel,
  conditions: readonly Condition[],
  db: Database,
  joins: JoinSet,
  annotations?: ReadonlyMap<string, BoundExpression>,
  outer?: BindContext,
): BoundWhere {
  // Without conditions nothing is resolved, so no error can need the `where` text.
  if (conditions.length === 0) return new BoundWhere('', [], true, [], joins, '');
  const where = `${model.name}.filter()`;
  const context: BindContext = { db, model, joins, where, annotations, outer };
  const parameters: unknown[] = [];
  const parts: (BoundFilter | BoundCustom | BoundAny | BoundCondition)[] = [];
  let shape = '';
  let cacheable = true;
  for (let c = 0; c < conditions.length; c++) {
    const condition = conditions[c] as Condition;
    if (condition.kind === 'custom') {
      const custom = condition.shape;
      if (!custom) cacheable = false;
      else {
        // JSON keeps a caller's key from running into the next condition's shape.
        shape += `${shape ? '&' : ''}where${JSON.stringify(custom.key)}`;
        for (let i = 0; i < custom.parameters.length; i++) parameters.push(custom.parameters[i]);
      }
      parts.push({ condition, start: parameters.length - (custom ? custom.parameters.length : 0) });
      continue;
    }
    if (condition.kind === 'expression') {
      const expression = condition.expression.bind(context);
      const start = parameters.length;
      for (let i = 0; i < expression.parameters.length; i++)
        parameters.push(expression.parameters[i]);
      shape += `${shape ? '&' : ''}e(${expression.shape})`;
      parts.push({ expression, start });
      continue;
    }
    if (condition.kind === 'any') {
      const alternatives: BoundFilter[] = [];
      let names = '';
      for (let f = 0; f < condition.filters.length; f++) {
        const bound = bindFilter(context, condition.filters[f] as Filter, false, parameters);
        names += `${f ? '|' : ''}(${bound.names})`;
        alternatives.push(bound.filter);
      }
      shape += `${shape ? '&' : ''}any(${names})`;
      parts.push({ any: alternatives });
      continue;
    }
    const bound = bindFilter(context, condition.filter, condition.negate, parameters);
    shape += `${shape ? '&' : ''}${condition.negate ? '!' : ''}(${bound.names})`;
    if (bound.filter.bindings.length) parts.push(bound.filter);
  }
  return new BoundWhere(shape, parameters, cacheable, parts, joins, where);
}

/** Binds one filter's entries, adding their parameters; `names` is the shape of its SQL. */
function bindFilter(
  context: BindContext,
  filter: Filter,
  negate: boolean,
  parameters: unknown[],
): { filter: BoundFilter; names: string } {
  const start = parameters.length;
  const bindings: LookupBinding[] = [];
  let names = '';
  const keys = Object.keys(filter);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    const binding = bindFilterEntry(context, key, filter[key]);
    bindings.push(binding);
    const values = binding.parameters;
    for (let i = 0; i < values.length; i++) parameters.push(values[i]);
    names += `${k ? ',' : ''}${key}:${binding.shape}`;
  }
  return { filter: { negate, bindings, start }, names };
}
