/**
 * What reading from a replica costs the app (issue 43): the bookstore's list of 100 books
 * served from a PostgreSQL streaming replica through `Databases` and `PrimaryReplicaRouter`,
 * against the same list on the primary with one database, loaded in alternating bursts so
 * that the machine's drift hits both alike. Prints each server's CPU time per request (the
 * toolkit's process only: the database servers' work is not counted) and requests per second,
 * and the ratio replica/primary (target ≤ 1.1: routing adds no measurable work per request).
 *
 * The replica is made as the core tests make theirs (`packages/core/test/fixtures/
 * postgres-replica.ts`: `pg_basebackup -R` on a free port, a primary of its own when the server
 * of `TEST_POSTGRES_URL` refuses replication), so it needs `TEST_POSTGRES_URL` and PostgreSQL's
 * programs; everything it starts is stopped and removed at the end.
 *
 * Usage: TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test node bench/src/replica-cost.ts
 *   [--rounds 4] [--seconds 3] [--connections 16]
 * @module
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Database } from '@restframework/core';
import autocannon from 'autocannon';
import { ALL_MODELS, Book } from '../../examples/bookstore/src/models/index.ts';
import { seed } from '../../examples/bookstore/src/seed.ts';
import {
  replicaSkipReason,
  startReplicaPair,
} from '../../packages/core/test/fixtures/postgres-replica.ts';
import { cpuTimeOf } from './contenders.ts';
import { median } from './report.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '16' },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const connections = Number(values.connections);

const skip = replicaSkipReason();
if (skip) {
  console.log(skip);
  process.exit(0);
}
const pair = await startReplicaPair((line) => console.log(line));
const servers: { pid: number; port: string; kill: () => void }[] = [];
try {
  const db = Database.connect(pair.primaryUrl);
  await db.migrate(ALL_MODELS);
  await seed(db, { books: 100, authors: 1, users: 1 });
  await db.close();
  const replica = Database.connect(pair.replicaUrl);
  for (
    let i = 0;
    (await Book.objects
      .using(replica)
      .count()
      .catch(() => 0)) < 100;
    i++
  ) {
    if (i > 300) throw new Error('the replica did not catch up');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await replica.close();

  const start = async (env: Record<string, string>) => {
    const child = spawn(
      process.execPath,
      [
        '--conditions=@restframework/source',
        fileURLToPath(new URL('./servers/replica-cost-server.ts', import.meta.url)),
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, NODE_ENV: 'production', ...env },
      },
    );
    const [line] = (await once(child.stdout, 'data')) as [Buffer];
    const server = {
      pid: child.pid as number,
      port: line.toString().trim().split(' ')[1] as string,
      kill: () => child.kill('SIGTERM'),
    };
    servers.push(server);
    return server;
  };
  const onPrimary = await start({ PRIMARY_URL: pair.primaryUrl });
  const fromReplica = await start({ PRIMARY_URL: pair.primaryUrl, REPLICA_URL: pair.replicaUrl });
  const scenarios = { primary: onPrimary, replica: fromReplica } as const;

  const burst = async (name: keyof typeof scenarios, duration: number) => {
    const { pid, port } = scenarios[name];
    const path = '/bench/books/';
    const before = cpuTimeOf(pid);
    const result = await autocannon({
      url: `http://127.0.0.1:${port}${path}`,
      connections,
      duration,
      requests: [{ method: 'GET', path, headers: { accept: 'application/json' } }],
    });
    const cpuMs = cpuTimeOf(pid) - before;
    const ok = result.requests.total - result.non2xx - result.errors - result.timeouts;
    if (ok !== result.requests.total || ok === 0)
      throw new Error(`${name}: ${result.requests.total - ok} answers were not 2xx`);
    return { cpuPerRequest: (cpuMs * 1000) / ok, rps: result.requests.average };
  };

  await burst('primary', 2);
  await burst('replica', 2);
  const cpu = { primary: [] as number[], replica: [] as number[] };
  const rps = { primary: [] as number[], replica: [] as number[] };
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order: (keyof typeof scenarios)[] =
      round % 2 ? ['replica', 'primary'] : ['primary', 'replica'];
    const paired: Record<string, number> = {};
    for (const name of order) {
      const result = await burst(name, seconds);
      cpu[name].push(result.cpuPerRequest);
      rps[name].push(result.rps);
      paired[name] = result.cpuPerRequest;
    }
    ratios.push((paired.replica as number) / (paired.primary as number));
  }
  const row = (name: 'primary' | 'replica', label: string) =>
    `| ${label} | ${median(cpu[name]).toFixed(1)} | ${Math.round(median(rps[name]))} |`;
  console.log(`\nPostgreSQL (${pair.primaryKind} as primary), GET /bench/books/ (100 books)`);
  console.log('| scenario | CPU µs/request (median) | requests/s (median) |');
  console.log('| --- | --- | --- |');
  console.log(row('primary', 'list on the primary (one database)'));
  console.log(row('replica', 'list from a replica (Databases + PrimaryReplicaRouter)'));
  console.log(
    `\nreplica/primary CPU per request, median of ${rounds} paired rounds: ${median(ratios).toFixed(3)} (target ≤ 1.1; pairs: ${ratios.map((r) => r.toFixed(3)).join(', ')})`,
  );
} finally {
  for (const server of servers) server.kill();
  await new Promise((resolve) => setTimeout(resolve, 500));
  await pair.remove();
}
