/**
 * What `QuerySet.prefetchRelated` runs once the rows are read: for each relation, one
 * statement over the keys of every row (an `IN` list, in chunks past the dialect's parameter
 * limit), its rows shared out to their rows and kept with `setPrefetched` (or in `toAttr`).
 *
 * - A foreign key or one-to-one: the related rows by key (none when `selectRelated` loaded them).
 * - A reverse foreign key or one-to-one: the rows whose key is in the list.
 * - A many-to-many (either side): the join table's rows with the related row joined
 *   (`selectRelated`), so that one statement tells which row each related row belongs to; a
 *   `Prefetch` query set of the related model is moved onto the join table (its conditions,
 *   ordering and related paths behind the join table's key to it).
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyModel } from '../models/model.ts';
import type { AnyModelField } from '../models/model-field.ts';
import { setPrefetched } from '../models/prefetched-rows.ts';
import type { Database } from './database.ts';
import { Prefetch, type PrefetchLookup } from './prefetch.ts';
import type { QuerySet } from './query-set.ts';
import type { Condition, Filter, QueryState } from './query-state.ts';

/** Makes a query set of `model` in `state` (the QuerySet constructor, passed in). */
export type QuerySetMaker = (model: AnyModel, state: QueryState) => QuerySet<AnyModel>;

/** The rows reached at one level of the prefetched paths, and their model. */
interface Level {
  readonly model: AnyModel;
  readonly rows: readonly Record<string, unknown>[];
}

/**
 * Prefetches `lookups` for `rows` of `model` on `db` (see the module). Nested paths
 * (`comments__author`) prefetch level by level; a level two lookups share runs once.
 */
export async function prefetchRelatedRows(
  model: AnyModel,
  rows: readonly object[],
  lookups: readonly PrefetchLookup[],
  db: Database,
  make: QuerySetMaker,
): Promise<void> {
  if (rows.length === 0) return;
  const levels = new Map<string, Level>([['', { model, rows: rows as Level['rows'] }]]);
  for (const lookup of lookups) {
    const path = typeof lookup === 'string' ? lookup : lookup.lookup;
    const parts = path.split('__');
    for (let i = 0; i < parts.length; i++) {
      const prefix = parts.slice(0, i + 1).join('__');
      const own = i === parts.length - 1 && lookup instanceof Prefetch ? lookup : undefined;
      if (levels.has(prefix)) {
        if (own?.queryset || own?.toAttr) {
          throw new ImproperlyConfigured(
            'REST_ERR_PREFETCH',
            `${model.name}.prefetchRelated(): "${prefix}" is prefetched twice; give its Prefetch first, or once.`,
          );
        }
        continue;
      }
      const parent = levels.get(parts.slice(0, i).join('__')) as Level;
      levels.set(prefix, await prefetchLevel(parent, parts[i] as string, own, db, make, path));
    }
  }
}

