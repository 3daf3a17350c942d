/**
 * PostgreSQL through `pg`.
 * @module
 */

import {
  type ColumnDefinitionBuilder,
  type Dialect,
  type Expression,
  type Kysely,
  type OrderByItemBuilder,
  PostgresDialect,
  type RawBuilder,
  sql,
} from 'kysely';
import type pg from 'pg';
import { ImproperlyConfigured } from '../../../errors/improperly-configured.ts';
import type { AnyModel } from '../../../models/model.ts';
import type { AnyModelField } from '../../../models/model-field.ts';
import type { PoolStats } from '../../../server/metrics.ts';
import { requireOptional } from '../../../utils/optional-dependency.ts';
import {
  CheckViolationError,
  DataError,
  ForeignKeyViolationError,
  InvalidLookupValueError,
  NotNullViolationError,
  type UnavailableKind,
  UniqueViolationError,
  unavailable,
} from '../../database-errors.ts';
import { requireBoolean, requireServerOptions } from '../../database-options.ts';
import { COMBINING_MARKS } from '../../fold-accents.ts';
import { foldCase } from '../../fold-case.ts';
import type { CompiledStatement } from '../../plan/statement-cache.ts';
import {
  type ColumnTypes,
  columnTypeOf,
  DialectAdapterBase,
  type DialectCapabilities,
  fieldsForColumns,
  migrationLockTimeout,
  SESSION_LOCK_HELD,
  type TextMatchMode,
  type ValueReader,
} from '../dialect-adapter.ts';
import { holdSessionLock } from '../session-lock.ts';
import { postgresClients, StatementNames } from './postgres-client.ts';

/** Options of the PostgreSQL adapter. */
export interface PostgresAdapterOptions {
  /** `postgres://user@host:port/database`. */
  readonly connectionString: string;
  /** Connections in the pool (default 10). */
  readonly poolSize?: number;
  /** How long a request waits for a connection before a 503, in ms (default 5000). */
  readonly connectionTimeoutMs?: number;
  /** The server cancels a statement running longer than this, in ms (default 30000). */
  readonly statementTimeoutMs?: number;
  /**
   * How long a request waits in all for a lock (a table or row another transaction holds), in
   * ms, before it answers 503 (default 5000; 0 for no limit). A statement waits on the server
   * `LOCK_WAIT_SLICE_MS` at most, then its connection goes back to the pool while the
   * request pauses and tries again (see `DialectAdapter.lockTimeoutMs`).
   */
  readonly lockTimeoutMs?: number;
  /**
   * Prepare each query once per connection as a named statement (default true). Turn it off
   * behind a pooler that does not keep prepared statements (PgBouncer before 1.21 in
   * transaction mode).
   */
  readonly preparedStatements?: boolean;
  /**
   * The collation whose `upper` and `lower` fold text for the case-insensitive lookups and
   * search (default `default`: the database's own, which folds every letter under a UTF-8
   * locale such as `en_US.UTF-8` or `C.UTF-8`). Name another where the database was created
   * with `LC_CTYPE` C, which folds ASCII letters only: `C.utf8` (or another libc UTF-8
   * locale `pg_collation` lists), or `und-x-icu`. `migrate` checks it.
   */
  readonly caseFoldCollation?: string;
}

/** Text whose fold tells a Unicode-aware collation from one that folds ASCII only. */
const FOLD_PROBE = 'ÀÉÎÕÜ ΑΣΩ ЖЯ';

const OID = { INT8: 20, DATE: 1082, TIMESTAMP: 1114, TIMESTAMPTZ: 1184 } as const;

/**
 * How long one statement waits on the server for a lock (its session's `lock_timeout`), in ms,
 * unless `lockTimeoutMs` is shorter. Past it the statement fails with 55P03 and the request
 * frees its connection, pauses and tries again: requests for a locked table then hold a pool
 * connection 250 ms at a time, and the other tables' requests get one meanwhile. Row locks
 * of concurrent writers are held for milliseconds, far less than this.
 */
