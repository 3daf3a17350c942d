/**
 * Kysely's SQLite driver, changed for a database file shared with other processes: write
 * transactions take the write lock when they begin, and waiting for a lock another process
 * holds never blocks the event loop.
 * @module
 */
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
  SqliteDialect,
  SqliteDriver,
  type SqliteStatement,
} from 'kysely';
import { poolTimeout } from '../../database-errors.ts';

/** What the driver needs to know of the connection besides running statements. */
export interface TransactionState {
  /** True while a transaction is open (better-sqlite3's `Database.inTransaction`). */
  readonly inTransaction: boolean;
}

/** True for SQLite's "locked by another connection" errors (SQLITE_BUSY, SQLITE_LOCKED and variants). */
export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
  );
}

/** Waits between attempts: short at first, then up to 50 ms. */
function backoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.min(50, 2 ** attempt)));
}

/**
 * The SQLite dialect of the toolkit: Kysely's, with {@link LockAwareSqliteDriver}.
 *
 * better-sqlite3 waits for a lock synchronously (its `timeout`), which would stop every other
 * request of the process while it waits; this dialect opens the file with no synchronous wait
 * and waits asynchronously instead.
 */
export class LockAwareSqliteDialect extends SqliteDialect {
  readonly #database: SqliteDatabase;
  readonly #state: TransactionState;
  readonly #busyTimeoutMs: number;

  /**
   * `database` is what Kysely runs statements on, `state` tells whether a transaction is
   * open (both may be the same better-sqlite3 `Database`, opened with `timeout: 0`).
   */
  constructor(database: SqliteDatabase, state: TransactionState, busyTimeoutMs: number) {
    super({ database });
    this.#database = database;
    this.#state = state;
    this.#busyTimeoutMs = busyTimeoutMs;
  }

  /** The driver Kysely made from this dialect (Kysely makes one per instance). */
  driver: LockAwareSqliteDriver | undefined;

  override createDriver(): Driver {
    this.driver = new LockAwareSqliteDriver(this.#database, this.#state, this.#busyTimeoutMs);
    return this.driver;
  }
}

/**
 * - Transactions begin with `BEGIN IMMEDIATE`: a transaction that reads and then writes
 *   would otherwise fail at its first write, without waiting, whenever another process wrote
 *   in between (WAL mode cannot upgrade a stale read). A `BEGIN IMMEDIATE` that finds the
 *   lock taken fails at once, before anything ran, and `Database.transaction` tries again
 *   with the connection released, so other requests' reads go on meanwhile.
 * - A statement outside a transaction that finds the database locked is tried again, with
 *   growing pauses, for up to `busyTimeoutMs`, then fails with SQLITE_BUSY (a 503).
 * - A request that needs the connection while a transaction holds it waits for it up to
 *   `busyTimeoutMs` too, then fails with `POOL_TIMEOUT` (a 503): a transaction that does not
 *   end cannot hold every other request without end.
 */
export class LockAwareSqliteDriver extends SqliteDriver {
  readonly #database: SqliteDatabase;
  readonly #state: TransactionState;
  readonly #busyTimeoutMs: number;

  constructor(database: SqliteDatabase, state: TransactionState, busyTimeoutMs: number) {
    super({ database });
    this.#database = database;
    this.#state = state;
    this.#busyTimeoutMs = busyTimeoutMs;
  }

  /**
   * Whether someone holds the connection: a request's Kysely connection (Kysely's own mutex
   * lets only one at a time get here) or a transaction begun by {@link beginNow}.
   */
  #held = false;
  /** Kysely connections waiting for a transaction begun by {@link beginNow} to end. */
  readonly #waiting: (() => void)[] = [];
  #connection: DatabaseConnection | undefined;

  /**
   * True when nobody holds the connection or waits for it: a statement run now,
   * synchronously, can be no part of another request's transaction (it ends before anyone
   * else can start).
   */
  get idle(): boolean {
    return !this.#held && this.#waiting.length === 0;
  }

  override async init(): Promise<void> {
    await super.init();
    // SQLite's driver has one connection for good; beginNow() runs Kysely queries on it.
    this.#connection = await super.acquireConnection();
  }

  /**
   * Takes the connection and begins a transaction at once, without any wait, when the
   * connection is idle; returns the connection (to run Kysely queries of the transaction
   * on), or undefined when it is not idle or the driver has not started yet. Throws SQLite's
   * busy error when another process holds the write lock, as `BEGIN IMMEDIATE` does; the
   * connection is then free again. End it with {@link endNow}.
   */
  beginNow(): DatabaseConnection | undefined {
    if (!this.idle || !this.#connection) return undefined;
    this.#held = true;
    try {
      this.#control('begin immediate');
    } catch (error) {
      this.#release();
      throw error;
    }
    return this.#connection;
  }

  /** Commits (or rolls back) a transaction of {@link beginNow} and frees the connection. */
  endNow(commit: boolean): void {
    try {
      if (commit) this.#control('commit');
    } finally {
      try {
        // After a failure, or a COMMIT that failed (a deferred constraint) and left it open.
        if (this.#state.inTransaction) this.#control('rollback');
      } finally {
        this.#release();
      }
    }
  }

  /** BEGIN, COMMIT and ROLLBACK, each prepared once: parsing them took a third of a write's SQLite time. */
  readonly #controls = new Map<string, SqliteStatement>();

  #control(sql: 'begin immediate' | 'commit' | 'rollback'): void {
    let statement = this.#controls.get(sql);
    if (!statement) this.#controls.set(sql, (statement = this.#database.prepare(sql)));
    statement.run([]);
  }

  /** Hands the connection to the next waiting Kysely connection, or frees it. */
  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }

  /**
   * Waits for the connection to be handed over, for up to the busy timeout (0: as long as it
   * takes); then fails with `POOL_TIMEOUT` (a 503), and the connection goes to the next one.
   * A request must not wait without end behind a transaction that does not finish.
   */
  #handedOver(): Promise<void> {
    const timeoutMs = this.#busyTimeoutMs;
    return new Promise<void>((resolve, reject) => {
      if (timeoutMs === 0) {
        this.#waiting.push(resolve);
        return;
      }
      const timer = setTimeout(() => {
        const at = this.#waiting.indexOf(handOver);
        if (at !== -1) this.#waiting.splice(at, 1);
        reject(poolTimeout(timeoutMs));
      }, timeoutMs);
      const handOver = () => {
        clearTimeout(timer);
        resolve();
      };
      this.#waiting.push(handOver);
    });
  }

  override async releaseConnection(): Promise<void> {
    this.#release();
    await super.releaseConnection();
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    // Held by a transaction of beginNow(): wait until it hands the connection over.
    if (this.#held) await this.#handedOver();
    else this.#held = true;
    const connection = await super.acquireConnection();
    const state = this.#state;
    const timeout = this.#busyTimeoutMs;
    return {
      async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        const deadline = Date.now() + timeout;
        for (let attempt = 0; ; attempt++) {
          try {
            return await connection.executeQuery<R>(query);
          } catch (error) {
            // Inside a transaction a retry could repeat half of it; BEGIN is retried by the
            // caller, which releases the connection while it waits.
            const retry =
              isSqliteBusy(error) &&
              !state.inTransaction &&
              !/^\s*begin\b/i.test(query.sql) &&
              Date.now() < deadline;
            if (!retry) throw error;
            await backoff(attempt);
          }
        }
      },
      streamQuery: connection.streamQuery.bind(connection),
    };
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}
