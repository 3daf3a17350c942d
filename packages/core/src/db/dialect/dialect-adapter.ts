/**
 * Everything that differs between databases, behind one interface: column types, value
 * conversion, NULL ordering, case-insensitive matching, error translation and query plans.
 * @module
 */
import {
  type ColumnDefinitionBuilder,
  type Dialect,
  type Expression,
  type Kysely,
  type OrderByItemBuilder,
  type RawBuilder,
  type SelectQueryBuilder,
  sql,
} from 'kysely';
import { MigrationError } from '../../migrations/migration-error.ts';
import type { AnyModel } from '../../models/model.ts';
import type { AnyModelField } from '../../models/model-field.ts';
import type { MaybePromise } from '../../utils/maybe-promise.ts';
import { columnValueToDb, readJsonText, readTime, readWholeNumber } from '../column-values.ts';
import { DatabaseError, UniqueViolationError } from '../database-errors.ts';
import { foldAccents } from '../fold-accents.ts';
import type { CompiledStatement } from '../plan/statement-cache.ts';

/** How a text lookup compares: whole value (`iexact`), anywhere in it, at its start or end. */
export type TextMatchMode = 'exact' | 'contains' | 'startswith' | 'endswith';

/**
 * The optional abilities of a dialect (see {@link DialectAdapter.capabilities}).
 *
 * @example
 * ```ts
 * abstract class MyAdapter extends DialectAdapterBase {
 *   override readonly capabilities = { regex: true, fullTextSearch: false, accentFolding: false };
 *   // ... and regexMatch(), as the capability promises.
 * }
 * ```
 */
export interface DialectCapabilities {
  /** Regular-expression matching (`regex`/`iregex` lookups, the search filter's `$`). */
  readonly regex: boolean;
  /**
   * Full-text search with the database's own text search (stemming, stop words). Without
   * it the `search` lookup matches rows containing every word of the query (`LIKE`).
   */
  readonly fullTextSearch: boolean;
  /**
   * Accent folding (`db/fold-accents.ts`) for the `unaccent__*` lookups a view opts into
   * (`title__unaccent__icontains`, a search field `'title__unaccent'`): {@link
   * DialectAdapter.foldAccents}. SQLite and PostgreSQL have it; MySQL/MariaDB, which cannot
   * normalize text, do not.
   */
  readonly accentFolding: boolean;
}

/** Converts a value read from the driver into the value a row holds. */
export type ValueReader = (value: unknown) => unknown;

/**
 * A transaction begun by {@link DialectAdapter.begin}.
 *
 * @example
 * ```ts
 * const open = await db.adapter.begin(db.kysely);
 * try {
 *   await open.executor.deleteFrom('books_book').execute();
 * } catch (error) {
 *   await open.end(false);
 *   throw error;
 * }
 * await open.end(true);
 * ```
 */
export interface OpenTransaction {
  /** Kysely on the transaction's connection, for the queries of the transaction built with it. */
  readonly executor: Kysely<any>;
  /**
   * Commits (or rolls back) and frees the connection, at once or as a promise; throws what a
   * failed COMMIT throws (the transaction is then rolled back and its connection freed).
   */
  end(commit: boolean): MaybePromise<void>;
}

/** Runs one SQL statement in the migration's connection (or transaction) and returns its rows. */
export type RunStatement = (sql: string) => Promise<unknown[]>;

/**
 * A database dialect as the toolkit sees it. Implement it by extending
 * {@link DialectAdapterBase}, which gives defaults for everything optional.
 */
