/**
 * Query sets: immutable, lazily executed queries over one model, in Django's vocabulary.
 *
 * @example
 * ```ts
 * const page = await Profile.objects
 *   .selectRelated('user')
 *   .filter({ user__username__icontains: 'ali' })
 *   .orderBy('-user__email')
 *   .slice(0, 100)
 *   .execute();
 * const total = await Book.objects.filter({ pages__gte: 100 }).count();
 * const book = await Book.objects.get({ pk: 1 }); // throws DoesNotExist
 * ```
 * @module
 */
import {
  type Compilable,
  CompiledQuery,
  type Expression,
  type ExpressionBuilder,
  expressionBuilder,
  type OperationNodeSource,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyModel, Row } from '../models/model.ts';
import type { AnyModelField } from '../models/model-field.ts';
import { Database } from './database.ts';
import { DoesNotExist, MultipleObjectsReturned } from './database-errors.ts';
import type { ValueReader } from './dialect-adapter.ts';
import { bindLookup, type Lookup, type LookupBinding, splitLookup } from './lookups.ts';
import { JoinSet, type ResolvedColumn } from './query-paths.ts';
import {
  type ColumnRead,
  compileRowReader,
  type RelatedRead,
  type RowReader,
} from './row-reader.ts';
import {
  type CompiledStatement,
  cachedStatement,
  compileStatement,
  type Slot,
} from './statement-cache.ts';

/** Filter conditions: `{ field: value, relation__field__lookup: value }`, combined with AND. */
export type Filter = Readonly<Record<string, unknown>>;

/** A resolved ordering term, as pagination needs it. */
export interface OrderTerm {
  /** The path as written, without `-` (`user__email`). */
  readonly path: string;
  readonly descending: boolean;
  readonly column: ResolvedColumn;
}

/** Resolves paths while a custom condition is built (see {@link QuerySet.where}). */
export type ColumnRef = (path: string) => Expression<any>;

/**
 * Builds a custom condition (see {@link QuerySet.where}). `values` stand for the parameters
 * given with the condition's shape, in their order; use them, not the parameters themselves.
 */
export type ConditionBuilder = (
  eb: ExpressionBuilder<any, any>,
  ref: ColumnRef,
  values: readonly unknown[],
) => Expression<SqlBool>;

/**
 * The shape of a custom condition, which lets its SQL be compiled once: `key` must tell apart
 * every SQL the builder can make (it may use nothing else to decide what it builds), and
 * `parameters` are the values, which the builder reads from its `values` argument.
 */
export interface ConditionShape {
  readonly key: string;
  readonly parameters: readonly unknown[];
}

type Condition =
  | { readonly kind: 'filter'; readonly negate: boolean; readonly filter: Filter }
  | { readonly kind: 'any'; readonly filters: readonly Filter[] }
  | {
      readonly kind: 'custom';
      readonly build: ConditionBuilder;
      readonly shape: ConditionShape | undefined;
    };

interface State {
  readonly conditions: readonly Condition[];
  /** null: the model's default ordering. */
  readonly order: readonly string[] | null;
  readonly limit: number | null;
  readonly offset: number;
  readonly related: readonly string[];
  readonly db: Database | null;
}

const INITIAL: State = {
  conditions: [],
  order: null,
  limit: null,
  offset: 0,
  related: [],
  db: null,
};

/** What a query needs besides its state: ordering, paging, related rows, extra parameters. */
interface PrepareOptions {
  readonly ordered: boolean;
  readonly paged?: boolean;
  readonly related?: boolean;
  /** Parameters the finishing step adds (`LIMIT 1` of exists()), after the query's own. */
  readonly extra?: readonly unknown[];
}

interface SelectPlan {
  readonly columns: readonly string[];
  /** The select list as Kysely nodes, parsed once (Kysely would parse the strings per query). */
  readonly selections: readonly OperationNodeSource[];
  readonly read: (raw: Record<string, unknown>) => Record<string, unknown>;
  /** Adds the select list to a query (made once, not per query). */
  readonly select: (query: SelectQueryBuilder<any, any, any>) => Compilable<any>;
}

/** What a SELECT of rows needs: the ordering, the paging and the related rows. */
const SELECT_OPTIONS: PrepareOptions = { ordered: true, paged: true, related: true };

// Built once per model, dialect and related paths: the column list and the row reader.
const plans = new WeakMap<AnyModel, Map<string, SelectPlan>>();

/**
 * A model's part of a statement's cache key: its table and a number of its own. Two models of
 * one table (a migration's historical model and today's, in one process) have different
 * columns, so they must not share compiled SQL.
 */
const modelKeys = new WeakMap<AnyModel, string>();
let modelCount = 0;
function modelKey(model: AnyModel): string {
  let key = modelKeys.get(model);
  if (key === undefined) modelKeys.set(model, (key = `${model.table}#${++modelCount}`));
  return key;
}

// Kysely's expression builder holds no state; making one per query (it creates dozens of
// closures) was 5 % of the CPU time of a detail request.
const EB = expressionBuilder<any, any>();

/**
 * A query over one model. Every method returns a new query set; nothing runs until
 * `execute`, `count`, `exists`, `get`, `first`, `create`, `update` or `delete`.
 */
