/**
 * The table that remembers which migrations a database has applied (Django's
 * `MigrationRecorder`): one row per applied migration, by app and name.
 * @module
 */
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';

/** The recorder table's name. */
export const MIGRATIONS_TABLE = 'restframework_migrations';

/** The table of the migrations a failed `migrate` left part-way (non-transactional DDL). */
export const PROGRESS_TABLE = 'restframework_migration_progress';

/**
 * How far a migration got: its direction and the number of its steps that ran.
 *
 * @example
 * ```ts
 * const partial = await new MigrationRecorder(db).progress('books');
 * partial.get('0002_book_pages'); // { backwards: false, done: 3 }
 * ```
 */
export interface MigrationProgress {
  /** True when it was being undone (a rollback). */
  readonly backwards: boolean;
  /** How many of its operations' steps ran and were recorded. */
  readonly done: number;
}

/**
 * Reads and writes the applied migrations of a database.
 *
 * @example
 * ```ts
 * const recorder = new MigrationRecorder(db);
 * await recorder.ensureTable();
 * await recorder.applied('books'); // Set { '0001_initial' }
 * ```
 */
export class MigrationRecorder {
  /** The database whose applied migrations it reads and writes. */
  readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  /** Creates the table when it does not exist. */
  async ensureTable(): Promise<void> {
    await this.db.kysely.schema
      .createTable(MIGRATIONS_TABLE)
      .ifNotExists()
      .addColumn('id', 'integer', (col) =>
        this.db.adapter.autoIncrement(col.primaryKey().notNull()),
      )
      .addColumn('app', 'varchar(255)', (col) => col.notNull())
      .addColumn('name', 'varchar(255)', (col) => col.notNull())
      .addColumn('applied', 'varchar(40)', (col) => col.notNull())
      .execute();
  }

  /**
   * Creates the progress table when it does not exist: where a dialect whose DDL commits at
   * once (MySQL) keeps how far a migration that has not finished got.
   */
  async ensureProgressTable(): Promise<void> {
    await this.db.kysely.schema
      .createTable(PROGRESS_TABLE)
      .ifNotExists()
      .addColumn('app', 'varchar(255)', (col) => col.notNull())
      .addColumn('name', 'varchar(255)', (col) => col.notNull())
      .addColumn('backwards', 'integer', (col) => col.notNull())
      .addColumn('done', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint(`${PROGRESS_TABLE}_pk`, ['app', 'name'])
      .execute();
  }

  /** The migrations of `app` that a failed `migrate` left part-way, by name. */
  async progress(app: string): Promise<Map<string, MigrationProgress>> {
    const tables = await this.db.kysely.introspection.getTables();
    if (!tables.some((t) => t.name === PROGRESS_TABLE)) return new Map();
    const rows = await sql<{
      name: string;
      backwards: number;
      done: number;
    }>`select ${sql.ref('name')}, ${sql.ref('backwards')}, ${sql.ref('done')} from ${sql.table(PROGRESS_TABLE)} where ${sql.ref('app')} = ${app}`.execute(
      this.db.executor,
    );
    return new Map(
      rows.rows.map((r) => [
        r.name,
        { backwards: Number(r.backwards) === 1, done: Number(r.done) },
      ]),
    );
  }

  /**
   * Notes that the migration starts, with no step done (the progress table must exist); a row
   * an earlier run left at its first statement goes.
   */
  async startProgress(app: string, name: string, backwards: boolean): Promise<void> {
    await this.clearProgress(app, name);
    await sql`insert into ${sql.table(PROGRESS_TABLE)} (${sql.ref('app')}, ${sql.ref('name')}, ${sql.ref('backwards')}, ${sql.ref('done')}) values (${app}, ${name}, ${backwards ? 1 : 0}, 0)`.execute(
      this.db.executor,
    );
  }

  /** Notes that `done` steps of the migration ran (one UPDATE: it happened or it did not). */
  async saveProgress(app: string, name: string, done: number): Promise<void> {
    await sql`update ${sql.table(PROGRESS_TABLE)} set ${sql.ref('done')} = ${done} where ${sql.ref('app')} = ${app} and ${sql.ref('name')} = ${name}`.execute(
      this.db.executor,
    );
  }

  /** Forgets the progress of a migration (it finished). */
  async clearProgress(app: string, name: string): Promise<void> {
    await sql`delete from ${sql.table(PROGRESS_TABLE)} where ${sql.ref('app')} = ${app} and ${sql.ref('name')} = ${name}`.execute(
      this.db.executor,
    );
  }

  /** True when the table exists (`showmigrations` reads without creating it). */
  async hasTable(): Promise<boolean> {
    const tables = await this.db.kysely.introspection.getTables();
    return tables.some((t) => t.name === MIGRATIONS_TABLE);
  }

  /** The names of the migrations of `app` the database has applied. */
  async applied(app: string): Promise<Set<string>> {
    if (!(await this.hasTable())) return new Set();
    const rows = await sql<{
      name: string;
    }>`select ${sql.ref('name')} from ${sql.table(MIGRATIONS_TABLE)} where ${sql.ref('app')} = ${app}`.execute(
      this.db.executor,
    );
    return new Set(rows.rows.map((r) => r.name));
  }

  /** Records `name` as applied (in the current transaction). */
  async record(app: string, name: string): Promise<void> {
    await sql`insert into ${sql.table(MIGRATIONS_TABLE)} (${sql.ref('app')}, ${sql.ref('name')}, ${sql.ref('applied')}) values (${app}, ${name}, ${new Date().toISOString()})`.execute(
      this.db.executor,
    );
  }

  /** Forgets `name` (a migration rolled back). */
  async unrecord(app: string, name: string): Promise<void> {
    await sql`delete from ${sql.table(MIGRATIONS_TABLE)} where ${sql.ref('app')} = ${app} and ${sql.ref('name')} = ${name}`.execute(
      this.db.executor,
    );
  }
}
