/**
 * `CreateModel`: a new table with its columns, keys and indexes.
 * @module
 */
import type { ModelSpec } from '../model-spec.ts';
import { type OperationKind, requireFieldSpec, requireName, StateError } from './operation.ts';

/** `{ op: 'CreateModel', name, table, fields, indexes?, uniqueConstraints? }`. */
export interface CreateModelOperation extends ModelSpec {
  readonly op: 'CreateModel';
}

export const CreateModel: OperationKind<CreateModelOperation> = {
  stateForwards(operation, state) {
    const name = requireName(operation.name, 'name');
    requireName(operation.table, 'table');
    if (state.has(name)) throw new StateError(`model ${name} already exists.`);
    if (!operation.fields || typeof operation.fields !== 'object') {
      throw new StateError('fields must be an object of field specs.');
    }
    for (const [field, spec] of Object.entries(operation.fields)) {
      requireFieldSpec(spec, `field ${field}`);
    }
    const { op: _op, ...spec } = operation;
    state.set(spec);
  },
  async databaseForwards(operation, { editor, after }) {
    await editor.createModel(after.render(operation.name));
  },
  async databaseBackwards(operation, { editor, after }) {
    await editor.deleteModel(after.render(operation.name));
  },
  reversible: () => true,
  describe: (operation) => `Create model ${operation.name}`,
};
