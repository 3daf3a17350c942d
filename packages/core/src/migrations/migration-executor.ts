/**
 * Applies and rolls back migrations on a database (Django's `MigrationExecutor`): plans the
 * steps to a target, refuses an irreversible plan before touching anything, runs each
 * migration in its own transaction where the dialect allows DDL in one, records it, and holds
 * the dialect's migration lock so that two processes never migrate at once. Where DDL commits
 * at once (MySQL), it records each statement's completion instead, and a `migrate` after a
 * failure goes on from the statement that failed.
 * @module
 */

import type { Database } from '../db/database.ts';
import { UniqueViolationError } from '../db/database-errors.ts';
import type { LoadedMigration } from './migration.ts';
import { MigrationError } from './migration-error.ts';
import type { MigrationGraph } from './migration-graph.ts';
import { type MigrationProgress, MigrationRecorder, PROGRESS_TABLE } from './migration-recorder.ts';
import { operationKind } from './operations/operation-registry.ts';
import { SchemaEditor, type SchemaProgress } from './schema-editor.ts';

/** One step of a plan: a migration and its direction. */
export interface PlanStep {
  /** The migration to run. */
  readonly migration: LoadedMigration;
  /** True to undo it (a rollback), false to apply it. */
  readonly backwards: boolean;
}

/** Options of {@link MigrationExecutor.migrate}. */
export interface MigrateOptions {
  /**
   * The migration to end at: its name (or a unique prefix such as `0003`), or `zero` to roll
   * every migration back. Default: the latest.
   */
  readonly target?: string;
  /** How long to wait for another process's migration lock, in ms (default 60000). */
  readonly lockTimeoutMs?: number;
  /**
   * Records, without running it, a migration that only creates tables that all exist already
   * (Django's `--fake-initial`): adopts a database made by `db.migrate(models)`.
   */
  readonly fakeInitial?: boolean;
  /** Told each step as it starts and ends (`Applying 0002_book_pages... OK`). */
  readonly log?: (line: string) => void;
}

/** What {@link MigrationExecutor.migrate} did. */
export interface MigrateResult {
  /** The migrations applied, by name, in the order they ran. */
  readonly applied: readonly string[];
  /** The migrations undone (a rollback), by name, in the order they ran. */
  readonly unapplied: readonly string[];
}

/**
 * Runs the migrations of one app on a database.
 *
 * @example
 * ```ts
 * const graph = new MigrationGraph(await loadMigrations('migrations'));
 * const executor = new MigrationExecutor(db, graph, 'books');
 * await executor.migrate();                      // everything pending
 * await executor.migrate({ target: '0001' });    // back to 0001_initial
 * ```
 */
export class MigrationExecutor {
  /** The database migrated. */
  readonly db: Database;
  /** The app's migrations and their dependencies. */
  readonly graph: MigrationGraph;
  /** The app label the migrations are recorded under. */
  readonly app: string;
  /** Which migrations the database has applied (the `restframework_migrations` table). */
  readonly recorder: MigrationRecorder;

  constructor(db: Database, graph: MigrationGraph, app: string) {
    this.db = db;
    this.graph = graph;
    this.app = app;
    this.recorder = new MigrationRecorder(db);
  }

  /** The migration a target names (`zero` gives null). */
  resolveTarget(target: string): LoadedMigration | null {
    if (target === 'zero') return null;
    const exact = this.graph.get(target);
    if (exact) return exact;
    const matches = this.graph.order.filter((m) => m.name.startsWith(target));
    if (matches.length === 1) return matches[0] as LoadedMigration;
    throw new MigrationError(
      'REST_ERR_MIGRATION_TARGET',
      matches.length
        ? `"${target}" matches more than one migration of ${this.app} (${matches.map((m) => m.name).join(', ')}): give more of the name.`
        : `${this.app} has no migration "${target}" (migrations: ${this.graph.order.map((m) => m.name).join(', ') || 'none'}; or zero).`,
    );
  }

  /** The steps that take a database with `applied` migrations to `target`. */
  plan(applied: ReadonlySet<string>, target?: string): PlanStep[] {
    const order = this.graph.order;
    if (target === undefined) {
      return order
        .filter((m) => !applied.has(m.name))
        .map((migration) => ({ migration, backwards: false }));
    }
    const goal = this.resolveTarget(target);
    if (goal && !applied.has(goal.name)) {
      const needed = this.graph.ancestors(goal.name);
      return order
        .filter((m) => needed.has(m.name) && !applied.has(m.name))
        .map((migration) => ({ migration, backwards: false }));
    }
    const undo = goal ? this.graph.descendants(goal.name) : new Set(order.map((m) => m.name));
    return order
      .filter((m) => undo.has(m.name) && applied.has(m.name))
      .reverse()
      .map((migration) => ({ migration, backwards: true }));
  }