export interface DialectAdapter {
  /** `sqlite`, `postgres` or `mysql`: a name for logs and reports; the toolkit asks the capabilities below instead. */
  readonly vendor: string;
  /**
   * True when INSERT and UPDATE take `RETURNING` (SQLite, PostgreSQL). Else a created row is
   * read back by the key the INSERT made, an updated one by its key (MySQL).
   */
  readonly returning: boolean;
  /**
   * The LIMIT a query with an OFFSET and no LIMIT needs, where the SQL has no OFFSET without
   * one (SQLite: -1, MySQL: a number past any table); null where it has.
   */
  readonly offsetOnlyLimit: number | null;
  /**
   * The most parameters one statement may bind (SQLite's default is 32766; PostgreSQL and
   * MySQL take 65535): a prefetch of more keys runs in chunks.
   */
  readonly maxParameters: number;
  /** Makes an `auto` primary key generate its values (AUTOINCREMENT, or an identity). */
  autoIncrement(pk: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /**
   * Learns what the DDL of {@link columnType} needs from the server, before `migrate` (or any
   * other schema change) calls it: MySQL looks up its binary collation.
   */
  prepareSchema(db: Kysely<any>): Promise<void>;
  /**
   * The keys an UPDATE or DELETE changes, as its `IN` subquery: `keys` itself, or (MySQL,
   * which refuses a subquery on the table it changes) `keys` wrapped in a derived table.
   */
  keysForWrite(
    db: Kysely<any>,
    keys: SelectQueryBuilder<any, any, any>,
  ): SelectQueryBuilder<any, any, any>;
  /** The Kysely dialect that talks to the driver. */
  createDialect(): Dialect;
  /** Prepares a new Kysely instance (pragmas, session settings). */
  initialize(db: Kysely<any>): Promise<void>;
  /** The SQL type of a column, including collation where text needs it. Never user input. */
  columnType(field: AnyModelField): string;
  /** A reader for values of this field, or null when the driver's value is already right. */
  reader(field: AnyModelField): ValueReader | null;
  /** Converts a row value into what the driver stores. */
  toDb(field: AnyModelField, value: unknown): unknown;
  /**
   * Applies the sort direction so NULL is the smallest value on every dialect. `nullable` is
   * false when the column can hold no NULL (NOT NULL, and not reached through a LEFT JOIN).
   */
  orderDirection(
    descending: boolean,
    nullable: boolean,
  ): (ob: OrderByItemBuilder) => OrderByItemBuilder;
  /**
   * The bound values of a text match on `value` (taken literally, never as a pattern: `%`,
   * `_` and `\` match themselves): the escaped LIKE pattern, or the value itself where the
   * dialect compares otherwise.
   */
  textMatchParameters(
    value: string,
    mode: TextMatchMode,
    caseInsensitive: boolean,
    accentInsensitive?: boolean,
  ): unknown[];
  /**
   * The text match itself: the column equals, contains, starts or ends with the value whose
   * {@link textMatchParameters} are `parameters`, case-sensitively or not. Case-insensitive
   * matches compare both sides through {@link foldCase}, so they give the same rows on every
   * database; accent-insensitive ones (where `capabilities.accentFolding`) through
   * {@link foldAccents} first.
   */
  textMatch(
    column: Expression<unknown>,
    parameters: readonly unknown[],
    mode: TextMatchMode,
    caseInsensitive: boolean,
    accentInsensitive?: boolean,
  ): RawBuilder<boolean>;
  /**
   * `text` case-folded in SQL, as `db/fold-case.ts` defines it for every database: each
   * character upper-cased, then lower-cased, one for one (Unicode's simple mappings); accents
   * kept. SQLite calls the function its adapter registers; PostgreSQL and MySQL use their
   * `upper` and `lower` under a Unicode-aware collation.
   */
  foldCase(text: Expression<unknown>): RawBuilder<string>;
  /**
   * `text` accent-folded in SQL, as `db/fold-accents.ts` defines it. Only called when
   * `capabilities.accentFolding` is true.
   */
  foldAccents(text: Expression<unknown>): RawBuilder<string>;
  /**
   * What this dialect can do beyond the common lookups. A lookup or search prefix that needs
   * a capability the dialect lacks fails with `ImproperlyConfigured` naming it (the search
   * filter checks at start-up); a new dialect declares each one explicitly.
   */
  readonly capabilities: DialectCapabilities;
  /**
   * `column` matches the regular expression bound as `pattern` (`regex`/`iregex` lookups and
   * the search filter's `$` prefix). Only called when `capabilities.regex` is true.
   */
  regexMatch(
    column: Expression<unknown>,
    pattern: unknown,
    caseInsensitive: boolean,
  ): RawBuilder<boolean>;
  /**
   * The bound values of a full-text match of `text` (the `search` lookup, the search
   * filter's `@` prefix): the query text itself with native full-text search, else the LIKE
   * patterns of its words.
   */
  fullTextParameters(text: string): unknown[];
  /** The full-text match of `column` with {@link fullTextParameters}' `parameters`. */
  fullTextMatch(column: Expression<unknown>, parameters: readonly unknown[]): RawBuilder<boolean>;
  /** The month (1-12) or day of the month (1-31) of a date column, as an integer. */
  datePart(column: Expression<unknown>, part: 'month' | 'day'): RawBuilder<number>;
  /**
   * Runs one statement where the driver can do it better than Kysely's executor: SQLite at
   * once (synchronously, when no other request holds the connection, or `inTransaction`, the
   * caller's own transaction, does), PostgreSQL outside a transaction on a pooled connection of
   * its own. Returns its rows (at once or as a promise), or undefined when the statement is to
   * go through Kysely's executor (the transaction's connection, if any), which `Database`
   * then uses. This is the only way the toolkit runs SQL it compiled; `Database.execute` calls
   * it and tells query listeners, retries and error translation apply around it.
   *
   * `statement.slot`, when given, is where the adapter keeps what it prepared for this SQL
   * (the statement cache's, one per compiled shape), so that the next run finds it without
   * looking the SQL text up. `single` says the statement answers at most one row (a written
   * row's RETURNING): the driver's call for one row may serve it.
   *
   * @example
   * ```ts
   * class MyAdapter extends SqliteAdapter {
   *   override execute(statement: CompiledStatement, inTransaction: boolean, single?: boolean) {
   *     console.log(statement.sql);
   *     return super.execute(statement, inTransaction, single);
   *   }
   * }
   * ```
   */
  execute(
    statement: CompiledStatement,
    inTransaction: boolean,
    single?: boolean,
  ): MaybePromise<unknown[]> | undefined;
  /**
   * Begins a transaction on a connection of its own: at once where the driver can do so
   * safely (SQLite, synchronous, when no other request holds the connection), else through
   * Kysely (the base class). Throws (or rejects with) what a failed `BEGIN` throws (see
   * {@link isBusy}). `Database.transaction` is the only caller.
   */
  begin(kysely: Kysely<any>): MaybePromise<OpenTransaction>;
  /**
   * True when LIMIT and OFFSET should be written into the SQL as numbers rather than bound as
   * parameters (they are always integers the toolkit computed, never client text).
   */
  readonly inlineLimits: boolean;
  /** Turns a driver error into a typed `DatabaseError`, or returns it unchanged. */
  translateError(error: unknown, model: AnyModel | undefined): unknown;
  /**
   * True when a transaction could not begin because another connection holds a lock, so
   * beginning again a little later may succeed; `Database.transaction` then tries again for
   * up to {@link lockTimeoutMs}.
   */
  isBusy(error: unknown): boolean;
  /**
   * How long a request waits in all for a lock another connection holds, in ms, before a 503
   * (0: as long as the server waits). Where the adapter waits in slices (PostgreSQL, MySQL),
   * a statement waits on the server for one slice, then fails; the toolkit gives the
   * connection back, pauses, and tries again (the statement outside a transaction, the whole
   * transaction when it may run again) until this has passed, so that requests for a locked
   * table never hold every connection of the pool. SQLite's `BEGIN` is tried again the same
   * way.
   */
  readonly lockTimeoutMs: number;
  /**
   * Inside a transaction that cannot run again (`Database.transaction` without `rerun`),
   * before its first statement: lets its statements wait on the server for the whole
   * {@link lockTimeoutMs} instead of one slice. Resolves to what undoes it before the
   * connection goes back to the pool, when the setting outlives the transaction (MySQL).
   * Dialects that do not wait in slices leave it out.
   */
  lengthenLockWaits?(trx: Kysely<any>): Promise<(() => Promise<void>) | undefined>;
  /** The query plan of a statement, one line per step. */
  explain(db: Kysely<any>, sql: string, parameters: readonly unknown[]): Promise<string[]>;
  /** Checks dialect limits of a model (SQLite's 15 exact digits, say) before tables are made. */
  checkModel(model: AnyModel): void;
  /**
   * Schema changes (CREATE, ALTER, DROP) can run inside a transaction and roll back with it
   * (PostgreSQL, SQLite; not MySQL). Migrations then run each in one transaction.
   */
  readonly supportsTransactionalDdl: boolean;
  /**
   * A column's type, NULL or foreign key can change in place (`ALTER TABLE ... ALTER COLUMN`).
   * When false (SQLite), migrations rebuild the table instead: create, copy, drop, rename.
   */
  readonly canAlterColumns: boolean;
  /** Foreign keys and checks have names that `ALTER TABLE` can drop and rename. */
  readonly namedConstraints: boolean;
  /**
   * The statement changing the type of `field`'s column of `table` in place, converting the
   * stored values (used when {@link canAlterColumns}). `nullable` is whether the column
   * accepts NULL at this point (a dialect that restates the whole column keeps it so).
   */
  alterColumnType(table: string, field: AnyModelField, nullable: boolean): RawBuilder<unknown>;
  /** The statement making `field`'s column accept NULL, or refuse it (when {@link canAlterColumns}). */
  alterColumnNull(table: string, field: AnyModelField, nullable: boolean): RawBuilder<unknown>;
  /** The statement dropping a named foreign key or check of `table` (when {@link namedConstraints}). */
  dropConstraint(table: string, name: string, kind: 'foreign_key' | 'check'): RawBuilder<unknown>;
  /**
   * `ALTER TABLE` can rename a named constraint ({@link renameConstraint}); when false (MySQL),
   * migrations drop it and add it again under the new name.
   */
  readonly renamesConstraints: boolean;
  /**
   * Dropping a column drops the foreign key on it too; when false (MySQL, which refuses to
   * drop a column a foreign key uses), migrations drop the foreign key first.
   */
  readonly dropsForeignKeysWithColumn: boolean;
  /** The statement dropping the index `name` of `table` (MySQL's indexes belong to a table). */
  dropIndex(table: string, name: string): RawBuilder<unknown>;
  /** The statement renaming a named foreign key or check of `table` (when {@link renamesConstraints}). */
  renameConstraint(
    table: string,
    from: string,
    to: string,
    kind: 'foreign_key' | 'check',
  ): RawBuilder<unknown>;
  /** True when an index of this name exists. */
  indexExists(db: Kysely<any>, name: string): Promise<boolean>;
  /**
   * Takes the lock that lets one process migrate at a time; waits up to `timeoutMs` for
   * another process to release it. Resolves to the function that releases it.
   */
  acquireMigrationLock(db: Kysely<any>, timeoutMs: number): Promise<() => Promise<void>>;
  /** Runs before a migration's transaction begins (SQLite turns foreign keys off). */
  beginSchemaChange(run: RunStatement): Promise<void>;
  /** Runs inside the transaction before it commits; throws when the data breaks a constraint. */
  checkSchemaChange(run: RunStatement): Promise<void>;
  /** Runs after the transaction ended, committed or not. */
  endSchemaChange(run: RunStatement): Promise<void>;
  /**
   * Forgets what the adapter prepared that a schema change may have made stale (PostgreSQL's
   * statement names). `Database.clearCaches` calls it.
   */
  clearCaches(): void;
  /** Releases the driver's resources. */
  destroy(): Promise<void>;
}

/**
 * Defaults for {@link DialectAdapter}, so a new dialect overrides only what differs and new
 * interface members get a default instead of breaking every adapter.
 *
 * @example
 * ```ts
 * import type { Dialect, Kysely } from 'kysely';
 *
 * class MyAdapter extends DialectAdapterBase {
 *   readonly vendor = 'mydb';
 *   createDialect(): Dialect {
 *     throw new Error('the Kysely dialect of mydb');
 *   }
 *   columnType(field: AnyModelField): string {
 *     return field.kind === 'text' ? 'clob' : 'varchar(255)';
 *   }
 *   async explain(_db: Kysely<any>, _sql: string): Promise<string[]> {
 *     return [];
 *   }
 * }
 * ```
 */
export abstract class DialectAdapterBase implements DialectAdapter {
  abstract readonly vendor: string;
  readonly inlineLimits: boolean = false;
  readonly returning: boolean = true;
  readonly offsetOnlyLimit: number | null = null;
  readonly maxParameters: number = 32_766;
  readonly capabilities: DialectCapabilities = {
    regex: false,
    fullTextSearch: false,
    accentFolding: false,
  };

