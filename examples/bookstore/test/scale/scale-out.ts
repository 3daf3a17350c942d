/**
 * The scale-out test (`npm run test:scale`, issue 43): three bookstore workers configured as
 * docs/deploying.md says, behind HAProxy, on a PostgreSQL primary and its streaming replica,
 * Redis and an S3-protocol server, all on loopback and started here (see `cluster.ts`).
 * Skipped, saying why, where HAProxy, moto_server, PostgreSQL's programs or Redis are missing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Database } from '@restframework/core';
import { auth } from '../../src/auth.ts';
import { replay } from '../openapi/replay.ts';
import { REFERENCE_CASES, replayCase } from '../reference-exchanges.ts';
import { ScaleCluster, scaleSkipReason } from './cluster.ts';
import { closeConnections, send } from './http.ts';
import {
  acknowledged,
  assertKept,
  type Outcome,
  patchBook,
  requestCount,
  runClients,
  upload,
  waitState,
} from './load.ts';

const skip = scaleSkipReason();
if (skip) console.log(`# ${skip}`);
const log = (line: string) => console.log(`# ${line}`);
const HOST = '127.0.0.1';
const BOOKS = 1000; // PATCHed at once: as many existing books
const BOOK_ROUTE = '/books/api/books/:pk/';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The acknowledged and the failed outcomes, for messages. */
function tally(outcomes: readonly Outcome[]) {
  const failed = outcomes.filter((o) => !acknowledged(o));
  return {
    acknowledged: outcomes.length - failed.length,
    failed,
    text: `${outcomes.length - failed.length}/${outcomes.length} acknowledged${
      failed.length
        ? `; failed: ${failed
            .slice(0, 5)
            .map((o) => `${o.kind} ${o.key} ${o.status} ${o.error ?? ''}`)
            .join(' | ')}`
        : ''
    }`,
  };
}

