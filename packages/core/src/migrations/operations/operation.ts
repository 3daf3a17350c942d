/**
 * The contract of a migration operation (Django's `Operation`): how it changes the in-memory
 * state, the SQL that takes the database forwards and back, and the line that describes it.
 * Operations are plain data in a migration file (`{ op: 'AddField', ... }`); each kind of
 * operation is one {@link OperationKind} that knows how to apply that data.
 * @module
 */
import type { Database } from '../../db/database.ts';
import type { AnyModel } from '../../models/model.ts';
import { FIELD_KINDS, type FieldSpec } from '../field-spec.ts';
import type { ModelSpec } from '../model-spec.ts';
import type { ProjectState } from '../project-state.ts';
import type { SchemaEditor } from '../schema-editor.ts';

/** Where an operation runs: the editor, and the states before and after it (in forward order). */
export interface OperationContext {
  /** Runs the DDL of the operation on the database, in its dialect. */
  readonly editor: SchemaEditor;
  /** The database migrated. */
  readonly db: Database;
  /** The state before the operation, as the forward direction sees it. */
  readonly before: ProjectState;
  /** The state after the operation. */
  readonly after: ProjectState;
}

/** One kind of operation: the behaviour behind `{ op: '<name>', ... }` in a migration file. */
export interface OperationKind<O> {
  /** Changes `state` as the operation does; throws `StateError` when it cannot apply. */
  stateForwards(operation: O, state: ProjectState): void;
  /** Takes the database from `before` to `after`. */
  databaseForwards(operation: O, context: OperationContext): Promise<void>;
  /** Takes the database from `after` back to `before`; absent when the operation is irreversible. */
  databaseBackwards?(operation: O, context: OperationContext): Promise<void>;
  /** True when this operation (with its data) can be reversed. */
  reversible(operation: O): boolean;
  /** One line for people: `Add field pages to Book`. */
  describe(operation: O): string;
}

/** A problem of an operation against the state earlier migrations produce. */
export class StateError extends Error {}

/** The spec of model `name` in `state`, or a `StateError` saying it does not exist. */
export function modelIn(state: ProjectState, name: unknown): ModelSpec {
  if (typeof name !== 'string' || !name) throw new StateError('names no model.');
  const spec = state.get(name);
  if (!spec) {
    const known = state.models.map((m) => m.name).join(', ') || 'none';
    throw new StateError(
      `model ${name} does not exist in the state the earlier migrations produce (models: ${known}).`,
    );
  }
  return spec;
}

/** The spec of field `field` of `model` in `state`, or a `StateError`. */
export function fieldIn(state: ProjectState, model: unknown, field: unknown): FieldSpec {
  const spec = modelIn(state, model);
  if (typeof field !== 'string' || !Object.hasOwn(spec.fields, field)) {
    throw new StateError(
      `${spec.name} has no field ${JSON.stringify(field)} in the state the earlier migrations produce ` +
        `(fields: ${Object.keys(spec.fields).join(', ')}).`,
    );
  }
  return spec.fields[field] as FieldSpec;
}

/** Throws a `StateError` unless `value` is a non-empty string. */
export function requireName(value: unknown, what: string): string {
  if (typeof value !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) {
    throw new StateError(`${what} must be an identifier, got ${JSON.stringify(value)}.`);
  }
  return value;
}

/** Throws a `StateError` unless `value` is a field spec (an object with a known kind). */
export function requireFieldSpec(value: unknown, what: string): FieldSpec {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new StateError(`${what} must be a field spec such as { kind: 'char', maxLength: 100 }.`);
  }
  const kind = (value as FieldSpec).kind;
  if (!FIELD_KINDS.includes(kind)) {
    throw new StateError(
      `${what}: the kind ${JSON.stringify(kind)} is unknown (kinds: ${FIELD_KINDS.join(', ')}).`,
    );
  }
  return value as FieldSpec;
}

/**
 * Renders every model of `state` (and resolves its relations), so that a field spec the
 * models would refuse (a char without maxLength, a relation to a model that does not exist)
 * is found while the files are checked, not halfway through a migration.
 */
export function checkState(state: ProjectState): void {
  for (const spec of state.models) {
    try {
      state.render(spec.name).check();
    } catch (error) {
      throw new StateError((error as Error).message);
    }
  }
}

/** The rendered model `name` in `state`. */
export function rendered(state: ProjectState, name: string): AnyModel {
  return state.render(name);
}