  abstract createDialect(): Dialect;
  abstract columnType(field: AnyModelField): string;
  abstract explain(db: Kysely<any>, sql: string, parameters: readonly unknown[]): Promise<string[]>;

  async initialize(_db: Kysely<any>): Promise<void> {}

  autoIncrement(pk: ColumnDefinitionBuilder): ColumnDefinitionBuilder {
    return pk.autoIncrement();
  }

  async prepareSchema(_db: Kysely<any>): Promise<void> {}

  keysForWrite(
    _db: Kysely<any>,
    keys: SelectQueryBuilder<any, any, any>,
  ): SelectQueryBuilder<any, any, any> {
    return keys;
  }

  /** JSON text parsed, times of day in their one form, durations as numbers. */
  reader(field: AnyModelField): ValueReader | null {
    switch (field.kind) {
      case 'foreign_key':
      case 'one_to_one':
        return field.relatedModel.pk.kind === 'auto' ? null : this.reader(field.relatedModel.pk);
      case 'json':
        return readJsonText;
      case 'time':
        return readTime;
      case 'duration':
        return readWholeNumber;
      default:
        return null;
    }
  }

  /** JSON as text, UUIDs and times of day in their one form (see `column-values.ts`). */
  toDb(field: AnyModelField, value: unknown): unknown {
    const kind = field.kind;
    if (kind === 'json' || kind === 'uuid' || kind === 'time') return columnValueToDb(kind, value);
    // A key that points at a UUID is written as the UUID column is.
    if ((kind === 'foreign_key' || kind === 'one_to_one') && field.relatedModel.pk.kind === 'uuid')
      return columnValueToDb('uuid', value);
    return value;
  }

