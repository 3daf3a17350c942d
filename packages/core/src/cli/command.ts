/**
 * The contract of a command of the `restframework` command line: its name, a line of help,
 * its options (in `node:util` `parseArgs` form) and what it does. New commands (such as
 * `createsuperuser`) add one file under `commands/` and one entry in the registry.
 * @module
 */
import type { ParseArgsConfig } from 'node:util';
import { Database } from '../db/database.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { MigrationGraph } from '../migrations/migration-graph.ts';
import { loadMigrations } from '../migrations/migration-loader.ts';
import type { LoadedConfig } from './project-config.ts';

/** What a command gets: its arguments, the project's config (loaded on demand) and output. */
export interface CommandContext {
  /** Positional arguments after the command's name. */
  readonly positionals: readonly string[];
  /** Parsed options (`--name x` → `{ name: 'x' }`). */
  readonly values: Readonly<Record<string, string | boolean | string[] | boolean[] | undefined>>;
  /** The folder the command runs in; the config file is looked for from here. */
  readonly cwd: string;
  /** Loads the config file (found from `cwd`, or `--config`). */
  config(): Promise<LoadedConfig>;
  /** Writes a line of output (standard output). */
  out(line: string): void;
  /** Writes a line of error or warning (standard error). */
  err(line: string): void;
  /** Asks a yes/no question when a terminal is attached; absent otherwise. */
  readonly ask?: (question: string) => Promise<boolean>;
}

/**
 * A command. `run` resolves to the exit code (0 for success).
 *
 * @example
 * ```ts
 * const hello: Command = {
 *   name: 'hello',
 *   summary: 'Says hello.',
 *   usage: 'hello',
 *   options: {},
 *   async run(context) { context.out('hello'); return 0; },
 * };
 * ```
 */
export interface Command {
  /** The command's name on the command line (`migrate`). */
  readonly name: string;
  /** One line on what it does, for `restframework help`. */
  readonly summary: string;
  /** How it is called (`migrate [APP] [NAME] [--plan]`), shown with a usage error. */
  readonly usage: string;
  /** Its options, as `node:util`'s `parseArgs` takes them (`{ plan: { type: 'boolean' } }`). */
  readonly options: NonNullable<ParseArgsConfig['options']>;
  /** Runs it; resolves to the exit code (0 for success). */
  run(context: CommandContext): Promise<number>;
}

/** The config's migrations, loaded and checked (before any database is opened). */
export async function projectGraph(config: LoadedConfig): Promise<MigrationGraph> {
  return new MigrationGraph(await loadMigrations(config.migrationsFolder));
}

/** Connects to the config's database, runs `fn`, and closes the connection. */
export async function withDatabase<T>(
  config: LoadedConfig,
  fn: (db: Database) => Promise<T>,
): Promise<T> {
  if (!config.databaseUrl) {
    throw new ImproperlyConfigured(
      'REST_ERR_CONFIG',
      `${config.file}: databaseUrl is empty, and this command opens the database. Set it (for example ` +
        'databaseUrl: process.env.DATABASE_URL ?? "sqlite:db.sqlite3"), or set DATABASE_URL if the config reads it.',
    );
  }
  const db = Database.connect(config.databaseUrl, config.databaseOptions);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** Throws a usage error unless `app` is the config's app. */
export function checkApp(config: LoadedConfig, app: string | undefined): void {
  if (app !== undefined && app !== config.app)
    throw new UsageError(`No app "${app}": this project's app is "${config.app}".`);
}

/** A mistake in the command line itself (exit code 2). */
export class UsageError extends Error {}
