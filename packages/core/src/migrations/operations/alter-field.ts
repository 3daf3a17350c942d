/**
 * `AlterField`: a field's new definition (type, NULL, default, length, digits, unique, index,
 * choices, relation target, on-delete). `fill` replaces NULL in existing rows when the column
 * becomes NOT NULL.
 * @module
 */
import type { FieldSpec, JsonValue } from '../field-spec.ts';
import { fieldOf } from '../join-tables.ts';
import { restoreValue, withField } from './field-changes.ts';
import { fieldIn, modelIn, type OperationKind, requireFieldSpec } from './operation.ts';

/** `{ op: 'AlterField', model, name, field, fill? }`. */
export interface AlterFieldOperation {
  readonly op: 'AlterField';
  readonly model: string;
  readonly name: string;
  readonly field: FieldSpec;
  readonly fill?: JsonValue;
}

export const AlterField: OperationKind<AlterFieldOperation> = {
  stateForwards(operation, state) {
    fieldIn(state, operation.model, operation.name);
    const field = requireFieldSpec(operation.field, 'field');
    state.set(withField(modelIn(state, operation.model), operation.name, field));
  },
  async databaseForwards(operation, { editor, before, after }) {
    const from = before.render(operation.model);
    const to = after.render(operation.model);
    await editor.alterField(
      from,
      to,
      fieldOf(from, operation.name),
      fieldOf(to, operation.name),
      operation.fill ?? operation.field.default,
    );
  },
  async databaseBackwards(operation, { editor, before, after }) {
    const from = after.render(operation.model);
    const to = before.render(operation.model);
    await editor.alterField(
      from,
      to,
      fieldOf(from, operation.name),
      fieldOf(to, operation.name),
      restoreValue(fieldIn(before, operation.model, operation.name)),
    );
  },
  reversible: () => true,
  describe: (operation) => `Alter field ${operation.name} on ${operation.model}`,
};
