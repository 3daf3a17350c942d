/**
 * How far a replica is behind its primary, in seconds, asked of the server: what
 * `PrimaryReplicaRouter` checks on its timer (never per statement).
 *
 * @example
 * ```ts
 * import { Database, replicationLagSeconds } from '@restframework/core';
 *
 * const replica = Database.connect('postgres://app@replica1:5432/shop');
 * const lag = await replicationLagSeconds(replica); // 0 when caught up
 * ```
 * @module
 */
import type { Database } from '../database.ts';

// Caught up when everything received is replayed: an idle primary sends nothing, and the
// last replayed transaction's time then grows old although the replica misses nothing. A
// server not in recovery is no standby (a primary named as its own replica): nothing to lag.
const POSTGRES_LAG =
  'select case when not pg_is_in_recovery() then 0 ' +
  'when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0 ' +
  'else coalesce(extract(epoch from now() - pg_last_xact_replay_timestamp()), 0) end as "lag"';

/**
 * The replication lag of `db` in seconds. PostgreSQL: from `pg_last_xact_replay_timestamp()`
 * (0 when all WAL received is replayed, or on a server that is not a standby). MySQL and
 * MariaDB: `Seconds_Behind_Source` (`Seconds_Behind_Master`) of `SHOW REPLICA STATUS`, 0 when
 * the server replicates nothing or may not say; an unknown lag (replication stopped) is
 * `Infinity`. SQLite has no replicas: 0 once a statement answers. Rejects when the server
 * does not answer.
 */
export async function replicationLagSeconds(db: Database): Promise<number> {
  if (db.vendor === 'postgres') {
    const rows = (await db.query(POSTGRES_LAG, [])) as { lag: unknown }[];
    return Number(rows[0]?.lag ?? 0);
  }
  if (db.vendor === 'mysql') {
    let rows: Record<string, unknown>[];
    try {
      rows = (await db.query('show replica status', [])) as Record<string, unknown>[];
    } catch {
      // No privilege to ask (REPLICATION CLIENT) or an older server: reachability only.
      await db.query('select 1', []);
      return 0;
    }
    const status = rows[0];
    if (status === undefined) return 0;
    const behind = status.Seconds_Behind_Source ?? status.Seconds_Behind_Master;
    return behind === null || behind === undefined ? Number.POSITIVE_INFINITY : Number(behind);
  }
  await db.query('select 1', []);
  return 0;
}
