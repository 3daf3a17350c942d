/**
 * The quick path for tests and scripts: creates what the model declarations need and the
 * database lacks (tables with primary keys, foreign keys and CHECK constraints, missing
 * columns, unique and plain indexes). It never drops or alters what exists; a service that
 * keeps data uses migration files (`restframework makemigrations` / `migrate`) instead.
 * @module
 */
import { sql } from 'kysely';
import { SchemaEditor } from '../migrations/schema-editor.ts';
import { modelIndexes } from '../migrations/schema-index.ts';
import type { AnyModel } from '../models/model.ts';
import type { Database } from './database.ts';

/** What a migration did. */
export interface MigrationReport {
  /** The tables this run created. */
  readonly createdTables: string[];
  /** The columns this run added (`table.column`). */
  readonly addedColumns: string[];
  /** The indexes this run created (not those that were there already). */
  readonly createdIndexes: string[];
}

/** Runs the migration of `models` on `db` (see {@link Database.migrate}). */
export async function migrate(
  db: Database,
  declared: readonly AnyModel[],
): Promise<MigrationReport> {
  for (const model of declared) model.check();
  // The join tables made for many-to-many relations are tables of their own.
  const models = [...declared];
  for (const model of declared) {
    for (const relation of Object.values(model.manyToMany)) {
      if (relation.autoCreated && !models.includes(relation.through)) models.push(relation.through);
    }
  }
  const ordered = dependencyOrder(models);
  for (const model of ordered) {
    model.check();
    db.adapter.checkModel(model);
  }
  await db.adapter.prepareSchema(db.kysely);
  const editor = new SchemaEditor(db);
  const report: MigrationReport = { createdTables: [], addedColumns: [], createdIndexes: [] };
  const existing = new Map(
    (await db.kysely.introspection.getTables()).map((t) => [
      t.name,
      new Set(t.columns.map((c) => c.name)),
    ]),
  );
  for (const model of ordered) {
    const columns = existing.get(model.table);
    if (!columns) {
      await editor.execute(editor.createTableBuilder(model, model.table, true).compile());
      report.createdTables.push(model.table);
      continue;
    }
    for (const field of model.fieldList) {
      if (columns.has(field.column)) continue;
      // A column added to an existing table must accept the rows already there.
      const def = field.getDefault();
      const filled = !field.nullable && def !== undefined && def !== null;
      await editor.execute(
        sql`alter table ${sql.id(model.table)} add column ${sql.id(field.column)} ${sql.raw(db.adapter.columnType(field))}${
          filled ? sql` not null default ${sql.lit(db.adapter.toDb(field, def))}` : sql``
        }`,
      );
      report.addedColumns.push(`${model.table}.${field.column}`);
    }
  }
  for (const model of ordered) {
    for (const index of modelIndexes(model)) {
      if (await db.adapter.indexExists(db.kysely, index.name)) continue;
      await editor.createIndex(model.table, index, true);
      report.createdIndexes.push(index.name);
    }
  }
  // Tables and columns were added: what was kept for the old schema goes.
  if (report.createdTables.length || report.addedColumns.length) db.clearCaches();
  return report;
}

/** Referenced tables first, so foreign keys can be declared. */
function dependencyOrder(models: readonly AnyModel[]): AnyModel[] {
  const result: AnyModel[] = [];
  const seen = new Set<AnyModel>();
  const visit = (model: AnyModel) => {
    if (seen.has(model)) return;
    seen.add(model);
    for (const field of model.fieldList) {
      if (field.isRelation && field.relatedModel !== model && models.includes(field.relatedModel)) {
        visit(field.relatedModel);
      }
    }
    result.push(model);
  };
  for (const model of models) visit(model);
  return result;
}
