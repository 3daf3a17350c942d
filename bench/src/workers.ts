/**
 * `npm run bench:workers` (issue 43): the throughput of the bookstore's book list (100 books a
 * page) served by `serve` with 1 worker and with 2, loaded in alternating bursts so that the
 * machine's drift hits both alike. The load generator (autocannon) runs in this process, on the
 * same cores: on a 2-core machine the two workers and the generator share them, so the ratio
 * says how much a second worker gives there, not what it gives on a larger machine. Prints the
 * median requests per second of each and the load average before and after.
 *
 * On SQLite (a file made here and removed at the end): reads only, so the workers share it
 * without waiting on each other.
 *
 * Usage: node bench/src/workers.ts [--rounds 3] [--seconds 4] [--connections 16]
 * @module
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Database } from '@restframework/core';
import autocannon from 'autocannon';
import { ALL_MODELS } from '../../examples/bookstore/src/models/index.ts';
import { seed } from '../../examples/bookstore/src/seed.ts';
import { freePort } from '../../packages/core/test/fixtures/free-port.ts';
import { fmt, median } from './report.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '4' },
    connections: { type: 'string', default: '16' },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const ENTRY = fileURLToPath(new URL('./servers/workers-entry.ts', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'rf-bench-workers-'));
const url = `sqlite:${join(dir, 'bookstore.sqlite3')}`;
const db = Database.connect(url);
await db.migrate(ALL_MODELS);
await seed(db, { books: 1000, authors: 10, users: 10 });
await db.close();

async function measure(workers: number, port: number): Promise<number> {
  const child = spawn(process.execPath, [ENTRY], {
    env: { ...process.env, DATABASE_URL: url, WORKERS: String(workers), PORT: String(port) },
    stdio: 'ignore',
  });
  try {
    const target = `http://127.0.0.1:${port}/books/api/books/`;
    for (let i = 0; ; i++) {
      const ok = await fetch(target).then(
        (res) => res.ok,
        () => false,
      );
      if (ok) break;
      if (i > 200) throw new Error(`serve with ${workers} workers did not answer`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Warm every worker (JIT, statement cache) before the measured burst.
    await autocannon({ url: target, connections, duration: 1 });
    const result = await autocannon({ url: target, connections, duration: seconds });
    if (result.non2xx || result.errors)
      throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`);
    return result.requests.average;
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const loadBefore = loadavg()[0] as number;
const rps: Record<1 | 2, number[]> = { 1: [], 2: [] };
try {
  for (let round = 0; round < rounds; round++) {
    for (const workers of round % 2 ? ([2, 1] as const) : ([1, 2] as const)) {
      rps[workers].push(await measure(workers, await freePort()));
      console.error(
        `round ${round + 1}: ${workers} worker(s) ${fmt.rps(rps[workers].at(-1) as number)} req/s`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const one = median(rps[1]);
const two = median(rps[2]);
console.log(
  `book list (100 a page), ${rounds} rounds of ${seconds} s, ${connections} connections: ` +
    `1 worker ${fmt.rps(one)} req/s, 2 workers ${fmt.rps(two)} req/s, ratio ${(two / one).toFixed(2)}; ` +
    `load average ${loadBefore.toFixed(1)} before, ${(loadavg()[0] as number).toFixed(1)} after`,
);
