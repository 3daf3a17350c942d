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
import { CompiledQuery, type Expression, type SqlBool, sql } from 'kysely';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyModel, Row } from '../models/model.ts';
import type { AnyModelField } from '../models/model-field.ts';
import { isPromiseLike, type MaybePromise } from '../utils/maybe-promise.ts';
import { type BulkCreateOptions, bulkCreate } from './bulk-create.ts';
import { Database } from './database.ts';
import { DoesNotExist, MultipleObjectsReturned } from './database-errors.ts';
import {
  isQueryExpression,
  NotExpression,
  type OrderBy,
  type QueryExpression,
} from './expressions/query-expression.ts';
import {
  type AnnotatedRow,
  aggregateRow,
  annotatedRowsPlan,
  annotationsOf,
  orderTermOf,
  updateValue,
} from './expressions/query-set-expressions.ts';
import { getOrCreate, updateOrCreate } from './get-or-create.ts';
import { termPath } from './order-term.ts';
import { type BoundWhere, bindWhere, EB } from './plan/bound-where.ts';
import {
  boundLookup,
  findLookupPlan,
  keepLookupPlan,
  type LookupPurpose,
  type LookupSelect,
  lookupIdentity,
} from './plan/lookup-plan.ts';
import {
  compileSelect,
  type Finish,
  integer,
  ORDER_COLUMN,
  type PreparedSelect,
  type PrepareOptions,
  prepareSelect,
  SELECT_OPTIONS,
} from './plan/prepared-select.ts';
import { JoinSet, type OrderTerm, resolveOrdering } from './plan/query-paths.ts';
import { readRows } from './plan/row-reader.ts';
import { insertStatement, rowWrites, updateStatement } from './plan/row-writes.ts';
import { selectPlan } from './plan/select-plan.ts';
import type { CompiledStatement } from './plan/statement-cache.ts';
import { noteTableWrite } from './plan/table-writes.ts';
import type { PrefetchLookup } from './prefetch.ts';
import { prefetchRelatedRows } from './prefetch-related.ts';
import {
  type Condition,
  type ConditionBuilder,
  type ConditionShape,
  type Filter,
  INITIAL_STATE,
  type QueryState,
} from './query-state.ts';
import type { TypedFilter } from './typed-filter.ts';
import { valuesPlan } from './values.ts';
import type { CreateValues, UpdateValues } from './write-values.ts';

export type { OrderTerm } from './plan/query-paths.ts';
export type { ColumnRef, ConditionBuilder, ConditionShape, Filter } from './query-state.ts';

/**
 * A query over one model. Every method returns a new query set; nothing runs until
 * `execute`, `count`, `exists`, `get`, `first`, `create`, `update` or `delete`.
 *
 * @example
 * ```ts
 * const long = Book.objects.filter({ pages__gte: 300 }).orderBy('-publication_date'); // no query yet
 * const books = await long.slice(0, 10).execute(); // one SELECT
 * ```
 */
export class QuerySet<M extends AnyModel = AnyModel, A extends object = {}> {
  /** The model whose rows the query set reads. */
  readonly model: M;
  readonly #state: QueryState;

  constructor(model: M, state: QueryState = INITIAL_STATE) {
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
    only: readonly string[] | null = this.#state.only,
    annotations = this.#state.annotations,
    forUpdate = this.#state.forUpdate,
    distinct: boolean = this.#state.distinct,
    prefetch: readonly PrefetchLookup[] = this.#state.prefetch,
  ): QuerySet<M, A> {
    return new QuerySet(this.model, {
      conditions,
      order,
      limit,
      offset,
      related,
      only,
      annotations,
      forUpdate,
      distinct,
      prefetch,
      db,
    });
  }

  /** The state of this query set (read-only): what add-ons, prefetches and `Exists()` build on. */
  get queryState(): QueryState {
    return this.#state;
  }

