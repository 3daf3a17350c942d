/**
 * `RenameField`: a field's new name; its column follows unless the field names its own.
 * @module
 */
import { fieldOf } from '../join-tables.ts';
import { withRenamedField } from './field-changes.ts';
import { fieldIn, modelIn, type OperationKind, requireName, StateError } from './operation.ts';

/** `{ op: 'RenameField', model, from, to }`. */
export interface RenameFieldOperation {
  readonly op: 'RenameField';
  readonly model: string;
  readonly from: string;
  readonly to: string;
}

export const RenameField: OperationKind<RenameFieldOperation> = {
  stateForwards(operation, state) {
    fieldIn(state, operation.model, operation.from);
    const to = requireName(operation.to, 'to');
    const model = modelIn(state, operation.model);
    if (Object.hasOwn(model.fields, to))
      throw new StateError(`${model.name} already has a field ${to}.`);
    state.set(withRenamedField(model, operation.from, to));
  },
  async databaseForwards(operation, { editor, before, after }) {
    const from = before.render(operation.model);
    const to = after.render(operation.model);
    await editor.renameField(from, to, fieldOf(from, operation.from), fieldOf(to, operation.to));
  },
  async databaseBackwards(operation, { editor, before, after }) {
    const from = after.render(operation.model);
    const to = before.render(operation.model);
    await editor.renameField(from, to, fieldOf(from, operation.to), fieldOf(to, operation.from));
  },
  reversible: () => true,
  describe: (operation) =>
    `Rename field ${operation.from} on ${operation.model} to ${operation.to}`,
};