  orderDirection(descending: boolean, _nullable: boolean) {
    return (ob: OrderByItemBuilder) => (descending ? ob.desc() : ob.asc());
  }

  /** The escaped LIKE pattern (of the value accent-folded); SQLite overrides it. */
  textMatchParameters(
    value: string,
    mode: TextMatchMode,
    _caseInsensitive: boolean,
    accentInsensitive = false,
  ): unknown[] {
    return [likePattern(accentInsensitive ? foldAccents(value) : value, mode)];
  }

  /** `LIKE` with the escaped pattern; case-insensitively, on both sides case-folded. */
  textMatch(
    column: Expression<unknown>,
    parameters: readonly unknown[],
    _mode: TextMatchMode,
    caseInsensitive: boolean,
    accentInsensitive = false,
  ): RawBuilder<boolean> {
    const [pattern] = parameters;
    const text = accentInsensitive ? this.foldAccents(column) : column;
    return caseInsensitive
      ? sql<boolean>`${this.foldCase(text)} like ${this.foldCase(sql`${pattern}`)} escape '\\'`
      : sql<boolean>`${text} like ${pattern} escape '\\'`;
  }

  /** SQL's standard `UPPER` and `LOWER`: Unicode-aware where the database's text is. */
  foldCase(text: Expression<unknown>): RawBuilder<string> {
    return sql<string>`lower(upper(${text}))`;
  }

