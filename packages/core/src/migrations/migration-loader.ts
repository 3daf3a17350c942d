/**
 * Reads a migrations folder: every `NNNN_name.ts` (or `.js`, `.mjs`, `.mts`) file, imported
 * and checked for the shape of a {@link Migration}.
 * @module
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LoadedMigration, Migration } from './migration.ts';
import { MigrationError } from './migration-error.ts';

/** Migration file names: four digits, an underscore, a name; the extension Node can import. */
export const MIGRATION_FILE = /^(\d{4}_[A-Za-z0-9_]+)\.(ts|mts|js|mjs)$/;

/** The migration files of a folder (none when the folder does not exist yet). */
export function migrationFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => MIGRATION_FILE.test(name))
    .sort()
    .map((name) => join(folder, name));
}

/**
 * Imports every migration of `folder`. A file that does not load, or whose default export is
 * not a migration, fails with a {@link MigrationError} naming the file.
 *
 * @example
 * ```ts
 * const graph = new MigrationGraph(await loadMigrations('migrations'));
 * ```
 */
export async function loadMigrations(folder: string): Promise<LoadedMigration[]> {
  const result: LoadedMigration[] = [];
  const seen = new Map<string, string>();
  for (const file of migrationFiles(resolve(folder))) {
    const name = (MIGRATION_FILE.exec(basename(file)) as RegExpExecArray)[1] as string;
    const other = seen.get(name);
    if (other) {
      throw new MigrationError(
        'REST_ERR_MIGRATION_FILE',
        `${basename(file)} and ${basename(other)} are the same migration ${name}: keep one.`,
      );
    }
    seen.set(name, file);
    let module: { default?: unknown };
    try {
      module = await import(pathToFileURL(file).href);
    } catch (error) {
      throw new MigrationError(
        'REST_ERR_MIGRATION_FILE',
        `${basename(file)} does not load: ${(error as Error).message}`,
        { cause: error },
      );
    }
    result.push({ name, file, ...checkShape(module.default, basename(file)) });
  }
  return result;
}

function checkShape(
  value: unknown,
  file: string,
): { dependencies: readonly string[]; operations: Migration['operations'] } {
  const fail = (problem: string): never => {
    throw new MigrationError('REST_ERR_MIGRATION_FILE', `${file}: ${problem}`);
  };
  if (!value || typeof value !== 'object') {
    return fail(
      'the default export must be a migration: export default { dependencies, operations }.',
    );
  }
  const migration = value as Migration;
  const dependencies = migration.dependencies ?? [];
  if (!Array.isArray(dependencies) || dependencies.some((d) => typeof d !== 'string')) {
    fail("dependencies must be a list of migration names, such as ['0001_initial'].");
  }
  if (!Array.isArray(migration.operations)) fail('operations must be a list of operations.');
  return { dependencies, operations: migration.operations };
}
