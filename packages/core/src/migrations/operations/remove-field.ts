/**
 * `RemoveField`: drops a column and its values. Reversing it adds the column again, with the
 * field's default (or its kind's empty value) in existing rows: the dropped values are gone.
 * @module
 */
import { fieldOf } from '../join-tables.ts';
import { restoreValue, withoutField } from './field-changes.ts';
import { fieldIn, modelIn, type OperationKind } from './operation.ts';

/** `{ op: 'RemoveField', model, name }`. */
export interface RemoveFieldOperation {
  readonly op: 'RemoveField';
  readonly model: string;
  readonly name: string;
}

export const RemoveField: OperationKind<RemoveFieldOperation> = {
  stateForwards(operation, state) {
    fieldIn(state, operation.model, operation.name);
    state.set(withoutField(modelIn(state, operation.model), operation.name));
  },
  async databaseForwards(operation, { editor, before, after }) {
    const model = before.render(operation.model);
    await editor.removeField(model, after.render(operation.model), fieldOf(model, operation.name));
  },
  async databaseBackwards(operation, { editor, before, after }) {
    const model = before.render(operation.model);
    const spec = fieldIn(before, operation.model, operation.name);
    await editor.addField(
      after.render(operation.model),
      model,
      fieldOf(model, operation.name),
      restoreValue(spec),
    );
  },
  reversible: () => true,
  describe: (operation) => `Remove field ${operation.name} from ${operation.model}`,
};
