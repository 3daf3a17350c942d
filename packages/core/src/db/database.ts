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
import { CompiledQuery, Kysely, type LogEvent } from 'kysely';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyModel } from '../models/model.ts';
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
import type { StatementSlot } from './plan/statement-cache.ts';

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

/** Calls `fn` (what {@link Database.statement} hands its private loop). */
function call<T>(fn: () => Promise<T>): Promise<T> {
  return fn();
}

/** What a query listener receives: the SQL, its parameters, and the time it took. */
export interface QueryEvent {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  readonly durationMs: number;
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
  readonly kysely: Kysely<any>;
  readonly adapter: DialectAdapter;
  #closed = false;
  readonly #listeners = new Set<(event: QueryEvent) => void>();
  /** See `DatabaseOptions.transactionRetries`. */
  readonly #transactionRetries: number;

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
      log: (event: LogEvent) => {
        if (this.#listeners.size === 0) return;
        const query: QueryEvent = {
          sql: event.query.sql,
          parameters: event.query.parameters,
          durationMs: event.queryDurationMillis,
          ...(event.level === 'error' ? { error: event.error } : {}),
        };
        for (const listener of this.#listeners) listener(query);
      },
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
   * Runs compiled SQL and returns its rows: at once where the dialect can (SQLite), else
   * through Kysely's executor (in the current transaction, if any). Query listeners hear of
   * it either way. Outside a transaction it is sent again after a lock wait or a deadlock, as
   * {@link statement} does.
   */
  async query(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    return this.queryNow(sql, parameters) ?? this.#statement(this.#queryLater, sql, parameters);
  }

  /** {@link query} of a statement the dialect could not run at once. */
  #queryLater(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    return this.#queryPooled(sql, parameters) ?? this.#queryThroughKysely(sql, parameters);
  }

  /**
   * Runs one statement (`statement`, a function that sends it and resolves to its answer),
   * and outside a transaction sends it again while it fails for a lock held past one slice of
   * the wait (until `lockTimeoutMs`) or as a deadlock's victim (up to `transactionRetries`
   * times): a statement that failed so did nothing, and between attempts it holds no
   * connection. Inside a transaction it runs once (a transaction that may run again is what
   * runs again). The query sets send their writes through it.
   *
   * @example
   * ```ts
   * await db.statement(() => db.kysely.deleteFrom('books_book').where('pages', '<', 10).execute());
   * ```
   */
  statement<T>(statement: () => Promise<T>): Promise<T> {
    return this.#statement(call, statement, undefined);
  }

  /**
   * {@link statement} of `send(a, b)`, called as a method of this database: {@link query}
   * passes its method and arguments, so that a read makes no closure for it.
   */
  async #statement<A, B, T>(
    send: (this: Database, a: A, b: B) => Promise<T>,
    a: A,
    b: B,
  ): Promise<T> {
    if (this.inTransaction) return send.call(this, a, b);
    const started = Date.now();
    for (let attempt = 0, conflicts = 0; ; attempt++) {
      try {
        return await send.call(this, a, b);
      } catch (error) {
        const again = this.#runsAgain(error, started, conflicts);
        if (!again) throw error;
        if (again === 'conflict') conflicts++;
        await pauseBeforeRetry(attempt);
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

  /**
   * Outside a transaction, on a pooled connection without Kysely's executor where the dialect
   * can (see `DialectAdapter.runPooled`): Kysely's connection provider, executor and result
   * handling cost more than pg's own work for a read of one row.
   */
  #queryPooled(sql: string, parameters: readonly unknown[]): Promise<unknown[]> | undefined {
    const pooled = this.adapter.runPooled;
    if (!pooled || this.inTransaction) return undefined;
    const started = this.#listeners.size ? performance.now() : 0;
    const rows = pooled.call(this.adapter, sql, parameters);
    if (rows === undefined || this.#listeners.size === 0) return rows;
    return rows.then(
      (found) => {
        this.#notify(sql, parameters, started);
        return found;
      },
      (error: unknown) => {
        this.#notify(sql, parameters, started, error);
        throw error;
      },
    );
  }

  /**
   * {@link query} without a promise where the dialect runs statements synchronously (SQLite,
   * when no other request holds the connection): the rows, or undefined when the statement
   * must go through {@link query}. The toolkit's own queries try this first: a read of one
   * row otherwise cost three promises and their microtask turns on top of the statement.
   * `slot` is a compiled shape's place for the dialect's prepared statement, and `single` says
   * the statement answers at most one row (see `DialectAdapter.runDirect`).
   *
   * @example
   * ```ts
   * const sql = 'select count(*) as "n" from "books_book"';
   * const rows = db.queryNow(sql, []) ?? (await db.query(sql, []));
   * ```
   */
  queryNow(
    sql: string,
    parameters: readonly unknown[],
    slot?: StatementSlot,
    single = false,
  ): unknown[] | undefined {
    const direct = this.adapter.runDirect;
    if (!direct) return undefined;
    const started = this.#listeners.size ? performance.now() : 0;
    let rows: unknown[] | undefined;
    try {
      rows = direct.call(this.adapter, sql, parameters, this.inTransaction, slot, single);
    } catch (error) {
      this.#notify(sql, parameters, started, error);
      throw error;
    }
    if (rows) this.#notify(sql, parameters, started);
    return rows;
  }

  async #queryThroughKysely(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    const result = await this.executor.executeQuery(
      CompiledQuery.raw(sql, parameters as unknown[]),
    );
    return result.rows as unknown[];
  }

  #notify(sql: string, parameters: readonly unknown[], started: number, error?: unknown): void {
    if (this.#listeners.size === 0) return;
    const event: QueryEvent = {
      sql,
      parameters,
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
        const open = this.adapter.beginNow?.(this.kysely);
        if (open) {
          // Begun by the adapter at once: committed or rolled back here (not in a function
          // of its own, whose promise and turns every write would pay for).
          began = true;
          try {
            result = await scopes.run({ db: this, trx: open.executor, onCommit, onRollback }, fn);
          } catch (error) {
            open.end(false);
            throw error;
          }
          open.end(true);
        } else {
          result = await this.kysely.transaction().execute((trx) => {
            began = true;
            const run = () => scopes.run({ db: this, trx, onCommit, onRollback }, fn);
            return rerun || !this.adapter.lengthenLockWaits
              ? run()
              : this.#waitingWholeLockTimeout(trx, run);
          });
        }
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
