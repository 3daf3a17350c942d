/**
 * `makemigrations`: compares the models with the state the migrations produce and writes the
 * next migration; `--check` only says whether one is needed (exit 1 when it is).
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { detectChanges } from '../../migrations/autodetector.ts';
import type { JsonValue } from '../../migrations/field-spec.ts';
import { MIGRATION_NAME, migrationName } from '../../migrations/migration-name.ts';
import { writeMigration } from '../../migrations/migration-writer.ts';
import { operationKind } from '../../migrations/operations/operation-registry.ts';
import { ProjectState } from '../../migrations/project-state.ts';
import { type Command, projectGraph, UsageError } from '../command.ts';

export const makemigrations: Command = {
  name: 'makemigrations',
  summary: 'Writes the migration that takes the database from the migrations to the models.',
  usage:
    'makemigrations [--check] [--name NAME] [--empty] [--rename Old:New | --rename Model.old:new]... [--default Model.field=JSON]...',
  options: {
    check: { type: 'boolean' },
    name: { type: 'string' },
    empty: { type: 'boolean' },
    rename: { type: 'string', multiple: true },
    default: { type: 'string', multiple: true },
  },
  async run(context) {
    const config = await context.config();
    const graph = await projectGraph(config);
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
      if (eq < 1)
        throw new UsageError(
          `--default ${value}: use --default Model.field=<JSON value>, such as --default Book.pages=0.`,
        );
      try {
        fills.set(value.slice(0, eq), JSON.parse(value.slice(eq + 1)) as JsonValue);
      } catch {
        throw new UsageError(
          `--default ${value}: the value is not JSON (a string needs quotes: --default 'Book.state="draft"').`,
        );
      }
    }
    const operations = context.values.empty
      ? []
      : detectChanges(graph.finalState, ProjectState.fromModels(config.models), { renames, fills });
    if (operations.length === 0 && !context.values.empty) {
      context.out('No changes detected.');
      return 0;
    }
    const number = graph.order.length
      ? Math.max(...graph.order.map((m) => Number(m.name.slice(0, 4)))) + 1
      : 1;
    const name = `${String(number).padStart(4, '0')}_${(context.values.name as string | undefined) ?? migrationName(operations, number === 1)}`;
    if (!MIGRATION_NAME.test(name)) {
      throw new UsageError(
        `--name ${String(context.values.name)}: use letters, digits and _ only.`,
      );
    }
    const file = join(config.migrationsFolder, `${name}.${config.language}`);
    const shown = relative(context.cwd, file) || file;
    const lines = operations.map((o) => `    - ${operationKind(o)?.describe(o)}`);
    if (context.values.check) {
      context.err(
        `The models have changes the migrations lack (makemigrations would write ${shown}):`,
      );
      for (const line of lines) context.err(line);
      return 1;
    }
    mkdirSync(config.migrationsFolder, { recursive: true });
    writeFileSync(file, writeMigration(graph.leaves, operations, config.language), { flag: 'wx' });
    context.out(`Migrations for '${config.app}':`);
    context.out(`  ${shown}`);
    for (const line of lines) context.out(line);
    return 0;
  },
};