  /** Only reached when a dialect declares `capabilities.accentFolding` and forgets this. */
  foldAccents(_text: Expression<unknown>): RawBuilder<string> {
    throw new Error(`${this.vendor}: foldAccents() is not implemented.`);
  }

  /** Only reached when a dialect declares `capabilities.regex` and forgets to override this. */
  regexMatch(_column: Expression<unknown>, _pattern: unknown, _ci: boolean): RawBuilder<boolean> {
    throw new Error(`${this.vendor}: regexMatch() is not implemented.`);
  }

  /** Without native full-text search: the LIKE pattern of each word, all required. */
  fullTextParameters(text: string): unknown[] {
    return searchWords(text).map((word) => this.textMatchParameters(word, 'contains', true)[0]);
  }

  /** Every word's pattern matches (case-insensitively, anywhere in the text). */
  fullTextMatch(column: Expression<unknown>, parameters: readonly unknown[]): RawBuilder<boolean> {
    if (parameters.length === 0) return sql<boolean>`1 = 0`;
    return sql<boolean>`(${sql.join(
      parameters.map((p) => this.textMatch(column, [p], 'contains', true)),
      sql` and `,
    )})`;
  }

  /** SQL's standard EXTRACT (PostgreSQL, MySQL); SQLite overrides it. */
  datePart(column: Expression<unknown>, part: 'month' | 'day'): RawBuilder<number> {
    return part === 'month'
      ? sql<number>`extract(month from ${column})`
      : sql<number>`extract(day from ${column})`;
  }

