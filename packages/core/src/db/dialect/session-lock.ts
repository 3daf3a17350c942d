/**
 * A lock held by one database session (PostgreSQL's advisory locks, MySQL's `GET_LOCK`): one
 * pooled connection stays checked out from the moment the lock is taken until it is released,
 * since the server ties the lock to that session and frees it when the session ends (a killed
 * process leaves no lock behind).
 * @module
 */
import type { Kysely } from 'kysely';

/**
 * Runs `take` on a connection of `db` and keeps that connection until the returned function
 * is called, which runs `give` on it and returns it to the pool. An error of `take` is thrown
 * through `mapError` (a lock wait that timed out becomes the caller's own error).
 *
 * @example
 * ```ts
 * import { sql } from 'kysely';
 *
 * const release = await holdSessionLock(
 *   db.kysely,
 *   (c) => sql`select pg_advisory_lock(1)`.execute(c).then(() => {}),
 *   (c) => sql`select pg_advisory_unlock(1)`.execute(c).then(() => {}),
 *   (error) => error,
 * );
 * await release();
 * ```
 */
export async function holdSessionLock(
  db: Kysely<any>,
  take: (connection: Kysely<any>) => Promise<void>,
  give: (connection: Kysely<any>) => Promise<void>,
  mapError: (error: unknown) => unknown,
): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked!: () => void;
  let failed!: (error: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => {
    locked = resolve;
    failed = reject;
  });
  const held = db
    .connection()
    .execute(async (connection) => {
      await take(connection);
      locked();
      await released;
      await give(connection);
    })
    .catch((error: unknown) => failed(mapError(error)));
  await ready;
  return async () => {
    release();
    await held;
  };
}
