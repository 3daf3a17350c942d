/**
 * The table that remembers which migrations a database has applied (Django's
 * `MigrationRecorder`): one row per applied migration, by app and name.
 * @module
 */
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';

/** The recorder table's name. */
export const MIGRATIONS_TABLE = 'restframework_migrations';

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
