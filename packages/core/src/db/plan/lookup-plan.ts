/**
 * Plans of `QuerySet.lookup`, the query of `get()` and of a detail view's `getObject()`: what
 * a lookup of one shape keeps so that later lookups of that shape only bind their values,
 * instead of resolving the filter's paths, preparing the query and keying its shape again.
 *
 * A plan is keyed by the lookup's shape — what it answers (rows, or whether one matches), the
 * database, the model, the related paths, the paging, the shape of the query set's own
 * conditions, the filter's keys and the limit —
 * never by a query set object, so a view whose `getQueryset()` builds a new query set per
 * request finds the plan of the previous one. A plan is used only when every part of the
 * shape equals its own (checked on each use), and only while the filter's values bind to the
 * shapes they had (a `null` or an out-of-range key goes the general way).
 * @module
 */
import type { AnyModel } from '../../models/model.ts';
import type { Database } from '../database.ts';
import { bindLookup, type Lookup, splitLookup } from '../lookups.ts';
import type { Filter, QueryState } from '../query-state.ts';
import type { PreparedSelect } from './prepared-select.ts';
import { JoinSet, type ResolvedColumn } from './query-paths.ts';
import type { SelectPlan } from './select-plan.ts';
import { type CompiledStatement, cachedStatement } from './statement-cache.ts';

/** One key of a planned lookup: its column and lookup, resolved, and the shape it binds to. */
interface LookupEntry {
  readonly key: string;
  readonly column: ResolvedColumn;
  readonly lookup: Lookup;
  readonly shape: string;
}

/**
 * A lookup of one shape (see the module): the parts of its shape, checked on every use, the
 * paging parameters that follow the filter's, the key of its statement, and how to read its
 * rows.
 */
export interface LookupPlan {
  /** What the lookup answers: the rows, or whether there is one (`QuerySet.exists(filter)`). */
  readonly purpose: LookupPurpose;
  readonly limit: number;
  readonly stateLimit: number | null;
  readonly stateOffset: number;
  readonly related: readonly string[];
  /** The fields of `only()`, null for every field. */
  readonly only: readonly string[] | null;
  /** The shape of the query set's own conditions (`BoundWhere.shape`). */
  readonly baseShape: string;
  readonly keys: readonly string[];
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
 * Plans per database and model, then by the filter's keys (`pk`, `slug,owner`), then a short
 * list of shapes. Both levels are bounded: the keys and the shape of a query set's conditions
 * can come from a client (a filter backend applies to detail views too: `?id__in=1,2,3`).
 */
const lookupPlans = new WeakMap<Database, WeakMap<AnyModel, Map<string, LookupPlan[]>>>();
/** Kinds of filter keys per database and model; past it the kinds start over. */
const MAX_KEY_KINDS = 64;
/** Shapes per kind of filter keys; past it the oldest goes. */
const MAX_SHAPES_PER_KIND = 8;

let plansMade = 0;

/**
 * How many lookup plans were made since the process started: for tests, which check that a
 * view's lookups are planned once, not per request.
 */
export function lookupPlansMade(): number {
  return plansMade;
}

/** The filter's keys as one string, the first level of the plans' key. */
export function lookupKindKey(keys: readonly string[]): string {
  return keys.length === 1 ? (keys[0] as string) : keys.join(',');
}

/** The plan of a lookup of this shape (see the module), or undefined. */
export function findLookupPlan(
  purpose: LookupPurpose,
  db: Database,
  model: AnyModel,
  state: QueryState,
  baseShape: string,
  keys: readonly string[],
  kind: string,
  limit: number,
): LookupPlan | undefined {
  const candidates = lookupPlans.get(db)?.get(model)?.get(kind);
  if (candidates === undefined) return undefined;
  for (let i = 0; i < candidates.length; i++) {
    const plan = candidates[i] as LookupPlan;
    if (
      plan.purpose === purpose &&
      plan.limit === limit &&
      plan.stateLimit === state.limit &&
      plan.stateOffset === state.offset &&
      plan.baseShape === baseShape &&
      sameStrings(plan.related, state.related) &&
      (plan.only === state.only ||
        (plan.only !== null && state.only !== null && sameStrings(plan.only, state.only))) &&
      sameStrings(plan.keys, keys)
    )
      return plan;
  }
  return undefined;
}

/**
 * Makes and keeps the plan of a lookup just prepared (`prepared`: the query set's state
 * filtered by `filter`, unordered, sliced to `limit`), unless its SQL could change with more
 * than the shape: a custom condition compiled each time, or a key across a relation.
 */
export function keepLookupPlan(
  purpose: LookupPurpose,
  db: Database,
  model: AnyModel,
  state: QueryState,
  base: { readonly shape: string; readonly count: number },
  filter: Filter,
  keys: readonly string[],
  kind: string,
  limit: number,
  prepared: PreparedSelect,
  select: LookupSelect,
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
    purpose,
    limit,
    stateLimit: state.limit,
    stateOffset: state.offset,
    related: state.related,
    only: state.only,
    baseShape: base.shape,
    keys,
    entries,
    after: prepared.parameters.slice(base.count + count),
    key: prepared.key,
    select,
    where,
  };
  let byModel = lookupPlans.get(db);
  if (!byModel) lookupPlans.set(db, (byModel = new WeakMap()));
  let byKind = byModel.get(model);
  if (!byKind) byModel.set(model, (byKind = new Map()));
  let candidates = byKind.get(kind);
  if (!candidates) {
    if (byKind.size >= MAX_KEY_KINDS) byKind.clear();
    byKind.set(kind, (candidates = []));
  }
  // Several plans of one kind of keys differ in their shape: replace a stale twin, if any.
  const twin = findLookupPlan(purpose, db, model, state, base.shape, keys, kind, limit);
  if (twin) candidates.splice(candidates.indexOf(twin), 1);
  else if (candidates.length >= MAX_SHAPES_PER_KIND) candidates.shift();
  candidates.push(plan);
  plansMade++;
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

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
