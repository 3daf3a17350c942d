/**
 * The WHERE of a query, bound: its conditions resolved to columns and lookups, their values
 * as parameters in order, and the shape of their SQL (which the statement cache keys on).
 * Built for every query; the SQL itself is built from it only for a shape not compiled before.
 * @module
 */
import { type Expression, expressionBuilder, type SqlBool, sql } from 'kysely';
import type { AnyModel } from '../../models/model.ts';
import type { Database } from '../database.ts';
import { bindLookup, type LookupBinding, splitLookup } from '../lookups.ts';
import type { ColumnRef, Condition, CustomCondition, Filter } from '../query-state.ts';
import { applyJoins, JoinSet } from './query-paths.ts';
import { type JoinStep, type RelationHop, relationHop } from './relation-hop.ts';
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
  readonly #parts: readonly (BoundFilter | BoundCustom | BoundAny)[];
  readonly #joins: JoinSet;
  /** Where the conditions come from, for error messages (`Book.filter()`). */
  readonly #where: string;

  constructor(
    shape: string,
    parameters: unknown[],
    cacheable: boolean,
    parts: readonly (BoundFilter | BoundCustom | BoundAny)[],
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
): BoundWhere {
  // Without conditions nothing is resolved, so no error can need the `where` text.
  if (conditions.length === 0) return new BoundWhere('', [], true, [], joins, '');
  const where = `${model.name}.filter()`;
  const parameters: unknown[] = [];
  const parts: (BoundFilter | BoundCustom | BoundAny)[] = [];
  let shape = '';
  let cacheable = true;
  const aliases: AliasCounter = { next: 0 };
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
    if (condition.kind === 'any') {
      const alternatives: BoundFilter[] = [];
      let names = '';
      for (let f = 0; f < condition.filters.length; f++) {
        const bound = bindFilter(
          db,
          joins,
          condition.filters[f] as Filter,
          false,
          parameters,
          where,
          aliases,
        );
        names += `${f ? '|' : ''}(${bound.names})`;
        alternatives.push(bound.filter);
      }
      shape += `${shape ? '&' : ''}any(${names})`;
      parts.push({ any: alternatives });
      continue;
    }
    const bound = bindFilter(
      db,
      joins,
      condition.filter,
      condition.negate,
      parameters,
      where,
      aliases,
    );
    shape += `${shape ? '&' : ''}${condition.negate ? '!' : ''}(${bound.names})`;
    if (bound.filter.bindings.length) parts.push(bound.filter);
  }
  return new BoundWhere(shape, parameters, cacheable, parts, joins, where);
}

/** Binds one filter's entries, adding their parameters; `names` is the shape of its SQL. */
function bindFilter(
  db: Database,
  joins: JoinSet,
  filter: Filter,
  negate: boolean,
  parameters: unknown[],
  where: string,
  aliases: AliasCounter,
): { filter: BoundFilter; names: string } {
  const start = parameters.length;
  const { bindings, names } = bindEntries(db, joins, filter, parameters, where, aliases);
  return { filter: { negate, bindings, start }, names };
}

/** Numbers the subqueries of one statement, so that each has aliases of its own. */
interface AliasCounter {
  next: number;
}

/**
 * Binds the entries of one filter on `joins`' model. A key crossing a relation that holds
 * many rows for one (`tags__name`, `author__followers__id`) is not joined (a join would repeat
 * the row once per related row): the entries of one filter through the same such relation are
 * bound together into one `EXISTS` subquery over the related rows, so that they all describe
 * the same related row, as in one Django `filter()` call. `rel__isnull` on such a relation asks
 * whether there is any related row.
 */
function bindEntries(
  db: Database,
  joins: JoinSet,
  filter: Filter,
  parameters: unknown[],
  where: string,
  aliases: AliasCounter,
): { bindings: LookupBinding[]; names: string } {
  const bindings: LookupBinding[] = [];
  let names = '';
  const keys = Object.keys(filter);
  const model = joins.model;
  // Made only when a key crosses a multi-valued relation: most filters cross none.
  let splits: (MultiValuedSplit | undefined)[] | undefined;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    if (!key.includes('__') && model.getField(key)) continue;
    const split = multiValuedSplit(model, key);
    if (split !== undefined) (splits ??= new Array(keys.length))[k] = split;
  }
  let grouped: Set<string> | undefined;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    const split = splits?.[k];
    let binding: LookupBinding;
    if (split !== undefined) {
      grouped ??= new Set();
      if (grouped.has(split.path)) continue;
      grouped.add(split.path);
      const entries: [string, unknown][] = [];
      for (let j = k; j < keys.length; j++) {
        const other = splits?.[j];
        if (other?.path === split.path) entries.push([other.rest, filter[keys[j] as string]]);
      }
      binding = existsBinding(db, joins, split, entries, where, aliases);
      names += `${k ? ',' : ''}${split.path}{${binding.shape}}`;
    } else {
      const { column, lookup } = splitLookup(joins, key, where);
      binding = bindLookup(db.adapter, column, lookup, filter[key], where);
      names += `${k ? ',' : ''}${key}:${binding.shape}`;
    }
    bindings.push(binding);
    const values = binding.parameters;
    for (let i = 0; i < values.length; i++) parameters.push(values[i]);
  }
  return { bindings, names };
}

