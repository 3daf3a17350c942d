/**
 * The join tables of many-to-many relations in migrations: made with the relation (or its
 * model), dropped with it, and following a renamed model, field or table (Django's schema
 * editor does the same for `auto_created` through models). A relation with a `through` model
 * of its own has no table here: that model is migrated as any other.
 * @module
 */
import type { ManyToManyField } from '../models/many-to-many-field.ts';
import type { AnyModel } from '../models/model.ts';
import type { AnyModelField } from '../models/model-field.ts';
import type { SchemaEditor } from './schema-editor.ts';
import { modelIndexes } from './schema-index.ts';

/** A model's field by name: a column's, or a many-to-many's. */
export function fieldOf(model: AnyModel, name: string): AnyModelField | ManyToManyField {
  const field = model.fields[name] ?? model.manyToMany[name];
  if (!field) throw new Error(`${model.name} has no field ${name}.`);
  return field;
}

/** Creates the join table of `relation`, when it is made for it. */
export async function createJoinTable(
  editor: SchemaEditor,
  relation: ManyToManyField,
): Promise<void> {
  if (!relation.autoCreated) return;
  relation.check();
  await editor.createModel(relation.through);
}

/** Drops the join table of `relation`, when it was made for it. */
export async function dropJoinTable(
  editor: SchemaEditor,
  relation: ManyToManyField,
): Promise<void> {
  if (!relation.autoCreated) return;
  await editor.deleteModel(relation.through);
}

/**
 * Takes the join table of `before` to what `after` needs: renamed (a renamed model, field or
 * `dbTable`), its key columns renamed (a renamed model), or, when the relation now points
 * elsewhere (`retargeted`) or gains or loses a through model, dropped and made again.
 */
export async function alterJoinTable(
  editor: SchemaEditor,
  before: ManyToManyField,
  after: ManyToManyField,
  retargeted = false,
): Promise<void> {
  if (!before.autoCreated || !after.autoCreated || retargeted) {
    await dropJoinTable(editor, before);
    await createJoinTable(editor, after);
    return;
  }
  before.check();
  after.check();
  const from = before.through;
  const to = after.through;
  if (from.table !== to.table) {
    await editor.execute(
      editor.db.kysely.schema.alterTable(from.table).renameTo(to.table).compile(),
    );
  }
  // The keys' columns follow the models' names (`article_id`, `from_person_id`); the renamed
  // table's constraint and index names follow the table.
  const pairs: [AnyModelField, AnyModelField][] = [
    [before.sourceField, after.sourceField],
    [before.targetField, after.targetField],
  ];
  for (const [oldKey, newKey] of pairs) {
    // `from` keeps the old table's name: the names of its indexes and constraints.
    if (oldKey.column !== newKey.column || from.table !== to.table)
      await editor.renameField(from, to, oldKey, newKey);
  }
  // The unique constraint over the two keys is named after the table and its columns.
  const [oldUnique] = modelIndexes(from).filter((i) => i.columns.length > 1);
  const [newUnique] = modelIndexes(to).filter((i) => i.columns.length > 1);
  if (oldUnique && newUnique && oldUnique.name !== newUnique.name) {
    await editor.createIndex(to.table, newUnique);
    await editor.dropIndex(to.table, oldUnique.name);
  }
}
