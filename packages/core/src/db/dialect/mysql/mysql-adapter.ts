/**
 * MySQL and MariaDB through `mysql2` (an optional peer dependency, loaded when the first such
 * database is opened).
 * @module
 */
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Expression,
  type Kysely,
  MysqlDialect,
  type RawBuilder,
  type SelectQueryBuilder,
  sql,
} from 'kysely';
import { ImproperlyConfigured } from '../../../errors/improperly-configured.ts';
import type { AnyModel } from '../../../models/model.ts';
import type { AnyModelField } from '../../../models/model-field.ts';
import { requireServerOptions } from '../../database-options.ts';
import {
  type ColumnTypes,
  columnTypeOf,
  DialectAdapterBase,
  type DialectCapabilities,
  migrationLockTimeout,
  readIntegerBoolean,
  SESSION_LOCK_HELD,
  type TextMatchMode,
  type ValueReader,
} from '../dialect-adapter.ts';
import { holdSessionLock } from '../session-lock.ts';
import { translateMysqlError } from './mysql-errors.ts';
import { createMysqlPool } from './mysql-pool.ts';

/** Options of the MySQL/MariaDB adapter. */
export interface MysqlAdapterOptions {
  /** `mysql://user:password@host:port/database` (`mariadb://` is the same). */
  readonly connectionString: string;
  /** Connections in the pool (default 10). */
  readonly poolSize?: number;
  /** How long a request waits for a connection before a 503, in ms (default 5000). */
  readonly connectionTimeoutMs?: number;
  /** The server stops a statement running longer than this, in ms (default 30000; 0: no limit). */
  readonly statementTimeoutMs?: number;
  /**
   * How long a request waits in all for a lock another connection holds (a row lock, or a
   * table's metadata lock under `LOCK TABLES` or a schema change), in ms, before it answers
   * 503 (default 5000; the servers count whole seconds, so it is rounded up; 0: the server's
   * own waits). A statement waits on the server one second at most, then its connection goes
   * back to the pool while the request pauses and tries again (see
   * `DialectAdapter.lockTimeoutMs`).
   */
  readonly lockTimeoutMs?: number;
}

/**
 * The binary collations without trailing-space padding, in the order they are looked for:
 * MariaDB's, then MySQL 8's. Text compares and sorts by the bytes of its UTF-8, which is code
 * point order: the order of SQLite's BINARY and PostgreSQL's "C". `utf8mb4_bin` would not
 * do: it pads with spaces, so `'a'` equals `'a '` (a unique column refuses the second) and
 * `'a\t'` sorts before `'a'`.
 */
const BINARY_COLLATIONS = ['utf8mb4_nopad_bin', 'utf8mb4_0900_bin'] as const;

/**
 * The collations whose `UPPER` and `LOWER` fold text for the case-insensitive lookups, best
 * first: MariaDB 10.10+'s Unicode 14 tables (the same as PostgreSQL's under glibc), MySQL 8's
 * Unicode 9, then Unicode 5.2. The binary collation of the columns folds with older tables
 * still (`Ȼ`, Cherokee, Georgian capitals unfolded). Each connection takes the first its
 * server has as its `collation_connection`, which `CAST(x AS CHAR)` then carries.
 */
const FOLD_COLLATIONS = [
  'utf8mb4_uca1400_as_cs',
  'utf8mb4_0900_as_cs',
  'utf8mb4_unicode_520_ci',
] as const;

/**
 * The name of the migration lock: one per database (`GET_LOCK` names are the server's, and at
 * most 64 characters long, so the database's name goes in hashed).
 */
const MIGRATION_LOCK_NAME = sql`concat('restframework_migrate_', sha1(database()))`;

/** The largest key InnoDB indexes (3072 bytes), in characters of up to 4 bytes. */
const MAX_INDEXED_CHARS = 768;
/** The longest VARCHAR of utf8mb4 (65535 bytes in a row). */
const MAX_VARCHAR_CHARS = 16383;
/** DECIMAL's limits. */
const MAX_DECIMAL_DIGITS = 65;
const MAX_DECIMAL_PLACES = 30;

/**
 * The session every connection runs in: strict (a value that does not fit is an error, not a
 * silent truncation), a key of 0 stored as 0 (not taken as "generate one"), identifiers in
 * double quotes as in standard SQL (so a migration's RunSQL or a raw query reads the same on
 * every dialect; backquotes work too), UTC, and READ
 * COMMITTED as on PostgreSQL (InnoDB's default REPEATABLE READ would let a transaction read
 * rows older than the ones it locks).
 */