export class QuerySet<M extends AnyModel = AnyModel> {
  readonly model: M;
  readonly #state: State;

  constructor(model: M, state: State = INITIAL) {
    this.model = model;
    this.#state = state;
  }

  /**
   * A query set with new state. The state is built here with every key in one order and
   * without reading a patch object: patches of a dozen shapes made every read of one
   * megamorphic, and a request derives several query sets.
   */
  #derive(
    conditions: readonly Condition[],
    order: readonly string[] | null,
    limit: number | null,
    offset: number,
    related: readonly string[],
    db: Database | null,
  ): QuerySet<M> {
    return new QuerySet(this.model, { conditions, order, limit, offset, related, db });
  }

  #withCondition(condition: Condition): QuerySet<M> {
    const s = this.#state;
    return this.#derive([...s.conditions, condition], s.order, s.limit, s.offset, s.related, s.db);
  }

  /** A copy of this query set. */
  all(): QuerySet<M> {
    // The state is never changed, only replaced: the copy shares it.
    return new QuerySet(this.model, this.#state);
  }

  /** Keeps rows matching every condition (`{ title: 'x', pages__gte: 100 }`). */
  filter(filter: Filter): QuerySet<M> {
    return this.#withCondition({ kind: 'filter', negate: false, filter });
  }

  /** Drops rows matching every condition. */
  exclude(filter: Filter): QuerySet<M> {
    return this.#withCondition({ kind: 'filter', negate: true, filter });
  }

  /**
   * Keeps rows matching at least one of `filters` (each an AND of its entries), as Django's
   * `Q(a) | Q(b)`; no filters keeps no row.
   *
   * @example
   * ```ts
   * Book.objects.filterAny([{ title__icontains: 'dune' }, { isbn__istartswith: 'dune' }]);
   * ```
   */
  filterAny(filters: readonly Filter[]): QuerySet<M> {
    return this.#withCondition({ kind: 'any', filters });
  }

  /**
   * Keeps rows matching a condition built with Kysely's expression builder. `ref(path)`
   * resolves a declared `relation__field` path (and joins); it throws on any other name, so
   * client input can never become an identifier here.
   *
   * Without `shape` the query is built and compiled on every run. With it, its SQL is compiled
   * once per shape key and the builder gets stand-ins for the parameters as `values`:
   *
   * @example
   * ```ts
   * Book.objects.where((eb, ref, [isbn]) => eb(ref('isbn'), '>', isbn), {
   *   key: 'isbn-after',
   *   parameters: ['978-0'],
   * });
   * ```
   */
  where(build: ConditionBuilder, shape?: ConditionShape): QuerySet<M> {
    return this.#withCondition({ kind: 'custom', build, shape });
  }

  /** Replaces the ordering: field names or relation paths, `-` for descending. */
  orderBy(...terms: string[]): QuerySet<M> {
    const s = this.#state;
    return this.#derive(s.conditions, terms, s.limit, s.offset, s.related, s.db);
  }

  /** The ordering that applies: the explicit one, else the model's default. */
  get ordering(): readonly string[] {
    return this.#state.order ?? this.model.ordering;
  }

  /** True when an explicit ordering was set (even an empty one). */
  get isExplicitlyOrdered(): boolean {
    return this.#state.order !== null;
  }

  /**
   * The ordering, resolved; a term on the primary key or on a unique NOT NULL column of the
   * model makes it total. Throws `ImproperlyConfigured` on a path that does not resolve.
   */
  resolveOrdering(
    terms: readonly string[] = this.ordering,
    joins = new JoinSet(this.model),
  ): OrderTerm[] {
    return terms.map((term) => {
      const descending = term.startsWith('-');
      const path = descending ? term.slice(1) : term;
      return { path, descending, column: joins.resolve(path, `${this.model.name} ordering`) };
    });
  }

  /**
   * The same query with the primary key appended to its ordering when the ordering does not
   * already identify rows uniquely, so that pages are stable and walk every row once.
   */
  withStableOrdering(): QuerySet<M> {
    const terms = this.ordering;
    const resolved = this.resolveOrdering(terms);
    const unique = resolved.some(
      (t) => t.column.local && t.column.field.unique && !t.column.field.nullable,
    );
    return unique ? this : this.orderBy(...terms, this.model.pk.name);
  }

  /** Loads related rows with the same query (`profile.user`), by LEFT JOIN. */
  selectRelated(...paths: string[]): QuerySet<M> {
    const related = [...new Set([...this.#state.related, ...paths])];
    const s = this.#state;
    return this.#derive(s.conditions, s.order, s.limit, s.offset, related, s.db);
  }

  /** Rows `start` (inclusive) to `end` (exclusive), like Python's slicing. */
  slice(start: number, end?: number): QuerySet<M> {
    integer(start);
    if (end !== undefined) integer(end);
    const base = this.#state.offset;
    const offset = base + Math.max(0, start);
    let limit = end === undefined ? null : Math.max(0, end - Math.max(0, start));
    if (this.#state.limit !== null) {
      const remaining = Math.max(0, this.#state.limit - Math.max(0, start));
      limit = limit === null ? remaining : Math.min(limit, remaining);
    }
    const s = this.#state;
    return this.#derive(s.conditions, s.order, limit, offset, s.related, s.db);
  }

  /** Runs on `db` instead of the current database. */
  using(db: Database): QuerySet<M> {
    const s = this.#state;
    return this.#derive(s.conditions, s.order, s.limit, s.offset, s.related, db);
  }

  /** The database this query runs on: the chosen one, the request's, or the default. */
  get db(): Database {
    const db = this.#state.db ?? Database.current();
    if (!db) {
      throw new ImproperlyConfigured(
        'REST_ERR_NO_DATABASE',
        `No database for a query on ${this.model.name}: register the restFramework plugin with a database, ` +
          'call Database.setDefault(db), or use .using(db).',
      );
    }
    return db;
  }

  /** The compiled SELECT (SQL text and parameters), for tests and EXPLAIN. */
  compile(): { sql: string; parameters: readonly unknown[] } {
    const db = this.db;
    return this.#selectStatement(db, selectPlan(this.model, db, this.#state.related));
  }

  /** The query plan of the SELECT. */
  explain(): Promise<string[]> {
    return this.db.explain(this.compile());
  }

  /** Runs the query and returns its rows. */
  async execute(): Promise<Row<M>[]> {
    const db = this.db;
    const plan = selectPlan(this.model, db, this.#state.related);
    const statement = this.#selectStatement(db, plan);
    // Awaited only when the driver answered with a promise: an await costs a microtask turn.
    let raw = this.#query(db, statement);
    if (!Array.isArray(raw)) raw = await raw;
    return readRows(plan, raw) as Row<M>[];
  }

  /**
   * The rows matching `filter`, in no particular order, at most `limit`: the query of `get()`
   * and of a detail view's `getObject()`. The rows at once where the driver answered
   * synchronously (SQLite, its connection idle), else a promise of them (see
   * `Database.queryNow`).
   *
   * The SQL is found once per query set state, filter keys and database: later lookups of the
   * same kind (the next request's `pk`) only bind their values, instead of resolving the
   * filter's paths and keying the query's shape again.
   *
   * @example
   * ```ts
   * let rows = Book.objects.lookup({ pk: 1 });
   * if (!Array.isArray(rows)) rows = await rows;
   * ```
   */
  lookup(filter: Filter, limit = 2): Row<M>[] | Promise<Row<M>[]> {
    const db = this.db;
    const keys = Object.keys(filter);
    const planKey = keys.length === 1 ? (keys[0] as string) : keys.join(',');
    const plan = lookupPlans.get(this.model)?.get(this.#state)?.get(planKey);
    if (plan !== undefined && plan.db === db && plan.limit === limit) {
      const statement = boundLookup(plan, filter);
      if (statement) return this.#rows(db, plan.select, statement);
    }
    return this.#lookupAndPlan(db, filter, keys, planKey, limit);
  }

  /** A lookup the general way; its plan is kept when its shape allows one. */
  #lookupAndPlan(
    db: Database,
    filter: Filter,
    keys: readonly string[],
    planKey: string,
    limit: number,
  ): Row<M>[] | Promise<Row<M>[]> {
    // No ORDER BY, as Django's get(): sorting the one or two rows found costs SQLite five
    // times the lookup itself (28 µs instead of 5 µs for a primary key).
    const query = this.filter(filter).orderBy().slice(0, limit);
    const select = selectPlan(this.model, db, this.#state.related);
    const prepared = query.#prepare(db, 'select', SELECT_OPTIONS);
    const statement = query.#compiled(db, prepared, select.select);
    const plan = prepared.key === null ? undefined : this.#planLookup(db, filter, keys, prepared);
    if (plan) {
      let byState = lookupPlans.get(this.model);
      if (!byState) lookupPlans.set(this.model, (byState = new WeakMap()));
      let byKeys = byState.get(this.#state);
      if (!byKeys) byState.set(this.#state, (byKeys = new Map()));
      // A caller can vary the keys of its filters: keep a bounded number of kinds per state.
      if (byKeys.size >= MAX_LOOKUP_PLANS) byKeys.clear();
      byKeys.set(planKey, { ...plan, db, limit, select });
    }
    return this.#rows(db, select, statement);
  }

  /**
   * What a lookup of this state by `filter`'s keys keeps (see {@link LookupPlan}), or
   * undefined when its SQL could change with more than the filter's values: a custom
   * condition compiled each time, or a key across a relation (its join is part of the SQL).
   */
  #planLookup(
    db: Database,
    filter: Filter,
    keys: readonly string[],
    prepared: PreparedSelect,
  ): Omit<LookupPlan, 'db' | 'limit' | 'select'> | undefined {
    const where = `${this.model.name}.filter()`;
    const joins = new JoinSet(this.model);
    const base = bindWhere(this.model, this.#state.conditions, db, joins);
    if (!base.cacheable) return undefined;
    const entries: LookupEntry[] = [];
    let count = 0;
    for (const key of keys) {
      const { column, lookup } = splitLookup(joins, key, where);
      if (!column.local) return undefined;
      const binding = bindLookup(db.adapter, column, lookup, filter[key], where);
      entries.push({ key, column, lookup, shape: binding.shape });
      count += binding.parameters.length;
    }
    return {
      entries,
      before: base.parameters,
      // The paging parameters, on dialects that bind LIMIT and OFFSET: after the conditions'.
      after: prepared.parameters.slice(base.parameters.length + count),
      key: prepared.key as string,
      where,
    };
  }

  /** Runs a statement and reads its rows: at once when the driver answered at once. */
  #rows(
    db: Database,
    plan: SelectPlan,
    statement: CompiledStatement,
  ): Row<M>[] | Promise<Row<M>[]> {
    const raw = this.#query(db, statement);
    if (Array.isArray(raw)) return readRows(plan, raw) as Row<M>[];
    return raw.then((rows) => readRows(plan, rows) as Row<M>[]);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Row<M>> {
    yield* await this.execute();
  }

  /** The number of rows (ordering ignored; limit and offset respected). */
  async count(): Promise<number> {
    const db = this.db;
    const { limit, offset } = this.#state;
    const paged = limit !== null || offset !== 0;
    const statement = this.#statement(
      db,
      paged ? 'count-paged' : 'count',
      { ordered: false, paged },
      (query) =>
        paged
          ? db.executor
              .selectFrom(query.select(this.#pkRef).as('sub'))
              .select((eb) => eb.fn.countAll().as('count'))
          : query.select((eb) => eb.fn.countAll().as('count')),
    );
    let rows = this.#query(db, statement);
    if (!Array.isArray(rows)) rows = await rows;
    return Number((rows[0] as { count: unknown }).count);
  }

  /** True when at least one row matches. */
  async exists(): Promise<boolean> {
    const db = this.db;
    const statement = this.#statement(db, 'exists', { ordered: false }, (query) =>
      query.select(this.#pkRef).limit(sql.lit(1)),
    );
    let rows = this.#query(db, statement);
    if (!Array.isArray(rows)) rows = await rows;
    return rows.length > 0;
  }

  /**
   * The one row matching `filter` (the query's ordering does not apply); throws
   * `DoesNotExist` or `MultipleObjectsReturned`.
   */
  async get(filter?: Filter): Promise<Row<M>> {
    let rows = filter ? this.lookup(filter) : this.orderBy().slice(0, 2).execute();
    if (!Array.isArray(rows)) rows = await rows;
    if (rows.length === 0) throw new DoesNotExist(this.model);
    if (rows.length > 1)
      throw new MultipleObjectsReturned(`get() on ${this.model.name} returned more than one row.`);
    return rows[0] as Row<M>;
  }

  /** The first row in the query's ordering (the primary key when it has none), or undefined. */
  async first(): Promise<Row<M> | undefined> {
    const qs = this.ordering.length ? this : this.orderBy(this.model.pk.name);
    return (await qs.slice(0, 1).execute())[0];
  }

  /**
   * Inserts one row and returns it as stored. Missing values take the field's default;
   * relations accept `user_id: 1`.
   */
  async create(values: Partial<Row<M>> & Record<string, unknown>): Promise<Row<M>> {
    const db = this.db;
    const data = values as Record<string, unknown>;
    this.#checkFieldNames(data, 'create()');
    const insert: Record<string, unknown> = {};
    const now = new Date().toISOString();
    for (const field of this.model.fieldList) {
      let value = Object.hasOwn(data, field.attname) ? data[field.attname] : undefined;
      if (value === undefined && field.attname !== field.name && Object.hasOwn(data, field.name)) {
        value = relatedKey(data[field.name]);
      }
      if (value === undefined) {
        if (field.kind === 'auto') continue;
        if (field.kind === 'datetime' && (field.extra.autoNow || field.extra.autoNowAdd))
          value = now;
        else value = implicitDefault(field);
      } else if (field.kind === 'datetime' && field.extra.autoNow) {
        value = now;
      }
      if (value !== undefined) insert[field.column] = db.adapter.toDb(field, value);
    }
    const plan = selectPlan(this.model, db, []);
    const columns = Object.keys(insert);
    const returning = db.adapter.returning;
    const statement = compileStatement(
      db,
      `insert|${modelKey(this.model)}|${columns.join(',')}`,
      Object.values(insert),
      (slot) => {
        const query = db.executor
          .insertInto(this.model.table)
          .values(Object.fromEntries(columns.map((column, i) => [column, slot(i)])));
        return returning ? query.returning(returningColumns(this.model)) : query;
      },
    );
    if (!returning) {
      const result = await this.#run(db, () =>
        db.executor.executeQuery(CompiledQuery.raw(statement.sql, [...statement.parameters])),
      );
      const pk = this.model.pk;
      return this.#readBack(db, pk.column in insert ? insert[pk.column] : Number(result.insertId));
    }
    let rows = this.#query(db, statement);
    if (!Array.isArray(rows)) rows = await rows;
    return plan.read(rows[0] as Record<string, unknown>) as Row<M>;
  }

  /**
   * Writes `changes` to the row with `row`'s primary key — only the columns in `changes`, so
   * that writers of different columns never undo each other — and returns the row as stored.
   * Throws `DoesNotExist` when the row is gone.
   *
   * By default a column is written even when `row` already holds its value: `row` may be
   * stale, and skipping it would lose this write to one made in between (a PATCH means "set
   * it"). `skipUnchanged` leaves out the columns whose value equals `row`'s (a PUT sends every
   * field, and an unchanged one means "keep it", so a concurrent writer of it is not undone).
   */
  async updateRow(
    row: Row<M>,
    changes: Partial<Row<M>> & Record<string, unknown>,
    options: { readonly skipUnchanged?: boolean } = {},
  ): Promise<Row<M>> {
    const db = this.db;
    const current = row as Record<string, unknown>;
    this.#checkFieldNames(changes, 'updateRow()');
    const values: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(changes)) {
      const field = this.model.getField(key);
      if (!field || field.isPrimaryKey) continue;
      const attname = field.attname;
      const next = attname !== key ? relatedKey(value) : value;
      if (options.skipUnchanged && Object.hasOwn(current, attname) && current[attname] === next)
        continue;
      values[field.column] = db.adapter.toDb(field, next);
    }
    for (const field of this.model.fieldList) {
      if (field.kind === 'datetime' && field.extra.autoNow)
        values[field.column] = new Date().toISOString();
    }
    const pk = current[this.model.pk.attname];
    if (Object.keys(values).length === 0) {
      return this.filter({ pk }).get();
    }
    const plan = selectPlan(this.model, db, []);
    const columns = Object.keys(values);
    const returning = db.adapter.returning;
    const statement = compileStatement(
      db,
      `update|${modelKey(this.model)}|${columns.join(',')}`,
      [...Object.values(values), pk],
      (slot) => {
        const query = db.executor
          .updateTable(this.model.table)
          .set(Object.fromEntries(columns.map((column, i) => [column, slot(i)])))
          .where(this.model.pk.column, '=', slot(columns.length));
        return returning ? query.returning(returningColumns(this.model)) : query;
      },
    );
    if (!returning) {
      const rows = this.#query(db, statement);
      if (!Array.isArray(rows)) await rows;
      return this.#readBack(db, pk);
    }
    let rows = this.#query(db, statement);
    if (!Array.isArray(rows)) rows = await rows;
    if (rows.length === 0) throw new DoesNotExist(this.model);
    return plan.read(rows[0] as Record<string, unknown>) as Row<M>;
  }

  /**
   * The row with primary key `pk` as stored, where the dialect has no RETURNING: read in the
   * current transaction, if any, right after the write (see `DialectAdapter.returning`).
   */
  async #readBack(db: Database, pk: unknown): Promise<Row<M>> {
    // One query set per database and model, so that its lookup is planned once.
    let byModel = readBackSets.get(db);
    if (!byModel) readBackSets.set(db, (byModel = new WeakMap()));
    let query = byModel.get(this.model);
    if (!query) byModel.set(this.model, (query = new QuerySet(this.model).using(db).orderBy()));
    let rows = query.lookup({ pk }, 1) as Row<M>[] | Promise<Row<M>[]>;
    if (!Array.isArray(rows)) rows = await rows;
    if (rows.length === 0) throw new DoesNotExist(this.model);
    return rows[0] as Row<M>;
  }

  /** Deletes the row with `row`'s primary key; returns false when it was already gone. */
  async deleteRow(row: Row<M>): Promise<boolean> {
    const pk = (row as Record<string, unknown>)[this.model.pk.attname];
    return (await this.filter({ pk }).delete()) > 0;
  }

  /** Sets `values` on every matching row; returns how many rows changed. */
  async update(values: Partial<Row<M>> & Record<string, unknown>): Promise<number> {
    const db = this.db;
    const set: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values)) {
      const field = this.model.getField(key);
      if (!field) throw this.#unknownField('update()', key);
      set[field.column] = db.adapter.toDb(field, field.attname !== key ? relatedKey(value) : value);
    }
    const query = db.executor.updateTable(this.model.table).set(set).where(this.#matching(db));
    const result = await this.#run(db, () => query.executeTakeFirst());
    return Number(result.numUpdatedRows);
  }

  /** Deletes every matching row; returns how many. */
  async delete(): Promise<number> {
    const db = this.db;
    const query = db.executor.deleteFrom(this.model.table).where(this.#matching(db));
    const result = await this.#run(db, () => query.executeTakeFirst());
    return Number(result.numDeletedRows);
  }

  /**
   * Every key of `data` must be a field of the model (its name or, for a relation, its
   * column's name `user_id`): a misspelt key would otherwise be dropped without a word, as
   * Django's `TypeError: Book() got unexpected keyword arguments`.
   */
  #checkFieldNames(data: Record<string, unknown>, where: string): void {
    for (const key in data) {
      if (!Object.hasOwn(data, key)) continue;
      if (!this.model.getField(key)) throw this.#unknownField(where, key);
    }
  }

  #unknownField(where: string, key: string): ImproperlyConfigured {
    return new ImproperlyConfigured(
      'REST_ERR_MODEL_PATH',
      `${this.model.name}.objects.${where}: ${this.model.name} has no field "${key}". ` +
        `Fields: ${this.model.fieldList.map((f: AnyModelField) => f.name).join(', ')}.`,
    );
  }

  get #pkRef(): string {
    return `${this.model.table}.${this.model.pk.column}`;
  }

  // UPDATE and DELETE cannot join; they select the keys of the matching rows instead.
  #matching(db: Database): Expression<SqlBool> {
    const eb = EB;
    const { conditions, limit, offset } = this.#state;
    if (conditions.length === 0 && limit === null && offset === 0) return eb.lit(true);
    const paged = limit !== null || offset !== 0;
    const prepared = this.#prepare(db, 'keys', { ordered: paged, paged });
    const keys = prepared.build((i) => prepared.parameters[i]).select(this.#pkRef);
    return eb(eb.ref(this.model.pk.column), 'in', db.adapter.keysForWrite(db.executor, keys));
  }

  async #run<T>(db: Database, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw db.translateError(error, this.model);
    }
  }

  /**
   * Runs a compiled statement on the current executor, errors translated: the rows at once
   * where the driver runs it synchronously (see `Database.queryNow`), else a promise of them.
   */
  #query(db: Database, statement: CompiledStatement): unknown[] | Promise<unknown[]> {
    let rows: unknown[] | undefined;
    try {
      rows = db.queryNow(statement.sql, statement.parameters);
    } catch (error) {
      throw db.translateError(error, this.model);
    }
    return rows ?? this.#run(db, () => db.query(statement.sql, statement.parameters));
  }

  #selectStatement(db: Database, plan: SelectPlan): CompiledStatement {
    return this.#statement(db, 'select', SELECT_OPTIONS, plan.select);
  }

  /**
   * The SQL of this query and its parameters, compiled once per shape: what it selects
   * (`kind`), its joins, the shape of its conditions (see `LookupBinding`), its ordering and
   * whether it is paged. Values only ever travel as parameters. A query with a custom
   * `where()` is compiled every time (its SQL is the caller's to decide).
   */
  #statement(
    db: Database,
    kind: string,
    options: PrepareOptions,
    finish: (query: SelectQueryBuilder<any, any, any>, slot: Slot) => Compilable<any>,
  ): CompiledStatement {
    return this.#compiled(db, this.#prepare(db, kind, options), finish);
  }

  /** The SQL and parameters of a prepared query, compiled once per shape (see `#statement`). */
  #compiled(
    db: Database,
    prepared: PreparedSelect,
    finish: (query: SelectQueryBuilder<any, any, any>, slot: Slot) => Compilable<any>,
  ): CompiledStatement {
    if (prepared.key !== null) {
      // A known shape needs no builder: no closure is made on the way of most queries.
      const known = cachedStatement(db, prepared.key, prepared.parameters);
      if (known) return known;
    }
    const build = (slot: Slot) =>
      finish(prepared.build(slot), (i) => slot(prepared.extraStart + i));
    if (prepared.key === null) return build((i) => prepared.parameters[i]).compile();
    return compileStatement(db, prepared.key, prepared.parameters, build);
  }

  /**
   * FROM, JOIN, WHERE, ORDER BY and LIMIT, bound: the parameters, the key of their shape
   * (null when a custom `where()` makes it unknowable), and a builder that puts whatever
   * `slot(i)` gives in the place of parameter `i`. Conditions and ordering are resolved first,
   * so that the joins they need are known when FROM is built.
   */
  #prepare(db: Database, kind: string, options: PrepareOptions): PreparedSelect {
    const joins = new JoinSet(this.model);
    if (options.related) {
      for (const path of this.#state.related)
        joins.join(path, `${this.model.name}.selectRelated()`);
    }
    const where = bindWhere(this.model, this.#state.conditions, db, joins);
    const order = options.ordered ? this.resolveOrdering(this.ordering, joins) : NO_ORDER;
    // Loops and concatenation below rather than spreads and joins: this runs for every query.
    // The parameters of the conditions are this query's own: the paging ones go after them.
    const parameters = where.parameters;
    const { limit, offset } = this.#state;
    const paged = options.paged === true;
    // SQLite and MySQL need a LIMIT before an OFFSET (see `DialectAdapter.offsetOnlyLimit`).
    const offsetOnlyLimit = db.adapter.offsetOnlyLimit;
    const limitValue =
      paged && (limit !== null || (offset !== 0 && offsetOnlyLimit !== null))
        ? (limit ?? offsetOnlyLimit)
        : null;
    const offsetValue = paged && offset !== 0 ? offset : null;
    const inline = db.adapter.inlineLimits;
    const limitSlot = limitValue !== null && !inline ? parameters.push(limitValue) - 1 : -1;
    const offsetSlot = offsetValue !== null && !inline ? parameters.push(offsetValue) - 1 : -1;
    const extraStart = parameters.length;
    const extra = options.extra;
    if (extra) for (let i = 0; i < extra.length; i++) parameters.push(extra[i]);
    let key: string | null = null;
    if (where.cacheable) {
      const related = this.#state.related;
      let orderKey = '';
      for (let i = 0; i < order.length; i++) {
        const term = order[i] as OrderTerm;
        orderKey += `${i ? ',' : ''}${term.descending ? '-' : ''}${term.path}`;
      }
      key =
        `${kind}|${modelKey(this.model)}|${options.related && related.length ? related.join(',') : ''}|${orderKey}|` +
        // Inlined limits are part of the SQL, so of its shape.
        (inline
          ? `${limitValue}:${offsetValue}`
          : `${limitValue !== null}${offsetValue !== null}`) +
        `|${where.shape}`;
    }
    return new PreparedSelect(
      db,
      this.model,
      joins,
      where,
      order,
      { limitValue, offsetValue, limitSlot, offsetSlot, inline },
      key,
      parameters,
      extraStart,
    );
  }
}

