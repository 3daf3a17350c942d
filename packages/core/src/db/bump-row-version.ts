/**
 * The row version of optimistic concurrency: one statement that adds 1 to a row's version
 * column, only while it still holds the version the caller read. The check and the write are
 * one UPDATE, so two writers that read the same version cannot both pass: the database runs
 * the second UPDATE once the first has committed, re-reads the row and matches nothing
 * (PostgreSQL's READ COMMITTED, MariaDB's locking reads); SQLite runs one writer at a time.
 * The row stays locked until the transaction ends.
 * @module
 */
import { sql } from 'kysely';
import type { AnyModel } from '../models/model.ts';
import type { Database } from './database.ts';
import { noteTableWrite } from './plan/table-writes.ts';

/**
 * Adds 1 to `field` of the row with primary key `pk`; with `expected`, only if the column still
 * holds it. True when a row was written. The column name comes from the model's declared
 * field, never from a request.
 *
 * @example
 * ```ts
 * const passed = await bumpRowVersion(db, Book, 1, 'version', 4); // false when another writer got there first
 * ```
 */
export async function bumpRowVersion(
  db: Database,
  model: AnyModel,
  pk: unknown,
  field: string,
  expected: number | null,
): Promise<boolean> {
  const column = (model.getField(field) as { column: string }).column;
  const pkField = model.pk;
  let query = db.executor
    .updateTable(model.table)
    .set({ [column]: sql`${sql.ref(column)} + 1` })
    .where(sql.ref(pkField.column), '=', db.adapter.toDb(pkField, pk));
  if (expected !== null) query = query.where(sql.ref(column), '=', expected);
  let result: { numUpdatedRows: bigint };
  try {
    result = await db.statement(() => query.executeTakeFirstOrThrow());
  } catch (error) {
    throw db.translateError(error, model);
  }
  noteTableWrite(db, model.table);
  return result.numUpdatedRows > 0n;
}