const SESSION = [
  "set session sql_mode = 'STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION,NO_AUTO_VALUE_ON_ZERO,ANSI_QUOTES'",
  "set session time_zone = '+00:00'",
  'set session transaction isolation level read committed',
];

// DATETIME arrives as `2024-01-02 03:04:05.123000` (UTC, the session's zone): the ISO form
// with milliseconds, as the other dialects give it.
const readDateTime: ValueReader = (v) =>
  v === null || v === undefined
    ? null
    : `${(v as string).slice(0, 10)}T${(v as string).slice(11, 23)}Z`;

/**
 * MySQL 8 and MariaDB 10.6+: text columns use a binary collation without padding (byte
 * order, as on SQLite and PostgreSQL), decimals are DECIMAL (exact, read as text), booleans
 * TINYINT(1), datetimes DATETIME(6) holding UTC. NULL already sorts as the smallest value.
 *
 * There is no `RETURNING` on MySQL (MariaDB has it for INSERT only): a created or updated row
 * is read back by its key, in the same transaction when there is one. DDL is not
 * transactional (each statement commits at once): the migration executor records its
 * progress statement by statement instead, so that a failed migration resumes where it
 * stopped. A column changes with `MODIFY` and its whole definition; constraints cannot be
 * renamed (they are dropped and added again); an index belongs to its table.
 *
 * @example
 * ```ts
 * const db = new Database(new MysqlAdapter({ connectionString: 'mysql://root@127.0.0.1:3306/shop' }));
 * // the same as Database.connect('mysql://root@127.0.0.1:3306/shop')
 * ```
 */
export class MysqlAdapter extends DialectAdapterBase {
  readonly vendor = 'mysql';
  override readonly returning = false;
  // MySQL accepts no OFFSET without a LIMIT.
  override readonly offsetOnlyLimit = Number.MAX_SAFE_INTEGER;
  override readonly maxParameters = 65_535;

  readonly #options: MysqlAdapterOptions;
  /** Known once {@link prepareSchema} found the server's binary collation. */
  #types: ColumnTypes | undefined;

  constructor(options: MysqlAdapterOptions) {
    super();
    requireServerOptions(options);
    this.#options = Object.freeze({ ...options });
  }

  override get lockTimeoutMs(): number {
    return this.#options.lockTimeoutMs ?? 5000;
  }

  /**
   * The session's lock waits set to the whole lock timeout for this transaction, and back to
   * one slice after it (MySQL has no `SET LOCAL`).
   */
  async lengthenLockWaits(trx: Kysely<any>): Promise<(() => Promise<void>) | undefined> {
    const whole = Math.ceil(this.lockTimeoutMs / 1000);
    if (whole <= LOCK_WAIT_SLICE_SECONDS) return undefined;
    await trx.executeQuery(lockWaits(whole));
    return async () => {
      await trx.executeQuery(lockWaits(LOCK_WAIT_SLICE_SECONDS));
    };
  }

  createDialect(): Dialect {
    const pool = createMysqlPool({
      url: this.#options.connectionString.replace(/^mariadb:/, 'mysql:'),
      poolSize: this.#options.poolSize ?? 10,
      connectionTimeoutMs: this.#options.connectionTimeoutMs ?? 5000,
    });
    const statementMs = this.#options.statementTimeoutMs ?? 30000;
    const lockMs = this.lockTimeoutMs;
    return new MysqlDialect({
      pool,
      onCreateConnection: (connection) => prepareSession(connection, statementMs, lockMs),
    });
  }

