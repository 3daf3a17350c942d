/**
 * The short way to bring a database up to date from a migrations folder (what `npm start`
 * of a service calls before it serves).
 * @module
 */
import type { Database } from '../db/database.ts';
import {
  type MigrateOptions,
  type MigrateResult,
  MigrationExecutor,
} from './migration-executor.ts';
import { MigrationGraph } from './migration-graph.ts';
import { loadMigrations } from './migration-loader.ts';

/** Options of {@link applyMigrations}: where the migrations are, and how to migrate. */
export interface ApplyMigrationsOptions extends MigrateOptions {
  /** The folder of the migration files. */
  readonly folder: string;
  /** The app the migrations belong to (the recorder's `app` column). */
  readonly app: string;
}

/**
 * Loads and checks the migrations of `folder`, then applies the pending ones to `db` under the
 * migration lock. A process that waited for another one finds nothing left to do.
 *
 * @example
 * ```ts
 * import { applyMigrations } from '@restframework/core';
 *
 * await applyMigrations(db, { folder: 'migrations', app: 'books' });
 * ```
 */
export async function applyMigrations(
  db: Database,
  options: ApplyMigrationsOptions,
): Promise<MigrateResult> {
  const graph = new MigrationGraph(await loadMigrations(options.folder));
  const { folder: _folder, app, ...migrateOptions } = options;
  return new MigrationExecutor(db, graph, app).migrate(migrateOptions);
}
