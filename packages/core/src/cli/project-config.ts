/**
 * The project's configuration file, `restframework.config.ts` (or `.mts`, `.js`, `.mjs`): the
 * models, the database URL and the migrations folder the command line works with.
 * @module
 */
import { existsSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Auth } from '../accounts/auth.ts';
import type { DatabaseOptions } from '../db/database.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { type AnyModel, Model } from '../models/model.ts';

/**
 * What `restframework.config.ts` exports by default.
 *
 * @example
 * ```ts
 * import { defineConfig } from '@restframework/core';
 *
 * export default defineConfig({
 *   app: 'books',
 *   models: [Book, Author],
 *   databaseUrl: process.env.DATABASE_URL ?? 'sqlite:db.sqlite3',
 *   migrations: 'migrations',
 * });
 * ```
 */
export interface ProjectConfig {
  /** The app's label: the recorder table's `app` column and `migrate <app>`'s name (default `app`). */
  readonly app?: string;
  /** Every model the migrations cover. */
  readonly models: readonly AnyModel[];
  /**
   * `sqlite:PATH`, `sqlite::memory:` or `postgres://...`. Needed by the commands that open the
   * database (`migrate`, `showmigrations`, `sqlmigrate`), not by `makemigrations`, which reads
   * only the models and the migration files (so CI runs `makemigrations --check` without one).
   */
  readonly databaseUrl?: string;
  /** Options of `Database.connect`. */
  readonly databaseOptions?: DatabaseOptions;
  /** The migrations folder, relative to the config file (default `migrations`). */
  readonly migrations?: string;
  /** The users `createsuperuser` and `changepassword` work on (default `defaultAuth`). */
  readonly auth?: Auth;
  /**
   * Builds the app without listening, for `restframework serve` (called once in each worker
   * process; the app's `onClose` hooks close what it opened).
   */
  readonly createApp?: () => FastifyInstance | Promise<FastifyInstance>;
}

/** A config as the command line uses it: checked, with absolute paths. */
export interface LoadedConfig {
  /** The config file's absolute path. */
  readonly file: string;
  /** The app's label (default `app`). */
  readonly app: string;
  /** Every model the migrations cover. */
  readonly models: readonly AnyModel[];
  /** The database's URL, when the config gives one. */
  readonly databaseUrl: string | undefined;
  /** Options of `Database.connect` (empty by default). */
  readonly databaseOptions: DatabaseOptions;
  /** The migrations folder's absolute path. */
  readonly migrationsFolder: string;
  /** The language new migration files are written in: the config file's. */
  readonly language: 'ts' | 'js';
  /** The config's `auth`, if any. */
  readonly auth: Auth | undefined;
  /** The config's `createApp`, if any. */
  readonly createApp: (() => FastifyInstance | Promise<FastifyInstance>) | undefined;
}

/** The config file names looked for, in this order. */
export const CONFIG_FILES = [
  'restframework.config.ts',
  'restframework.config.mts',
  'restframework.config.js',
  'restframework.config.mjs',
];

/** Returns `config`: gives a config file its type. */
export function defineConfig(config: ProjectConfig): ProjectConfig {
  return config;
}

function fail(message: string): never {
  throw new ImproperlyConfigured('REST_ERR_CONFIG', message);
}

/** The config file for `cwd`: the given one, or the first found in `cwd` and its parents. */
export function findConfig(cwd: string, given?: string): string {
  if (given) {
    const file = resolve(cwd, given);
    if (!existsSync(file)) fail(`The config file ${file} does not exist.`);
    return file;
  }
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    for (const name of CONFIG_FILES) {
      if (existsSync(join(dir, name))) return join(dir, name);
    }
    if (dirname(dir) === dir) break;
  }
  return fail(
    `No restframework.config.ts (or .mts, .js, .mjs) in ${resolve(cwd)} or a folder above it. ` +
      'Create one that exports defineConfig({ app, models, databaseUrl, migrations }), or pass --config <file>.',
  );
}

/**
 * Imports and checks the config file.
 *
 * @example
 * ```ts
 * const config = await loadConfig(findConfig(process.cwd()));
 * config.migrationsFolder; // '/srv/app/migrations'
 * ```
 */
export async function loadConfig(file: string): Promise<LoadedConfig> {
  let module: { default?: unknown };
  try {
    module = await import(pathToFileURL(file).href);
  } catch (error) {
    return fail(`The config file ${file} does not load: ${(error as Error).message}`);
  }
  const config = module.default as ProjectConfig | undefined;
  if (!config || typeof config !== 'object') {
    fail(`${file} must export default defineConfig({ app, models, databaseUrl, migrations }).`);
  }
  const app = config.app ?? 'app';
  if (typeof app !== 'string' || !/^[a-z_][a-z0-9_]*$/.test(app)) {
    fail(
      `${file}: app must be a lower-case identifier such as "books", got ${JSON.stringify(app)}.`,
    );
  }
  if (!Array.isArray(config.models) || config.models.some((m) => !(m instanceof Model))) {
    fail(`${file}: models must be a list of models made with defineModel().`);
  }
  const names = new Set<string>();
  for (const model of config.models) {
    if (names.has(model.name))
      fail(`${file}: two models are named ${model.name}; model names must differ.`);
    names.add(model.name);
  }
  if (config.databaseUrl !== undefined && typeof config.databaseUrl !== 'string') {
    fail(
      `${file}: databaseUrl must be a database URL such as "sqlite:db.sqlite3" or "postgres://user@host/name".`,
    );
  }
  if (
    config.migrations !== undefined &&
    (typeof config.migrations !== 'string' || !config.migrations)
  ) {
    fail(`${file}: migrations must be the path of the migrations folder, such as "migrations".`);
  }
  if (config.auth !== undefined && !(config.auth instanceof Auth)) {
    fail(`${file}: auth must be the project's Auth (made with createAuth()).`);
  }
  if (config.createApp !== undefined && typeof config.createApp !== 'function') {
    fail(`${file}: createApp must be a function that builds the Fastify app (not listening).`);
  }
  const ext = extname(file);
  return {
    file,
    app,
    models: config.models,
    databaseUrl: config.databaseUrl || undefined,
    databaseOptions: config.databaseOptions ?? {},
    migrationsFolder: resolve(dirname(file), config.migrations ?? 'migrations'),
    language: ext === '.ts' || ext === '.mts' ? 'ts' : 'js',
    auth: config.auth,
    createApp: config.createApp,
  };
}