  /** Finds the binary collation the server has; fails at start-up on a server without one. */
  override async prepareSchema(db: Kysely<any>): Promise<void> {
    if (this.#types) return;
    const { rows } = await db.executeQuery<{ name: string }>(
      CompiledQuery.raw(
        'select collation_name as name from information_schema.collations where collation_name in (?, ?)',
        [...BINARY_COLLATIONS],
      ),
    );
    const names = new Set(rows.map((row) => row.name));
    const collation = BINARY_COLLATIONS.find((name) => names.has(name));
    if (!collation) {
      throw new ImproperlyConfigured(
        'REST_ERR_DIALECT_LIMIT',
        `The MySQL/MariaDB server has neither ${BINARY_COLLATIONS.join(' nor ')}, which text columns need to compare ` +
          'as on the other databases. Use MariaDB 10.6 or later, or MySQL 8.0 or later.',
      );
    }
    this.#types = mysqlTypes(collation);
  }

  columnType(field: AnyModelField): string {
    if (!this.#types) {
      // A bug of the caller, not of a declaration: the collation is looked up before DDL.
      throw new Error('MysqlAdapter.columnType() needs prepareSchema() first.');
    }
    return columnTypeOf(field, this.#types);
  }

  override reader(field: AnyModelField): ValueReader | null {
    if (field.kind === 'boolean') return readIntegerBoolean;
    if (field.kind === 'datetime') return readDateTime;
    return super.reader(field);
  }

  override toDb(field: AnyModelField, value: unknown): unknown {
    if (field.kind === 'datetime' && value !== null && value !== undefined) {
      // DATETIME takes no zone: the instant goes in as UTC, which the session's zone is.
      const date = value instanceof Date ? value : new Date(String(value));
      if (!Number.isNaN(date.getTime())) return date.toISOString().slice(0, 23).replace('T', ' ');
    }
    return super.toDb(field, value);
  }

  override keysForWrite(
    db: Kysely<any>,
    keys: SelectQueryBuilder<any, any, any>,
  ): SelectQueryBuilder<any, any, any> {
    // MySQL refuses a subquery on the table being changed, and a LIMIT in an IN subquery; a
    // derived table is materialised first, which it accepts.
    return db.selectFrom(keys.as('rf_keys')).selectAll();
  }

  // MariaDB (PCRE) and MySQL 8 (ICU) both have REGEXP; under the binary collation it is
  // case-sensitive, and both take PCRE's inline (?i) flag for the insensitive form. Neither
  // normalizes text (NFD), which accent folding needs: its collations' accent-insensitive
  // equality is another (ø equals o there, й does not equal и).
  override readonly capabilities: DialectCapabilities = {
    regex: true,
    fullTextSearch: false,
    accentFolding: false,
  };

  override regexMatch(
    column: Expression<unknown>,
    pattern: unknown,
    caseInsensitive: boolean,
  ): RawBuilder<boolean> {
    return caseInsensitive
      ? sql<boolean>`${column} regexp concat('(?i)', ${pattern})`
      : sql<boolean>`${column} regexp ${pattern}`;
  }

  // Under the binary collation LIKE compares bytes: the sensitive forms as they are, the
  // insensitive ones on case-folded text, compared as bytes again (the fold collation would
  // also equate what it weighs the same). Backslash is MySQL's LIKE escape already.
  override textMatch(
    column: Expression<unknown>,
    parameters: readonly unknown[],
    _mode: TextMatchMode,
    caseInsensitive: boolean,
  ): RawBuilder<boolean> {
    const [pattern] = parameters;
    return caseInsensitive
      ? sql<boolean>`${this.foldCase(column)} collate utf8mb4_bin like ${this.foldCase(sql`${pattern}`)}`
      : sql<boolean>`${column} like ${pattern}`;
  }

  /** In the session's fold collation (see `FOLD_COLLATIONS`), which `CAST AS CHAR` takes. */
  override foldCase(text: Expression<unknown>): RawBuilder<string> {
    return sql<string>`lower(upper(cast(${text} as char)))`;
  }

  override readonly supportsTransactionalDdl = false;
  override readonly renamesConstraints = false;
  override readonly dropsForeignKeysWithColumn = false;

  /** `MODIFY` restates the whole column: type (with its collation), NULL, auto increment. */
  override alterColumnType(
    table: string,
    field: AnyModelField,
    nullable: boolean,
  ): RawBuilder<unknown> {
    return this.#modify(table, field, nullable);
  }

  override alterColumnNull(
    table: string,
    field: AnyModelField,
    nullable: boolean,
  ): RawBuilder<unknown> {
    return this.#modify(table, field, nullable);
  }

  #modify(table: string, field: AnyModelField, nullable: boolean): RawBuilder<unknown> {
    const auto = field.isPrimaryKey && field.kind === 'auto' ? ' auto_increment' : '';
    const definition = `${this.columnType(field)}${nullable ? ' null' : ' not null'}${auto}`;
    return sql`alter table ${sql.id(table)} modify ${sql.id(field.column)} ${sql.raw(definition)}`;
  }

  // MySQL drops a foreign key with DROP FOREIGN KEY; a check with DROP CHECK on MySQL 8 and
  // DROP CONSTRAINT on MariaDB, which MySQL 8.0.19+ takes too.
  override dropConstraint(
    table: string,
    name: string,
    kind: 'foreign_key' | 'check',
  ): RawBuilder<unknown> {
    const what = kind === 'foreign_key' ? sql`foreign key` : sql`constraint`;
    return sql`alter table ${sql.id(table)} drop ${what} ${sql.id(name)}`;
  }

  override renameConstraint(): RawBuilder<unknown> {
    // renamesConstraints is false: the schema editor drops and adds the constraint instead.
    throw new Error('MySQL cannot rename a constraint.');
  }

  override dropIndex(table: string, name: string): RawBuilder<unknown> {
    return sql`drop index ${sql.id(name)} on ${sql.id(table)}`;
  }

  /**
   * `GET_LOCK` on a name made of the database's: the session holds it, and the server frees
   * it when the connection ends, so a killed process leaves no lock behind.
   */
  override async acquireMigrationLock(
    db: Kysely<any>,
    timeoutMs: number,
  ): Promise<() => Promise<void>> {
    const statementMs = this.#options.statementTimeoutMs ?? 30000;
    return holdSessionLock(
      db,
      async (connection) => {
        // The statement timeout would end a long wait for the lock first.
        await setStatementTimeout(connection, 0);
        try {
          const { rows } = await sql<{
            got: number | null;
          }>`select get_lock(${MIGRATION_LOCK_NAME}, ${sql.lit(Math.max(0, timeoutMs) / 1000)}) as got`.execute(
            connection,
          );
          if (Number(rows[0]?.got) !== 1) throw migrationLockTimeout(timeoutMs, SESSION_LOCK_HELD);
        } finally {
          await setStatementTimeout(connection, statementMs);
        }
      },
      async (connection) => {
        await sql`select release_lock(${MIGRATION_LOCK_NAME})`.execute(connection);
      },
      (error) => error,
    );
  }

  // information_schema lists every database's indexes: only this one's count.
  override async indexExists(db: Kysely<any>, name: string): Promise<boolean> {
    const { rows } = await db.executeQuery(
      CompiledQuery.raw(
        'select 1 from information_schema.statistics where table_schema = database() and index_name = ?',
        [name],
      ),
    );
    return rows.length > 0;
  }

  override checkModel(model: AnyModel): void {
    for (const field of model.fieldList) {
      const problem = limitProblem(field);
      if (problem) {
        throw new ImproperlyConfigured(
          'REST_ERR_DIALECT_LIMIT',
          `${model.name}.${field.name}: ${problem} on MySQL/MariaDB.`,
        );
      }
    }
    for (const index of [...model.indexes, ...model.uniqueConstraints]) {
      const problem = indexProblem(index.fields.map((name) => model.fields[name] as AnyModelField));
      if (problem) {
        throw new ImproperlyConfigured(
          'REST_ERR_DIALECT_LIMIT',
          `${model.name} index ${index.name} (${index.fields.join(', ')}): ${problem} on MySQL/MariaDB.`,
        );
      }
    }
  }

  override translateError(error: unknown, model: AnyModel | undefined): unknown {
    return translateMysqlError(error, model);
  }

  async explain(db: Kysely<any>, text: string, parameters: readonly unknown[]): Promise<string[]> {
    const result = await db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(`explain ${text}`, parameters as unknown[]),
    );
    return result.rows.map((row) =>
      Object.entries(row)
        .filter(([, value]) => value !== null)
        .map(([key, value]) => `${key}=${value}`)
        .join(' '),
    );
  }
}

