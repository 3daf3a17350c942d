/**
 * SQLite through better-sqlite3: the embedded default.
 * @module
 */
import type BetterSqlite3 from 'better-sqlite3';
import {
  type Dialect,
  type Expression,
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
  SingleConnectionProvider,
  type SqliteDatabase,
  sql,
  Transaction,
} from 'kysely';
import { ImproperlyConfigured } from '../../../errors/improperly-configured.ts';
import type { AnyModel } from '../../../models/model.ts';
import type { AnyModelField } from '../../../models/model-field.ts';
import { BoundedCache } from '../../../utils/bounded-cache.ts';
import type { MaybePromise } from '../../../utils/maybe-promise.ts';
import { requireOptional } from '../../../utils/optional-dependency.ts';
import {
  CheckViolationError,
  ForeignKeyViolationError,
  NotNullViolationError,
  POOL_TIMEOUT,
  type UnavailableKind,
  UniqueViolationError,
  unavailable,
} from '../../database-errors.ts';
import { requireWholeNumber } from '../../database-options.ts';
import { foldAccents } from '../../fold-accents.ts';
import { foldCase } from '../../fold-case.ts';
import type { CompiledStatement } from '../../plan/statement-cache.ts';
import { formatDecimal } from '../decimal-text.ts';
import {
  type ColumnTypes,
  columnTypeOf,
  DialectAdapterBase,
  type DialectCapabilities,
  fieldsForColumns,
  likePattern,
  type OpenTransaction,
  readIntegerBoolean,
  type TextMatchMode,
  type ValueReader,
} from '../dialect-adapter.ts';
import { isSqliteBusy, LockAwareSqliteDialect } from './sqlite-driver.ts';

/** Options of the SQLite adapter. */
export interface SqliteAdapterOptions {
  /** A file path, or `:memory:`. */
  readonly filename: string;
  /** How long a write waits for a lock held by another process, in ms (default 5000). */
  readonly busyTimeoutMs?: number;
  /**
   * How much of the database file SQLite reads through a memory map instead of `read()` calls,
   * in bytes (default `DEFAULT_SQLITE_MMAP_SIZE`, 256 MiB; 0 turns it off).
   */
  readonly mmapSizeBytes?: number;
}

/**
 * The default memory-mapped part of a SQLite file: 256 MiB. SQLite's own page cache holds 2 MB,
 * so past a few thousand rows a page read in random order was a `pread()` per table page: a
 * page of 100 books at a random cursor in a table of a million cost 235 µs through reads and
 * 141–160 µs through the map (bench/RESULTS.md, eighth session). The map takes no memory of
 * its own: it shares the kernel's page cache, which holds the file's pages either way.
 */
export const DEFAULT_SQLITE_MMAP_SIZE = 256 * 1024 * 1024;

/**
 * The SQL functions of {@link foldCase} and {@link foldAccents} on every connection the
 * adapter opens: SQLite's own `lower()` and `LIKE` fold ASCII letters only, and it has no
 * normalization.
 */
const FOLD_CASE_FUNCTION = 'rf_fold_case';
const FOLD_ACCENTS_FUNCTION = 'rf_fold_accents';

/** Digits SQLite keeps exactly in a NUMERIC column (a double holds 15 significant digits). */
const SQLITE_EXACT_DIGITS = 15;

/** NUMERIC affinity for decimals (see `checkModel`); text compares BINARY. */
const SQLITE_TYPES: ColumnTypes = {
  integer: 'integer',
  bigInteger: 'bigint',
  smallInteger: 'smallint',
  float: 'real',
  varchar: (maxLength) => `varchar(${maxLength})`,
  text: 'text',
  decimal: () => 'decimal',
  boolean: 'boolean',
  date: 'date',
  datetime: 'datetime',
  time: 'time',
  uuid: 'char(36)',
  json: 'text',
};

/**
 * SQLite: text is compared byte-wise (BINARY), which is code point order for UTF-8;
 * decimals live in NUMERIC columns, which sort numerically and keep 15 significant digits.
 *
 * @example
 * ```ts
 * const db = new Database(new SqliteAdapter({ filename: ':memory:' }));
 * ```
 */