describe('three bookstore workers behind HAProxy', { skip, timeout: 300_000 }, () => {
  let cluster: ScaleCluster;
  /** Ids of books that exist once the replays ran (they delete some), in id order. */
  let books: number[] = [];
  // The whole run is bounded: whatever hangs, everything started is stopped and the run fails.
  const guard = setTimeout(() => {
    console.error('# scale-out test: over 4.5 minutes, stopping its processes');
    const exit = () => process.exit(1);
    setTimeout(exit, 30_000).unref();
    void cluster?.close().then(exit, exit);
  }, 270_000);
  guard.unref();
  process.once('exit', () => cluster?.killAllNow());
  const kept = (outcomes: readonly Outcome[]) =>
    assertKept(cluster.primaryUrl, outcomes, (name) => cluster.readObject(name));

  before(async () => {
    const started = Date.now();
    cluster = new ScaleCluster(log);
    await cluster.start(3);
    log(`cluster ready in ${Date.now() - started} ms at ${cluster.baseUrl}`);
  });

  after(async () => {
    const states = cluster?.haproxyOutput
      .split('\n')
      .filter((line) => /Server workers\/| web workers\//.test(line));
    for (const line of states ?? []) log(`haproxy: ${line.replace(/^.*?(Server )/, '$1')}`);
    closeConnections();
    await cluster?.close();
    clearTimeout(guard);
  });

  it("replays the original's recorded exchanges through the balancer", async () => {
    // In their order, on the freshly seeded database: each case as reference-replay.test.ts
    // checks it in process.
    for (const ref of REFERENCE_CASES) await replayCase(cluster.baseUrl, ref);
    const db = Database.connect(cluster.primaryUrl, { poolSize: 1 });
    try {
      // 15 books were created and one deleted on top of the seeded 1000.
      const [row] = (await db.query('select count(*) as n from books_book', [])) as { n: string }[];
      assert.equal(Number(row?.n), 1014);
    } finally {
      await db.close();
    }
  });

  it('answers as its OpenAPI document says, through the balancer', async () => {
    const password = 'the stacks are quiet tonight';
    const db = Database.connect(cluster.primaryUrl, { poolSize: 1 });
    try {
      await db.run(() =>
        auth.createUser({ username: 'scale-admin', password, is_superuser: true } as never),
      );
    } finally {
      await db.close();
    }
    await cluster.deleteRedisKeys('*throttle*');
    const document = (
      await send(cluster.baseUrl, { url: '/schema/', headers: { host: HOST } })
    ).json();
    const login = await send(cluster.baseUrl, {
      method: 'POST',
      url: '/manage/api/token/',
      headers: { host: HOST },
      payload: { username: 'scale-admin', password },
    });
    assert.equal(login.statusCode, 200, login.body);
    const token = login.json().token as string;
    const result = await replay(cluster.baseUrl, document, {
      credentials: (path) =>
        path.startsWith('/manage/') ? { authorization: `Token ${token}` } : undefined,
      // Rows the replay may read, change and delete: none of the other tests uses them.
      existing: (path) =>
        path.startsWith('/api/upload/')
          ? '1'
          : path.startsWith('/api/profile/')
            ? '150'
            : path.includes('/authors/')
              ? '40'
              : '999',
    });
    assert.ok(result.operations >= 40, `${result.operations} operations`);
    for (const status of ['200', '201', '204', '400', '401', '404', '406', '415'])
      assert.ok(result.statuses.has(status), `no ${status} among ${[...result.statuses]}`);
    await cluster.deleteRedisKeys('*throttle*');
  });

  it('answers a PATCH through the balancer, and a read on the next request sees it', async () => {
    const db = Database.connect(cluster.primaryUrl, { poolSize: 1 });
    try {
      const rows = (await db.query('select id from books_book order by id limit 1000', [])) as {
        id: number;
      }[];
      books = rows.map((row) => Number(row.id));
    } finally {
      await db.close();
    }
    assert.equal(books.length, BOOKS);
    const res = await send(cluster.baseUrl, {
      method: 'PATCH',
      url: `/books/api/books/${books[0]}/`,
      headers: { host: HOST },
      payload: { title: 'Through the balancer' },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['x-request-id']), /\S/);
    const read = await send(cluster.baseUrl, {
      url: `/books/api/books/${books[0]}/`,
      headers: { host: HOST },
    });
    assert.equal(read.json().title, 'Through the balancer');
  });

  it('loses none of 2,000 concurrent PATCHes and uploads, spread over every worker', async () => {
    const before = await Promise.all(
      [...cluster.workers.values()].map((w) => requestCount(w.port, 'PATCH', BOOK_ROUTE, '200')),
    );
    const started = Date.now();
    const outcomes = await Promise.all([
      ...books.map((book) => patchBook(cluster.baseUrl, book, `load ${book}`)),
      ...Array.from({ length: 1000 }, (_, i) => upload(cluster.baseUrl, `load-${i}`)),
    ]);
    const counts = tally(outcomes);
    log(`2,000 requests at once in ${Date.now() - started} ms: ${counts.text}`);
    assert.equal(counts.failed.length, 0, counts.text);
    const result = await kept(outcomes);
    assert.deepEqual(result, { patches: BOOKS, uploads: 1000 });
    // Each worker answered some of them (its own metrics), and together all of them.
    const served = await Promise.all(
      [...cluster.workers.values()].map(
        async (w, i) =>
          (await requestCount(w.port, 'PATCH', BOOK_ROUTE, '200')) - (before[i] as number),
      ),
    );
    log(`PATCHes per worker: ${served.join(', ')}`);
    for (const n of served) assert.ok(n > 0, `a worker served no PATCH: ${served}`);
    assert.equal(
      served.reduce((a, b) => a + b, 0),
      BOOKS,
    );
  });

  it('holds the login throttle across workers: the 11th login in a minute is 429', async () => {
    await cluster.deleteRedisKeys('*throttle*');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await send(cluster.baseUrl, {
        method: 'POST',
        url: '/manage/api/token/',
        headers: { host: HOST },
        payload: { username: 'nobody', password: 'wrong password' },
      });
      statuses.push(res.statusCode);
    }
    // 10 a minute per address (all of them come from HAProxy's): refused once over, whichever
    // worker counts it.
    assert.deepEqual(statuses, [...Array(10).fill(400), 429]);
    const perWorker = await Promise.all(
      [...cluster.workers.values()].map((w) =>
        requestCount(w.port, 'POST', '/manage/api/token/', '400'),
      ),
    );
    for (const n of perWorker) assert.ok(n > 0, `a worker counted no login: ${perWorker}`);
    await cluster.deleteRedisKeys('*throttle*');
  });

  it('loses no acknowledged write when a worker is killed mid-load, and routes around it', async () => {
    let n = 0;
    const total = 900;
    let killedAt = 0;
    let detectedAt = 0;
    const load = runClients(30, () => {
      if (n >= total) return undefined;
      n++;
      const book = books[(n - 1) % BOOKS] as number;
      return n % 3 === 0
        ? upload(cluster.baseUrl, `kill-${n}`)
        : patchBook(cluster.baseUrl, book, `kill ${n}`);
    });
    while (n < total / 3) await sleep(10);
    killedAt = Date.now();
    assert.equal(await cluster.stopWorker('w2', 'SIGKILL'), null);
    const took = await waitState(cluster.dir, 'w2', /DOWN/);
    detectedAt = Date.now();
    log(`w2 killed after ${total / 3} requests; HAProxy saw it down ${took} ms later`);
    const outcomes = await load;
    const counts = tally(outcomes);
    log(`while killing: ${counts.text}`);
    // Requests sent once HAProxy had taken it out all succeeded.
    const late = counts.failed.filter((o) => o.startedAt >= detectedAt);
    assert.deepEqual(late, []);
    // A request may fail only if it was at the killed worker then.
    for (const o of counts.failed) assert.ok(o.startedAt <= detectedAt && killedAt > 0);
    await kept(outcomes);
    await cluster.replaceWorker('w2');
    await waitState(cluster.dir, 'w2', /^UP/);
  });

  it('drops no request during a rolling restart (SIGTERM, new worker, /readyz)', async () => {
    let n = 0;
    let stop = false;
    const load = runClients(20, () => {
      if (stop) return undefined;
      n++;
      const book = books[(n - 1) % BOOKS] as number;
      if (n % 4 === 0) return upload(cluster.baseUrl, `roll-${n}`);
      if (n % 4 === 1)
        return send(cluster.baseUrl, {
          url: `/books/api/books/${book}/`,
          headers: { host: HOST },
        }).then(
          (res) => ({
            kind: 'patch' as const,
            key: 'read',
            value: '',
            startedAt: 0,
            finishedAt: 0,
            status: res.statusCode,
          }),
          (error) => ({
            kind: 'patch' as const,
            key: 'read',
            value: '',
            startedAt: 0,
            finishedAt: 0,
            status: 0,
            error: String(error),
          }),
        );
      return patchBook(cluster.baseUrl, book, `roll ${n}`);
    });
    for (const name of [...cluster.workers.keys()]) {
      await sleep(300);
      const code = await cluster.stopWorker(name, 'SIGTERM');
      assert.equal(code, 0, `${name} did not stop cleanly`);
      await cluster.replaceWorker(name);
      await waitState(cluster.dir, name, /^UP/);
      log(`${name} restarted after ${n} requests`);
    }
    await sleep(300);
    stop = true;
    const outcomes = await load;
    const counts = tally(outcomes);
    log(`during the rolling restart: ${counts.text}`);
    assert.equal(counts.failed.length, 0, counts.text);
    await kept(outcomes.filter((o) => o.key !== 'read'));
  });
});
