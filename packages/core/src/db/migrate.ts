/**
 * Creates what the model declarations need and the database lacks: tables (with primary
 * keys, foreign keys and CHECK constraints), missing columns, unique and plain indexes.
 * It never drops or alters what exists.
 * @module
 */
import { type ColumnDefinitionBuilder, type CreateTableBuilder, sql } from 'kysely';
import type { AnyModel } from '../models/model.ts';
import type { AnyModelField } from '../models/model-field.ts';
import type { Database } from './database.ts';
import { constraintName } from './dialect-adapter.ts';

/** What a migration did. */
export interface MigrationReport {
  readonly createdTables: string[];
  readonly addedColumns: string[];
  readonly createdIndexes: string[];
}

const ON_DELETE = {
  CASCADE: 'cascade',
  SET_NULL: 'set null',
  RESTRICT: 'restrict',
  PROTECT: 'restrict',
  NO_ACTION: 'no action',
} as const;

/** Runs the migration of `models` on `db` (see {@link Database.migrate}). */
export async function migrate(db: Database, models: readonly AnyModel[]): Promise<MigrationReport> {
  const ordered = dependencyOrder(models);
  for (const model of ordered) {
    model.check();
    db.adapter.checkModel(model);
  }
  await db.adapter.prepareSchema(db.kysely);
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
      await createTable(db, model);
      report.createdTables.push(model.table);
      continue;
    }
    for (const field of model.fieldList) {
      if (columns.has(field.column)) continue;
      await db.kysely.schema
        .alterTable(model.table)
        .addColumn(field.column, sql.raw(db.adapter.columnType(field)), (col) =>
          nullableColumn(db, field, col),
        )
        .execute();
      report.addedColumns.push(`${model.table}.${field.column}`);
    }
  }
  // Where the database has no CREATE INDEX IF NOT EXISTS, the names it has (MySQL).
  const indexes = await db.adapter.indexNames(db.kysely);
  for (const model of ordered) {
    for (const field of model.fieldList) {
      if (field.isPrimaryKey) continue;
      const unique = field.unique;
      if (!unique && !field.options.dbIndex && !field.isRelation) continue;
      const name = constraintName(model.table, [field.column], unique ? 'key' : 'idx');
      report.createdIndexes.push(name);
      if (indexes?.has(name)) continue;
      let builder = db.kysely.schema.createIndex(name).on(model.table).column(field.column);
      if (!indexes) builder = builder.ifNotExists();
      if (unique) builder = builder.unique();
      await builder.execute();
    }
  }
  return report;
}

async function createTable(db: Database, model: AnyModel): Promise<void> {
  let table: CreateTableBuilder<string, string> = db.kysely.schema
    .createTable(model.table)
    .ifNotExists();
  for (const field of model.fieldList) {
    table = table.addColumn(field.column, sql.raw(db.adapter.columnType(field)), (col) => {
      if (field.isPrimaryKey) {
        let pk = col.primaryKey().notNull();
        if (field.kind === 'auto') pk = db.adapter.autoIncrement(pk);
        return pk;
      }
      let c = field.nullable ? col : col.notNull();
      if (field.isRelation && db.adapter.inlineReferences) {
        const related = field.relatedModel;
        c = c
          .references(`${related.table}.${related.pk.column}`)
          .onDelete(ON_DELETE[field.extra.onDelete ?? 'CASCADE']);
      }
      return c;
    });
    if (field.isRelation && !db.adapter.inlineReferences) {
      const related = field.relatedModel;
      table = table.addForeignKeyConstraint(
        constraintName(model.table, [field.column], 'fk'),
        [field.column],
        related.table,
        [related.pk.column],
        (fk) => fk.onDelete(ON_DELETE[field.extra.onDelete ?? 'CASCADE']),
      );
    }
    if (field.kind === 'positive_integer') {
      table = table.addCheckConstraint(
        constraintName(model.table, [field.column], 'check'),
        sql`${sql.ref(field.column)} >= 0`,
      );
    }
  }
  await table.execute();
}

/** A column added to an existing table must accept the rows already there. */
function nullableColumn(
  db: Database,
  field: AnyModelField,
  col: ColumnDefinitionBuilder,
): ColumnDefinitionBuilder {
  const def = field.getDefault();
  if (field.nullable || def === undefined || def === null) return col;
  return col.notNull().defaultTo(db.adapter.toDb(field, def) as never);
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
