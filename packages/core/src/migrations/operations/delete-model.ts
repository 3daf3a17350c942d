/**
 * `DeleteModel`: drops a table and its rows. Reversing it creates the table again, empty.
 * @module
 */
import { modelIn, type OperationKind } from './operation.ts';

/** `{ op: 'DeleteModel', name }`. */
export interface DeleteModelOperation {
  readonly op: 'DeleteModel';
  readonly name: string;
}

export const DeleteModel: OperationKind<DeleteModelOperation> = {
  stateForwards(operation, state) {
    modelIn(state, operation.name);
    state.remove(operation.name);
  },
  async databaseForwards(operation, { editor, before }) {
    await editor.deleteModel(before.render(operation.name));
  },
  async databaseBackwards(operation, { editor, before }) {
    await editor.createModel(before.render(operation.name));
  },
  reversible: () => true,
  describe: (operation) => `Delete model ${operation.name}`,
};
