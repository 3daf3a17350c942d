/**
 * Who wants to know that rows of a table changed through the query sets (`create`, `update`,
 * `updateRow`, `delete`, `deleteRow`, `bulkCreate`): caches of rows, such as the opt-in token
 * cache of `Auth`, which must not keep answering for a token deleted or a user deactivated
 * through the toolkit, and the versions of the models of cached views (`views/cache-page.ts`).
 * Writes made with raw SQL, or by another process, are not seen.
 *
 * Keyed by table name, not by model object: two models of the same table (two `Auth`s over
 * one user table) hear each other's writes.
 *
 * @example
 * ```ts
 * const cache = new Map<string, unknown>();
 * const stop = onTableWrite(['auth_user'], () => cache.clear());
 * await User.objects.filter({ pk: 1 }).update({ is_active: false }); // cache.clear() ran
 * stop();
 * ```
 * @module
 */
import type { Database } from '../database.ts';

/** Called after a write to one of its tables, with the database written to. */
export type TableWriteListener = (db: Database) => void;

const listeners = new Map<string, Set<TableWriteListener>>();

/** Calls `listener` after each write to one of `tables`; returns a function that stops it. */
export function onTableWrite(tables: readonly string[], listener: TableWriteListener): () => void {
  for (const table of tables) {
    let set = listeners.get(table);
    if (!set) listeners.set(table, (set = new Set()));
    set.add(listener);
  }
  return () => {
    for (const table of tables) {
      const set = listeners.get(table);
      set?.delete(listener);
      if (set?.size === 0) listeners.delete(table);
    }
  };
}

/** Tells the listeners of `table` that it was written to (a map miss when nobody listens). */
export function noteTableWrite(db: Database, table: string): void {
  const set = listeners.get(table);
  if (!set) return;
  for (const listener of set) {
    try {
      listener(db);
    } catch {
      // A listener's failure must not turn a write that happened into an error.
    }
  }
}