export class SqliteAdapter extends DialectAdapterBase {
  readonly vendor = 'sqlite';
  // SQLite accepts no OFFSET without a LIMIT; -1 is none.
  override readonly offsetOnlyLimit = -1;
  readonly #options: SqliteAdapterOptions;

  constructor(options: SqliteAdapterOptions) {
    super();
    requireWholeNumber(
      'mmapSizeBytes',
      options.mmapSizeBytes,
      0,
      'bytes; 0 turns the memory map off',
    );
    requireWholeNumber('busyTimeoutMs', options.busyTimeoutMs, 0, 'milliseconds');
    this.#options = Object.freeze({ ...options });
  }

  createDialect(): Dialect {
    // No synchronous wait for a lock (it would stop every request of the process): the
    // driver waits asynchronously, up to busyTimeoutMs.
    const Driver = requireOptional<typeof BetterSqlite3>('better-sqlite3', 'A SQLite database');
    const database = new Driver(this.#options.filename, { timeout: 0 });
    // Deterministic: the same text always folds the same, so SQLite may factor calls out.
    database.function(FOLD_CASE_FUNCTION, { deterministic: true }, sqlFunction(foldCase));
    database.function(FOLD_ACCENTS_FUNCTION, { deterministic: true }, sqlFunction(foldAccents));
    setUpWhenFree(this.lockTimeoutMs, () => {
      if (this.#options.filename !== ':memory:') database.pragma('journal_mode = WAL');
      database.pragma('foreign_keys = ON');
      database.pragma('synchronous = NORMAL');
      database.pragma(`mmap_size = ${this.#options.mmapSizeBytes ?? DEFAULT_SQLITE_MMAP_SIZE}`);
    });
    this.#database = database;
    this.#statements = withStatementCache(database);
    this.#dialect = new LockAwareSqliteDialect(this.#statements, database, this.lockTimeoutMs);
    return this.#dialect;
  }

  /**
   * This SQLite is built with STAT4, under which binding a LIMIT or OFFSET parameter expires
   * the prepared statement: every run prepares it again (a primary-key lookup with `LIMIT ?`
   * takes 23 µs, with `LIMIT 2` 6 µs). As numbers in the SQL they cost nothing.
   */
  override readonly inlineLimits = true;
  // No regular expressions (SQLite has no REGEXP function of its own, and one written in
  // JavaScript would run a client's pattern on the event loop); full-text search matches
  // every word with LIKE (an FTS5 table is not created by the migrations). Accents fold in
  // JavaScript, through a function of the connection.
  override readonly capabilities: DialectCapabilities = {
    regex: false,
    fullTextSearch: false,
    accentFolding: true,
  };

  /** SQLite has no FOR UPDATE: a transaction that writes holds the whole database. */
  override lockRows<Q extends SelectQueryBuilder<any, any, any>>(query: Q): Q {
    return query;
  }

  #statements: SqliteDatabase | undefined;
  #database: BetterSqlite3.Database | undefined;
  #dialect: LockAwareSqliteDialect | undefined;

  /**
   * better-sqlite3 runs statements synchronously, so Kysely's asynchronous executor (its
   * connection mutex, drivers and logging layers) costs five times the statement itself for
   * a primary-key lookup. When no other request holds the connection, or the caller's own
   * transaction does, the statement runs here at once: it ends before anyone else can use the
   * connection. A lock held by another process sends the statement through Kysely's path,
   * which waits for it.
   *
   * A compiled shape's statement is prepared once for its `slot` and kept there: no lookup by
   * SQL text and no `busy` check per query (the map's statements may be iterated by a Kysely
   * stream; the slot's are run only here, with `all`, `get` or `run`, which never leave one
   * busy). A `single` row (a write's RETURNING) is read with `get`: one step of the statement
   * instead of a second that finds no more rows; SQLite makes a write's every change in its
   * first step.
   */
  override execute(
    { sql, parameters, slot }: CompiledStatement,
    inTransaction: boolean,
    single = false,
  ): unknown[] | undefined {
    const driver = this.#dialect?.driver;
    if (!driver || !this.#statements || (!inTransaction && !driver.idle)) return undefined;
    let statement: BetterSqlite3.Statement;
    if (slot === undefined) statement = this.#statements.prepare(sql) as BetterSqlite3.Statement;
    else if (slot.owner === this.#database) statement = slot.prepared as BetterSqlite3.Statement;
    else {
      statement = (this.#database as BetterSqlite3.Database).prepare(sql);
      slot.prepared = statement;
      slot.owner = this.#database;
    }
    try {
      if (statement.reader) {
        if (!single) return statement.all(parameters) as unknown[];
        const row = statement.get(parameters);
        return row === undefined ? [] : [row];
      }
      statement.run(parameters);
      return [];
    } catch (error) {
      if (!inTransaction && isSqliteBusy(error)) return undefined;
      throw error;
    }
  }

  /**
   * Kysely's transactions cost more than twice SQLite's own BEGIN and COMMIT (27 µs against
   * 11 µs for an empty one): when no other request holds the connection, the transaction
   * begins here at once and takes the connection until it ends; requests that need the
   * connection meanwhile wait for it in the driver, as they would for a Kysely transaction.
   * When another request holds the connection, the transaction waits for it through Kysely.
   */
  override begin(kysely: Kysely<any>): MaybePromise<OpenTransaction> {
    const driver = this.#dialect?.driver;
    const connection = driver?.beginNow();
    if (!driver || !connection) return super.begin(kysely);
    // The connection never changes: one Kysely on it serves every such transaction.
    this.#onConnection ??= new Transaction<any>({
      config: { dialect: this.#dialect as Dialect },
      dialect: this.#dialect as Dialect,
      driver,
      executor: kysely
        .getExecutor()
        .withConnectionProvider(new SingleConnectionProvider(connection)),
    });
    return { executor: this.#onConnection, end: (commit) => driver.endNow(commit) };
  }

  #onConnection: Kysely<any> | undefined;

  override isBusy(error: unknown): boolean {
    return isSqliteBusy(error);
  }

  override get lockTimeoutMs(): number {
    return this.#options.busyTimeoutMs ?? 5000;
  }

  columnType(field: AnyModelField): string {
    return columnTypeOf(field, SQLITE_TYPES);
  }

  override reader(field: AnyModelField): ValueReader | null {
    if (field.kind === 'boolean') return readIntegerBoolean;
    if (field.kind === 'decimal') {
      const places = field.extra.decimalPlaces as number;
      return (v) =>
        v === null || v === undefined ? null : formatDecimal(v as number | string, places);
    }
    return super.reader(field);
  }

  override toDb(field: AnyModelField, value: unknown): unknown {
    if (field.kind === 'boolean' && typeof value === 'boolean') return value ? 1 : 0;
    return super.toDb(field, value);
  }

  // The case-sensitive forms compare code points (SQLite's LIKE ignores ASCII case). The
  // insensitive ones are LIKE on both sides case-folded: the value here, the column by the
  // function the connection has, but for text of ASCII only (its octets are its characters),
  // which LIKE itself folds, without the call into JavaScript (~1.5 µs a row, against ~0.1).
  override textMatchParameters(
    value: string,
    mode: TextMatchMode,
    caseInsensitive: boolean,
    accentInsensitive = false,
  ): unknown[] {
    const text = accentInsensitive ? foldAccents(value) : value;
    if (caseInsensitive) return [likePattern(foldCase(text), mode)];
    if (mode === 'startswith') return [text, text];
    // GLOB is LIKE with other wildcards (`*`, `?`, `[`), and without case folding.
    if (mode === 'endswith') return [`*${text.replace(/[*?[]/g, (ch) => `[${ch}]`)}`];
    return [text];
  }

  override textMatch(
    column: Expression<unknown>,
    parameters: readonly unknown[],
    mode: TextMatchMode,
    caseInsensitive: boolean,
    accentInsensitive = false,
  ): RawBuilder<boolean> {
    const [first, second] = parameters;
    const text = accentInsensitive ? this.foldAccents(column) : column;
    if (caseInsensitive) {
      // ASCII text has no accents either: the column as it is.
      return sql<boolean>`(case when octet_length(${column}) = length(${column}) then ${column} else ${this.foldCase(text)} end) like ${first} escape '\\'`;
    }
    switch (mode) {
      case 'exact':
        return sql<boolean>`${text} = ${first}`;
      case 'contains':
        return sql<boolean>`instr(${text}, ${first}) > 0`;
      case 'startswith':
        return sql<boolean>`substr(${text}, 1, length(${first})) = ${second}`;
      case 'endswith':
        return sql<boolean>`${text} glob ${first}`;
    }
  }

  override foldCase(text: Expression<unknown>): RawBuilder<string> {
    return sql<string>`${sql.raw(FOLD_CASE_FUNCTION)}(${text})`;
  }

  override foldAccents(text: Expression<unknown>): RawBuilder<string> {
    return sql<string>`${sql.raw(FOLD_ACCENTS_FUNCTION)}(${text})`;
  }

  // Dates are stored as YYYY-MM-DD text.
  override datePart(column: Expression<unknown>, part: 'month' | 'day'): RawBuilder<number> {
    return part === 'month'
      ? sql<number>`cast(strftime('%m', ${column}) as integer)`
      : sql<number>`cast(strftime('%d', ${column}) as integer)`;
  }

  override readonly supportsTransactionalDdl = true;
  /** SQLite alters a column only by rebuilding its table (https://sqlite.org/lang_altertable.html). */
  override readonly canAlterColumns = false;
  override readonly namedConstraints = false;

  override async indexExists(db: Kysely<any>, name: string): Promise<boolean> {
    const result =
      await sql`select 1 from sqlite_master where type = 'index' and name = ${name}`.execute(db);
    return result.rows.length > 0;
  }

  /**
   * A rebuilt table is dropped and created again: foreign keys must be off meanwhile (else the
   * drop deletes, or refuses, the rows that refer to it), and SQLite ignores the pragma inside
   * a transaction, so it goes before. The check inside the transaction finds any row the
   * migration left pointing nowhere, and the migration then rolls back.
   */
  override async beginSchemaChange(run: (sql: string) => Promise<unknown[]>): Promise<void> {
    await run('pragma foreign_keys = off');
  }

  override async checkSchemaChange(run: (sql: string) => Promise<unknown[]>): Promise<void> {
    const broken = (await run('pragma foreign_key_check')) as { table: string; parent: string }[];
    if (broken.length) {
      const first = broken[0] as { table: string; parent: string };
      throw new ForeignKeyViolationError(
        `${broken.length} row(s) of ${first.table} refer to rows of ${first.parent} that do not exist.`,
        undefined,
        [],
      );
    }
  }

  override async endSchemaChange(run: (sql: string) => Promise<unknown[]>): Promise<void> {
    await run('pragma foreign_keys = on');
  }

  override checkModel(model: AnyModel): void {
    for (const field of model.fieldList) {
      if (field.kind === 'decimal' && (field.extra.maxDigits as number) > SQLITE_EXACT_DIGITS) {
        throw new ImproperlyConfigured(
          'REST_ERR_DIALECT_LIMIT',
          `${model.name}.${field.name}: maxDigits ${field.extra.maxDigits} is more than SQLite keeps exactly ` +
            `(${SQLITE_EXACT_DIGITS} significant digits in a NUMERIC column). Use maxDigits <= ${SQLITE_EXACT_DIGITS}, ` +
            'or PostgreSQL (DATABASE_URL=postgres://...).',
        );
      }
    }
  }

  override translateError(error: unknown, model: AnyModel | undefined): unknown {
    const code = (error as { code?: unknown })?.code;
    if (code === POOL_TIMEOUT) return unavailable('pool-exhausted', error);
    if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return error;
    const message = (error as Error).message;
    const options = { cause: error };
    const kind = sqliteUnavailableKind(code, message);
    if (kind) return unavailable(kind, error);
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
      const { table, columns } = parseColumns(message);
      const found = fieldsForColumns(model, table, columns);
      return new UniqueViolationError(message, found.model, found.fields, options);
    }
    if (code === 'SQLITE_CONSTRAINT_NOTNULL') {
      const { table, columns } = parseColumns(message);
      const found = fieldsForColumns(model, table, columns);
      return new NotNullViolationError(message, found.model, found.fields, options);
    }
    if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
      return new ForeignKeyViolationError(message, model, [], options);
    }
    if (code === 'SQLITE_CONSTRAINT_CHECK') {
      const name = message.split(':').slice(1).join(':').trim();
      const field = model?.fieldList.find(
        (f) => name === `${model.table}_${f.column}_check` || name === f.column,
      );
      return new CheckViolationError(message, model, field ? [field.name] : [], options);
    }
    return error;
  }

  async explain(db: Kysely<any>, text: string, parameters: readonly unknown[]): Promise<string[]> {
    const result = await db.executeQuery<{ detail: string }>({
      ...sql``.compile(db),
      sql: `explain query plan ${text}`,
      parameters,
    });
    return result.rows.map((row) => row.detail);
  }
}

/**
 * Runs a connection's set-up pragmas, trying again while another process holds the file's lock,
 * up to `timeoutMs`. Two processes opening a new file at once (two `migrate` commands, two
 * services) each find it locked now and then: switching to WAL takes an exclusive lock, and
 * SQLite answers busy at once, without its busy handler, where waiting could deadlock. This runs
 * once per database, at start-up, so a synchronous pause is harmless here.
 */
function setUpWhenFree(timeoutMs: number, setUp: () => void): void {
  const deadline = Date.now() + timeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; ; attempt++) {
    try {
      setUp();
      return;
    } catch (error) {
      if (!isSqliteBusy(error) || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, Math.min(5 * 2 ** attempt, 100));
    }
  }
}

/** `fold` as SQLite calls it: NULL stays NULL, a number folds as its text. */
function sqlFunction(fold: (text: string) => string): (value: unknown) => string | null {
  return (value) => {
    if (value === null || value === undefined) return null;
    return fold(typeof value === 'string' ? value : String(value));
  };
}

/** How many prepared statements a connection keeps (the oldest goes first). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The connection as Kysely's driver sees it, keeping its prepared statements by SQL text:
 * the driver prepares every query it runs, and compiling the SQL again was the largest single
 * cost of a request (14 % of a list's CPU time). Queries run one at a time on the connection;
 * a statement still busy (a stream being read) is not shared: the query gets a new one.
 */
function withStatementCache(database: BetterSqlite3.Database): SqliteDatabase {
  const statements = new BoundedCache<string, BetterSqlite3.Statement>(
    'SQLite statements',
    STATEMENT_CACHE_SIZE,
  );
  return {
    close() {
      statements.clear();
      database.close();
    },
    prepare(text: string) {
      const statement = statements.get(text);
      if (statement && !statement.busy) return statement;
      return statements.set(text, database.prepare(text));
    },
  };
}

/**
 * The kind of outage a SQLite error stands for (`code` is its extended code), or undefined
 * when it is none.
 */
function sqliteUnavailableKind(code: string, message: string): UnavailableKind | undefined {
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'locked';
  if (code.startsWith('SQLITE_READONLY')) return 'read-only';
  if (code.startsWith('SQLITE_CANTOPEN')) return 'database-missing';
  if (
    code === 'SQLITE_FULL' ||
    code === 'SQLITE_NOMEM' ||
    code === 'SQLITE_NOTADB' ||
    code.startsWith('SQLITE_IOERR') ||
    code.startsWith('SQLITE_CORRUPT')
  ) {
    return 'storage';
  }
  // The schema is behind the models: migrations not run, or a table dropped.
  if (code === 'SQLITE_ERROR' && /^no such (?:table|column): /.test(message))
    return 'schema-missing';
  return undefined;
}

/** `UNIQUE constraint failed: book.isbn, book.title` → table and columns. */
function parseColumns(message: string): { table: string | undefined; columns: string[] } {
  const list = message.split(':').slice(1).join(':').trim();
  let table: string | undefined;
  const columns = list
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const dot = part.lastIndexOf('.');
      if (dot === -1) return part;
      table = part.slice(0, dot);
      return part.slice(dot + 1);
    });
  return { table, columns };
}
