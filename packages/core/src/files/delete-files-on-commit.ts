/**
 * Stored files whose record no longer names them (the record was deleted, or the file
 * replaced or cleared) are removed once the change is committed: a rollback keeps them, as the
 * record still names them then. `DELETE_ORPHANED_FILES: false` keeps every file, as Django does.
 * @module
 */
import { Database } from '../db/database.ts';
import type { AnyModel } from '../models/model.ts';
import type { Storage } from './storage.ts';

/**
 * Removes the stored files `names` after the current transaction commits (at once outside a
 * transaction); empty names are skipped. A file that cannot be removed stays: the write has
 * committed, and a file left behind is no reason to fail it.
 *
 * @example
 * ```ts
 * const storage = new FileSystemStorage({ location: 'media', baseUrl: '/media/' });
 * await deleteFilesOnCommit(storage, ['resumes/old.pdf']);
 * ```
 */
export async function deleteFilesOnCommit(
  storage: Storage | null | undefined,
  names: Iterable<unknown>,
): Promise<void> {
  if (!storage) return;
  const stored = [...names].filter(
    (name): name is string => typeof name === 'string' && name !== '',
  );
  if (stored.length === 0) return;
  const remove = () =>
    Promise.all(stored.map((name) => storage.delete(name).catch(() => {}))).then(() => {});
  const db = Database.current();
  if (db) await db.onCommit(remove);
  else await remove();
}

/** The stored file names of `row`'s file fields (`''` and null left out). */
export function storedFileNames(
  model: AnyModel,
  row: Readonly<Record<string, unknown>>,
): unknown[] {
  return model.fieldList
    .filter((field) => field.kind === 'file')
    .map((field) => row[field.attname]);
}
