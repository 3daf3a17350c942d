/**
 * A connection to one database, picked by URL, with transactions that follow the async call
 * chain (so every query of a request joins the request's transaction without passing it).
 *
 * @example
 * ```ts
 * import { Database } from '@restframework/core';
 *
 * const db = Database.connect(process.env.DATABASE_URL ?? 'sqlite:db.sqlite3');
 * await db.migrate([Book, Author]);
 * await db.transaction(async () => {
 *   const book = await Book.objects.create({ title: 'Dune', isbn: '1' });
 *   await Book.objects.updateRow(book, { title: 'Dune (2nd ed.)' });
 * });
 * await db.close();
 * ```
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, Kysely, type LogEvent, sql } from 'kysely';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyModel } from '../models/model.ts';
import { CacheSet } from '../utils/bounded-cache.ts';
import { isPromiseLike, type MaybePromise } from '../utils/maybe-promise.ts';
import { DatabaseError, DatabaseUnavailableError, unavailable } from './database-errors.ts';
import { requireWholeNumber } from './database-options.ts';
import type { DialectAdapter } from './dialect/dialect-adapter.ts';
import { MysqlAdapter } from './dialect/mysql/mysql-adapter.ts';
import {
  PostgresAdapter,
  type PostgresAdapterOptions,
} from './dialect/postgres/postgres-adapter.ts';
import { SqliteAdapter } from './dialect/sqlite/sqlite-adapter.ts';
import { type MigrationReport, migrate } from './migrate.ts';
import type { CompiledStatement } from './plan/statement-cache.ts';

/** Options of {@link Database.connect}. */
export interface DatabaseOptions {
  /** PostgreSQL and MySQL pool size (default 10). */
  readonly poolSize?: number;
  /**
   * How long to wait for a pool connection (and to connect) before answering 503, in ms
   * (default 5000). SQLite: how long to wait for its lock, and for its one connection while a
   * transaction holds it (0: no wait for the lock, no limit for the connection).
   */
  readonly connectionTimeoutMs?: number;
  /** PostgreSQL and MySQL statement timeout in ms (default 30000). */
  readonly statementTimeoutMs?: number;
  /**
   * PostgreSQL and MySQL: how long a request waits in all for a lock another connection holds
   * (a row, or a whole table under `LOCK TABLE`/`LOCK TABLES` or a schema change) before it
   * answers 503, in ms (default 5000; 0 for no limit). A statement waits on the server one
   * slice of it at a time (PostgreSQL 250 ms, MySQL 1 s) and gives its connection back between
   * slices, so that a locked table never holds the whole pool: requests for other tables are
   * served meanwhile. (SQLite waits for its lock for `connectionTimeoutMs`.)
   */
  readonly lockTimeoutMs?: number;
  /**
   * How many times a transaction that may run again (a view's write) runs again after a
   * deadlock or a serialization failure, after a short random pause, before the request answers
   * 503 (default 5; 0 never runs it again).
   */
  readonly transactionRetries?: number;
  /**
   * PostgreSQL: prepare each query once per connection (default true); turn it off behind a
   * pooler that does not keep prepared statements.
   */
  readonly preparedStatements?: boolean;
  /**
   * PostgreSQL: the collation whose `upper`/`lower` fold text for the case-insensitive lookups
   * and search (default: the database's own). Needed only on a database created with
   * `LC_CTYPE` C, which folds ASCII letters only: name a UTF-8 one `pg_collation` lists
   * (`C.utf8`, `en_US.utf8`, `und-x-icu`). `migrate` checks it.
   *
   * @example
   * ```ts
   * const db = Database.connect('postgres://postgres@127.0.0.1:5432/shop', { caseFoldCollation: 'C.utf8' });
   * ```
   */
  readonly caseFoldCollation?: string;
  /**
   * SQLite: how much of the file is read through a memory map, in bytes (default 256 MiB; 0
   * turns it off): reads of pages in random order then cost no system call each.
   */
  readonly mmapSizeBytes?: number;
}