const NO_ORDER: readonly OrderTerm[] = Object.freeze([]);

/** One key of a planned lookup: its column and lookup, resolved, and the shape it binds to. */
interface LookupEntry {
  readonly key: string;
  readonly column: ResolvedColumn;
  readonly lookup: Lookup;
  readonly shape: string;
}

/**
 * A lookup of one query set state by one set of filter keys (see `QuerySet.lookup`): the
 * parameters that do not change (the state's own conditions before the filter's, paging
 * after), the key of the statement's shape, and how to read its rows. Valid while the values
 * bind to the shapes they had: a value that binds otherwise (null, out of range) goes the
 * general way.
 */
interface LookupPlan {
  readonly db: Database;
  readonly limit: number;
  readonly entries: readonly LookupEntry[];
  readonly before: readonly unknown[];
  readonly after: readonly unknown[];
  readonly key: string;
  readonly select: SelectPlan;
  /** Where the conditions come from, for error messages (`Book.filter()`). */
  readonly where: string;
}

/** The query sets that read a written row back where there is no RETURNING (see `#readBack`). */
const readBackSets = new WeakMap<Database, WeakMap<AnyModel, QuerySet<any>>>();

/** Lookup plans per model, then per state (shared by `all()` copies), then per filter keys. */
const lookupPlans = new WeakMap<AnyModel, WeakMap<State, Map<string, LookupPlan>>>();
const MAX_LOOKUP_PLANS = 64;

