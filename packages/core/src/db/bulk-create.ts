/**
 * `bulkCreate`: many rows in one INSERT per batch, as Django's `bulk_create`.
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyModel } from '../models/model.ts';
import type { AnyModelField } from '../models/model-field.ts';
import type { Database } from './database.ts';
import { rowWrites } from './plan/row-writes.ts';
import { selectPlan } from './plan/select-plan.ts';
import { noteTableWrite } from './plan/table-writes.ts';

/** Options of `bulkCreate`. */
export interface BulkCreateOptions {
  /**
   * Rows per INSERT; by default as many as stay under every database's limit of bound values
   * (SQLite's 32,766).
   */
  readonly batchSize?: number;
}

/** Bound values an INSERT may carry on every database (SQLite allows 32,766). */
const MAX_VALUES = 30_000;

/**
 * Inserts `rows` of `model`, one INSERT per batch, and returns them as stored: read back by
 * RETURNING on SQLite and PostgreSQL; on MySQL/MariaDB, which cannot, the rows as given with
 * their defaults (an automatic key is then absent, as Django's on MySQL). A missing value
 * takes the field's default, as in `create()`; every key must name a field.
 */
export async function bulkCreate(
  db: Database,
  model: AnyModel,
  rows: readonly Readonly<Record<string, unknown>>[],
  options: BulkCreateOptions = {},
): Promise<Record<string, unknown>[]> {
  const where = `${model.name}.objects.bulkCreate()`;
  if (!Array.isArray(rows)) {
    throw new ImproperlyConfigured('REST_ERR_MODEL_PATH', `${where} takes an array of rows.`);
  }
  if (rows.length === 0) return [];
  const { fields } = rowWrites(model);
  const pk = model.pk;
  const now = new Date().toISOString();
  // The automatic key is written only when every row gives it.
  const withKey = rows.filter(
    (row) => row[pk.attname] !== undefined || row.pk !== undefined,
  ).length;
  if (pk.kind === 'auto' && withKey !== 0 && withKey !== rows.length) {
    throw new ImproperlyConfigured(
      'REST_ERR_MODEL_PATH',
      `${where}: ${withKey} of ${rows.length} rows give "${pk.name}"; give it in every row or in none.`,
    );
  }
  const written = fields.filter((f) => f !== pk || pk.kind !== 'auto' || withKey !== 0);
  const records = rows.map((row) => {
    for (const key in row) {
      if (Object.hasOwn(row, key) && key !== 'pk' && !model.getField(key)) {
        throw new ImproperlyConfigured(
          'REST_ERR_MODEL_PATH',
          `${where}: ${model.name} has no field "${key}". Fields: ${model.fieldList.map((f: AnyModelField) => f.name).join(', ')}.`,
        );
      }
    }
    const record: Record<string, unknown> = {};
    for (const field of written) record[field.attname] = newRowValue(field, row, now);
    return record;
  });
  const batchSize = options.batchSize ?? Math.max(1, Math.floor(MAX_VALUES / written.length));
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
    throw new ImproperlyConfigured(
      'REST_ERR_MODEL_PATH',
      `${where}: batchSize must be a whole number above 0, got ${batchSize}.`,
    );
  }
  const adapter = db.adapter;
  const read = selectPlan(model, db, []).read;
  const stored: Record<string, unknown>[] = [];
  for (let start = 0; start < records.length; start += batchSize) {
    const batch = records.slice(start, start + batchSize);
    const values = batch.map((record) => {
      const columns: Record<string, unknown> = {};
      for (const field of written)
        columns[field.column] = adapter.toDb(field, record[field.attname]);
      return columns;
    });
    const insert = db.executor.insertInto(model.table).values(values);
    try {
      if (adapter.returning) {
        const returned = await db.statement(() =>
          insert.returning(fields.map((f) => `${f.column} as ${f.attname}`) as never).execute(),
        );
        for (const row of returned) stored.push(read(row as Record<string, unknown>));
      } else {
        await db.statement(() => insert.execute());
        for (const record of batch) stored.push(record);
      }
    } catch (error) {
      throw db.translateError(error, model);
    }
  }
  noteTableWrite(db, model.table);
  return stored;
}

/** A field's value in a new row: given (by attname, name or `pk`), or its default. */
function newRowValue(
  field: AnyModelField,
  row: Readonly<Record<string, unknown>>,
  now: string,
): unknown {
  let value = Object.hasOwn(row, field.attname) ? row[field.attname] : undefined;
  if (value === undefined && field.attname !== field.name && Object.hasOwn(row, field.name)) {
    const related = row[field.name];
    value =
      related !== null && typeof related === 'object'
        ? (related as Record<string, unknown>)[field.relatedModel.pk.attname]
        : related;
  }
  if (value === undefined && field.isPrimaryKey && Object.hasOwn(row, 'pk')) value = row.pk;
  if (
    field.kind === 'datetime' &&
    (field.extra.autoNow || (value === undefined && field.extra.autoNowAdd))
  )
    return now;
  if (value !== undefined) return value;
  const def = field.getDefault();
  if (def !== undefined) return def;
  if (field.isText && field.options.blank && !field.nullable) return '';
  return null;
}