/** Prefetches the relation `name` of every row of `parent`; answers the rows it reached. */
async function prefetchLevel(
  parent: Level,
  name: string,
  prefetch: Prefetch | undefined,
  db: Database,
  make: QuerySetMaker,
  path: string,
): Promise<Level> {
  const { model, rows } = parent;
  const where = `${model.name}.prefetchRelated("${path}")`;
  const field = model.getField(name);
  const given = prefetch?.queryset ? checkedState(prefetch.queryset, where) : undefined;
  const state = given && { ...given, db: given.db ?? db };
  if (field?.isRelation) return forward(parent, name, field, prefetch, state, db, make);
  const plan = field ? undefined : model.relationPlan(name);
  if (!plan) {
    throw new ImproperlyConfigured(
      'REST_ERR_MODEL_PATH',
      `${where}: ${model.name} has no relation "${name}". Prefetch foreign keys, one-to-ones, many-to-manys and reverse relations (relatedName).`,
    );
  }
  const pk = model.pk.attname;
  const keys = uniqueKeys(rows.map((row) => row[pk]));
  if (plan.kind !== 'many_to_many') {
    // The rows whose key points at ours.
    const source = plan.field;
    const target = source.model;
    if (state && prefetch?.queryset?.model !== target) throw wrongModel(where, target, prefetch);
    const found = await inChunks(db, keys, (chunk) =>
      make(target, withCondition(state ?? baseState(db), { [`${source.name}__in`]: chunk })),
    );
    const groups = groupBy(found, (row) => row[source.attname]);
    share(rows, pk, name, prefetch, groups, plan.kind === 'one_to_one');
    return { model: target, rows: found };
  }
  const { relation, reverse } = plan;
  const own = reverse ? relation.targetField : relation.sourceField;
  const other = reverse ? relation.sourceField : relation.targetField;
  const target = other.relatedModel;
  if (state && prefetch?.queryset?.model !== target) throw wrongModel(where, target, prefetch);
  const throughState = onThrough(state ?? baseState(db), target, other.name);
  const links = await inChunks(db, keys, (chunk) =>
    make(relation.through, withCondition(throughState, { [`${own.name}__in`]: chunk })),
  );
  const groups = new Map<string, Record<string, unknown>[]>();
  const reached: Record<string, unknown>[] = [];
  for (const link of links) {
    const row = link[other.name] as Record<string, unknown> | null | undefined;
    if (!row) continue;
    reached.push(row);
    const key = String(link[own.attname]);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  share(rows, pk, name, prefetch, groups, false);
  // The Prefetch query set's own prefetches, which the join table's query did not run.
  if (state && state.prefetch.length !== 0)
    await prefetchRelatedRows(target, reached, state.prefetch, db, make);
  return { model: target, rows: reached };
}

/** A foreign key or one-to-one of the rows: the related rows by key. */
async function forward(
  parent: Level,
  name: string,
  field: AnyModelField,
  prefetch: Prefetch | undefined,
  state: QueryState | undefined,
  db: Database,
  make: QuerySetMaker,
): Promise<Level> {
  const { rows } = parent;
  const target = field.relatedModel;
  const where = `${parent.model.name}.prefetchRelated("${name}")`;
  if (state && prefetch?.queryset?.model !== target) throw wrongModel(where, target, prefetch);
  const targetPk = target.pk.attname;
  // Rows selectRelated loaded already hold it: no statement.
  const loaded =
    state === undefined && rows.every((row) => isRow(row[name]) || row[field.attname] === null);
  let found: Record<string, unknown>[];
  if (loaded) {
    found = rows.map((row) => row[name]).filter(isRow);
  } else {
    const keys = uniqueKeys(rows.map((row) => row[field.attname]));
    found = await inChunks(db, keys, (chunk) =>
      make(target, withCondition(state ?? baseState(db), { pk__in: chunk })),
    );
  }
  const byKey = new Map<string, Record<string, unknown>[]>();
  for (const row of found) byKey.set(String(row[targetPk]), [row]);
  share(rows, field.attname, name, prefetch, byKey, true);
  return { model: target, rows: found };
}

/**
 * Gives each row its group (by `key`, the row's attribute the groups are keyed by): in the
 * prefetch cache under `name`, or in `toAttr`; a relation to one row also sets `name` (or
 * `toAttr`) to the row or null, as `selectRelated` does.
 */
function share(
  rows: readonly Record<string, unknown>[],
  key: string,
  name: string,
  prefetch: Prefetch | undefined,
  groups: ReadonlyMap<string, readonly Record<string, unknown>[]>,
  single: boolean,
): void {
  const toAttr = prefetch?.toAttr;
  for (const row of rows) {
    const value = row[key];
    const group =
      (value === null || value === undefined ? undefined : groups.get(String(value))) ?? [];
    if (toAttr !== undefined) {
      row[toAttr] = single ? (group[0] ?? null) : [...group];
      continue;
    }
    setPrefetched(row, name, group);
    if (single) row[name] = group[0] ?? null;
  }
}

function isRow(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}

function uniqueKeys(values: readonly unknown[]): unknown[] {
  const seen = new Map<string, unknown>();
  for (const value of values) {
    if (value === null || value === undefined) continue;
    const text = String(value);
    if (!seen.has(text)) seen.set(text, value);
  }
  return [...seen.values()];
}

function groupBy(
  rows: readonly Record<string, unknown>[],
  key: (row: Record<string, unknown>) => unknown,
): Map<string, Record<string, unknown>[]> {
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const row of rows) {
    const value = String(key(row));
    const group = groups.get(value);
    if (group) group.push(row);
    else groups.set(value, [row]);
  }
  return groups;
}