/** The statement of a planned lookup with `filter`'s values, or undefined (see LookupPlan). */
function boundLookup(plan: LookupPlan, filter: Filter): CompiledStatement | undefined {
  const parameters = plan.before.slice();
  const { entries } = plan;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as LookupEntry;
    const binding = bindLookup(
      plan.db.adapter,
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
  return cachedStatement(plan.db, plan.key, parameters);
}

/** The driver's rows as records. */
function readRows(plan: SelectPlan, raw: readonly unknown[]): Record<string, unknown>[] {
  const rows = new Array(raw.length);
  for (let i = 0; i < raw.length; i++) rows[i] = plan.read(raw[i] as Record<string, unknown>);
  return rows;
}

/** LIMIT and OFFSET of a prepared query: their values, or the slots of their parameters. */
interface Paging {
  readonly limitValue: number | null;
  readonly offsetValue: number | null;
  readonly limitSlot: number;
  readonly offsetSlot: number;
  /** True when the dialect writes them into the SQL (see `DialectAdapter.inlineLimits`). */
  readonly inline: boolean;
}

/**
 * A query resolved and bound (see `QuerySet#prepare`): its parameters, the key of its shape,
 * and what builds its Kysely query, which only a shape compiled for the first time needs.
 */
class PreparedSelect {
  readonly key: string | null;
  readonly parameters: unknown[];
  readonly extraStart: number;
  readonly #db: Database;
  readonly #model: AnyModel;
  readonly #joins: JoinSet;
  readonly #where: BoundWhere;
  readonly #order: readonly OrderTerm[];
  readonly #paging: Paging;

  constructor(
    db: Database,
    model: AnyModel,
    joins: JoinSet,
    where: BoundWhere,
    order: readonly OrderTerm[],
    paging: Paging,
    key: string | null,
    parameters: unknown[],
    extraStart: number,
  ) {
    this.#db = db;
    this.#model = model;
    this.#joins = joins;
    this.#where = where;
    this.#order = order;
    this.#paging = paging;
    this.key = key;
    this.parameters = parameters;
    this.extraStart = extraStart;
  }

  /** The query, with whatever `slot(i)` gives in the place of parameter `i`. */
  build(slot: Slot): SelectQueryBuilder<any, any, any> {
    const db = this.#db;
    let query: SelectQueryBuilder<any, any, any> = db.executor.selectFrom(this.#model.table);
    for (const join of this.#joins.joins) {
      const table = `${join.model.table} as ${join.alias}`;
      const key = `${join.alias}.${join.model.pk.column}`;
      const reference = `${join.parentAlias}.${join.relation.column}`;
      // A chain of NOT NULL foreign keys always finds its row (the constraint guarantees it),
      // so an inner join gives the same rows as a LEFT JOIN, and lets the database start from
      // the related table: ordering profiles by user e-mail walks the e-mail index (0.6 ms at
      // a million rows) instead of sorting every row (340 ms).
      query = join.nullable
        ? query.leftJoin(table, key, reference)
        : query.innerJoin(table, key, reference);
    }
    const expression = this.#where.build(slot);
    if (expression) query = query.where(expression);
    for (const term of this.#order) {
      query = query.orderBy(
        term.column.ref,
        db.adapter.orderDirection(term.descending, term.column.nullable),
      );
    }
    const { limitValue, offsetValue, limitSlot, offsetSlot, inline } = this.#paging;
    if (limitValue !== null)
      query = query.limit(inline ? sql.lit(integer(limitValue)) : (slot(limitSlot) as number));
    if (offsetValue !== null)
      query = query.offset(inline ? sql.lit(integer(offsetValue)) : (slot(offsetSlot) as number));
    return query;
  }
}

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
  readonly condition: Extract<Condition, { kind: 'custom' }>;
  readonly start: number;
}

/**
 * The conditions of a query, bound: their parameters in order, the shape of their SQL, and
 * what builds the WHERE expression from whatever stands in for those parameters.
 */
class BoundWhere {
  readonly shape: string;
  readonly parameters: unknown[];
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
function bindWhere(
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
        );
        names += `${f ? '|' : ''}(${bound.names})`;
        alternatives.push(bound.filter);
      }
      shape += `${shape ? '&' : ''}any(${names})`;
      parts.push({ any: alternatives });
      continue;
    }
    const bound = bindFilter(db, joins, condition.filter, condition.negate, parameters, where);
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
): { filter: BoundFilter; names: string } {
  const start = parameters.length;
  const bindings: LookupBinding[] = [];
  let names = '';
  const keys = Object.keys(filter);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    const { column, lookup } = splitLookup(joins, key, where);
    const binding = bindLookup(db.adapter, column, lookup, filter[key], where);
    bindings.push(binding);
    const values = binding.parameters;
    for (let i = 0; i < values.length; i++) parameters.push(values[i]);
    names += `${k ? ',' : ''}${key}:${binding.shape}`;
  }
  return { filter: { negate, bindings, start }, names };
}

