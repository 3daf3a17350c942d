/**
 * The names of what a model's table holds besides its columns: indexes (a field's or the
 * model's), foreign keys and checks. Migrations find them again by these names.
 * @module
 */
import { constraintName } from '../db/dialect/dialect-adapter.ts';
import type { AnyModel } from '../models/model.ts';
import type { AnyModelField } from '../models/model-field.ts';

/** An index the schema holds for a model: a field's (unique, dbIndex, relation) or the model's. */
export interface SchemaIndex {
  readonly name: string;
  readonly columns: readonly string[];
  readonly unique: boolean;
}

/**
 * The indexes a model's table holds. Field-level ones are named `<table>_<column>_key`
 * (unique) or `_idx`; the model's own carry their declared names.
 */
export function modelIndexes(model: AnyModel, only?: AnyModelField): SchemaIndex[] {
  const result: SchemaIndex[] = [];
  for (const field of model.fieldList) {
    if (only && field !== only) continue;
    const index = fieldIndex(model.table, field);
    if (index) result.push(index);
  }
  if (only) return result;
  const columnsOf = (fields: readonly string[]) =>
    fields.map((f) => (model.fields[f] as AnyModelField).column);
  for (const index of model.indexes) {
    result.push({ name: index.name, columns: columnsOf(index.fields), unique: false });
  }
  for (const index of model.uniqueConstraints) {
    result.push({ name: index.name, columns: columnsOf(index.fields), unique: true });
  }
  return result;
}

/** The index a field asks for (unique, `dbIndex`, or a relation's), or undefined. */
export function fieldIndex(table: string, field: AnyModelField): SchemaIndex | undefined {
  if (field.isPrimaryKey) return undefined;
  if (!field.unique && !field.options.dbIndex && !field.isRelation) return undefined;
  const unique = field.unique;
  const name = constraintName(table, [field.column], unique ? 'key' : 'idx');
  return { name, columns: [field.column], unique };
}

/** The name of a field's foreign-key constraint. */
export function foreignKeyName(table: string, column: string): string {
  return constraintName(table, [column], 'fk');
}

/** The name of a positive integer's CHECK constraint. */
export function checkName(table: string, column: string): string {
  return constraintName(table, [column], 'check');
}
