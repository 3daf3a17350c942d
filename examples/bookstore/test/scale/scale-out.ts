/**
 * The scale-out test (`npm run test:scale`, issue 43): three bookstore workers configured as
 * docs/deploying.md says, behind HAProxy, on a PostgreSQL primary and its streaming replica,
 * Redis and an S3-protocol server, all on loopback and started here (see `cluster.ts`).
 * Skipped, saying why, where HAProxy, moto_server, PostgreSQL's programs or Redis are missing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ScaleCluster as Cluster, ScaleCluster, scaleSkipReason } from './cluster.ts';
import { closeConnections, send } from './http.ts';

const skip = scaleSkipReason();
if (skip) console.log(`# ${skip}`);
const log = (line: string) => console.log(`# ${line}`);
const HOST = '127.0.0.1';

describe('three bookstore workers behind HAProxy', { skip, timeout: 300_000 }, () => {
  let cluster: Cluster;
  // The whole run is bounded: whatever hangs, the children are killed and the run fails.
  const guard = setTimeout(() => {
    console.error('# scale-out test: over 5 minutes, killing its processes');
    cluster?.killAllNow();
    process.exit(1);
  }, 300_000);
  guard.unref();
  process.once('exit', () => cluster?.killAllNow());

  before(async () => {
    const started = Date.now();
    cluster = new ScaleCluster(log);
    await cluster.start(3);
    log(`cluster ready in ${Date.now() - started} ms at ${cluster.baseUrl}`);
  });

  after(async () => {
    closeConnections();
    await cluster?.close();
    clearTimeout(guard);
  });

  it('answers a PATCH through the balancer, and the replica has it', async () => {
    const res = await send(cluster.baseUrl, {
      method: 'PATCH',
      url: '/books/api/books/1/',
      headers: { host: HOST },
      payload: { title: 'Through the balancer' },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['x-request-id']), /\S/);
    const read = await send(cluster.baseUrl, {
      url: '/books/api/books/1/',
      headers: { host: HOST },
    });
    assert.equal(read.json().title, 'Through the balancer');
  });
});