/** A LIMIT or OFFSET written into SQL: only ever a safe integer. */
function integer(value: number): number {
  if (!Number.isSafeInteger(value)) {
    throw new ImproperlyConfigured('REST_ERR_QUERY_SLICE', `slice() needs integers, got ${value}.`);
  }
  return value;
}

function relatedKey(value: unknown): unknown {
  if (value !== null && typeof value === 'object') {
    const row = value as Record<string, unknown>;
    return row.id ?? row.pk;
  }
  return value;
}

/** The value a new row gets for a field nobody set: its default, or '' for a blank text field. */
function implicitDefault(field: AnyModelField): unknown {
  const def = field.getDefault();
  if (def !== undefined) return def;
  if (field.isText && field.options.blank && !field.nullable) return '';
  if (field.nullable) return null;
  return undefined;
}

function returningColumns(model: AnyModel): string[] {
  return model.fieldList.map((f) =>
    f.column === f.attname ? f.column : `${f.column} as ${f.attname}`,
  );
}

function selectPlan(model: AnyModel, db: Database, related: readonly string[]): SelectPlan {
  let byKey = plans.get(model);
  if (!byKey) plans.set(model, (byKey = new Map()));
  // Without related rows the key is a constant string: no string to build and hash per query.
  const key = related.length === 0 ? db.vendor : `${db.vendor}|${related.join(',')}`;
  const cached = byKey.get(key);
  if (cached) return cached;

  const columns: string[] = [];
  const localColumns: ColumnRead[] = model.fieldList.map((field: AnyModelField) => {
    columns.push(`${model.table}.${field.column} as ${field.attname}`);
    return [field.attname, field.attname, db.adapter.reader(field)];
  });
  const joins = new JoinSet(model);
  // `a__b` loads `a` too, as Django's select_related: its row is where `b` is nested.
  const paths = [
    ...new Set(
      related.flatMap((path) =>
        path.split('__').map((_, i, parts) => parts.slice(0, i + 1).join('__')),
      ),
    ),
  ];
  type RelatedNode = RelatedRead & { children: RelatedRead[] };
  const byPath = new Map<string, RelatedNode>();
  const top: RelatedRead[] = [];
  for (const path of paths) {
    const join = joins.join(path, `${model.name}.selectRelated`);
    const relatedColumns = join.model.fieldList.map((field: AnyModelField): ColumnRead => {
      const key = `${path}__${field.attname}`;
      columns.push(`${join.alias}.${field.column} as ${key}`);
      return [key, field.attname, db.adapter.reader(field)];
    });
    const cut = path.lastIndexOf('__');
    const node = {
      name: cut === -1 ? path : path.slice(cut + 2),
      pk: `${path}__${join.model.pk.attname}`,
      columns: relatedColumns,
      children: [] as RelatedRead[],
    };
    byPath.set(path, node);
    // Every prefix of a path comes before it, so a parent is always there.
    (cut === -1 ? top : (byPath.get(path.slice(0, cut)) as RelatedNode).children).push(node);
  }

  // Without related rows the driver's row is the record: its values are read in place.
  const local = localColumns.filter(
    (column): column is readonly [string, string, ValueReader] => column[2] !== null,
  );
  const read: RowReader = top.length
    ? compileRowReader(localColumns, top)
    : (raw) => {
        for (let i = 0; i < local.length; i++) {
          const [key, , reader] = local[i] as readonly [string, string, ValueReader];
          raw[key] = reader(raw[key]);
        }
        return raw;
      };
  // Kysely's nodes are immutable, so one parse of the select list serves every query.
  const parsed = db.kysely.selectFrom(model.table).select(columns).toOperationNode().selections;
  const selections = (parsed ?? []).map((node) => ({ toOperationNode: () => node.selection }));
  const plan: SelectPlan = {
    columns,
    selections,
    read,
    select: (query) => query.select(selections as never),
  };
  byKey.set(key, plan);
  return plan;
}
