/**
 * `RenameModel`: a model's new name (relations to it follow) and, when given, its new table.
 * @module
 */
import { alterJoinTable } from '../join-tables.ts';
import type { ModelSpec } from '../model-spec.ts';
import type { ProjectState } from '../project-state.ts';
import type { SchemaEditor } from '../schema-editor.ts';
import { modelIn, type OperationKind, requireName, StateError } from './operation.ts';

/** `{ op: 'RenameModel', from, to, table? }`: `table` renames the table too. */
export interface RenameModelOperation {
  readonly op: 'RenameModel';
  readonly from: string;
  readonly to: string;
  readonly table?: string;
}

export const RenameModel: OperationKind<RenameModelOperation> = {
  stateForwards(operation, state) {
    const spec = modelIn(state, operation.from);
    const to = requireName(operation.to, 'to');
    // Renaming a model to itself changes only its table.
    if (to !== spec.name && state.has(to)) throw new StateError(`model ${to} already exists.`);
    const table =
      operation.table === undefined ? spec.table : requireName(operation.table, 'table');
    state.remove(spec.name);
    state.set({ ...spec, name: to, table });
    state.mapModels((model) => followRename(model, spec.name, to));
  },
  async databaseForwards(operation, { editor, before, after }) {
    await editor.renameModel(before.render(operation.from), after.render(operation.to));
    await followJoinTables(editor, before, after, operation.to, operation.from);
  },
  async databaseBackwards(operation, { editor, before, after }) {
    await editor.renameModel(after.render(operation.to), before.render(operation.from));
    await followJoinTables(editor, after, before, operation.from, operation.to);
  },
  reversible: () => true,
  describe: (operation) =>
    operation.from === operation.to
      ? `Rename table of ${operation.from} to ${operation.table}`
      : `Rename model ${operation.from} to ${operation.to}`,
};

/** The model with its relations to `from` (and through `from`) pointing at `to`. */
function followRename(model: ModelSpec, from: string, to: string): ModelSpec {
  if (!Object.values(model.fields).some((f) => f.to === from || f.through === from)) return model;
  const fields = Object.fromEntries(
    Object.entries(model.fields).map(([name, f]) => [
      name,
      f.to === from || f.through === from
        ? { ...f, ...(f.to === from ? { to } : {}), ...(f.through === from ? { through: to } : {}) }
        : f,
    ]),
  );
  return { ...model, fields };
}

/**
 * The join tables of other models' many-to-manys to the renamed model: their key column to it
 * is named after it (`article_id`).
 */
async function followJoinTables(
  editor: SchemaEditor,
  from: ProjectState,
  to: ProjectState,
  renamed: string,
  old: string,
): Promise<void> {
  for (const spec of to.models) {
    if (spec.name === renamed) continue;
    for (const [name, field] of Object.entries(spec.fields)) {
      if (field.kind !== 'many_to_many' || field.to !== renamed) continue;
      const before = from.render(spec.name).manyToMany[name];
      const after = to.render(spec.name).manyToMany[name];
      if (before && after && before.relatedModel.name === old)
        await alterJoinTable(editor, before, after);
    }
  }
}