/** The column types, text in `collation`; datetimes hold UTC, to the microsecond. */
function mysqlTypes(collation: string): ColumnTypes {
  const text = `character set utf8mb4 collate ${collation}`;
  return {
    integer: 'integer',
    bigInteger: 'bigint',
    smallInteger: 'smallint',
    float: 'double',
    varchar: (maxLength) => `varchar(${maxLength}) ${text}`,
    text: `longtext ${text}`,
    decimal: (digits, places) => `decimal(${digits}, ${places})`,
    boolean: 'boolean',
    date: 'date',
    datetime: 'datetime(6)',
    time: 'time(6)',
    uuid: 'char(36) character set ascii collate ascii_bin',
    // Text, not MySQL's JSON type: mysql2 parses that one (MariaDB's is text), and values
    // only ever come from JSON.stringify, so they are valid JSON either way.
    json: 'longtext character set utf8mb4 collate utf8mb4_bin',
  };
}

/** What MySQL cannot hold of a field as declared (see `checkModel`), or undefined. */
function limitProblem(field: AnyModelField): string | undefined {
  const indexed = field.unique || field.options.dbIndex;
  if (field.kind === 'decimal') {
    const digits = field.extra.maxDigits as number;
    const places = field.extra.decimalPlaces as number;
    if (digits > MAX_DECIMAL_DIGITS || places > MAX_DECIMAL_PLACES)
      return `DECIMAL keeps at most ${MAX_DECIMAL_DIGITS} digits, ${MAX_DECIMAL_PLACES} of them decimal places; use maxDigits <= ${MAX_DECIMAL_DIGITS} and decimalPlaces <= ${MAX_DECIMAL_PLACES}`;
  }
  if (field.kind === 'text' && indexed)
    return 'a TextField cannot be unique or indexed (MySQL indexes no LONGTEXT whole); use a CharField with maxLength <= 768';
  if (field.isText && field.kind !== 'text') {
    const length = field.extra.maxLength as number;
    if (length > MAX_VARCHAR_CHARS)
      return `maxLength ${length} is more than a VARCHAR holds (${MAX_VARCHAR_CHARS}); use a TextField`;
    if (indexed && length > MAX_INDEXED_CHARS)
      return `a unique or indexed text column holds at most ${MAX_INDEXED_CHARS} characters (InnoDB indexes 3072 bytes); use maxLength <= ${MAX_INDEXED_CHARS}`;
  }
  return undefined;
}

