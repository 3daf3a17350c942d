/**
 * The INSERT of `QuerySet.create` and the UPDATE of `QuerySet.updateRow`: what a write needs
 * to know of a model's fields, resolved once per model, and the statement of each set of
 * columns written, compiled once per database and model. A write then only collects its
 * values: building the SQL's cache key from the column names and hashing it, then finding the
 * shape among every other query's, cost more than the rest of the statement's JavaScript.
 *
 * A set of columns is keyed by the positions of its fields in `model.fieldList` (a bit mask
 * where they fit in one), so the SQL lists the columns in the fields' order whatever the order
 * of the keys a caller passed.
 * @module
 */
import type { Compilable } from 'kysely';
import type { AnyModel } from '../../models/model.ts';
import type { AnyModelField } from '../../models/model-field.ts';
import { BoundedCache } from '../../utils/bounded-cache.ts';
import type { Database } from '../database.ts';
import { modelPlans } from './model-plans.ts';
import type { RowReader } from './row-reader.ts';
import { selectPlan } from './select-plan.ts';
import { type CompiledStatement, keptStatement, type Shape, type Slot } from './statement-cache.ts';

/** A field a write may set, and its position in `model.fieldList`. */
export interface WritableField {
  readonly field: AnyModelField;
  readonly index: number;
}

/** What a write needs to know of a model's fields (see the module). */
export interface RowWrites {
  readonly model: AnyModel;
  readonly fields: readonly AnyModelField[];
  /**
   * The fields `updateRow` writes, by name and by attribute name (`user`, `user_id`): every
   * field but the primary key.
   */
  readonly updatable: ReadonlyMap<string, WritableField>;
  /** True when a field takes its value from the clock on create (`autoNow`, `autoNowAdd`). */
  readonly clockOnCreate: boolean;
  /** The positions of the fields set to the clock on every update (`autoNow`). */
  readonly autoNow: readonly number[];
}

/**
 * A model's writes on one database: the statements of the sets of columns written, and the
 * reader of rows. Kept in the database's caches (`db.caches`, 'row writes').
 */
export interface DatabaseWrites {
  readonly read: RowReader;
  readonly inserts: BoundedCache<number | string, Shape>;
  readonly updates: BoundedCache<number | string, Shape>;
}

/** A write's statement with its values in place, and how to read the row it answers. */
export interface RowWrite {
  readonly statement: CompiledStatement;
  readonly read: RowReader;
}

/**
 * Sets of columns kept per database, model and kind of write, the oldest going first: a
 * PATCH writes the fields its client sent, so a client decides the set (up to 2^fields).
 */
export const MAX_COLUMN_SETS = 256;

/** Models whose writes a database keeps (`db.caches`); past it the oldest goes. */
export const MAX_WRITTEN_MODELS = 1024;

/** Up to this many fields a set of columns is keyed by a bit mask (a small integer). */
const MASK_FIELDS = 30;

/** What a write of `model`'s rows needs to know of its fields; made on first use, kept on it. */
export function rowWrites(model: AnyModel): RowWrites {
  const plans = modelPlans(model);
  return plans.rowWrites ?? (plans.rowWrites = makeRowWrites(model));
}

function makeRowWrites(model: AnyModel): RowWrites {
  const fields = model.fieldList;
  const updatable = new Map<string, WritableField>();
  const autoNow: number[] = [];
  let clockOnCreate = false;
  for (let index = 0; index < fields.length; index++) {
    const field = fields[index] as AnyModelField;
    if (field.kind === 'datetime' && (field.extra.autoNow || field.extra.autoNowAdd)) {
      clockOnCreate = true;
      if (field.extra.autoNow) autoNow.push(index);
    }
    if (field.isPrimaryKey) continue;
    updatable.set(field.name, { field, index });
    updatable.set(field.attname, { field, index });
  }
  return {
    model,
    fields,
    updatable,
    clockOnCreate,
    autoNow: Object.freeze(autoNow),
  };
}

/**
 * The INSERT of the fields at positions `written` (ascending) of `writes.model`, their values
 * `parameters` in the same order, answering the row where the dialect has RETURNING.
 */
export function insertStatement(
  db: Database,
  writes: RowWrites,
  written: readonly number[],
  parameters: readonly unknown[],
): RowWrite {
  const forDb = databaseWrites(db, writes);
  const build = (slot: Slot): Compilable<any> => {
    const model = writes.model;
    const query = db.executor.insertInto(model.table).values(columnSlots(writes, written, slot));
    return db.adapter.returning ? query.returning(returningColumns(model)) : query;
  };
  return { statement: statementOf(forDb.inserts, written, parameters, build), read: forDb.read };
}

/**
 * The UPDATE of the fields at positions `written` (ascending) of the row whose primary key is
 * the last of `parameters` (the fields' values before it, in the same order), answering the
 * row where the dialect has RETURNING.
 */
export function updateStatement(
  db: Database,
  writes: RowWrites,
  written: readonly number[],
  parameters: readonly unknown[],
): RowWrite {
  const forDb = databaseWrites(db, writes);
  const build = (slot: Slot): Compilable<any> => {
    const model = writes.model;
    const query = db.executor
      .updateTable(model.table)
      .set(columnSlots(writes, written, slot))
      .where(model.pk.column, '=', slot(written.length));
    return db.adapter.returning ? query.returning(returningColumns(model)) : query;
  };
  return { statement: statementOf(forDb.updates, written, parameters, build), read: forDb.read };
}

/** The column of each written field, mapped to its parameter's slot (in `written`'s order). */
function columnSlots(
  writes: RowWrites,
  written: readonly number[],
  slot: Slot,
): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (let i = 0; i < written.length; i++)
    columns[(writes.fields[written[i] as number] as AnyModelField).column] = slot(i);
  return columns;
}

function databaseWrites(db: Database, writes: RowWrites): DatabaseWrites {
  const kept = db.caches.cache<AnyModel, DatabaseWrites>('row writes', MAX_WRITTEN_MODELS);
  const model = writes.model;
  return (
    kept.get(model) ??
    kept.set(model, {
      read: selectPlan(model, db, []).read,
      inserts: new BoundedCache(`inserts into ${model.name}`, MAX_COLUMN_SETS),
      updates: new BoundedCache(`updates of ${model.name}`, MAX_COLUMN_SETS),
    })
  );
}

/** The statement of a set of columns from `shapes`, compiled and kept on first use. */
function statementOf(
  shapes: BoundedCache<number | string, Shape>,
  written: readonly number[],
  parameters: readonly unknown[],
  build: (slot: Slot) => Compilable<any>,
): CompiledStatement {
  return keptStatement(shapes, columnSetKey(written), parameters, build);
}

/** The key of the fields at positions `written`: a bit mask where they fit, else their list. */
function columnSetKey(written: readonly number[]): number | string {
  let mask = 0;
  for (let i = 0; i < written.length; i++) {
    const index = written[i] as number;
    if (index >= MASK_FIELDS) return written.join(',');
    mask |= 1 << index;
  }
  return mask;
}

/** The RETURNING list: every column, under its attribute name (`user_id`). */
function returningColumns(model: AnyModel): string[] {
  return model.fieldList.map((f) =>
    f.column === f.attname ? f.column : `${f.column} as ${f.attname}`,
  );
}
