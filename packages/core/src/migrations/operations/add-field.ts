/**
 * `AddField`: a new column. A NOT NULL column over existing rows needs `fill`, the value those
 * rows get (Django's one-off default); new rows get the model's default as usual.
 * @module
 */
import type { FieldSpec, JsonValue } from '../field-spec.ts';
import { fieldOf } from '../join-tables.ts';
import { withField } from './field-changes.ts';
import {
  modelIn,
  type OperationKind,
  requireFieldSpec,
  requireName,
  StateError,
} from './operation.ts';

/** `{ op: 'AddField', model, name, field, fill? }`. */
export interface AddFieldOperation {
  readonly op: 'AddField';
  readonly model: string;
  readonly name: string;
  readonly field: FieldSpec;
  /** The value existing rows get; defaults to `field.default`. */
  readonly fill?: JsonValue;
}

export const AddField: OperationKind<AddFieldOperation> = {
  stateForwards(operation, state) {
    const model = modelIn(state, operation.model);
    const name = requireName(operation.name, 'name');
    const field = requireFieldSpec(operation.field, 'field');
    if (Object.hasOwn(model.fields, name)) {
      throw new StateError(`${model.name} already has a field ${name}.`);
    }
    state.set(withField(model, name, field));
  },
  async databaseForwards(operation, { editor, before, after }) {
    const model = after.render(operation.model);
    await editor.addField(
      before.render(operation.model),
      model,
      fieldOf(model, operation.name),
      operation.fill ?? operation.field.default,
    );
  },
  async databaseBackwards(operation, { editor, before, after }) {
    const model = after.render(operation.model);
    await editor.removeField(model, before.render(operation.model), fieldOf(model, operation.name));
  },
  reversible: () => true,
  describe: (operation) => `Add field ${operation.name} to ${operation.model}`,
};
