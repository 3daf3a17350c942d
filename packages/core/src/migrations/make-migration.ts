/**
 * What `makemigrations` does, without the command line: compares models with the state of a
 * migrations folder and writes the next migration file there.
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnyModel } from '../models/model.ts';
import { type AutodetectorOptions, detectChanges, renameCandidates } from './autodetector.ts';
import { MigrationError } from './migration-error.ts';
import { MigrationGraph } from './migration-graph.ts';
import { loadMigrations } from './migration-loader.ts';
import { MIGRATION_NAME, migrationName } from './migration-name.ts';
import { type MigrationLanguage, writeMigration } from './migration-writer.ts';
import type { Operation } from './operations/operation-registry.ts';
import { ProjectState } from './project-state.ts';

/** Options of {@link makeMigration}. */
export interface MakeMigrationOptions extends AutodetectorOptions {
  /** The name after the number (default: from the operations, `initial` for the first). */
  readonly name?: string;
  /** Write a migration with no operations (to fill in by hand: a data migration). */
  readonly empty?: boolean;
  /** Only compute: write nothing (`--check`). */
  readonly dryRun?: boolean;
  /** `ts` (default) or `js`. */
  readonly language?: MigrationLanguage;
  /**
   * Asks a person whether a likely rename is one (`Was Book.title renamed to Book.name?`);
   * without it, only `renames` count. `makemigrations` passes it when a terminal is attached.
   */
  readonly ask?: (question: string) => Promise<boolean>;
}

/** What {@link makeMigration} found (and wrote, unless it was a dry run). */
export interface MadeMigration {
  /** The new migration's name (`0002_book_pages`). */
  readonly name: string;
  /** The path of the file written. */
  readonly file: string;
  /** Its operations, in the order they run. */
  readonly operations: readonly Operation[];
}

/**
 * The next migration of `folder` for `models`, written there; null when nothing changed.
 *
 * @example
 * ```ts
 * const made = await makeMigration('migrations', [Book], { renames: new Map([['Book.title', 'name']]) });
 * made?.file; // '.../migrations/0002_rename_title_book_name.ts'
 * ```
 */
export async function makeMigration(
  folder: string,
  models: readonly AnyModel[],
  options: MakeMigrationOptions = {},
): Promise<MadeMigration | null> {
  const graph = new MigrationGraph(await loadMigrations(folder));
  const target = ProjectState.fromModels(models);
  const renames = new Map(options.renames ?? []);
  if (options.ask && !options.empty) {
    for (const [old, renamed] of renameCandidates(graph.finalState, target)) {
      if (renames.has(old)) continue;
      const dot = old.indexOf('.');
      const question =
        dot === -1
          ? `Was the model ${old} renamed to ${renamed}? [y/N] `
          : `Was ${old} renamed to ${old.slice(0, dot)}.${renamed}? [y/N] `;
      if (await options.ask(question)) renames.set(old, renamed);
    }
  }
  const operations = options.empty
    ? []
    : detectChanges(graph.finalState, target, { ...options, renames });
  if (operations.length === 0 && !options.empty) return null;
  const numbers = graph.order.map((m) => Number(m.name.slice(0, 4)));
  const number = String(Math.max(0, ...numbers) + 1).padStart(4, '0');
  const name = `${number}_${options.name ?? migrationName(operations, numbers.length === 0)}`;
  if (!MIGRATION_NAME.test(name)) {
    throw new MigrationError(
      'REST_ERR_MIGRATION_FILE',
      `The migration name "${options.name}" may hold letters, digits and _ only.`,
    );
  }
  const language = options.language ?? 'ts';
  const file = join(folder, `${name}.${language}`);
  if (!options.dryRun) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(file, writeMigration(graph.leaves, operations, language), { flag: 'wx' });
  }
  return { name, file, operations };
}
