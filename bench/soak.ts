/**
 * Soak run: the bookstore as `npm start` runs it (a child process on 127.0.0.1), 60 s of mixed
 * reads and writes at 64 connections with autocannon, on SQLite and on PostgreSQL. Reports
 * requests served, 5xx answers (target 0), p99 latency, and the server's RSS after warm-up and
 * at the end (target: growth under 10 %). Exits 1 when a target is missed.
 *
 *   npm run soak                       # both databases (PostgreSQL when TEST_POSTGRES_URL is set)
 *   SOAK_SECONDS=20 SOAK_CONNECTIONS=32 SOAK_DATABASES=sqlite npm run soak
 *
 * PostgreSQL: a database `rf_soak_<pid>` is created on the server of TEST_POSTGRES_URL and
 * dropped afterwards. Everything else lives in a temporary folder, removed at the end.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '@restframework/core';
import autocannon, { type RequestDefinition } from 'autocannon';
import pg from 'pg';
import { ALL_MODELS } from '../examples/bookstore/src/models/index.ts';
import { seed } from '../examples/bookstore/src/seed.ts';
import { freePort } from '../packages/core/test/fixtures/free-port.ts';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
/** Long enough for the heap and the allocator to reach their working size under this load. */
const WARMUP_SECONDS = Number(process.env.SOAK_WARMUP_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 64);
const DATABASES = (process.env.SOAK_DATABASES ?? 'sqlite,postgres').split(',').map((d) => d.trim());
const BOOKSTORE = join(import.meta.dirname, '..', 'examples', 'bookstore');
const BOUNDARY = 'soakBoundary';

interface Outcome {
  readonly database: string;
  readonly requests: number;
  readonly perSecond: number;
  readonly byStatus: Record<string, number>;
  readonly fiveXX: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly p50: number;
  readonly p99: number;
  readonly rssStartMiB: number;
  readonly rssWarmMiB: number;
  readonly rssEndMiB: number;
  readonly growth: number;
  /** RSS every 5 s of the measured run, in MiB. */
  readonly rssSeries: readonly number[];
}