/**
 * The rows of the query sets `query` makes for the keys, a chunk at a time: one statement
 * unless the keys pass the dialect's parameter limit (with room for the query's own).
 */
async function inChunks(
  db: Database,
  keys: readonly unknown[],
  query: (chunk: unknown[]) => QuerySet<AnyModel>,
): Promise<Record<string, unknown>[]> {
  if (keys.length === 0) return [];
  const size = Math.max(1, db.adapter.maxParameters - 1000);
  const rows: Record<string, unknown>[] = [];
  for (let start = 0; start < keys.length; start += size) {
    const found = await query(keys.slice(start, start + size)).execute();
    for (const row of found) rows.push(row as Record<string, unknown>);
  }
  return rows;
}

/** The state of a plain query of the related model on `db`. */
function baseState(db: Database): QueryState {
  return {
    conditions: [],
    order: null,
    limit: null,
    offset: 0,
    related: [],
    only: null,
    distinct: false,
    prefetch: [],
    db,
  };
}

/** The state of a Prefetch's query set, refused when sliced (a slice per row is no one query). */
function checkedState(queryset: QuerySet<AnyModel>, where: string): QueryState {
  const state = queryset.queryState;
  if (state.limit !== null || state.offset !== 0) {
    throw new ImproperlyConfigured(
      'REST_ERR_PREFETCH',
      `${where}: the Prefetch query set is sliced; a prefetch loads every related row of the page's rows in one statement. Remove slice(), or slice the rows where you read them.`,
    );
  }
  return state;
}

function wrongModel(
  where: string,
  target: AnyModel,
  prefetch: Prefetch | undefined,
): ImproperlyConfigured {
  return new ImproperlyConfigured(
    'REST_ERR_PREFETCH',
    `${where}: the Prefetch query set is of ${prefetch?.queryset?.model.name}; the relation holds ${target.name} rows. Give a query set of ${target.name}.`,
  );
}

function withCondition(state: QueryState, filter: Filter): QueryState {
  return {
    ...state,
    conditions: [...state.conditions, { kind: 'filter', negate: false, filter }],
  };
}

/**
 * A query set's state over the related model moved onto a join table whose key `key` points
 * at that model: every path of its conditions, ordering, related rows and `only` behind
 * `key__`, and the related row joined (`selectRelated(key)`).
 */
function onThrough(state: QueryState, target: AnyModel, key: string): QueryState {
  const behind = (path: string) => `${key}__${path}`;
  const filter = (f: Filter): Filter =>
    Object.fromEntries(Object.entries(f).map(([k, v]) => [behind(k), v]));
  const conditions: Condition[] = state.conditions.map((condition) => {
    if (condition.kind === 'filter') return { ...condition, filter: filter(condition.filter) };
    if (condition.kind === 'any') return { ...condition, filters: condition.filters.map(filter) };
    const { build, shape } = condition;
    return {
      kind: 'custom',
      build: (eb, ref, values) => build(eb, (path) => ref(behind(path)), values),
      shape: shape && { key: `${key}>${shape.key}`, parameters: shape.parameters },
    };
  });
  const order = (state.order ?? target.ordering).map((term) =>
    term.startsWith('-') ? `-${behind(term.slice(1))}` : behind(term),
  );
  return {
    ...state,
    conditions,
    order,
    related: [key, ...state.related.map(behind)],
    only: state.only === null ? null : state.only.map(behind),
    distinct: false,
    prefetch: [],
  };
}