export const LOCK_WAIT_SLICE_MS = 250;

const identity = (value: string) => value;
// The session runs in UTC, so timestamptz arrives as `2024-01-02 03:04:05.123+00`.
const readDateTime: ValueReader = (v) =>
  v === null || v === undefined
    ? null
    : new Date(String(v).replace(' ', 'T').replace(/\+00$/, 'Z')).toISOString();
const readBigInt: ValueReader = (v) => (v === null || v === undefined ? null : Number(v));

/** The advisory lock key migrations hold (any constant; the same in every process). */
const MIGRATION_LOCK_KEY = 7_214_520_256_025;

/** SQLSTATE codes (and Node's socket codes) that mean the database cannot serve now, by kind. */
const UNAVAILABLE_CODES: Readonly<Record<string, UnavailableKind>> = {
  ECONNREFUSED: 'unreachable',
  ECONNRESET: 'unreachable',
  ETIMEDOUT: 'unreachable',
  EPIPE: 'unreachable',
  ENOTFOUND: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  // Shut down by an administrator or a crash, starting up, connection exceptions.
  '57P01': 'unreachable',
  '57P02': 'unreachable',
  '57P03': 'unreachable',
  '08000': 'unreachable',
  '08001': 'unreachable',
  '08003': 'unreachable',
  '08004': 'unreachable',
  '08006': 'unreachable',
  // Too many connections; the login refused (no such role, NOLOGIN, a wrong password).
  '53300': 'unreachable',
  '28000': 'unreachable',
  '28P01': 'unreachable',
  // The database does not exist, or was dropped under an open connection.
  '3D000': 'database-missing',
  '57P04': 'database-missing',
  // undefined_table, undefined_column, invalid_schema_name: the schema is behind the models
  // (migrations not run, the database made again empty).
  '42P01': 'schema-missing',
  '42703': 'schema-missing',
  '3F000': 'schema-missing',
  // read_only_sql_transaction: a standby, or default_transaction_read_only.
  '25006': 'read-only',
  // lock_not_available: waited past the lock timeout for a lock another transaction holds.
  '55P03': 'locked',
  // deadlock_detected, serialization_failure.
  '40P01': 'conflict',
  '40001': 'conflict',
  // query_canceled: the statement timeout.
  '57014': 'timeout',
  // Insufficient resources (disk full, out of memory), I/O error, damaged data or index.
  '53000': 'storage',
  '53100': 'storage',
  '53200': 'storage',
  '58030': 'storage',
  XX001: 'storage',
  XX002: 'storage',
};
/** Messages of pg and pg-pool (errors without a SQLSTATE), by kind. */
const UNAVAILABLE_MESSAGES: readonly (readonly [string, UnavailableKind])[] = [
  // pg-pool: no client of a full pool became free within connectionTimeoutMillis.
  ['timeout exceeded when trying to connect', 'pool-exhausted'],
  ['Cannot use a pool after calling end', 'closed'],
  ['Connection terminated', 'unreachable'],
  ['Client has encountered a connection error', 'unreachable'],
  ['Connection ended unexpectedly', 'unreachable'],
  ['terminating connection', 'unreachable'],
  // ALTER DATABASE ... ALLOW_CONNECTIONS false (code 55000, which also means other things).
  ['is not currently accepting connections', 'unreachable'],
];

/** The kind of outage a pg error stands for, or undefined when it is none. */
function postgresUnavailableKind(
  code: string | undefined,
  message: string,
): UnavailableKind | undefined {
  if (code !== undefined && Object.hasOwn(UNAVAILABLE_CODES, code)) return UNAVAILABLE_CODES[code];
  return UNAVAILABLE_MESSAGES.find(([text]) => message.includes(text))?.[1];
}