/** Resident memory of a process, in MiB (Linux). */
function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function waitUntilUp(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the bookstore exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/books/api/`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the bookstore did not start within 60 s');
}

/** The mix: per 10 requests, 6 reads (lists, details, orderings) and 4 writes. */
function mix(): RequestDefinition[] {
  let n = 0;
  const id = () => 1 + Math.floor(Math.random() * 1000);
  const json = { 'content-type': 'application/json' };
  return [
    { method: 'GET', path: '/books/api/books/' },
    { method: 'GET', setupRequest: (r) => ({ ...r, path: `/books/api/books/${id()}/` }) },
    { method: 'GET', path: '/books/api/proxy-books/?ordering=-price' },
    { method: 'GET', path: '/api/profile/?ordering=full_name' },
    {
      method: 'GET',
      setupRequest: (r) => ({ ...r, path: `/books/api/authors/${1 + (id() % 50)}/` }),
    },
    { method: 'GET', path: '/books/api/books/?page=7' },
    {
      method: 'POST',
      path: '/books/api/books/',
      headers: json,
      setupRequest: (r) => ({
        ...r,
        body: JSON.stringify({
          title: `Soak ${++n}`,
          publishing_information: {
            publication_date: '2024-01-01',
            isbn: `SOAK-${process.pid}-${n}-${Math.random()}`,
          },
          stock_information: { price: '9.99' },
        }),
      }),
    },
    {
      method: 'PATCH',
      headers: json,
      setupRequest: (r) => ({
        ...r,
        path: `/books/api/books/${id()}/`,
        body: JSON.stringify({
          stock_information: { stock_count: n % 100 },
          summary: `soaked ${n}`,
        }),
      }),
    },
    {
      method: 'PATCH',
      headers: json,
      setupRequest: (r) => ({
        ...r,
        path: `/api/profile/${1 + (id() % 200)}/`,
        body: JSON.stringify({ biography: `bio ${n}`, hobbies: 'soaking' }),
      }),
    },
    {
      method: 'POST',
      path: '/api/upload/',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      setupRequest: (r) => ({
        ...r,
        body:
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="username"\r\n\r\nsoak${n}\r\n` +
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="resume"; filename="resume.txt"\r\n` +
          `Content-Type: text/plain\r\n\r\n${'resume line\n'.repeat(50)}\r\n--${BOUNDARY}--\r\n`,
      }),
    },
  ];
}

/** A fresh, seeded database; returns its URL and how to remove it. */
async function freshDatabase(
  kind: string,
  dir: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  let url: string;
  let drop = async () => {};
  if (kind === 'sqlite') {
    url = `sqlite:${join(dir, 'soak.sqlite3')}`;
  } else {
    const admin = process.env.TEST_POSTGRES_URL as string;
    const name = `rf_soak_${process.pid}`;
    const run = async (statement: string) => {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      try {
        await client.query(statement);
      } finally {
        await client.end();
      }
    };
    await run(`drop database if exists "${name}" with (force)`);
    await run(`create database "${name}"`);
    const target = new URL(admin);
    target.pathname = `/${name}`;
    url = target.toString();
    drop = () => run(`drop database if exists "${name}" with (force)`);
  }
  const db = Database.connect(url);
  try {
    await db.migrate(ALL_MODELS);
    await seed(db);
  } finally {
    await db.close();
  }
  return { url, drop };
}

async function soak(kind: string): Promise<Outcome> {
  const dir = mkdtempSync(join(tmpdir(), `bookstore-soak-${kind}-`));
  const database = await freshDatabase(kind, dir);
  const port = await freePort();
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: BOOKSTORE,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: database.url,
      MEDIA_ROOT: join(dir, 'media'),
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitUntilUp(port, child);
    const pid = child.pid as number;
    const rssStartMiB = rssMiB(pid);
    const url = `http://127.0.0.1:${port}`;
    console.log(
      `\n${kind}: warm-up ${WARMUP_SECONDS} s, then ${SECONDS} s at ${CONNECTIONS} connections`,
    );
    await autocannon({
      url,
      connections: CONNECTIONS,
      duration: WARMUP_SECONDS,
      timeout: 10,
      requests: mix(),
    });
    const rssWarmMiB = rssMiB(pid);
    const rssSeries = [rssWarmMiB];
    const sampler = setInterval(() => rssSeries.push(rssMiB(pid)), 5000);
    const result = await autocannon({
      url,
      connections: CONNECTIONS,
      duration: SECONDS,
      timeout: 10,
      requests: mix(),
    });
    clearInterval(sampler);
    const rssEndMiB = rssMiB(pid);
    const byStatus = Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count]),
    );
    const fiveXX = Object.entries(byStatus)
      .filter(([status]) => status.startsWith('5'))
      .reduce((sum, [, count]) => sum + count, 0);
    return {
      database: kind,
      requests: result.requests.total,
      perSecond: Math.round(result.requests.average),
      byStatus,
      fiveXX,
      errors: result.errors,
      timeouts: result.timeouts,
      p50: result.latency.p50,
      p99: result.latency.p99,
      rssStartMiB,
      rssWarmMiB,
      rssEndMiB,
      rssSeries: [...rssSeries, rssEndMiB],
      growth: (rssEndMiB - rssWarmMiB) / rssWarmMiB,
    };
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const outcomes: Outcome[] = [];
for (const kind of DATABASES) {
  if (kind === 'postgres' && !process.env.TEST_POSTGRES_URL) {
    console.log('\npostgres: TEST_POSTGRES_URL is not set, soak on PostgreSQL skipped');
    continue;
  }
  if (kind !== 'sqlite' && kind !== 'postgres')
    throw new Error(`Unknown database ${kind}: use sqlite or postgres.`);
  outcomes.push(await soak(kind));
}

console.log(
  `\nSoak: ${SECONDS} s of mixed reads and writes at ${CONNECTIONS} connections, after ${WARMUP_SECONDS} s of warm-up`,
);
console.log(
  '| database | requests | req/s | 5xx | errors | timeouts | p50 ms | p99 ms | RSS start | RSS after warm-up | RSS end | growth | statuses |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
let missed = false;
for (const o of outcomes) {
  const mib = (v: number) => `${v.toFixed(0)} MiB`;
  console.log(
    `| ${o.database} | ${o.requests} | ${o.perSecond} | ${o.fiveXX} | ${o.errors} | ${o.timeouts} | ${o.p50} | ${o.p99} | ` +
      `${mib(o.rssStartMiB)} | ${mib(o.rssWarmMiB)} | ${mib(o.rssEndMiB)} | ${(o.growth * 100).toFixed(1)} % | ` +
      `${Object.entries(o.byStatus)
        .map(([s, n]) => `${n}× ${s}`)
        .join(', ')} |`,
  );
  if (o.fiveXX > 0 || o.errors > 0 || o.growth >= 0.1) missed = true;
}
for (const o of outcomes) {
  console.log(
    `${o.database}: RSS every 5 s (MiB): ${o.rssSeries.map((v) => v.toFixed(0)).join(' ')}`,
  );
}
if (missed) {
  console.log('\nA target was missed (5xx or errors above 0, or RSS growth of 10 % or more).');
  process.exit(1);
}
