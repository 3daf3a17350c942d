/**
 * Plans of `QuerySet.lookup`, the query of `get()` and of a detail view's `getObject()`: what
 * a lookup of one shape keeps so that later lookups of that shape only bind their values,
 * instead of resolving the filter's paths, preparing the query and keying its shape again.
 *
 * A plan is kept by the database and the model under the lookup's identity: what it answers
 * (rows, or whether one matches), the limit, the filter's keys, and the query set's state as a
 * whole (`stateIdentity`: every property of it, the conditions by their shape) — never by a
 * query set object, so a view whose `getQueryset()` builds a new query set per request finds
 * the plan of the previous one, and a property added to the state changes the identity
 * without being listed here. A plan is used only while the filter's values bind to the shapes
 * they had (a `null` or an out-of-range key goes the general way).
 * @module
 */
import type { AnyModel } from '../../models/model.ts';
import type { BoundedCache } from '../../utils/bounded-cache.ts';
import type { Database } from '../database.ts';
import { bindLookup, type Lookup, splitLookup } from '../lookups.ts';
import { type Filter, type QueryState, stateIdentity, valueIdentity } from '../query-state.ts';
import type { PreparedSelect } from './prepared-select.ts';
import { JoinSet, type ResolvedColumn } from './query-paths.ts';
import type { SelectPlan } from './select-plan.ts';
import { type CompiledStatement, cachedStatement, modelKey } from './statement-cache.ts';

/** One key of a planned lookup: its column and lookup, resolved, and the shape it binds to. */
interface LookupEntry {
  readonly key: string;
  readonly column: ResolvedColumn;
  readonly lookup: Lookup;
  readonly shape: string;
}

/**
 * A lookup of one shape (see the module): the paging parameters that follow the filter's,
 * the key of its statement, and how to read its rows. It is found by its identity (see
 * {@link lookupIdentity}), never by comparing some of its parts.
 */
export interface LookupPlan {
  readonly entries: readonly LookupEntry[];
  /** The paging parameters, on dialects that bind LIMIT and OFFSET: after the conditions'. */
  readonly after: readonly unknown[];
  /** The statement cache's key of its SQL. */
  readonly key: string;
  readonly select: LookupSelect;
  /** Where the conditions come from, for error messages (`Book.filter()`). */
  readonly where: string;
}

/** What a lookup answers: its rows, or whether a row matches. */
export type LookupPurpose = 'rows' | 'exists';

/** What a lookup selects and how its rows are read: a model's `SelectPlan`, or the key alone. */
export type LookupSelect = Pick<SelectPlan, 'select' | 'read'>;

/**
 * Lookup plans a database keeps (`db.caches`, 'lookup plans'), by model and identity. Bounded:
 * the keys and the shape of a query set's conditions can come from a client (a filter backend
 * applies to detail views too: `?id__in=1,2,3`); past the bound the oldest goes.
 */
export const MAX_LOOKUP_PLANS = 512;

/** `db`'s lookup plans, by identity. */
function plansOf(db: Database): BoundedCache<string, LookupPlan> {
  return db.caches.cache<string, LookupPlan>('lookup plans', MAX_LOOKUP_PLANS);
}

/**
 * The identity of a lookup (see the module): its model, what it answers, its limit, the
 * filter's keys, and the query set's state as a whole (`stateIdentity`, its conditions by
 * `conditionsShape`).
 * Null when the state has no identity: the lookup is then never planned. For a lookup by
 * `pk` on `Book.objects`: `books_book#1|rows|2|2:pk||order=~|limit=~|offset=0|related=[]|only=~`.
 */
export function lookupIdentity(
  model: AnyModel,
  purpose: LookupPurpose,
  limit: number,
  keys: readonly string[],
  state: QueryState,
  conditionsShape: string,
): string | null {
  const identity = stateIdentity(state, conditionsShape);
  if (identity === null) return null;
  const keyPart =
    keys.length === 1 ? `${(keys[0] as string).length}:${keys[0]}` : valueIdentity(keys);
  return `${modelKey(model)}|${purpose}|${limit}|${keyPart}|${identity}`;
}

/** The plan of the lookup of this identity (see {@link lookupIdentity}), or undefined. */
export function findLookupPlan(db: Database, identity: string): LookupPlan | undefined {
  return plansOf(db).get(identity);
}

/** What {@link keepLookupPlan} plans from: a lookup just prepared the general way. */
export interface PlannedLookup {
  /** How many parameters the query set's own conditions bind (they come first). */
  readonly conditionsCount: number;
  readonly filter: Filter;
  readonly keys: readonly string[];
  /** The query set's state filtered by `filter`, unordered, sliced to the lookup's limit. */
  readonly prepared: PreparedSelect;
  readonly select: LookupSelect;
}

/**
 * Makes and keeps the plan of the lookup of `identity`, unless its SQL could change with more
 * than the shape: a custom condition compiled each time, or a key across a relation.
 */
export function keepLookupPlan(
  db: Database,
  model: AnyModel,
  identity: string,
  { conditionsCount, filter, keys, prepared, select }: PlannedLookup,
): void {
  if (prepared.key === null) return;
  const where = `${model.name}.filter()`;
  const joins = new JoinSet(model);
  const entries: LookupEntry[] = [];
  let count = 0;
  for (const key of keys) {
    const { column, lookup } = splitLookup(joins, key, where);
    // A key across a relation joins: keep to the general way.
    if (!column.local) return;
    const binding = bindLookup(db.adapter, column, lookup, filter[key], where);
    entries.push({ key, column, lookup, shape: binding.shape });
    count += binding.parameters.length;
  }
  const plan: LookupPlan = {
    entries,
    after: prepared.parameters.slice(conditionsCount + count),
    key: prepared.key,
    select,
    where,
  };
  plansOf(db).set(identity, plan);
}

/**
 * The statement of a planned lookup with `filter`'s values, its parameters following
 * `before` (the query set's own, which this adds to), or undefined when a value binds to
 * another shape than the plan's.
 */
export function boundLookup(
  db: Database,
  plan: LookupPlan,
  filter: Filter,
  before: unknown[],
): CompiledStatement | undefined {
  const parameters = before;
  const { entries } = plan;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as LookupEntry;
    const binding = bindLookup(
      db.adapter,
      entry.column,
      entry.lookup,
      filter[entry.key],
      plan.where,
    );
    if (binding.shape !== entry.shape) return undefined;
    const values = binding.parameters;
    for (let v = 0; v < values.length; v++) parameters.push(values[v]);
  }
  for (let i = 0; i < plan.after.length; i++) parameters.push(plan.after[i]);
  return cachedStatement(db, plan.key, parameters);
}