  /** Kysely's executor runs every statement (see {@link DialectAdapter.execute}). */
  execute(
    _statement: CompiledStatement,
    _inTransaction: boolean,
    _single?: boolean,
  ): MaybePromise<unknown[]> | undefined {
    return undefined;
  }

  /** Kysely's controlled transaction, on a connection of its pool. */
  begin(kysely: Kysely<any>): MaybePromise<OpenTransaction> {
    return beginThroughKysely(kysely);
  }

  translateError(error: unknown, _model: AnyModel | undefined): unknown {
    return error;
  }

  isBusy(_error: unknown): boolean {
    return false;
  }

  get lockTimeoutMs(): number {
    return 0;
  }

  checkModel(_model: AnyModel): void {}

  readonly supportsTransactionalDdl: boolean = false;
  readonly canAlterColumns: boolean = true;
  readonly namedConstraints: boolean = true;
  readonly renamesConstraints: boolean = true;
  readonly dropsForeignKeysWithColumn: boolean = true;

  /** Standard SQL: index names are unique in the schema. */
  dropIndex(_table: string, name: string): RawBuilder<unknown> {
    return sql`drop index ${sql.id(name)}`;
  }

  /** Standard SQL (`ALTER COLUMN ... TYPE ... USING CAST(...)`), as PostgreSQL takes it. */
  alterColumnType(table: string, field: AnyModelField, _nullable: boolean): RawBuilder<unknown> {
    const type = sql.raw(this.columnType(field));
    const column = sql.id(field.column);
    return sql`alter table ${sql.id(table)} alter column ${column} type ${type} using cast(${column} as ${type})`;
  }

  alterColumnNull(table: string, field: AnyModelField, nullable: boolean): RawBuilder<unknown> {
    const change = nullable ? sql`drop not null` : sql`set not null`;
    return sql`alter table ${sql.id(table)} alter column ${sql.id(field.column)} ${change}`;
  }

  dropConstraint(table: string, name: string, _kind: 'foreign_key' | 'check'): RawBuilder<unknown> {
    return sql`alter table ${sql.id(table)} drop constraint ${sql.id(name)}`;
  }

  renameConstraint(
    table: string,
    from: string,
    to: string,
    _kind: 'foreign_key' | 'check',
  ): RawBuilder<unknown> {
    return sql`alter table ${sql.id(table)} rename constraint ${sql.id(from)} to ${sql.id(to)}`;
  }

  /** Through the standard `information_schema`; dialects without it override. */
  async indexExists(db: Kysely<any>, name: string): Promise<boolean> {
    const rows =
      await sql`select 1 from information_schema.statistics where index_name = ${name}`.execute(db);
    return rows.rows.length > 0;
  }