/** What MySQL cannot index of a model's index over `fields`, or undefined. */
function indexProblem(fields: readonly AnyModelField[]): string | undefined {
  if (fields.some((field) => field.kind === 'text'))
    return 'an index cannot hold a TextField (MySQL indexes no LONGTEXT whole); use a CharField';
  const chars = fields
    .filter((field) => field.isText)
    .reduce((sum, field) => sum + (field.extra.maxLength as number), 0);
  if (chars > MAX_INDEXED_CHARS)
    return `the text columns of an index hold at most ${MAX_INDEXED_CHARS} characters together (InnoDB indexes 3072 bytes); shorten their maxLength`;
  return undefined;
}

/**
 * How long one statement waits on the server for a lock, in seconds: the smallest wait both
 * servers take (MySQL counts no less than a second; MariaDB's 0 fails at once, which would
 * make a schema change lose every race for a table in use). Past it the statement fails with
 * ER_LOCK_WAIT_TIMEOUT, and the request frees its connection, pauses and tries again.
 */
const LOCK_WAIT_SLICE_SECONDS = 1;

/**
 * Both waits for a lock, in whole seconds: InnoDB's for a row (`innodb_lock_wait_timeout`)
 * and the server's for a table's metadata lock (`lock_wait_timeout`: what a statement waits
 * for behind `LOCK TABLES ... WRITE` or a schema change; 24 hours by default).
 */
function lockWaits(seconds: number): CompiledQuery {
  return CompiledQuery.raw(
    `set session innodb_lock_wait_timeout = ${seconds}, lock_wait_timeout = ${seconds}`,
  );
}

/** Sets up a new connection's session (see `SESSION`), with its timeouts. */
async function prepareSession(
  connection: DatabaseConnection,
  statementMs: number,
  lockMs: number,
): Promise<void> {
  for (const statement of SESSION) await connection.executeQuery(CompiledQuery.raw(statement));
  // 0 is no limit: the server's own lock waits (50 s for a row, a day for a table) then apply.
  if (lockMs > 0) await connection.executeQuery(lockWaits(LOCK_WAIT_SLICE_SECONDS));
  await setStatementTimeout(connection, statementMs);
  await setFoldCollation(connection);
}

/** The first of {@link FOLD_COLLATIONS} the server has becomes the connection's collation. */
async function setFoldCollation(connection: DatabaseConnection): Promise<void> {
  for (const collation of FOLD_COLLATIONS) {
    try {
      await connection.executeQuery(
        CompiledQuery.raw(`set session collation_connection = ${collation}`),
      );
      return;
    } catch {
      // Unknown collation on this server: the next one.
    }
  }
}

/** Sets the session's statement timeout (0: none). */
async function setStatementTimeout(
  connection: { executeQuery(query: CompiledQuery): Promise<unknown> },
  statementMs: number,
): Promise<void> {
  try {
    // MariaDB: seconds, for every statement.
    await connection.executeQuery(
      CompiledQuery.raw(`set session max_statement_time = ${statementMs / 1000}`),
    );
  } catch {
    // MySQL: milliseconds, for SELECT.
    await connection.executeQuery(
      CompiledQuery.raw(`set session max_execution_time = ${statementMs}`),
    );
  }
}