  #withCondition(condition: Condition): QuerySet<M, A> {
    const s = this.#state;
    return this.#derive([...s.conditions, condition], s.order, s.limit, s.offset, s.related, s.db);
  }

  /**
   * A copy of this query set.
   *
   * @example
   * ```ts
   * const books = Book.objects.all(); // every book, in the model's ordering (isbn)
   * ```
   */
  all(): QuerySet<M, A> {
    // The state is never changed, only replaced: the copy shares it.
    return new QuerySet<M, A>(this.model, this.#state);
  }

  /**
   * Keeps rows matching every condition (`{ title: 'x', pages__gte: 100 }`).
   *
   * @example
   * ```ts
   * const rows = await Book.objects.filter({ state: 'published', pages__gte: 100 }).execute();
   * ```
   */
  filter(filter: QueryExpression<boolean>): QuerySet<M, A>;
  filter<T extends Filter>(filter: TypedFilter<M, A, T>): QuerySet<M, A>;
  filter(filter: Filter | QueryExpression<boolean>): QuerySet<M, A> {
    if (isQueryExpression(filter))
      return this.#withCondition({ kind: 'expression', expression: filter });
    return this.#withCondition({ kind: 'filter', negate: false, filter });
  }

  /**
   * Drops rows matching every condition.
   *
   * @example
   * ```ts
   * const available = Book.objects.exclude({ state: 'not_published' });
   * ```
   */
  exclude(filter: QueryExpression<boolean>): QuerySet<M, A>;
  exclude<T extends Filter>(filter: TypedFilter<M, A, T>): QuerySet<M, A>;
  exclude(filter: Filter | QueryExpression<boolean>): QuerySet<M, A> {
    if (isQueryExpression(filter))
      return this.#withCondition({ kind: 'expression', expression: new NotExpression(filter) });
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
  filterAny(filters: readonly Filter[]): QuerySet<M, A> {
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
  where(build: ConditionBuilder, shape?: ConditionShape): QuerySet<M, A> {
    return this.#withCondition({ kind: 'custom', build, shape });
  }

  /**
   * Replaces the ordering: field names or relation paths, `-` for descending.
   *
   * @example
   * ```ts
   * const newest = Book.objects.orderBy('-publication_date', 'title');
   * const unordered = Book.objects.orderBy(); // no ORDER BY at all
   * ```
   */
  orderBy(...terms: (string | OrderBy)[]): QuerySet<M, A> {
    const s = this.#state;
    const order = terms.map(orderTermOf);
    return this.#derive(s.conditions, order, s.limit, s.offset, s.related, s.db);
  }

  /**
   * Adds computed values to every row, under the given names (Django's `annotate`): counts
   * and sums over a relation (`Count('tags')`), `Exists(...)`, `Subquery(...)`, `F(...)`
   * arithmetic. An annotation can be filtered (`filter({ favorites_count__gte: 2 })`) and
   * ordered by (`orderBy('-favorites_count')`) by its name, and is a property of the rows
   * (`row.favorites_count`), typed by its expression. A name that is a field or relation of
   * the model, or is annotated already, throws `ImproperlyConfigured`.
   *
   * @example
   * ```ts-fragment
   * const rows = await Article.objects
   *   .annotate({ favorites_count: Count('favorited_by') })
   *   .filter({ favorites_count__gte: 2 })
   *   .orderBy('-favorites_count')
   *   .execute();
   * rows[0]?.favorites_count; // number
   * ```
   */
  annotate<E extends Readonly<Record<string, QueryExpression<any>>>>(
    expressions: E,
  ): QuerySet<M, A & { [K in keyof E]: E[K] extends QueryExpression<infer T> ? T : never }> {
    const s = this.#state;
    const annotations = annotationsOf(this.model, s.annotations, expressions);
    return this.#derive(
      s.conditions,
      s.order,
      s.limit,
      s.offset,
      s.related,
      s.db,
      s.only,
      annotations,
    ) as never;
  }

  /**
   * Computes aggregates over the matching rows, as Django's `aggregate`: one object, each
   * name holding its value (`Count` a number, `Sum`, `Avg`, `Min`, `Max` null when no row
   * matches). Paths may cross foreign keys; an aggregate over a many-to-many or reverse
   * relation belongs in `annotate()`.
   *
   * @example
   * ```ts
   * import { Avg, Count, Max } from '@restframework/core';
   *
   * const stats = await Book.objects
   *   .filter({ state: 'published' })
   *   .aggregate({ books: Count('pk'), pages: Avg('pages'), longest: Max<number>('pages') });
   * stats.books; // number
   * ```
   */
  async aggregate<E extends Readonly<Record<string, QueryExpression<any>>>>(
    expressions: E,
  ): Promise<{ [K in keyof E]: E[K] extends QueryExpression<infer T> ? T : never }> {
    const db = this.db;
    const { kind, options, select, read } = aggregateRow(this.model, db, this.#state, expressions);
    const statement = this.#statement(db, kind, options, select);
    let rows = this.#query(db, statement);
    if (isPromiseLike(rows)) rows = await rows;
    return read(rows[0] as Record<string, unknown>) as never;
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
   *
   * @example
   * ```ts
   * const [term] = Book.objects.resolveOrdering(['-pages']);
   * term?.descending; // true
   * ```
   */
  resolveOrdering(
    terms: readonly string[] = this.ordering,
    joins = new JoinSet(this.model),
  ): OrderTerm[] {
    return resolveOrdering(terms, joins);
  }

  /**
   * The same query with the primary key appended to its ordering when the ordering does not
   * already identify rows uniquely, so that pages are stable and walk every row once.
   *
   * @example
   * ```ts
   * Book.objects.orderBy('title').withStableOrdering().ordering; // ['title', 'id']
   * Book.objects.orderBy('isbn').withStableOrdering().ordering; // ['isbn']: isbn is unique
   * ```
   */
  withStableOrdering(): QuerySet<M, A> {
    const terms = this.ordering;
    // An annotation's value identifies no row: only the columns may make the order total.
    const annotations = this.#state.annotations;
    const columns =
      annotations === null
        ? terms
        : terms.filter((t) => !annotations.some(([name]) => name === termPath(t)));
    const resolved = this.resolveOrdering(columns);
    const unique = resolved.some(
      (t) => t.column.local && t.column.field.unique && !t.column.field.nullable,
    );
    return unique ? this : this.orderBy(...terms, this.model.pk.name);
  }

  /**
   * Loads related rows with the same query (`profile.user`), by LEFT JOIN.
   *
   * @example
   * ```ts
   * const profiles = await Profile.objects.selectRelated('user').execute();
   * // each row holds its user's row under `user`, read by the same query (no query per row)
   * ```
   */
  selectRelated(...paths: string[]): QuerySet<M, A> {
    const related = [...new Set([...this.#state.related, ...paths])];
    const s = this.#state;
    return this.#derive(s.conditions, s.order, s.limit, s.offset, related, s.db);
  }

  /**
   * Loads only `fields` of the rows, as Django's `only()`: names of the model's fields and
   * `relation__field` paths into the rows `selectRelated` loads. A row (the model's, or a
   * related one) of which some field is named gets those fields, its primary key and the
   * keys of the relations loaded through it; a row of which no field is named gets every
   * field. The other fields are absent from the records (there is no deferred loading): use
   * it where what reads the rows is known, a view's serializer. Fewer columns make a smaller
   * sort and less to read: a page of 100 profiles ordered by their users' names cost SQLite
   * a fifth less without the users' six unused columns. A name that is no field (or a path
   * through a relation `selectRelated` does not load) throws `ImproperlyConfigured` when the
   * query runs. Calls replace each other; `only()` with no names loads every field again.
   *
   * @example
   * ```ts
   * const profiles = await Profile.objects
   *   .selectRelated('user')
   *   .only('biography', 'user__username', 'user__email')
   *   .execute();
   * // each row: id, user_id, biography, and user: { id, username, email }
   * ```
   */
  only(...fields: string[]): QuerySet<M, A> {
    const s = this.#state;
    const only = fields.length ? Object.freeze([...new Set(fields)]) : null;
    return this.#derive(s.conditions, s.order, s.limit, s.offset, s.related, s.db, only);
  }

  /**
   * Drops repeated rows (`SELECT DISTINCT`), as Django's `distinct()`. Filters across
   * relations never repeat a row here (they are `EXISTS` subqueries); an ordering across a
   * many-valued relation does, once per related row, and still does with `distinct()`, as in
   * Django (the ordering's values are part of each row compared). `count()` counts distinct
   * rows, and slicing applies to them. Django's `distinct(*fields)` (PostgreSQL only) is not
   * offered.
   *
   * @example
   * ```ts
   * const rows = await Book.objects.distinct().orderBy('title').slice(0, 20).execute();
   * ```
   */
  distinct(): QuerySet<M, A> {
    const s = this.#state;
    return this.#derive(
      s.conditions,
      s.order,
      s.limit,
      s.offset,
      s.related,
      s.db,
      s.only,
      s.annotations,
      s.forUpdate,
      true,
    );
  }

  /**
   * Loads the rows of relations holding many rows (and of any relation) for every row read,
   * with one statement per relation whatever the number of rows, as Django's
   * `prefetch_related`: reverse foreign keys (`comments`), many-to-manys of either side
   * (`tags`, `favorites`), one-to-ones and foreign keys (none when `selectRelated` loaded
   * them), nested (`comments__author`), or a {@link Prefetch} with its own query set and
   * `toAttr`. The rows are kept with each row (see `getPrefetched`): related sets
   * (`Model.related(row, 'tags').execute()`) and serializer fields read them without a query.
   * Runs on the rows read only (a page's, when paginated); calls add to each other.
   *
   * @example
   * ```ts-fragment
   * const page = await Article.objects
   *   .selectRelated('author')
   *   .prefetchRelated('tags', 'favorited_by', 'comments__author')
   *   .slice(0, 20)
   *   .execute(); // 1 + 3 + 1 statements, for 2 rows or for 20
   * ```
   */
  prefetchRelated(...lookups: PrefetchLookup[]): QuerySet<M, A> {
    const s = this.#state;
    const prefetch = [...s.prefetch, ...lookups];
    return this.#derive(
      s.conditions,
      s.order,
      s.limit,
      s.offset,
      s.related,
      s.db,
      s.only,
      s.annotations,
      s.forUpdate,
      s.distinct,
      prefetch,
    );
  }

  /** True when `distinct()` was called. */
  get isDistinct(): boolean {
    return this.#state.distinct;
  }

  /** The fields `only()` named, or null when every field is loaded. */
  get onlyFields(): readonly string[] | null {
    return this.#state.only;
  }

  /**
   * Rows `start` (inclusive) to `end` (exclusive), like Python's slicing.
   *
   * @example
   * ```ts
   * const secondPage = Book.objects.slice(20, 40); // LIMIT 20 OFFSET 20
   * ```
   */
  slice(start: number, end?: number): QuerySet<M, A> {
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

  /**
   * Runs on `db` instead of the current database.
   *
   * @example
   * ```ts
   * const archive = Database.connect('sqlite:archive.sqlite3');
   * const old = await Book.objects.using(archive).filter({ publication_date__lt: '2000-01-01' }).execute();
   * ```
   */
  using(db: Database): QuerySet<M, A> {
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

  /**
   * The compiled SELECT (SQL text and parameters), for tests and EXPLAIN.
   *
   * @example
   * ```ts
   * const { sql, parameters } = Book.objects.filter({ pages__gte: 300 }).compile();
   * parameters; // [300]
   * ```
   */
  compile(): {
    /** The SQL text. */
    sql: string;
    /** Its parameters, in order. */
    parameters: readonly unknown[];
  } {
    const db = this.db;
    const plan = this.#rowsPlan(db);
    return this.#statement(db, 'select', SELECT_OPTIONS, plan.select);
  }

  /**
   * The query plan of the SELECT.
   *
   * @example
   * ```ts
   * const plan = await Book.objects.filter({ isbn: '978-0-441-17271-9' }).explain(); // one line per step
   * ```
   */
  explain(): Promise<string[]> {
    return this.db.explain(this.compile());
  }

  /**
   * Runs the query and returns its rows.
   *
   * @example
   * ```ts
   * const books = await Book.objects.filter({ title__icontains: 'dune' }).execute();
   * ```
   */
  async execute(): Promise<AnnotatedRow<M, A>[]> {
    const db = this.db;
    const plan = this.#rowsPlan(db);
    const statement = this.#statement(db, 'select', SELECT_OPTIONS, plan.select);
    // Awaited only when the driver answered with a promise: an await costs a microtask turn.
    let raw = this.#query(db, statement);
    if (!Array.isArray(raw)) raw = await raw;
    const rows = readRows(plan.read, raw) as AnnotatedRow<M, A>[];
    if (this.#state.distinct) dropOrderColumns(rows, this.ordering.length);
    if (this.#state.prefetch.length !== 0) await this.#prefetch(db, rows as Row<M>[]);
    return rows;
  }

  /** What a SELECT of rows selects and how its rows are read: the annotations' too. */
  #rowsPlan(db: Database): LookupSelect {
    const s = this.#state;
    const plan = selectPlan(this.model, db, s.related, s.only);
    return s.annotations === null ? plan : annotatedRowsPlan(this.model, db, s, plan);
  }

  /** Runs the prefetches of this query set for `rows` (see {@link prefetchRelated}). */
  #prefetch(db: Database, rows: readonly Row<M>[]): Promise<void> {
    return prefetchRelatedRows(this.model, rows, this.#state.prefetch, db, makeQuerySet);
  }

  /**
   * The rows matching `filter`, in no particular order, at most `limit`: the query of `get()`
   * and of a detail view's `getObject()`. The rows at once where the driver answered
   * synchronously (SQLite, its connection idle), else a promise of them (see
   * `Database.execute`).
   *
   * The lookup is planned once per shape (see `lookup-plan.ts`): the database, the model,
   * the related paths, the paging, the shape of this query set's conditions, the filter's keys
   * and `limit`. A later lookup of that shape — the next request's `pk`, even through a new
   * query set from a view's `getQueryset()` — only binds its values.
   *
   * @example
   * ```ts
   * import { isPromiseLike } from '@restframework/core';
   *
   * let rows = Book.objects.lookup({ pk: 1 });
   * if (isPromiseLike(rows)) rows = await rows;
   * ```
   */
  lookup(filter: Filter, limit = 2): AnnotatedRow<M, A>[] | Promise<AnnotatedRow<M, A>[]> {
    const rows = this.#lookup('rows', filter, limit);
    if (this.#state.prefetch.length === 0) return rows;
    const db = this.db;
    return Promise.resolve(rows).then(async (found) => {
      await this.#prefetch(db, found as Row<M>[]);
      return found;
    });
  }

  /** A planned lookup (see {@link lookup}) answering its rows, or its keys for `exists`. */
  #lookup(
    purpose: LookupPurpose,
    filter: Filter,
    limit: number,
  ): AnnotatedRow<M, A>[] | Promise<AnnotatedRow<M, A>[]> {
    const db = this.db;
    const state = this.#state;
    const keys = Object.keys(filter);
    // The query set's own conditions are bound on every lookup: their values are this
    // request's (a view filtering by the request's user), and their shape is part of the plan's.
    let base: BoundWhere | null = null;
    // An annotated query set binds its expressions per query (its state has no identity), as
    // does a filter of expressions: no plan.
    if (state.annotations !== null || hasExpressionValue(filter))
      return this.#lookupAndPlan(purpose, db, filter, keys, limit, null, 0);
    if (state.conditions.length !== 0) {
      base = bindWhere(this.model, state.conditions, db, new JoinSet(this.model));
      // A custom condition without a shape compiles each time: nothing to plan.
      if (!base.cacheable) return this.#lookupAndPlan(purpose, db, filter, keys, limit, null, 0);
    }
    const shape = base === null ? '' : base.shape;
    const identity = lookupIdentity(this.model, purpose, limit, keys, state, shape);
    if (identity === null) return this.#lookupAndPlan(purpose, db, filter, keys, limit, null, 0);
    const plan = findLookupPlan(db, identity);
    if (plan !== undefined) {
      const statement = boundLookup(db, plan, filter, base === null ? [] : base.parameters);
      if (statement) return this.#rows(db, plan.select, statement);
    }
    const conditionsCount = base === null ? 0 : base.parameters.length;
    return this.#lookupAndPlan(purpose, db, filter, keys, limit, identity, conditionsCount);
  }

  /**
   * A lookup the general way; its plan is kept under `identity` (see `lookupIdentity`) when
   * there is one (`conditionsCount`: how many parameters this query set's conditions bind).
   */
  #lookupAndPlan(
    purpose: LookupPurpose,
    db: Database,
    filter: Filter,
    keys: readonly string[],
    limit: number,
    identity: string | null,
    conditionsCount: number,
  ): AnnotatedRow<M, A>[] | Promise<AnnotatedRow<M, A>[]> {
    // No ORDER BY, as Django's get(): sorting the one or two rows found costs SQLite five
    // times the lookup itself (28 µs instead of 5 µs for a primary key).
    const query = this.filter(filter).orderBy().slice(0, limit);
    let select: LookupSelect;
    let prepared: PreparedSelect;
    if (purpose === 'rows') {
      select = this.#rowsPlan(db);
      prepared = prepareSelect(this.model, query.#state, db, 'select', SELECT_OPTIONS);
    } else {
      // As exists(): the key alone, no related rows joined.
      select = { select: (q) => q.select(this.#pkRef), read: keyRow };
      prepared = prepareSelect(this.model, query.#state, db, 'exists-lookup', EXISTS_OPTIONS);
    }
    const statement = compileSelect(db, prepared, select.select);
    if (identity !== null) {
      keepLookupPlan(db, this.model, identity, { conditionsCount, filter, keys, prepared, select });
    }
    return this.#rows(db, select, statement);
  }

  /** Runs a statement and reads its rows: at once when the driver answered at once. */
  #rows(
    db: Database,
    plan: LookupSelect,
    statement: CompiledStatement,
  ): AnnotatedRow<M, A>[] | Promise<AnnotatedRow<M, A>[]> {
    const raw = this.#query(db, statement);
    if (Array.isArray(raw)) return readRows(plan.read, raw) as AnnotatedRow<M, A>[];
    return raw.then((rows) => readRows(plan.read, rows) as AnnotatedRow<M, A>[]);
  }

  /** Runs the query and yields its rows: `for await (const book of Book.objects.all())`. */
  async *[Symbol.asyncIterator](): AsyncIterator<AnnotatedRow<M, A>> {
    yield* await this.execute();
  }

  /**
   * The number of rows (ordering ignored; limit and offset respected).
   *
   * @example
   * ```ts
   * const total = await Book.objects.filter({ pages__gte: 100 }).count();
   * ```
   */
  async count(): Promise<number> {
    const db = this.db;
    const { limit, offset } = this.#state;
    // Distinct rows are distinct keys: the rows of one key are alike (every join that
    // selects is to-one).
    const paged = limit !== null || offset !== 0 || this.#state.distinct;
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
    if (isPromiseLike(rows)) rows = await rows;
    return Number((rows[0] as { count: unknown }).count);
  }

  /**
   * True when at least one row matches (and `filter`, when given: `qs.exists(f)` answers as
   * `qs.filter(f).exists()`, its query planned once per shape as a {@link lookup}'s, where the
   * other compiles its shape's key on every call: the check of a unique field on each write).
   *
   * @example
   * ```ts
   * if (await Book.objects.filter({ isbn: '978-0-441-17271-9' }).exists()) {
   *   // already stored
   * }
   * const taken = await Book.objects.exists({ isbn: '978-0-441-17271-9' }); // the same, planned
   * ```
   */
  async exists<T extends Filter>(filter?: TypedFilter<M, A, T>): Promise<boolean> {
    // exists() leaves paging out, a lookup would not: a paged query set goes the general way.
    if (filter !== undefined) {
      if (this.#state.limit !== null || this.#state.offset !== 0)
        return this.filter(filter).exists();
      let found = this.#lookup('exists', filter, 1);
      if (!Array.isArray(found)) found = await found;
      return found.length > 0;
    }
    const db = this.db;
    const statement = this.#statement(db, 'exists', { ordered: false }, (query) =>
      query.select(this.#pkRef).limit(sql.lit(1)),
    );
    let rows = this.#query(db, statement);
    if (isPromiseLike(rows)) rows = await rows;
    return rows.length > 0;
  }

  /**
   * The one row matching `filter` (the query's ordering does not apply); throws
   * `DoesNotExist` or `MultipleObjectsReturned`.
   *
   * @example
   * ```ts
   * const book = await Book.objects.get({ pk: 1 }); // throws DoesNotExist when there is none
   * ```
   */
  async get<T extends Filter>(filter?: TypedFilter<M, A, T>): Promise<AnnotatedRow<M, A>> {
    let rows = filter ? this.lookup(filter) : this.orderBy().slice(0, 2).execute();
    if (isPromiseLike(rows)) rows = await rows;
    if (rows.length === 0) throw new DoesNotExist(this.model);
    if (rows.length > 1)
      throw new MultipleObjectsReturned(`get() on ${this.model.name} returned more than one row.`);
    return rows[0] as AnnotatedRow<M, A>;
  }

  /**
   * The first row in the query's ordering (the primary key when it has none), or undefined.
   *
   * @example
   * ```ts
   * const earliest = await Book.objects.orderBy('publication_date').first(); // undefined when there are no books
   * ```
   */
  async first(): Promise<AnnotatedRow<M, A> | undefined> {
    const qs = this.ordering.length ? this : this.orderBy(this.model.pk.name);
    return (await qs.slice(0, 1).execute())[0];
  }

  /**
   * Inserts one row and returns it as stored. Missing values take the field's default;
   * relations accept `user_id: 1`.
   *
   * @example
   * ```ts
   * const book = await Book.objects.create({
   *   title: 'Dune',
   *   isbn: '978-0-441-17271-9',
   *   publication_date: '1965-08-01',
   *   price: '9.99',
   * }); // pages and stock_count take their defaults
   * ```
   */
  async create(values: CreateValues<M>): Promise<Row<M>> {
    const db = this.db;
    const data = values as Record<string, unknown>;
    this.#checkFieldNames(data, 'create()');
    const writes = rowWrites(this.model);
    const fields = writes.fields;
    const adapter = db.adapter;
    // The clock is read only when a field takes its value from it.
    const now = writes.clockOnCreate ? new Date().toISOString() : undefined;
    // The positions of the fields written, in the fields' order, and their values.
    const written: number[] = [];
    const parameters: unknown[] = [];
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i] as AnyModelField;
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
      if (value !== undefined) {
        written.push(i);
        parameters.push(adapter.toDb(field, value));
      }
    }
    const { statement, read } = insertStatement(db, writes, written, parameters);
    if (!adapter.returning) {
      const result = await this.#run(db, () =>
        db.executor.executeQuery(CompiledQuery.raw(statement.sql, [...statement.parameters])),
      );
      // A new row changes the lists cached from the table (views/cache-page.ts).
      noteTableWrite(db, this.model.table);
      const pk = this.model.pk;
      const pkAt = written.indexOf(fields.indexOf(pk));
      return this.#readBack(db, pkAt === -1 ? Number(result.insertId) : parameters[pkAt]);
    }
    let rows = this.#query(db, statement, true);
    if (isPromiseLike(rows)) rows = await rows;
    noteTableWrite(db, this.model.table);
    return read(rows[0] as Record<string, unknown>) as Row<M>;
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
   *
   * @example
   * ```ts
   * const book = await Book.objects.get({ pk: 1 });
   * const stored = await Book.objects.updateRow(book, { price: '12.50' }); // UPDATE of price alone
   * ```
   */
  async updateRow(
    row: Row<M>,
    changes: CreateValues<M>,
    options: { readonly skipUnchanged?: boolean } = {},
  ): Promise<Row<M>> {
    const db = this.db;
    const current = row as Record<string, unknown>;
    this.#checkFieldNames(changes, 'updateRow()');
    const writes = rowWrites(this.model);
    const adapter = db.adapter;
    const skipUnchanged = options.skipUnchanged === true;
    // Each field's value by its position in the field list (a later key for the same field,
    // `user` after `user_id`, replaces the earlier one).
    let next: unknown[] | undefined;
    for (const key in changes) {
      if (!Object.hasOwn(changes, key)) continue;
      // Every key names a field (checked above): none here is the primary key (`pk`, `id`).
      const writable = writes.updatable.get(key);
      if (writable === undefined) continue;
      const { field, index } = writable;
      const attname = field.attname;
      const value = (changes as Record<string, unknown>)[key];
      const stored = attname !== key ? relatedKey(value) : value;
      if (skipUnchanged && Object.hasOwn(current, attname) && current[attname] === stored) continue;
      next ??= new Array(writes.fields.length).fill(UNWRITTEN);
      next[index] = adapter.toDb(field, stored);
    }
    const autoNow = writes.autoNow;
    if (autoNow.length !== 0) {
      next ??= new Array(writes.fields.length).fill(UNWRITTEN);
      const now = new Date().toISOString();
      // Converted as create converts it (MySQL refuses the ISO text as it is).
      for (let i = 0; i < autoNow.length; i++) {
        const index = autoNow[i] as number;
        next[index] = adapter.toDb(writes.fields[index] as AnyModelField, now);
      }
    }
    const pk = current[this.model.pk.attname];
    if (next === undefined) {
      return this.filter({ pk } as Filter).get();
    }
    const written: number[] = [];
    const parameters: unknown[] = [];
    for (let i = 0; i < next.length; i++) {
      if (next[i] === UNWRITTEN) continue;
      written.push(i);
      parameters.push(next[i]);
    }
    parameters.push(pk);
    const { statement, read } = updateStatement(db, writes, written, parameters);
    if (!adapter.returning) {
      const rows = this.#query(db, statement);
      if (isPromiseLike(rows)) await rows;
      noteTableWrite(db, this.model.table);
      return this.#readBack(db, pk);
    }
    let rows = this.#query(db, statement, true);
    if (isPromiseLike(rows)) rows = await rows;
    noteTableWrite(db, this.model.table);
    if (rows.length === 0) throw new DoesNotExist(this.model);
    return read(rows[0] as Record<string, unknown>) as Row<M>;
  }

  /**
   * The row with primary key `pk` as stored, where the dialect has no RETURNING: read in the
   * current transaction, if any, right after the write (see `DialectAdapter.returning`).
   */
  async #readBack(db: Database, pk: unknown): Promise<Row<M>> {
    // Its lookup is planned once per model and database (plans are keyed by shape).
    const query = new QuerySet(this.model, INITIAL_STATE).using(db);
    let rows = query.lookup({ pk }, 1) as Row<M>[] | Promise<Row<M>[]>;
    if (isPromiseLike(rows)) rows = await rows;
    if (rows.length === 0) throw new DoesNotExist(this.model);
    return rows[0] as Row<M>;
  }

  /**
   * Deletes the row with `row`'s primary key; returns false when it was already gone.
   *
   * @example
   * ```ts
   * const book = await Book.objects.get({ pk: 1 });
   * await Book.objects.deleteRow(book); // true; false had it been deleted meanwhile
   * ```
   */
  async deleteRow(row: Row<M>): Promise<boolean> {
    const pk = (row as Record<string, unknown>)[this.model.pk.attname];
    return (await this.filter({ pk } as Filter).delete()) > 0;
  }

  /**
   * Sets `values` on every matching row; returns how many rows changed.
   *
   * @example
   * ```ts
   * const changed = await Book.objects.filter({ stock_count: 0 }).update({ state: 'not_published' });
   * await Book.objects.filter({ pk: 1 }).update({ stock_count: F('stock_count').sub(1) }); // no lost update
   * ```
   */
  async update(values: UpdateValues<M>): Promise<number> {
    const db = this.db;
    const set: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values)) {
      const field = this.model.getField(key);
      if (!field) throw this.#unknownField('update()', key);
      set[field.column] = isQueryExpression(value)
        ? updateValue(this.model, db, key, value)
        : db.adapter.toDb(field, field.attname !== key ? relatedKey(value) : value);
    }
    const query = db.executor.updateTable(this.model.table).set(set).where(this.#matching(db));
    const result = await this.#run(db, () => query.executeTakeFirst());
    noteTableWrite(db, this.model.table);
    return Number(result.numUpdatedRows);
  }

  /**
   * The row matching `lookup`, created when there is none, and whether it was (Django's
   * `get_or_create`): a new row takes the lookup's plain keys and `defaults`. Race-safe: when
   * a concurrent request creates it first (a unique violation), its row is read and returned.
   *
   * @example
   * ```ts-fragment
   * const [tag, created] = await Tag.objects.getOrCreate({ name: 'python' });
   * const [user] = await User.objects.getOrCreate({ username: 'ann' }, { email: 'ann@example.com' });
   * ```
   */
  async getOrCreate<T extends Filter>(
    lookup: TypedFilter<M, A, T>,
    defaults: CreateValues<M> = {},
  ): Promise<[row: Row<M>, created: boolean]> {
    const { row, created } = await getOrCreate(this as QuerySet<M>, lookup, defaults);
    return [row as Row<M>, created];
  }

  /**
   * Updates the row matching `lookup` with `defaults`, or creates it from both (Django's
   * `update_or_create`), in one transaction (a savepoint inside one), the row locked while it
   * is changed; returns the row as stored and whether it was created.
   *
   * @example
   * ```ts-fragment
   * const [profile, created] = await Profile.objects.updateOrCreate({ user: 1 }, { bio: 'hi' });
   * ```
   */
  async updateOrCreate<T extends Filter>(
    lookup: TypedFilter<M, A, T>,
    defaults: CreateValues<M> = {},
  ): Promise<[row: Row<M>, created: boolean]> {
    const { row, created } = await updateOrCreate(this as QuerySet<M>, lookup, defaults);
    return [row as Row<M>, created];
  }

  /**
   * Inserts `rows` with one INSERT per batch (Django's `bulk_create`) and returns them as
   * stored: with their keys where the database returns them (SQLite, PostgreSQL), as given
   * with their defaults on MySQL/MariaDB. Missing values take the fields' defaults.
   *
   * @example
   * ```ts
   * const stored = await Book.objects.bulkCreate([
   *   { title: 'Dune', isbn: '978-0-441-17271-9', publication_date: '1965-08-01', price: '9.99' },
   *   { title: 'Emma', isbn: '978-0-14-143958-7', publication_date: '1815-12-23', price: '7.50' },
   * ]); // one INSERT
   * ```
   */
  async bulkCreate(
    rows: readonly CreateValues<M>[],
    options?: BulkCreateOptions,
  ): Promise<Row<M>[]> {
    return (await bulkCreate(this.db, this.model, rows, options)) as Row<M>[];
  }

  /**
   * Locks the rows the query reads until the transaction ends (`SELECT ... FOR UPDATE` on
   * PostgreSQL and MySQL/MariaDB; SQLite's writing transaction holds the whole database). Run
   * it inside `db.atomic()` or `db.transaction()`: outside one it throws `ImproperlyConfigured`
   * (`REST_ERR_TRANSACTION`), on every database.
   *
   * @example
   * ```ts
   * await db.atomic(async () => {
   *   const book = await Book.objects.selectForUpdate().get({ pk: 1 });
   *   await Book.objects.updateRow(book, { stock_count: book.stock_count - 1 });
   * });
   * ```
   */
  selectForUpdate(): QuerySet<M, A> {
    const s = this.#state;
    return this.#derive(
      s.conditions,
      s.order,
      s.limit,
      s.offset,
      s.related,
      s.db,
      s.only,
      s.annotations,
      true,
    );
  }

  /**
   * The values of some fields (and annotations) of the matching rows, as records keyed by
   * the names given (Django's `values()`, evaluated: call it last). Names are fields
   * (`author_id`), paths across foreign keys (`author__username`) or annotations.
   *
   * @example
   * ```ts
   * const rows = await Book.objects.orderBy('title').values('title', 'pages'); // [{ title, pages }, ...]
   * ```
   */
  async values<K extends keyof AnnotatedRow<M, A> & string>(
    ...fields: K[]
  ): Promise<Pick<AnnotatedRow<M, A>, K>[]>;
  async values(...fields: string[]): Promise<Record<string, unknown>[]>;
  async values(...fields: string[]): Promise<Record<string, unknown>[]> {
    const lists = await this.#valuesLists(fields);
    return lists.map((values) => {
      const record: Record<string, unknown> = {};
      for (let i = 0; i < fields.length; i++) record[fields[i] as string] = values[i];
      return record;
    });
  }

  /**
   * The values of some fields as lists, one per row (Django's `values_list()`); with
   * `{ flat: true }` and one field, the values themselves.
   *
   * @example
   * ```ts
   * const pairs = await Book.objects.orderBy('title').valuesList(['title', 'pages']); // [['Dune', 412], ...]
   * const titles = await Book.objects.orderBy('title').valuesList(['title'], { flat: true }); // ['Dune', ...]
   * ```
   */
  async valuesList<const K extends readonly (keyof AnnotatedRow<M, A> & string)[]>(
    fields: K,
    options: { readonly flat: true },
  ): Promise<AnnotatedRow<M, A>[K[0]][]>;
  async valuesList<const K extends readonly (keyof AnnotatedRow<M, A> & string)[]>(
    fields: K,
    options?: { readonly flat?: false },
  ): Promise<{ -readonly [I in keyof K]: AnnotatedRow<M, A>[K[I]] }[]>;
  async valuesList(
    fields: readonly string[],
    options?: { readonly flat?: boolean },
  ): Promise<unknown[]> {
    if (options?.flat && fields.length !== 1) {
      throw new ImproperlyConfigured(
        'REST_ERR_MODEL_PATH',
        `${this.model.name}.objects.valuesList(): flat takes one field, got ${fields.length}.`,
      );
    }
    const lists = await this.#valuesLists(fields);
    return options?.flat ? lists.map((values) => values[0]) : lists;
  }

  async #valuesLists(fields: readonly string[]): Promise<unknown[][]> {
    const db = this.db;
    const plan = valuesPlan(this.model, db, this.#state, fields);
    const query = plan.related.length ? this.selectRelated(...plan.related) : this;
    const statement = query.#statement(db, plan.kind, SELECT_OPTIONS, plan.select);
    let rows = this.#query(db, statement);
    if (isPromiseLike(rows)) rows = await rows;
    return rows.map((raw) => plan.read(raw as Record<string, unknown>));
  }

  /**
   * Deletes every matching row; returns how many.
   *
   * @example
   * ```ts
   * const removed = await Book.objects.filter({ state: 'not_published' }).delete(); // how many rows went
   * ```
   */
  async delete(): Promise<number> {
    const db = this.db;
    const query = db.executor.deleteFrom(this.model.table).where(this.#matching(db));
    const result = await this.#run(db, () => query.executeTakeFirst());
    // In-process caches of these rows (Auth's token cache) forget them.
    noteTableWrite(db, this.model.table);
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
    const prepared = prepareSelect(this.model, this.#state, db, 'keys', { ordered: paged, paged });
    const keys = prepared.build((i) => prepared.parameters[i]).select(this.#pkRef);
    return eb(eb.ref(this.model.pk.column), 'in', db.adapter.keysForWrite(db.executor, keys));
  }

  /**
   * Runs a write's statement (`Database.statement`: outside a transaction it is sent again after
   * a lock wait or a deadlock), its error translated.
   */
  async #run<T>(db: Database, fn: () => Promise<T>): Promise<T> {
    try {
      return await db.statement(fn);
    } catch (error) {
      throw db.translateError(error, this.model);
    }
  }

  /**
   * Runs a compiled statement on the current executor, errors translated: the rows at once
   * where the driver runs it synchronously (see `Database.execute`), else a promise of them.
   * `single`: it answers at most one row (the RETURNING of one row's write).
   */
  #query(
    db: Database,
    statement: CompiledStatement,
    single = false,
  ): unknown[] | Promise<unknown[]> {
    if (this.#state.forUpdate && !db.inTransaction) {
      throw new ImproperlyConfigured(
        'REST_ERR_TRANSACTION',
        `${this.model.name}.objects.selectForUpdate() runs inside a transaction only: wrap it in db.atomic(async () => ...).`,
      );
    }
    let rows: MaybePromise<unknown[]>;
    try {
      rows = db.execute(statement, single);
    } catch (error) {
      throw db.translateError(error, this.model);
    }
    // `Database.execute` sends it again after a lock wait or a deadlock itself.
    if (!isPromiseLike(rows)) return rows;
    return Promise.resolve(rows).catch((error: unknown) => {
      throw db.translateError(error, this.model);
    });
  }

  /**
   * The SQL of this query and its parameters (see `prepareSelect`), `finish` completing it:
   * compiled once per shape. A query with a custom `where()` without a shape is compiled
   * every time (its SQL is the caller's to decide).
   */
  #statement(
    db: Database,
    kind: string,
    options: PrepareOptions,
    finish: Finish,
  ): CompiledStatement {
    return compileSelect(db, prepareSelect(this.model, this.#state, db, kind, options), finish);
  }
}

/** True when a value of `filter` is an expression (`F(...)`), which a lookup plan cannot bind. */
function hasExpressionValue(filter: Filter): boolean {
  for (const key in filter) if (isQueryExpression(filter[key])) return true;
  return false;
}

/** A query set of `model` in `state`, for the prefetches (see `prefetch-related.ts`). */
function makeQuerySet(model: AnyModel, state: QueryState): QuerySet<AnyModel> {
  return new QuerySet(model, state);
}

/**
 * Removes what a DISTINCT query selected for its ordering alone (see `PreparedSelect.build`:
 * SQL wants the ORDER BY values of a DISTINCT in its select list).
 */
function dropOrderColumns(rows: readonly object[], terms: number): void {
  for (const row of rows) {
    for (let i = 0; i < terms; i++) delete (row as Record<string, unknown>)[`${ORDER_COLUMN}${i}`];
  }
}

/** The options of exists()' lookup: unordered, paged (LIMIT 1), no related rows. */
const EXISTS_OPTIONS: PrepareOptions = { ordered: false, paged: true };

/** The row of an existence check, as the driver gave it (only its number matters). */
const keyRow = (raw: Record<string, unknown>): Record<string, unknown> => raw;

function relatedKey(value: unknown): unknown {
  if (value !== null && typeof value === 'object') {
    const row = value as Record<string, unknown>;
    return row.id ?? row.pk;
  }
  return value;
}

/** A field `updateRow` does not write (see `next` there). */
const UNWRITTEN: unique symbol = Symbol('unwritten');

/** The value a new row gets for a field nobody set: its default, or '' for a blank text field. */
function implicitDefault(field: AnyModelField): unknown {
  const def = field.getDefault();
  if (def !== undefined) return def;
  if (field.isText && field.options.blank && !field.nullable) return '';
  if (field.nullable) return null;
  return undefined;
}