  /**
   * A row in a lock table: inserting it takes the lock, deleting it releases it; a second
   * process finds the row there and tries again every 100 ms. A process killed while it
   * migrates leaves the row behind: the error then says how to remove it.
   */
  async acquireMigrationLock(db: Kysely<any>, timeoutMs: number): Promise<() => Promise<void>> {
    await sql`create table if not exists ${sql.id(MIGRATION_LOCK_TABLE)} (id integer primary key, locked_at varchar(40) not null)`.execute(
      db,
    );
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        await sql`insert into ${sql.id(MIGRATION_LOCK_TABLE)} (id, locked_at) values (1, ${new Date().toISOString()})`.execute(
          db,
        );
        break;
      } catch (error) {
        if (!this.#isLockHeld(error) || Date.now() >= deadline) {
          if (this.#isLockHeld(error)) throw migrationLockTimeout(timeoutMs);
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return async () => {
      await sql`delete from ${sql.id(MIGRATION_LOCK_TABLE)} where id = 1`.execute(db);
    };
  }

  #isLockHeld(error: unknown): boolean {
    return this.translateError(error, undefined) instanceof UniqueViolationError;
  }

  async beginSchemaChange(_run: RunStatement): Promise<void> {}
  async checkSchemaChange(_run: RunStatement): Promise<void> {}
  async endSchemaChange(_run: RunStatement): Promise<void> {}

  /** Nothing kept by default (SQLite prepares a statement again when its schema changed). */
  clearCaches(): void {}

  async destroy(): Promise<void> {}
}

/** {@link DialectAdapterBase.begin}: a transaction of Kysely's, committed or rolled back by `end`. */
async function beginThroughKysely(kysely: Kysely<any>): Promise<OpenTransaction> {
  const trx = await kysely.startTransaction().execute();
  return {
    executor: trx,
    async end(commit) {
      if (!commit) return trx.rollback().execute();
      try {
        await trx.commit().execute();
      } catch (error) {
        // A COMMIT that failed and left the transaction open (a deferred constraint): rolled
        // back, which frees the connection; the COMMIT's error is the one to report.
        if (!trx.isCommitted && !trx.isRolledBack)
          await trx
            .rollback()
            .execute()
            .catch(() => {});
        throw error;
      }
    },
  };
}

/** The SQL types of a dialect, one per kind of column (see {@link columnTypeOf}). */
export interface ColumnTypes {
  /** `auto`, `integer`, `positive_integer` and the keys of relations. */
  readonly integer: string;
  /** `big_integer`, and `duration` (microseconds). */
  readonly bigInteger: string;
  /** `small_integer` and `positive_small_integer`. */
  readonly smallInteger: string;
  /** Double precision. */
  readonly float: string;
  /** `char`, `email`, `url`, `slug` and `file`, with the collation text needs. */
  varchar(maxLength: number): string;
  /** `text`, with the collation text needs. */
  readonly text: string;
  decimal(maxDigits: number, decimalPlaces: number): string;
  readonly boolean: string;
  readonly date: string;
  readonly datetime: string;
  /** A time of day to the microsecond. */
  readonly time: string;
  readonly uuid: string;
  /** JSON text. */
  readonly json: string;
}

/**
 * The SQL type of `field` in a dialect's {@link ColumnTypes}: what
 * {@link DialectAdapter.columnType} answers.
 *
 * @example
 * ```ts
 * const types: ColumnTypes = {
 *   integer: 'integer',
 *   bigInteger: 'bigint',
 *   smallInteger: 'smallint',
 *   float: 'double precision',
 *   varchar: (maxLength) => `varchar(${maxLength})`,
 *   text: 'text',
 *   decimal: (digits, places) => `numeric(${digits}, ${places})`,
 *   boolean: 'boolean',
 *   date: 'date',
 *   datetime: 'timestamptz',
 *   time: 'time',
 *   uuid: 'uuid',
 *   json: 'jsonb',
 * };
 * columnTypeOf(Book.getField('price')!, types); // 'numeric(10, 2)'
 * ```
 */
export function columnTypeOf(field: AnyModelField, types: ColumnTypes): string {
  switch (field.kind) {
    case 'foreign_key':
    case 'one_to_one': {
      // The key's type: an automatic one is a plain integer (not an auto-increment).
      const key = field.relatedModel.pk;
      return key.kind === 'auto' ? types.integer : columnTypeOf(key, types);
    }
    case 'auto':
    case 'integer':
    case 'positive_integer':
      return types.integer;
    case 'big_integer':
    case 'duration':
      return types.bigInteger;
    case 'small_integer':
    case 'positive_small_integer':
      return types.smallInteger;
    case 'float':
      return types.float;
    case 'char':
    case 'email':
    case 'url':
    case 'slug':
    case 'file':
      return types.varchar(field.extra.maxLength as number);
    case 'text':
      return types.text;
    case 'decimal':
      return types.decimal(field.extra.maxDigits as number, field.extra.decimalPlaces as number);
    case 'boolean':
      return types.boolean;
    case 'date':
      return types.date;
    case 'datetime':
      return types.datetime;
    case 'time':
      return types.time;
    case 'uuid':
      return types.uuid;
    case 'json':
      return types.json;
  }
}

/** The table whose one row is the migration lock (dialects without an advisory lock). */
export const MIGRATION_LOCK_TABLE = 'restframework_migration_lock';

/** Where the migration lock is a session's: what holds it when no migrate runs. */
export const SESSION_LOCK_HELD =
  'The lock belongs to the connection of the process holding it: the server frees it when that process exits.';

/**
 * The error of a migration lock held for longer than the wait allows. `held` tells what
 * holds it when no migrate runs (default: the row of the lock table a killed process left).
 */
export function migrationLockTimeout(
  timeoutMs: number,
  held = 'If no migrate is running (a process was killed while migrating), release the lock: ' +
    `delete from ${MIGRATION_LOCK_TABLE};`,
): MigrationError {
  return new MigrationError(
    'REST_ERR_MIGRATION_LOCKED',
    `Another process has been migrating this database for more than ${timeoutMs} ms. ` +
      `Wait for it to finish and run migrate again. ${held}`,
  );
}

/** Maps a table and column back to a model field, for error messages that name fields. */
export function fieldsForColumns(
  model: AnyModel | undefined,
  table: string | undefined,
  columns: readonly string[],
): { model: AnyModel | undefined; fields: string[] } {
  if (!model || (table !== undefined && model.table !== table))
    return { model, fields: [...columns] };
  const fields = columns.map(
    (column) => model.fieldList.find((f) => f.column === column)?.name ?? column,
  );
  return { model, fields };
}

/** Index and constraint names as the migrations create them (bounded to 63 characters). */
export function constraintName(table: string, columns: readonly string[], suffix: string): string {
  const name = `${table}_${columns.join('_')}_${suffix}`;
  if (name.length <= 63) return name;
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + (ch.codePointAt(0) as number)) >>> 0;
  return `${name.slice(0, 50)}_${hash.toString(36)}_${suffix}`.slice(0, 63);
}

/**
 * A LIKE pattern (escaped with `\`) matching `value` literally: all of it, anywhere, at the
 * start or at the end.
 */
export function likePattern(value: string, mode: TextMatchMode): string {
  const escaped = value.replace(/[\\%_]/g, (ch) => `\\${ch}`);
  switch (mode) {
    case 'exact':
      return escaped;
    case 'contains':
      return `%${escaped}%`;
    case 'startswith':
      return `${escaped}%`;
    case 'endswith':
      return `%${escaped}`;
  }
}

/** Reads a boolean stored as 0 or 1 (SQLite, MySQL's TINYINT(1)). */
export const readIntegerBoolean: ValueReader = (v) =>
  v === null || v === undefined ? null : v === 1 || v === true;
/** The words of a full-text query without native search: split on white space, at most 32. */
export function searchWords(text: string): string[] {
  return text.split(/\s+/).filter(Boolean).slice(0, 32);
}

/** True for errors that are already typed. */
export function isTranslated(error: unknown): error is DatabaseError {
  return error instanceof DatabaseError;
}
