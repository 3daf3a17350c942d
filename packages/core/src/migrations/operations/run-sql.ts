/**
 * `RunSQL`: statements the developer wrote, with the statements that undo them. Without
 * `reverseSql` the operation is irreversible; `reverseSql: []` means nothing to undo.
 * @module
 */
import { sql } from 'kysely';
import { type OperationKind, StateError } from './operation.ts';

/** `{ op: 'RunSQL', sql, reverseSql? }`: one statement or a list, run in order. */
export interface RunSqlOperation {
  readonly op: 'RunSQL';
  readonly sql: string | readonly string[];
  readonly reverseSql?: string | readonly string[];
}

function statements(value: string | readonly string[] | undefined): readonly unknown[] {
  if (value === undefined) return [];
  // A hand-written file may hold anything here: a non-list is one (possibly wrong) statement.
  return Array.isArray(value) ? value : [value];
}

export const RunSQL: OperationKind<RunSqlOperation> = {
  stateForwards(operation) {
    const all = [...statements(operation.sql), ...statements(operation.reverseSql)];
    if (all.some((s) => typeof s !== 'string') || statements(operation.sql).length === 0) {
      throw new StateError('sql (and reverseSql) must be a statement or a list of statements.');
    }
  },
  async databaseForwards(operation, { editor }) {
    for (const text of statements(operation.sql)) await editor.execute(sql.raw(text as string));
  },
  async databaseBackwards(operation, { editor }) {
    for (const text of statements(operation.reverseSql)) {
      await editor.execute(sql.raw(text as string));
    }
  },
  reversible: (operation) => operation.reverseSql !== undefined,
  describe: (operation) => `Raw SQL: ${String(statements(operation.sql)[0] ?? '').slice(0, 60)}`,
};