  /** Applies or rolls back migrations to reach `options.target`. */
  async migrate(options: MigrateOptions = {}): Promise<MigrateResult> {
    const release = await this.db.adapter.acquireMigrationLock(
      this.db.kysely,
      options.lockTimeoutMs ?? 60_000,
    );
    try {
      await this.db.adapter.prepareSchema(this.db.kysely);
      await this.recorder.ensureTable();
      const tracked = !this.db.adapter.supportsTransactionalDdl;
      if (tracked) await this.recorder.ensureProgressTable();
      // Read after the lock: a process that waited finds what the other one applied.
      const applied = await this.recorder.applied(this.app);
      this.#checkHistory(applied);
      const partial = tracked
        ? await this.recorder.progress(this.app)
        : new Map<string, MigrationProgress>();
      const steps = this.plan(applied, options.target);
      this.#checkReversible(steps);
      this.#checkPartial(partial, steps);
      this.#checkDialectLimits(steps);
      const result = { applied: [] as string[], unapplied: [] as string[] };
      for (const step of steps) {
        const verb = step.backwards ? 'Unapplying' : 'Applying';
        options.log?.(`  ${verb} ${this.app}.${step.migration.name}...`);
        const found = partial.get(step.migration.name);
        const resumed = found && found.done > 0 ? found : undefined;
        if (
          options.fakeInitial &&
          !step.backwards &&
          !resumed &&
          (await this.#tablesExist(step.migration))
        ) {
          await this.recorder.record(this.app, step.migration.name);
          options.log?.(`  ${verb} ${this.app}.${step.migration.name}... FAKED (its tables exist)`);
          continue;
        }
        if (resumed) {
          options.log?.(
            `  (${step.migration.name} resumes after the ${resumed.done} statements a failed migrate ran)`,
          );
        }
        await this.#run(step, resumed);
        (step.backwards ? result.unapplied : result.applied).push(step.migration.name);
        options.log?.(`  ${verb} ${this.app}.${step.migration.name}... OK`);
      }
      return result;
    } finally {
      await release();
    }
  }

  /**
   * The SQL a migration runs, forwards or backwards, without running it: the dialect's
   * statements around the transaction (SQLite's foreign-key pragmas), the transaction, and
   * the operations' statements.
   */
  async sqlFor(name: string, backwards = false): Promise<string[]> {
    const migration = this.resolveTarget(name);
    if (!migration) {
      throw new MigrationError(
        'REST_ERR_MIGRATION_TARGET',
        'sqlmigrate needs a migration name, not zero.',
      );
    }
    if (backwards) this.#checkReversible([{ migration, backwards }]);
    const adapter = this.db.adapter;
    await adapter.prepareSchema(this.db.kysely);
    const editor = new SchemaEditor(this.db, { collect: true });
    const shown: string[] = [];
    const show = async (text: string) => {
      shown.push(`${text};`);
      return [];
    };
    await adapter.beginSchemaChange(show);
    if (adapter.supportsTransactionalDdl) shown.push('begin;');
    await this.#operations(editor, migration, backwards);
    shown.push(...editor.statements);
    await adapter.checkSchemaChange(show);
    if (adapter.supportsTransactionalDdl) shown.push('commit;');
    await adapter.endSchemaChange(show);
    return shown;
  }

  /** Every migration in order, with whether the database applied it. */
  async status(): Promise<
    {
      /** The migration's name. */
      name: string;
      /** Whether the database has applied it. */
      applied: boolean;
    }[]
  > {
    const applied = await this.recorder.applied(this.app);
    return this.graph.order.map((m) => ({ name: m.name, applied: applied.has(m.name) }));
  }

  /** True when the migration only creates tables, and every one of them exists. */
  async #tablesExist(migration: LoadedMigration): Promise<boolean> {
    const creates = migration.operations.filter((o) => o.op === 'CreateModel');
    if (creates.length === 0 || creates.length !== migration.operations.length) return false;
    const tables = new Set((await this.db.kysely.introspection.getTables()).map((t) => t.name));
    return creates.every((o) => tables.has(o.table));
  }

