/**
 * `makemigrations`: compares the models with the state the migrations produce and writes the
 * next migration; `--check` only says whether one is needed (exit 1 when it is).
 * @module
 */
import { relative } from 'node:path';
import type { JsonValue } from '../../migrations/field-spec.ts';
import { makeMigration } from '../../migrations/make-migration.ts';
import { operationKind } from '../../migrations/operations/operation-registry.ts';
import { type Command, UsageError } from '../command.ts';

export const makemigrations: Command = {
  name: 'makemigrations',
  summary: 'Writes the migration that takes the database from the migrations to the models.',
  usage:
    'makemigrations [--check] [--name NAME] [--empty] [--rename Old:New | --rename Model.old:new]... [--default Model.field=JSON]... [--no-input]',
  options: {
    check: { type: 'boolean' },
    name: { type: 'string' },
    empty: { type: 'boolean' },
    rename: { type: 'string', multiple: true },
    default: { type: 'string', multiple: true },
    'no-input': { type: 'boolean' },
  },
  async run(context) {
    const config = await context.config();
    const renames = new Map<string, string>();
    for (const value of (context.values.rename as string[] | undefined) ?? []) {
      const [old, renamed, ...rest] = value.split(':');
      if (!old || !renamed || rest.length) {
        throw new UsageError(
          `--rename ${value}: use --rename Old:New for a model or --rename Model.old:new for a field.`,
        );
      }
      renames.set(old, renamed);
    }
    const fills = new Map<string, JsonValue>();
    for (const value of (context.values.default as string[] | undefined) ?? []) {
      const eq = value.indexOf('=');
      if (eq < 1) {
        throw new UsageError(
          `--default ${value}: use --default Model.field=<JSON value>, such as --default Book.pages=0.`,
        );
      }
      try {
        fills.set(value.slice(0, eq), JSON.parse(value.slice(eq + 1)) as JsonValue);
      } catch {
        throw new UsageError(
          `--default ${value}: the value is not JSON (a string needs quotes: --default 'Book.state="draft"').`,
        );
      }
    }
    const check = context.values.check === true;
    const name = context.values.name as string | undefined;
    const made = await makeMigration(config.migrationsFolder, config.models, {
      renames,
      fills,
      dryRun: check,
      empty: context.values.empty === true,
      language: config.language,
      // A terminal attached: likely renames are asked about (never assumed).
      ...(context.ask && !check && context.values['no-input'] !== true ? { ask: context.ask } : {}),
      ...(name !== undefined ? { name } : {}),
    });
    if (!made) {
      context.out('No changes detected.');
      return 0;
    }
    const shown = relative(context.cwd, made.file) || made.file;
    const lines = made.operations.map((o) => `    - ${operationKind(o)?.describe(o)}`);
    if (check) {
      context.err(
        `The models have changes the migrations lack (makemigrations would write ${shown}):`,
      );
      for (const line of lines) context.err(line);
      return 1;
    }
    context.out(`Migrations for '${config.app}':`);
    context.out(`  ${shown}`);
    for (const line of lines) context.out(line);
    return 0;
  },
};