/** A key cut where it first crosses a multi-valued relation (see {@link multiValuedSplit}). */
interface MultiValuedSplit {
  /** The path up to the single-valued relations before it (`author`), '' when none. */
  readonly before: string;
  /** The path through the multi-valued relation (`author__followers`). */
  readonly path: string;
  readonly hop: RelationHop;
  /** What follows it (`id__gt`), '' when nothing. */
  readonly rest: string;
}

/**
 * Where `key` first crosses a relation holding many rows for one, or undefined when it
 * crosses none (or does not resolve: the general way then names the mistake).
 */
function multiValuedSplit(model: AnyModel, key: string): MultiValuedSplit | undefined {
  const parts = key.split('__');
  let current = model;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    const field = current.getField(part);
    if (field && !field.isRelation) return undefined;
    const hop = relationHop(current, part);
    if (!hop) return undefined;
    if (hop.multiValued) {
      return {
        before: parts.slice(0, i).join('__'),
        path: parts.slice(0, i + 1).join('__'),
        hop,
        rest: parts.slice(i + 1).join('__'),
      };
    }
    current = hop.model;
  }
  return undefined;
}

/**
 * `EXISTS (SELECT 1 FROM <related rows> WHERE <correlated> AND <entries>)`: the entries of a
 * filter through one multi-valued relation, bound on the related model (a many-to-many's join
 * table, its key to the other side leading each path). `rel__isnull` alone: NOT EXISTS / EXISTS.
 */
function existsBinding(
  db: Database,
  joins: JoinSet,
  split: MultiValuedSplit,
  entries: readonly [string, unknown][],
  where: string,
  aliases: AliasCounter,
): LookupBinding {
  const { hop } = split;
  const outerAlias = split.before === '' ? joins.rootAlias : joins.join(split.before, where).alias;
  const first = hop.steps[0] as JoinStep;
  const n = ++aliases.next;
  const alias = `sub${n}`;
  const inner = new JoinSet(first.model, alias, `${alias}_`);
  const filter: Record<string, unknown> = {};
  let missing: boolean | undefined;
  for (const [rest, value] of entries) {
    if (rest === 'isnull') {
      // Whether any related row exists; the other entries, if any, still apply to it.
      missing = Boolean(value);
      continue;
    }
    filter[innerKey(hop, rest)] = value;
  }
  // No related row, and a related row with these values: Django's LEFT JOIN finds neither.
  if (missing === true && Object.keys(filter).length !== 0)
    return { shape: 'never', parameters: [], expression: () => sql<SqlBool>`1 = 0` };
  const parameters: unknown[] = [];
  const bound = bindEntries(db, inner, filter, parameters, where, aliases);
  const correlation = `${alias}.${first.column}`;
  const outer = `${outerAlias}.${first.parentColumn}`;
  const negate = missing === true;
  return {
    shape: `${negate ? '!' : ''}${bound.names}`,
    parameters,
    expression: (eb, values) => {
      const body = filterExpression(
        { negate: false, bindings: bound.bindings, start: 0 },
        (i) => values[i],
      );
      const subquery = applyJoins(eb.selectFrom(`${first.model.table} as ${alias}`), inner)
        .select(sql.lit(1).as('one'))
        .where(eb(eb.ref(correlation), '=', eb.ref(outer)))
        .where(body);
      const exists = eb.exists(subquery);
      return negate ? eb.not(exists) : exists;
    },
  };
}

/**
 * The key of an entry inside the subquery of its relation: a many-to-many's continues from
 * the join table's key to the other side (`tag__name`, `tag__in`, `tag`); a reverse key's is
 * what follows, the primary key standing for the row where only a lookup follows (`pk__in`).
 */
function innerKey(hop: RelationHop, rest: string): string {
  if (hop.throughKey !== undefined)
    return rest === '' ? hop.throughKey : `${hop.throughKey}__${rest}`;
  if (rest === '') return 'pk';
  const head = rest.includes('__') ? rest.slice(0, rest.indexOf('__')) : rest;
  if (hop.model.getField(head) || relationHop(hop.model, head)) return rest;
  return `pk__${rest}`;
}
