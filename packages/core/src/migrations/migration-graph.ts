/**
 * The migrations of a project as a graph: checked (every dependency exists, no cycle, every
 * operation known and applicable to the state before it) and replayed in memory, before
 * anything touches a database. Django's `MigrationGraph` and `MigrationLoader` in one.
 * @module
 */
import type { LoadedMigration } from './migration.ts';
import { MigrationError } from './migration-error.ts';
import { checkState, StateError } from './operations/operation.ts';
import { operationKind } from './operations/operation-registry.ts';
import { ProjectState } from './project-state.ts';

/**
 * A checked graph of migrations with the state before and after each operation.
 *
 * @example
 * ```ts
 * const graph = new MigrationGraph(await loadMigrations('migrations'));
 * graph.order.map((m) => m.name); // ['0001_initial', '0002_book_pages']
 * graph.finalState.get('Book');
 * ```
 */
export class MigrationGraph {
  /** Every migration, dependencies first (ties in name order). */
  readonly order: readonly LoadedMigration[];
  readonly #byName: Map<string, LoadedMigration>;
  /** For each migration, the state before its first operation and after each one. */
  readonly #states = new Map<string, ProjectState[]>();

  constructor(migrations: readonly LoadedMigration[]) {
    this.#byName = new Map(migrations.map((m) => [m.name, m]));
    for (const migration of migrations) {
      for (const dependency of migration.dependencies) {
        if (!this.#byName.has(dependency)) {
          throw new MigrationError(
            'REST_ERR_MIGRATION_GRAPH',
            `${fileOf(migration)} depends on ${dependency}, which is not in the migrations folder. ` +
              `Restore ${dependency} or correct the dependency (migrations: ${[...this.#byName.keys()].join(', ')}).`,
          );
        }
      }
    }
    this.order = this.#sort(migrations);
    let state = new ProjectState();
    for (const migration of this.order) {
      const states = [state];
      for (const [i, operation] of migration.operations.entries()) {
        state = state.clone();
        const kind = operationKind(operation);
        const where = `${fileOf(migration)}: operation ${i + 1}`;
        if (!kind) {
          throw new MigrationError(
            'REST_ERR_MIGRATION_GRAPH',
            `${where} is the unknown operation ${JSON.stringify((operation as { op?: unknown })?.op)}. ` +
              'Use one of the documented operations (docs/migrations.md).',
          );
        }
        try {
          kind.stateForwards(operation, state);
          checkState(state);
        } catch (error) {
          if (!(error instanceof StateError)) throw error;
          throw new MigrationError(
            'REST_ERR_MIGRATION_GRAPH',
            `${where} (${operation.op}): ${error.message}`,
          );
        }
        states.push(state);
      }
      this.#states.set(migration.name, states);
    }
    this.finalState = state;
  }

  /** The state after every migration. */
  readonly finalState: ProjectState;

  /** The migration of this name, or undefined. */
  get(name: string): LoadedMigration | undefined {
    return this.#byName.get(name);
  }

  /** The state before the first operation of `name` and after each of its operations. */
  statesOf(name: string): readonly ProjectState[] {
    return this.#states.get(name) as ProjectState[];
  }

  /** The migrations nothing depends on (the next migration depends on all of them). */
  get leaves(): string[] {
    const depended = new Set(this.order.flatMap((m) => m.dependencies));
    return this.order.filter((m) => !depended.has(m.name)).map((m) => m.name);
  }

  /** `name` and every migration it depends on, directly or not. */
  ancestors(name: string): Set<string> {
    const result = new Set<string>();
    const visit = (n: string) => {
      if (result.has(n)) return;
      result.add(n);
      for (const d of this.#byName.get(n)?.dependencies ?? []) visit(d);
    };
    visit(name);
    return result;
  }

  /** Every migration that depends on `name`, directly or not (not `name` itself). */
  descendants(name: string): Set<string> {
    const result = new Set<string>();
    for (const migration of this.order) {
      if (migration.dependencies.some((d) => d === name || result.has(d)))
        result.add(migration.name);
    }
    return result;
  }

  /** Kahn's sort with ties broken by name, so the order is the same on every machine. */
  #sort(migrations: readonly LoadedMigration[]): LoadedMigration[] {
    const waiting = new Map(migrations.map((m) => [m.name, new Set(m.dependencies)]));
    const order: LoadedMigration[] = [];
    while (waiting.size) {
      const ready = [...waiting]
        .filter(([, deps]) => deps.size === 0)
        .map(([n]) => n)
        .sort();
      if (ready.length === 0) {
        const cycle = [...waiting.keys()].sort();
        throw new MigrationError(
          'REST_ERR_MIGRATION_GRAPH',
          `The dependencies of ${cycle.map((n) => fileOf(this.#byName.get(n) as LoadedMigration)).join(', ')} form a cycle. ` +
            'A migration may depend only on migrations made before it: correct the dependencies.',
        );
      }
      const next = ready[0] as string;
      waiting.delete(next);
      for (const deps of waiting.values()) deps.delete(next);
      order.push(this.#byName.get(next) as LoadedMigration);
    }
    return order;
  }
}

function fileOf(migration: LoadedMigration): string {
  return migration.file.split(/[\\/]/).pop() as string;
}
