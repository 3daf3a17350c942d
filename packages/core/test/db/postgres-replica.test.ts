/**
 * `PrimaryReplicaRouter` against a real PostgreSQL streaming replica the test starts itself
 * (`fixtures/postgres-replica.ts`): a list read goes to the replica (it answers
 * `pg_is_in_recovery()`, and with its replay paused it misses a row the primary has), a write
 * goes to the primary, a request reads its own write back, a replica lagging past the bound and
 * a stopped one are skipped. Skipped, saying why, without `TEST_POSTGRES_URL` or the programs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Database,
  Databases,
  defineModel,
  models,
  PrimaryReplicaRouter,
  replicationLagSeconds,
} from '@restframework/core';
import {
  type ReplicaPair,
  replicaSkipReason,
  startReplicaPair,
} from '../fixtures/postgres-replica.ts';

const Note = defineModel({
  name: 'Note',
  table: 'replica_note',
  fields: { text: models.CharField({ maxLength: 60 }) },
});

const skip = replicaSkipReason();
if (skip) console.log(`# ${skip}`);

/** Polls `check` until it holds (replication is asynchronous), at most `ms`. */
async function eventually(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting for the replica');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('PrimaryReplicaRouter on a PostgreSQL streaming replica', { skip }, () => {
  let pair: ReplicaPair;
  let databases: Databases;
  let router: PrimaryReplicaRouter;
  let primary: Database;
  let replica: Database;
  let previous: Database | undefined;
  /** Which server a read that names no database runs on: the query layer's own choice. */
  const inRecovery = async () => {
    const db = Note.objects.all();
    // The routed database of a read is the one its SELECT ran on: ask that server.
    let ran: Database | undefined;
    const stops = [primary, replica].map((d) =>
      d.onQuery((event) => {
        if (event.sql.includes('replica_note')) ran = d;
      }),
    );
    await db.count();
    for (const stop of stops) stop();
    const rows = (await (ran as Database).query('select pg_is_in_recovery() as "r"', [])) as {
      r: boolean;
    }[];
    return rows[0]?.r === true;
  };

  before(async () => {
    pair = await startReplicaPair((line) => console.log(`# ${line}`));
    primary = Database.connect(pair.primaryUrl, { poolSize: 3 });
    replica = Database.connect(pair.replicaUrl, { poolSize: 3, connectionTimeoutMs: 1000 });
    router = new PrimaryReplicaRouter({
      replicas: ['replica'],
      maxLagSeconds: 3,
      checkIntervalSeconds: 0.2,
      checkTimeoutMs: 1000,
    });
    databases = new Databases({ default: primary, replica }, [router]);
    previous = Database.default;
    Database.setDefault(primary);
    await primary.migrate([Note]);
    await Note.objects.using(primary).create({ text: 'first' });
    await eventually(async () => {
      try {
        return (await Note.objects.using(replica).count()) === 1;
      } catch {
        return false; // the table has not reached the replica yet
      }
    });
    await router.checkReplicas();
  });

  after(async () => {
    Database.setDefault(previous);
    await databases?.close();
    await pair?.remove();
  });

  it('reads from the replica, which is in recovery; writes reach the primary', async () => {
    assert.deepEqual(router.statuses, [{ alias: 'replica', state: 'ok', lagSeconds: 0 }]);
    assert.equal(await inRecovery(), true, 'the read ran on the standby');
    assert.equal(await replicationLagSeconds(primary), 0, 'the primary is no standby');
    const row = await Note.objects.create({ text: 'written' });
    const onPrimary = await primary.query('select pg_is_in_recovery() as "r"', []);
    assert.deepEqual(onPrimary, [{ r: false }]);
    assert.equal(await Note.objects.using('default').filter({ pk: row.id }).count(), 1);
  });

  it('misses on the replica (replay paused) what the primary has; a request reads its write back', async () => {
    // Replayed up to now, so that the lag is counted from here.
    await Note.objects.using(primary).create({ text: 'fresh' });
    await eventually(
      async () => (await Note.objects.using(replica).filter({ text: 'fresh' }).count()) === 1,
    );
    await replica.query('select pg_wal_replay_pause()', []);
    try {
      await Note.objects.using(primary).create({ text: 'unreplayed' });
      // Within the lag bound (3 s) for now: reads still go to the replica, which lacks it.
      await router.checkReplicas();
      assert.equal(await Note.objects.filter({ text: 'unreplayed' }).count(), 0);
      const seen = await primary.runRequest(async () => {
        await Note.objects.create({ text: 'mine' });
        return Note.objects.filter({ text: 'mine' }).count();
      });
      assert.equal(seen, 1, 'the request that wrote reads on the primary');
      // Past the bound the replica is lagging and skipped.
      await new Promise((resolve) => setTimeout(resolve, 3500));
      const [status] = await router.checkReplicas();
      assert.equal(status?.state, 'lagging', JSON.stringify(status));
      assert.ok((status?.lagSeconds ?? 0) > 3);
      assert.equal(await Note.objects.filter({ text: 'unreplayed' }).count(), 1, 'primary');
      assert.equal(await inRecovery(), false);
    } finally {
      await replica.query('select pg_wal_replay_resume()', []);
    }
    await eventually(async () => (await router.checkReplicas())[0]?.state === 'ok');
    assert.equal(await inRecovery(), true, 'caught up: back on the replica');
  });

  it('skips a stopped replica, found by the timer', async () => {
    pair.stopReplica();
    // The router's own timer (every 0.2 s) finds it down; reads wait for nothing meanwhile.
    await eventually(async () => router.statuses[0]?.state === 'down', 10_000);
    assert.equal(await Note.objects.filter({ text: 'first' }).count(), 1);
    assert.equal(await inRecovery(), false, 'the primary served the read');
  });
});