/** Text in the "C" collation: byte order, as SQLite. */
const POSTGRES_TYPES: ColumnTypes = {
  integer: 'integer',
  bigInteger: 'bigint',
  smallInteger: 'smallint',
  float: 'double precision',
  varchar: (maxLength) => `varchar(${maxLength}) collate "C"`,
  text: 'text collate "C"',
  decimal: (digits, places) => `numeric(${digits}, ${places})`,
  boolean: 'boolean',
  date: 'date',
  datetime: 'timestamptz',
  time: 'time',
  uuid: 'uuid',
  json: 'jsonb',
};

/**
 * PostgreSQL: text columns use the "C" collation (byte order, as SQLite), DATE and
 * TIMESTAMPTZ arrive as text, and NULL sorts first in ascending order.
 *
 * @example
 * ```ts
 * const db = new Database(new PostgresAdapter({ connectionString: 'postgres://postgres@127.0.0.1:5432/shop' }));
 * // the same as Database.connect('postgres://postgres@127.0.0.1:5432/shop')
 * ```
 */
export class PostgresAdapter extends DialectAdapterBase {
  readonly vendor = 'postgres';
  override readonly maxParameters = 65_535;
  override readonly capabilities: DialectCapabilities = {
    regex: true,
    fullTextSearch: true,
    accentFolding: true,
  };
  readonly #options: PostgresAdapterOptions;

  constructor(options: PostgresAdapterOptions) {
    super();
    requireServerOptions(options);
    requireBoolean('preparedStatements', options.preparedStatements);
    this.#options = Object.freeze({ ...options });
    const collation = options.caseFoldCollation;
    if (collation !== undefined && (typeof collation !== 'string' || collation === '')) {
      throw new ImproperlyConfigured(
        'REST_ERR_DATABASE_OPTION',
        `caseFoldCollation must name a collation (C.utf8, und-x-icu); got ${JSON.stringify(collation)}.`,
      );
    }
    this.#foldCollation = sql.id(collation ?? 'default');
  }

  readonly #foldCollation: RawBuilder<unknown>;
  /** True once {@link prepareSchema} found the fold collation Unicode-aware. */
  #foldChecked = false;

  /**
   * The columns' own "C" collation folds ASCII letters only: the fold names a Unicode-aware
   * one (see {@link PostgresAdapterOptions.caseFoldCollation}).
   */
  override foldCase(text: Expression<unknown>): RawBuilder<string> {
    return sql<string>`lower(upper(${text} collate ${this.#foldCollation}))`;
  }

  // The case-insensitive matches fold both sides (see DialectAdapterBase.textMatch), but for
  // rows of ASCII text only (their octets are their characters): ILIKE in the columns' "C"
  // collation folds those alone, at half the cost of upper and lower under a UTF-8 locale
  // (20,000 ASCII titles: 22-28 ms against 53-63 ms), against the pattern folded here (its
  // letters that fold to ASCII fold alike in JavaScript and in PostgreSQL; the test of every
  // Latin, Greek and Cyrillic letter checks it).
  override textMatchParameters(
    value: string,
    mode: TextMatchMode,
    caseInsensitive: boolean,
    accentInsensitive = false,
  ): unknown[] {
    const parameters = super.textMatchParameters(value, mode, caseInsensitive, accentInsensitive);
    const pattern = parameters[0] as string;
    return caseInsensitive ? [foldCase(pattern), pattern] : parameters;
  }

  override textMatch(
    column: Expression<unknown>,
    parameters: readonly unknown[],
    mode: TextMatchMode,
    caseInsensitive: boolean,
    accentInsensitive = false,
  ): RawBuilder<boolean> {
    if (!caseInsensitive)
      return super.textMatch(column, parameters, mode, false, accentInsensitive);
    const [ascii, other] = parameters;
    const text = accentInsensitive ? this.foldAccents(column) : column;
    return sql<boolean>`(case when octet_length(${column}) = length(${column}) then ${column} ilike ${ascii} escape '\\' else ${this.foldCase(text)} like ${this.foldCase(sql`${other}`)} escape '\\' end)`;
  }