  /**
   * Runs one migration: in a transaction where DDL can roll back; else statement by
   * statement, each one's completion recorded, from where `resumed` says a failed run stopped.
   */
  async #run(step: PlanStep, resumed: MigrationProgress | undefined): Promise<void> {
    const { db, app, recorder } = this;
    const name = step.migration.name;
    const adapter = db.adapter;
    let progress: SchemaProgress | undefined;
    if (!adapter.supportsTransactionalDdl) {
      if (!resumed) await recorder.startProgress(app, name, step.backwards);
      progress = {
        done: resumed?.done ?? 0,
        stepDone: (done) => recorder.saveProgress(app, name, done),
      };
    }
    const editor = new SchemaEditor(db, { progress });
    const run = (text: string) => db.query(text, []);
    const record = async () => {
      if (step.backwards) await recorder.unrecord(app, name);
      else await recorder.record(app, name);
      if (progress) await recorder.clearProgress(app, name);
    };
    const body = async () => {
      await this.#operations(editor, step.migration, step.backwards);
      // Without transactional DDL the two rows still change together (they are data).
      if (progress) await db.transaction(record);
      else await record();
      await adapter.checkSchemaChange(run);
    };
    await adapter.beginSchemaChange(run);
    try {
      if (adapter.supportsTransactionalDdl) await db.transaction(body);
      else await body();
    } finally {
      await adapter.endSchemaChange(run);
      // What was prepared for the old schema goes, on every dialect the same way.
      db.clearCaches();
    }
  }

  async #operations(
    editor: SchemaEditor,
    migration: LoadedMigration,
    backwards: boolean,
  ): Promise<void> {
    const states = this.graph.statesOf(migration.name);
    const indexes = migration.operations.map((_, i) => i);
    if (backwards) indexes.reverse();
    for (const i of indexes) {
      const operation = migration.operations[i] as (typeof migration.operations)[number];
      const kind = operationKind(operation);
      if (!kind) continue; // the graph checked every operation
      const context = {
        editor,
        db: this.db,
        before: states[i] as (typeof states)[number],
        after: states[i + 1] as (typeof states)[number],
      };
      try {
        if (backwards) await kind.databaseBackwards?.(operation, context);
        else await kind.databaseForwards(operation, context);
      } catch (error) {
        const what = kind.describe(operation);
        throw this.#failure(migration, backwards ? `Reversing "${what}"` : what, error);
      }
    }
  }

  #failure(migration: LoadedMigration, what: string, error: unknown): MigrationError {
    if (error instanceof MigrationError) return error;
    const translated = this.db.translateError(error, undefined);
    const file = migration.file.split(/[\\/]/).pop();
    const reason = (error as Error)?.message ?? String(error);
    const rolledBack = this.db.adapter.supportsTransactionalDdl
      ? 'Nothing of this migration was applied (it ran in a transaction, rolled back).'
      : `This database cannot roll back schema changes: the statements before this one stay applied, and are recorded (table ${PROGRESS_TABLE}). ` +
        'Fix the cause and run migrate again: it goes on from the statement that failed (see docs/migrations.md).';
    const hint =
      translated instanceof UniqueViolationError
        ? this.db.adapter.supportsTransactionalDdl
          ? ' Existing rows hold duplicate values: remove or change them (a RunCode operation before this one can) and migrate again.'
          : // A new operation before this one would shift the steps a resumed run skips.
            ' Existing rows hold duplicate values: remove or change them (by hand, or in a RunCode of an earlier migration) and migrate again.'
        : '';
    return new MigrationError(
      'REST_ERR_MIGRATION_FAILED',
      `${file}: ${what} failed: ${reason}.${hint} ${rolledBack}`,
      { cause: error },
    );
  }

  #checkReversible(steps: readonly PlanStep[]): void {
    for (const step of steps) {
      if (!step.backwards) continue;
      for (const [i, operation] of step.migration.operations.entries()) {
        const kind = operationKind(operation);
        if (kind && !kind.reversible(operation)) {
          throw new MigrationError(
            'REST_ERR_MIGRATION_IRREVERSIBLE',
            `${step.migration.name} cannot be rolled back: operation ${i + 1} (${kind.describe(operation)}) is irreversible ` +
              '(a RunSQL without reverseSql, a RunCode without reverseCode). Nothing was changed. Add the reverse to the migration to roll it back.',
          );
        }
      }
    }
  }

  /**
   * A migration a failed `migrate` left part-way (DDL that commits at once) must be finished
   * in the same direction before anything else: the plan must hold it, with that direction.
   */
  #checkPartial(partial: ReadonlyMap<string, MigrationProgress>, steps: readonly PlanStep[]): void {
    for (const [name, progress] of partial) {
      if (progress.done === 0) continue; // it failed at its first statement: nothing ran
      if (steps.some((s) => s.migration.name === name && s.backwards === progress.backwards)) {
        continue;
      }
      const verb = progress.backwards ? 'rolling back' : 'applying';
      throw new MigrationError(
        'REST_ERR_MIGRATION_PARTIAL',
        `${this.app}.${name} is half-done: a migrate ${verb} it failed after ${progress.done} of its statements ` +
          `(table ${PROGRESS_TABLE}), and this database cannot roll schema changes back. Nothing was changed. ` +
          `Run migrate again towards the target it had (${progress.backwards ? 'a migration before it' : 'it, or the latest'}) to finish it first.`,
      );
    }
  }

  /**
   * Every model a step leads through must fit the dialect (MySQL indexes no TEXT, say): a
   * declaration error before anything runs, not a database error half-way.
   */
  #checkDialectLimits(steps: readonly PlanStep[]): void {
    for (const step of steps) {
      for (const state of this.graph.statesOf(step.migration.name)) {
        for (const model of Object.values(state.renderAll())) this.db.adapter.checkModel(model);
      }
    }
  }

  /** Every applied migration's dependencies must be applied too (else the history is broken). */
  #checkHistory(applied: ReadonlySet<string>): void {
    for (const migration of this.graph.order) {
      if (!applied.has(migration.name)) continue;
      const missing = migration.dependencies.find((d) => !applied.has(d));
      if (missing) {
        throw new MigrationError(
          'REST_ERR_MIGRATION_HISTORY',
          `${migration.name} is applied but its dependency ${missing} is not: the database's history ` +
            `(table restframework_migrations) disagrees with the migration files. Nothing was changed.`,
        );
      }
    }
  }
}