/** Options of {@link Database.transaction}. */
export interface TransactionOptions {
  /**
   * `fn` may run again (default false). When the database aborts the transaction for a
   * deadlock or a serialization failure, or a lock outlasts one slice of the wait (see
   * `lockTimeoutMs`), the transaction is rolled back, its `onRollback` hooks run, and `fn`
   * runs again after a short random pause: up to `transactionRetries` times for conflicts,
   * until `lockTimeoutMs` for locks. Only for a `fn` whose every effect is in the transaction
   * (or in an `onCommit` hook) and that sent nothing anywhere yet: whatever else it does would
   * be done twice. A view's write runs so (its handler builds a response, sent after the
   * commit). Without it the transaction waits for locks on its connection, and a conflict is
   * a 503 at once.
   */
  readonly rerun?: boolean;
}

type Hook = () => void | Promise<void>;

/**
 * The pause before trying a statement or a transaction again (after a lock wait, a deadlock, a
 * busy SQLite file): doubling from 2 ms up to 50 ms, each a random point between half and all
 * of it, so that writers that conflicted do not come back in step and conflict again.
 */
function pauseBeforeRetry(attempt: number): Promise<void> {
  const ms = Math.min(50, 2 * 2 ** attempt) * (0.5 + Math.random() / 2);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What a query listener receives: the SQL, its parameters, and the time it took. */
export interface QueryEvent {
  /** The SQL that ran. */
  readonly sql: string;
  /** Its parameters. */
  readonly parameters: readonly unknown[];
  /** How long it took, in milliseconds. */
  readonly durationMs: number;
  /** The error it failed with, if it failed. */
  readonly error?: unknown;
}

interface Scope {
  readonly db: Database;
  readonly trx: Kysely<any> | null;
  readonly onCommit: Hook[];
  readonly onRollback: Hook[];
}

const scopes = new AsyncLocalStorage<Scope>();
let defaultDatabase: Database | undefined;

/**
 * A database: a Kysely instance, its dialect adapter, and transaction scoping.
 *
 * @example
 * ```ts
 * const db = Database.connect('sqlite:db.sqlite3');
 * await db.transaction(async () => {
 *   const author = await Author.objects.create({ salutation: 'Mr', name: 'Frank Herbert' });
 *   await Author.objects.filter({ pk: author.id }).update({ company: 'Chilton' });
 * }); // both or neither
 * await db.close();
 * ```
 */
export class Database {
  /** The Kysely instance underneath, for queries of your own. */
  readonly kysely: Kysely<any>;
  /** The dialect's adapter (SQLite, PostgreSQL, MySQL/MariaDB). */
  readonly adapter: DialectAdapter;
  #closed = false;
  /** Savepoints made so far (their names: `atomic()` inside a transaction). */
  #savepoints = 0;
  readonly #listeners = new Set<(event: QueryEvent) => void>();
  /** See `DatabaseOptions.transactionRetries`. */
  readonly #transactionRetries: number;
  /**
   * What the query layer keeps for this database: compiled statements, lookup plans, the
   * statements of writes (each a bounded cache with its own counters, `caches.stats()`).
   * {@link clearCaches} empties them.
   */
  readonly caches: CacheSet = new CacheSet();

  constructor(adapter: DialectAdapter, options: Pick<DatabaseOptions, 'transactionRetries'> = {}) {
    requireWholeNumber(
      'transactionRetries',
      options.transactionRetries,
      0,
      'times a transaction runs again after a deadlock; 0 for never',
    );
    this.#transactionRetries = options.transactionRetries ?? 5;
    this.adapter = adapter;
    this.kysely = new Kysely<any>({
      dialect: adapter.createDialect(),
      // What Kysely's executor runs (a statement the adapter leaves to it, a query built and
      // run with `kysely`, BEGIN and COMMIT of its transactions) is timed by Kysely.
      log: (event: LogEvent) =>
        this.#notify(
          event.query,
          performance.now() - event.queryDurationMillis,
          event.level === 'error' ? event.error : undefined,
        ),
    });
  }

  /**
   * Calls `listener` after every query (for logging, or to count queries in tests).
   * Returns a function that removes the listener.
   */
  onQuery(listener: (event: QueryEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Opens the database a URL names: `sqlite:PATH` (a file, relative or absolute),
   * `sqlite::memory:`, `postgres://user@host:port/name`, or `mysql://user:password@host:port/name`
   * (`mariadb://` too; needs the `mysql2` package). The connection opens lazily.
   */
  static connect(url: string, options: DatabaseOptions = {}): Database {
    return new Database(adapterForUrl(url, options), options);
  }

  /** `sqlite`, `postgres` or `mysql`. */
  get vendor(): string {
    return this.adapter.vendor;
  }

  /** The process-wide database used by queries outside a request when none is given. */
  static get default(): Database | undefined {
    return defaultDatabase;
  }

  /** Sets (or clears) the process-wide default database. */
  static setDefault(db: Database | undefined): void {
    defaultDatabase = db;
  }

  /** The database of the current async context: the request's, else the default. */
  static current(): Database | undefined {
    return scopes.getStore()?.db ?? defaultDatabase;
  }

  /** Runs `fn` with this database as the current one (what the Fastify plugin does per request). */
  run<T>(fn: () => T): T {
    const scope = scopes.getStore();
    // Already current (the context's, or the default outside any context): a scope without a
    // transaction would change nothing, and entering one costs every request a context frame.
    if (scope ? scope.db === this : defaultDatabase === this) return fn();
    return scopes.run({ db: this, trx: null, onCommit: [], onRollback: [] }, fn);
  }

  /** The query executor for the current context: the open transaction on this database, if any. */
  get executor(): Kysely<any> {
    const scope = scopes.getStore();
    return scope?.db === this && scope.trx ? scope.trx : this.kysely;
  }

  /**
   * Runs compiled SQL and resolves to its rows, in the current transaction if any: what
   * {@link execute} does, always as a promise.
   *
   * @example
   * ```ts
   * const rows = await db.query('select count(*) as "n" from "books_book"', []);
   * ```
   */
  async query(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    return this.execute({ sql, parameters });
  }

  /**
   * Runs one compiled statement, the one way the toolkit runs SQL: on the current
   * transaction's connection if any, else on one of its own. Its rows come at once where the
   * dialect answers at once (SQLite, when no other request holds the connection), else as a
   * promise. Query listeners hear of it, success or failure. Outside a transaction a statement
   * that waited past one slice of the lock wait, or lost a deadlock, is sent again as
   * `statement` does. Errors are the driver's: {@link translateError} types them.
   * `single` says it answers at most one row (see `DialectAdapter.execute`).
   *
   * @example
   * ```ts
   * const found = db.execute({ sql: 'select 1 as "one"', parameters: [] });
   * const rows = isPromiseLike(found) ? await found : found; // at once on SQLite
   * ```
   */
  execute(statement: CompiledStatement, single = false): MaybePromise<unknown[]> {
    const inTransaction = this.inTransaction;
    const rows = this.#run(statement, inTransaction, single);
    if (inTransaction || !isPromiseLike(rows)) return rows;
    const started = Date.now();
    return Promise.resolve(rows).then(undefined, (error: unknown) =>
      this.#sendAgain(() => this.#run(statement, false, single), error, started),
    );
  }

  /**
   * Runs `statement` once: through the adapter, or Kysely's executor where the adapter
   * leaves it (Kysely's log then tells the listeners: see the constructor). Listeners hear
   * of what the adapter ran here, the one place that times it.
   */
  #run(
    statement: CompiledStatement,
    inTransaction: boolean,
    single: boolean,
  ): MaybePromise<unknown[]> {
    const listening = this.#listeners.size !== 0;
    const started = listening ? performance.now() : 0;
    let rows: MaybePromise<unknown[]> | undefined;
    try {
      rows = this.adapter.execute(statement, inTransaction, single);
    } catch (error) {
      if (listening) this.#notify(statement, started, error);
      throw error;
    }
    if (rows === undefined) {
      return this.executor
        .executeQuery(CompiledQuery.raw(statement.sql, statement.parameters as unknown[]))
        .then((result) => result.rows as unknown[]);
    }
    if (!listening) return rows;
    if (!isPromiseLike(rows)) {
      this.#notify(statement, started);
      return rows;
    }
    return Promise.resolve(rows).then(
      (found) => {
        this.#notify(statement, started);
        return found;
      },
      (error: unknown) => {
        this.#notify(statement, started, error);
        throw error;
      },
    );
  }

  /**
   * Runs one statement (`statement`, a function that sends it and resolves to its answer),
   * and outside a transaction sends it again while it fails for a lock held past one slice of
   * the wait (until `lockTimeoutMs`) or as a deadlock's victim (up to `transactionRetries`
   * times): a statement that failed so did nothing, and between attempts it holds no
   * connection. Inside a transaction it runs once (a transaction that may run again is what
   * runs again). The query sets send the writes they build with Kysely through it.
   *
   * @example
   * ```ts
   * await db.statement(() => db.kysely.deleteFrom('books_book').where('pages', '<', 10).execute());
   * ```
   */
  async statement<T>(statement: () => Promise<T>): Promise<T> {
    if (this.inTransaction) return statement();
    const started = Date.now();
    try {
      return await statement();
    } catch (error) {
      return this.#sendAgain(statement, error, started);
    }
  }

  /**
   * Sends a statement that failed with `error` again, after a pause, while {@link #runsAgain}
   * says so; else throws the last error. `started`: when its first attempt began.
   */
  async #sendAgain<T>(send: () => MaybePromise<T>, error: unknown, started: number): Promise<T> {
    for (let attempt = 0, conflicts = 0; ; attempt++) {
      const again = this.#runsAgain(error, started, conflicts);
      if (!again) throw error;
      if (again === 'conflict') conflicts++;
      await pauseBeforeRetry(attempt);
      try {
        return await send();
      } catch (failed) {
        error = failed;
      }
    }
  }

  /**
   * Whether a statement, or a transaction that may run again, runs again after `error`:
   * `'locked'` while the lock timeout since `started` has not passed, `'conflict'` (a deadlock
   * or serialization failure) while fewer than `transactionRetries` conflicts came before;
   * else undefined.
   */
  #runsAgain(
    error: unknown,
    started: number,
    conflicts: number,
  ): 'locked' | 'conflict' | undefined {
    const typed = this.translateError(error, undefined);
    if (!(typed instanceof DatabaseUnavailableError)) return undefined;
    if (typed.kind === 'locked') {
      const timeout = this.adapter.lockTimeoutMs;
      return timeout > 0 && Date.now() - started < timeout ? 'locked' : undefined;
    }
    if (typed.kind === 'conflict')
      return conflicts < this.#transactionRetries ? 'conflict' : undefined;
    return undefined;
  }

  /** Tells the listeners of a statement that began at `started` (`performance.now()`). */
  #notify(
    query: { readonly sql: string; readonly parameters: readonly unknown[] },
    started: number,
    error?: unknown,
  ): void {
    if (this.#listeners.size === 0) return;
    const event: QueryEvent = {
      sql: query.sql,
      parameters: query.parameters,
      durationMs: performance.now() - started,
      ...(error === undefined ? {} : { error }),
    };
    for (const listener of this.#listeners) listener(event);
  }

  /** True inside {@link transaction} on this database. */
  get inTransaction(): boolean {
    const scope = scopes.getStore();
    return scope?.db === this && scope.trx !== null;
  }

  /**
   * Runs `fn` atomically, as Django's `transaction.atomic`: in a transaction of its own
   * (see {@link transaction}), or, inside one, in a SAVEPOINT: when `fn` throws, only its own
   * work is rolled back and the error goes on, so an outer block that catches it carries on
   * with the rest of its transaction (a unique violation caught by `getOrCreate()` does not
   * spoil PostgreSQL's transaction around it). Hooks registered by a rolled-back inner block
   * still run with the outer transaction.
   *
   * @example
   * ```ts
   * await db.atomic(async () => {
   *   await Book.objects.filter({ pk: 1 }).update({ stock_count: 0 });
   *   try {
   *     await db.atomic(async () => {
   *       await Book.objects.create({ title: 'Dune', isbn: '978-0-441-17271-9', publication_date: '1965-08-01', price: '9.99' });
   *     });
   *   } catch {
   *     // the insert is undone; the update above stays
   *   }
   * });
   * ```
   */
  async atomic<T>(fn: () => Promise<T>): Promise<T> {
    if (!this.inTransaction) return this.transaction(fn);
    const executor = this.executor;
    // A name made here, never from input: a counter per database.
    const name = `rf_savepoint_${++this.#savepoints}`;
    await sql.raw(`savepoint ${name}`).execute(executor);
    let result: T;
    try {
      result = await fn();
    } catch (error) {
      await sql.raw(`rollback to savepoint ${name}`).execute(executor);
      throw error;
    }
    await sql.raw(`release savepoint ${name}`).execute(executor);
    return result;
  }

  /**
   * Runs `fn` in a transaction: committed when it resolves, rolled back when it throws.
   * Every query made by `fn`, however deep, uses the transaction. Nested calls join the
   * outer transaction. With `{ rerun: true }` a deadlock, a serialization failure or a lock
   * wait runs `fn` again (see {@link TransactionOptions}).
   *
   * @example
   * ```ts
   * await db.transaction(
   *   async () => {
   *     const book = await Book.objects.get({ pk: 1 });
   *     await Book.objects.updateRow(book, { stock_count: book.stock_count - 1 });
   *   },
   *   { rerun: true }, // only database work: safe to run again after a deadlock
   * );
   * ```
   */
  async transaction<T>(fn: () => Promise<T>, options?: TransactionOptions): Promise<T> {
    if (this.inTransaction) return fn();
    const rerun = options?.rerun === true;
    let result: T;
    let onCommit: Hook[];
    const started = Date.now();
    for (let attempt = 0, conflicts = 0; ; attempt++) {
      onCommit = [];
      const onRollback: Hook[] = [];
      let began = false;
      try {
        const opening = this.adapter.begin(this.kysely);
        const open = isPromiseLike(opening) ? await opening : opening;
        began = true;
        // Committed or rolled back here, not in a function of its own, whose promise and
        // turns every write would pay for; SQLite's end is synchronous.
        try {
          const run = () => scopes.run({ db: this, trx: open.executor, onCommit, onRollback }, fn);
          result = await (rerun || !this.adapter.lengthenLockWaits
            ? run()
            : this.#waitingWholeLockTimeout(open.executor, run));
        } catch (error) {
          // A ROLLBACK that fails (the server went away) reports its own error, as Kysely's
          // transactions do.
          const ended = open.end(false);
          if (isPromiseLike(ended)) await ended;
          throw error;
        }
        const ended = open.end(true);
        if (isPromiseLike(ended)) await ended;
        break;
      } catch (error) {
        if (onRollback.length) await runHooks(onRollback);
        // Another process holds the lock and nothing ran yet (SQLite's BEGIN): wait (without
        // holding the connection, so other requests go on) and begin again, until the lock
        // timeout. A transaction that may run again does so after a lock wait or a conflict.
        const again =
          !began && this.adapter.isBusy(error)
            ? Date.now() - started < this.adapter.lockTimeoutMs
            : rerun && this.#runsAgain(error, started, conflicts);
        if (!again) throw this.translateError(error, undefined);
        if (again === 'conflict') conflicts++;
        await pauseBeforeRetry(attempt);
      }
    }
    // Most transactions register no hook: no async call (and its promise) for nothing.
    if (onCommit.length) await runHooks(onCommit);
    return result;
  }

  /**
   * Runs `run` (a transaction's body, on `trx`) with the adapter's lock waits lengthened to
   * the whole lock timeout: a transaction that cannot run again waits on its connection.
   */
  async #waitingWholeLockTimeout<T>(trx: Kysely<any>, run: () => Promise<T>): Promise<T> {
    const restore = await this.adapter.lengthenLockWaits?.(trx);
    if (!restore) return run();
    let result: T;
    try {
      result = await run();
    } catch (error) {
      // The transaction failed already: its error is the one to report.
      await restore().catch(() => {});
      throw error;
    }
    await restore();
    return result;
  }

  /**
   * Turns a driver error into a typed `DatabaseError` (the adapter's translation). Once the
   * database is closed every failure is `DatabaseUnavailableError`: Kysely then throws a plain
   * "driver has already been destroyed", which would otherwise be answered 500 instead of 503.
   */
  translateError(error: unknown, model: AnyModel | undefined): unknown {
    if (error instanceof DatabaseError) return error;
    if (this.#closed) return unavailable('closed', error);
    return this.adapter.translateError(error, model);
  }

  /** Runs `hook` after the current transaction commits (at once outside a transaction). */
  async onCommit(hook: Hook): Promise<void> {
    const scope = scopes.getStore();
    if (scope?.db === this && scope.trx) scope.onCommit.push(hook);
    else await hook();
  }

  /** Runs `hook` if the current transaction rolls back (never outside a transaction). */
  onRollback(hook: Hook): void {
    const scope = scopes.getStore();
    if (scope?.db === this && scope.trx) scope.onRollback.push(hook);
  }

  /**
   * Creates the missing tables, columns and indexes of `models`, and never alters or drops
   * anything: the quick path for tests and scripts. A service whose data must survive a change
   * of its models uses migration files (`restframework makemigrations` / `migrate`,
   * docs/migrations.md).
   */
  migrate(models: readonly AnyModel[]): Promise<MigrationReport> {
    return migrate(this, models);
  }

  /**
   * Forgets everything kept for this database that depends on its schema: its caches
   * ({@link caches}) and what the adapter prepared (PostgreSQL's statement names). The one way
   * to start afresh after a schema change; migrations call it when they end.
   *
   * @example
   * ```ts
   * await db.query('alter table "books_book" add column "note" text', []);
   * db.clearCaches();
   * ```
   */
  clearCaches(): void {
    this.caches.clear();
    this.adapter.clearCaches();
  }

  /** The query plan of a compiled query. */
  explain(query: { sql: string; parameters: readonly unknown[] }): Promise<string[]> {
    return this.adapter.explain(this.executor, query.sql, query.parameters);
  }

  /** Closes the connections. Safe to call twice. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (defaultDatabase === this) defaultDatabase = undefined;
    await this.kysely.destroy();
    await this.adapter.destroy();
  }
}

async function runHooks(hooks: readonly Hook[]): Promise<void> {
  for (const hook of hooks) {
    try {
      await hook();
    } catch {
      // A cleanup hook must not turn a finished request into a failure.
    }
  }
}

function adapterForUrl(url: string, options: DatabaseOptions): DialectAdapter {
  if (url.startsWith('sqlite:')) {
    const rest = url.slice('sqlite:'.length);
    const filename = rest === ':memory:' ? ':memory:' : rest.replace(/^\/\/(?=\/)/, '');
    if (!filename) {
      throw new ImproperlyConfigured(
        'REST_ERR_DATABASE_URL',
        'DATABASE_URL "sqlite:" names no file. Use sqlite:PATH (for example sqlite:db.sqlite3) or sqlite::memory:.',
      );
    }
    // Checked here under the name the caller used: the adapter would name it busyTimeoutMs.
    requireWholeNumber('connectionTimeoutMs', options.connectionTimeoutMs, 0, 'milliseconds');
    return new SqliteAdapter({
      filename,
      ...(options.connectionTimeoutMs !== undefined
        ? { busyTimeoutMs: options.connectionTimeoutMs }
        : {}),
      ...(options.mmapSizeBytes !== undefined ? { mmapSizeBytes: options.mmapSizeBytes } : {}),
    });
  }
  if (url.startsWith('mysql://') || url.startsWith('mariadb://')) {
    return new MysqlAdapter({
      connectionString: url,
      ...serverOptions(options),
    });
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const pgOptions: PostgresAdapterOptions = {
      connectionString: url,
      ...serverOptions(options),
      ...(options.preparedStatements !== undefined
        ? { preparedStatements: options.preparedStatements }
        : {}),
      ...(options.caseFoldCollation !== undefined
        ? { caseFoldCollation: options.caseFoldCollation }
        : {}),
    };
    return new PostgresAdapter(pgOptions);
  }
  throw new ImproperlyConfigured(
    'REST_ERR_DATABASE_URL',
    `DATABASE_URL ${JSON.stringify(url.replace(/\/\/[^@/]*@/, '//***@'))} is not supported. ` +
      'Use sqlite:PATH, sqlite::memory:, postgres://user@host:port/name or mysql://user@host:port/name.',
  );
}

/** The options a database server's adapter takes (PostgreSQL, MySQL), those that are given. */
function serverOptions(options: DatabaseOptions) {
  return {
    ...(options.poolSize !== undefined ? { poolSize: options.poolSize } : {}),
    ...(options.connectionTimeoutMs !== undefined
      ? { connectionTimeoutMs: options.connectionTimeoutMs }
      : {}),
    ...(options.statementTimeoutMs !== undefined
      ? { statementTimeoutMs: options.statementTimeoutMs }
      : {}),
    ...(options.lockTimeoutMs !== undefined ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
  };
}