  /** NFD, the combining marks dropped, NFC: as `foldAccents` (`normalize` needs UTF-8). */
  override foldAccents(text: Expression<unknown>): RawBuilder<string> {
    return sql<string>`normalize(regexp_replace(normalize(${text}, nfd), ${sql.lit(COMBINING_MARKS)}, '', 'g'), nfc)`;
  }

  /**
   * Checks, before any table is made, that the fold collation folds more than ASCII: under
   * `LC_CTYPE` C, `CAFÉ` would not find `café` here as it does on the other databases.
   */
  override async prepareSchema(db: Kysely<any>): Promise<void> {
    if (this.#foldChecked) return;
    const name = this.#options.caseFoldCollation ?? 'default';
    let folded: string | undefined;
    try {
      const result = await sql<{
        folded: string;
      }>`select ${this.foldCase(sql`${FOLD_PROBE}::text`)} as folded`.execute(db);
      folded = result.rows[0]?.folded;
    } catch (error) {
      // undefined_object: no collation of that name for the database's encoding.
      if ((error as { code?: unknown }).code !== '42704') throw error;
    }
    this.#foldChecked = folded === foldCase(FOLD_PROBE);
    if (this.#foldChecked) return;
    throw new ImproperlyConfigured(
      'REST_ERR_DIALECT_LIMIT',
      `PostgreSQL: the collation "${name}" ${folded === undefined ? 'does not exist in this database' : `folds "${FOLD_PROBE}" to "${folded}" (ASCII letters only)`}, ` +
        'so case-insensitive lookups and search would not find "café" for "CAFÉ" as on the other databases. ' +
        "Create the database with a UTF-8 locale (CREATE DATABASE ... TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C.UTF-8'), " +
        'or set the database option caseFoldCollation naming a collation with one (C.utf8, en_US.utf8 or und-x-icu, as pg_collation lists them).',
    );
  }

  override get lockTimeoutMs(): number {
    return this.#options.lockTimeoutMs ?? 5000;
  }

  /** The session's `lock_timeout`: one slice of the lock timeout (0: no limit). */
  get #lockWaitSliceMs(): number {
    const total = this.lockTimeoutMs;
    return total === 0 ? 0 : Math.min(total, LOCK_WAIT_SLICE_MS);
  }

  /** `SET LOCAL`: the transaction's statements wait the whole lock timeout, and only they. */
  async lengthenLockWaits(trx: Kysely<any>): Promise<undefined> {
    if (this.lockTimeoutMs > this.#lockWaitSliceMs) {
      await sql`set local lock_timeout = ${sql.lit(this.lockTimeoutMs)}`.execute(trx);
    }
    return undefined;
  }

  createDialect(): Dialect {
    const parsers: Record<number, (value: string) => unknown> = {
      [OID.DATE]: identity,
      [OID.TIMESTAMP]: identity,
      [OID.TIMESTAMPTZ]: identity,
    };
    const pg = requireOptional<typeof import('pg')>('pg', 'A postgres:// database');
    const { CallbackQueryClient, NamedStatementClient } = postgresClients(pg, this.#names);
    const pool = new pg.Pool({
      connectionString: this.#options.connectionString,
      max: this.#options.poolSize ?? 10,
      connectionTimeoutMillis: this.#options.connectionTimeoutMs ?? 5000,
      statement_timeout: this.#options.statementTimeoutMs ?? 30000,
      lock_timeout: this.#lockWaitSliceMs,
      options: '-c TimeZone=UTC',
      Client:
        this.#options.preparedStatements === false ? CallbackQueryClient : NamedStatementClient,
      types: {
        getTypeParser: ((oid: number, format?: string) =>
          parsers[oid] ??
          pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
      },
    });
    // An idle client whose server went away emits 'error'; without a listener the process
    // would crash. The next query gets a fresh connection (or a 503 while the server is down).
    pool.on('error', () => {});
    // The pool listens for errors of idle clients only: a client a request holds between two
    // queries (inside a transaction) whose server goes away would emit an 'error' nobody
    // listens for, and crash the process. Its next query fails instead (a 503), and the pool
    // drops it when it is released.
    pool.on('connect', (client) => client.on('error', () => {}));
    this.#pool = pool;
    return new PostgresDialect({ pool });
  }

  #pool: pg.Pool | undefined;

  /** The pool's connections (for metrics): made, idle, and requests waiting for one. */
  poolStats(): PoolStats | undefined {
    const pool = this.#pool;
    return pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
  }

  /**
   * Outside a transaction, a statement runs on a pool connection taken for it alone and given
   * back at once, as Kysely's driver does, without Kysely's executor around it. The client's
   * `query(text, values)` runs it as a named prepared statement (see `postgres-client.ts`).
   */
  override execute(
    { sql, parameters }: CompiledStatement,
    inTransaction: boolean,
  ): Promise<unknown[]> | undefined {
    const pool = this.#pool;
    // In a transaction, on the transaction's connection, which Kysely holds.
    if (pool === undefined || inTransaction) return undefined;
    return new Promise((resolve, reject) => {
      pool.connect((error, client, release) => {
        if (error || !client) {
          reject(error);
          return;
        }
        (client.query(sql, parameters as unknown[]) as Promise<pg.QueryResult>).then(
          (result) => {
            release();
            resolve(result.rows);
          },
          (queryError: unknown) => {
            release();
            reject(queryError);
          },
        );
      });
    });
  }

  columnType(field: AnyModelField): string {
    return columnTypeOf(field, POSTGRES_TYPES);
  }

  override autoIncrement(pk: ColumnDefinitionBuilder): ColumnDefinitionBuilder {
    return pk.generatedByDefaultAsIdentity();
  }

  override readonly supportsTransactionalDdl = true;

  override alterColumnType(
    table: string,
    field: AnyModelField,
    _nullable: boolean,
  ): RawBuilder<unknown> {
    const type = this.columnType(field);
    // The collation belongs to the column, not to the cast. A cast to varchar(n) would cut a
    // longer value silently: to text, the assignment to the column refuses it instead.
    const cast = type.startsWith('varchar(') ? 'text' : type.replace(/ collate "C"$/, '');
    return sql`alter table ${sql.id(table)} alter column ${sql.id(field.column)} type ${sql.raw(type)} using ${sql.id(field.column)}::${sql.raw(cast)}`;
  }

  override async indexExists(db: Kysely<any>, name: string): Promise<boolean> {
    const result =
      await sql`select 1 from pg_indexes where schemaname = current_schema() and indexname = ${name}`.execute(
        db,
      );
    return result.rows.length > 0;
  }

  /**
   * A session advisory lock on a connection held until the release: the server frees it when
   * the connection ends, so a killed process leaves no lock behind.
   */
  override async acquireMigrationLock(
    db: Kysely<any>,
    timeoutMs: number,
  ): Promise<() => Promise<void>> {
    return holdSessionLock(
      db,
      async (connection) => {
        await sql`set statement_timeout = 0`.execute(connection);
        await sql`set lock_timeout = ${sql.lit(Math.max(1, Math.round(timeoutMs)))}`.execute(
          connection,
        );
        try {
          await sql`select pg_advisory_lock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(connection);
        } finally {
          await sql`reset lock_timeout`.execute(connection);
          await sql`reset statement_timeout`.execute(connection);
        }
      },
      async (connection) => {
        await sql`select pg_advisory_unlock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(connection);
      },
      (error) =>
        (error as { code?: unknown }).code === '55P03'
          ? migrationLockTimeout(timeoutMs, SESSION_LOCK_HELD)
          : error,
    );
  }

  /** Statements prepared before a schema change may not match its tables any more. */
  override clearCaches(): void {
    this.#names.clear();
  }

  /** The named statements of this adapter's pool (see `postgres-client.ts`). */
  readonly #names = new StatementNames();

  override reader(field: AnyModelField): ValueReader | null {
    if (field.kind === 'datetime') return readDateTime;
    if (field.kind === 'big_integer') return readBigInt;
    // pg parses jsonb itself (a JSON string arrives as a string, which must not be parsed again).
    if (field.kind === 'json') return null;
    return super.reader(field);
  }

  // POSIX regular expressions (`~`, `~*`), as Django's regex and iregex lookups.
  override regexMatch(
    column: Expression<unknown>,
    pattern: unknown,
    caseInsensitive: boolean,
  ): RawBuilder<boolean> {
    return caseInsensitive
      ? sql<boolean>`${column}::text ~* ${pattern}`
      : sql<boolean>`${column}::text ~ ${pattern}`;
  }

  // PostgreSQL's text search with the database's default configuration, as Django's `search`
  // lookup: `to_tsvector(column) @@ plainto_tsquery(text)`.
  override fullTextParameters(text: string): unknown[] {
    return [text];
  }

  override fullTextMatch(
    column: Expression<unknown>,
    parameters: readonly unknown[],
  ): RawBuilder<boolean> {
    return sql<boolean>`to_tsvector(coalesce(${column}::text, '')) @@ plainto_tsquery(${parameters[0]})`;
  }

  override orderDirection(descending: boolean, nullable: boolean) {
    // PostgreSQL sorts NULL as the largest value; say otherwise where NULL can occur, and only
    // there, so that indexes on NOT NULL columns still serve the ORDER BY.
    if (!nullable) return super.orderDirection(descending, nullable);
    return (ob: OrderByItemBuilder) => (descending ? ob.desc().nullsLast() : ob.asc().nullsFirst());
  }

  override translateError(error: unknown, model: AnyModel | undefined): unknown {
    const e = error as {
      code?: unknown;
      message?: unknown;
      table?: string;
      column?: string;
      constraint?: string;
      detail?: string;
    };
    const code = typeof e?.code === 'string' ? e.code : undefined;
    const message = typeof e?.message === 'string' ? e.message : '';
    const options = { cause: error };
    const kind = postgresUnavailableKind(code, message);
    if (kind) return unavailable(kind, error);
    switch (code) {
      // A malformed value the database refused while comparing (an invalid regular
      // expression, text that is no date): the client's input, so a 400, never a 500.
      case '2201B':
      case '22P02':
      case '22007':
      case '22008':
        return new InvalidLookupValueError(
          code === '2201B' ? 'Invalid regular expression.' : 'Invalid value for the column.',
          undefined,
          undefined,
          options,
        );
      case '23505': {
        const columns =
          /Key \(([^)]+)\)=/
            .exec(e.detail ?? '')?.[1]
            ?.split(',')
            .map((c) => c.trim().replaceAll('"', '')) ?? [];
        const found = fieldsForColumns(model, e.table, columns);
        return new UniqueViolationError(message, found.model, found.fields, options);
      }
      case '23502': {
        const found = fieldsForColumns(model, e.table, e.column ? [e.column] : []);
        return new NotNullViolationError(message, found.model, found.fields, options);
      }
      case '23503':
        return new ForeignKeyViolationError(message, model, [], options);
      case '23514': {
        const field = model?.fieldList.find(
          (f) => e.constraint === `${model.table}_${f.column}_check`,
        );
        return new CheckViolationError(message, model, field ? [field.name] : [], options);
      }
      default:
        // Class 22, data exception: a value the server cannot take (invalid byte sequence,
        // numeric value out of range, ...).
        if (code?.startsWith('22')) return new DataError(message, options);
        return error;
    }
  }

  async explain(db: Kysely<any>, text: string, parameters: readonly unknown[]): Promise<string[]> {
    const result = await db.executeQuery<{ 'QUERY PLAN': string }>({
      ...sql``.compile(db),
      sql: `explain ${text}`,
      parameters,
    });
    return result.rows.map((row) => row['QUERY PLAN']);
  }
}
