/**
 * `npm run bench:scale`: how the cost of a list grows with the table. At each size (1
 * thousand, 100 thousand and 1 million books, and as many users with profiles) both
 * contenders serve the book list with cursor pagination (a page in the middle), with
 * page-number pagination (the first page and a page in the middle), and
 * `/api/profile/?ordering=email` (a join, ordered across it); the report gives p50 per size
 * and the query plans (EXPLAIN QUERY PLAN / EXPLAIN) of the toolkit's SQL.
 *
 * Target: the cursor-paginated list's p50 at 1M rows within 1.5x of its p50 at 1k rows.
 *
 *   npm run bench:scale -- --sizes 1000,100000,1000000 --duration 5
 * @module
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Database } from '@restframework/core';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { buildApp } from '../../examples/bookstore/src/app.ts';
import { encodeCursor } from '../baseline/cursor.ts';
import { bulkSeed } from './bulk-seed.ts';
import { type ContenderName, startServer } from './contenders.ts';
import { prepareDatabases } from './databases.ts';
import { type LoadResult, runLoad } from './load.ts';
import { parseOptions } from './options.ts';
import { fmt, machine, median, table, writeSection } from './report.ts';
import type { Scenario } from './scenarios.ts';
import { registerBenchRoutes } from './servers/bench-router.ts';
import { capture, compareAnswers } from './verify.ts';

const CONTENDERS: readonly ContenderName[] = ['toolkit', 'baseline'];
const options = parseOptions(process.argv.slice(2), { duration: 5, warmup: 2, rounds: 1 });
// The bulk seeding and the isbn samples below speak SQLite and PostgreSQL only.
if (/^(mysql|mariadb):/.test(options.database))
  throw new Error(
    'bench:scale runs on sqlite or a postgres:// URL; MySQL/MariaDB is not supported here yet',
  );
const log = (text: string) => process.stderr.write(`${text}\n`);
const loadAtStart = loadavg()[0] as number;

function read(id: string, title: string, path: string): Scenario {
  return {
    id,
    title,
    method: 'GET',
    status: 200,
    target: 0,
    compare: 'exact',
    request: () => ({ path }),
    pending: () => null,
  };
}

/** The isbn at `offset` in isbn order, read with the driver. */
async function isbnAt(url: string, offset: number): Promise<string> {
  const sql = 'select "isbn" from "books_book" order by "isbn" limit 1 offset ';
  if (url.startsWith('sqlite:')) {
    const db = new BetterSqlite3(url.slice('sqlite:'.length), { readonly: true });
    try {
      return (db.prepare(`${sql}?`).get(offset) as { isbn: string }).isbn;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(`${sql}$1`, [offset])).rows[0].isbn;
  } finally {
    await client.end();
  }
}

/** Up to `count` isbns spread evenly over the isbn order, read with the driver. */
async function isbnSample(url: string, size: number, count: number): Promise<string[]> {
  const step = Math.max(1, Math.floor(size / count));
  const sql = 'select "isbn" from "books_book" where "id" % ? = 0 order by "id" limit ?';
  if (url.startsWith('sqlite:')) {
    const db = new BetterSqlite3(url.slice('sqlite:'.length), { readonly: true });
    try {
      return (db.prepare(sql).all(step, count) as { isbn: string }[]).map((r) => r.isbn);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = (await client.query(sql.replace('?', '$1').replace('?', '$2'), [step, count]))
      .rows;
    return rows.map((r: { isbn: string }) => r.isbn);
  } finally {
    await client.end();
  }
}

/** The toolkit's SQL for each scenario's request, and its plan. */
async function plans(url: string, scenarios: readonly Scenario[]): Promise<Map<string, string[]>> {
  const db = Database.connect(url);
  const app = await buildApp({ database: db });
  await registerBenchRoutes(app);
  const out = new Map<string, string[]>();
  try {
    for (const scenario of scenarios) {
      const queries: { sql: string; parameters: readonly unknown[] }[] = [];
      const stop = db.onQuery((q) => queries.push(q));
      await app.inject({ url: scenario.request(0).path, headers: { host: '127.0.0.1' } });
      stop();
      const lines: string[] = [];
      for (const query of queries) {
        if (!/^\s*select/i.test(query.sql)) continue;
        lines.push(`${query.sql}  -- ${JSON.stringify(query.parameters)}`);
        for (const step of await db.explain(query)) lines.push(`    ${step}`);
      }
      out.set(scenario.id, lines);
    }
  } finally {
    await app.close();
    await db.close();
  }
  return out;
}

interface SizeResult {
  readonly size: number;
  readonly seedSeconds: number;
  readonly results: Map<string, Map<ContenderName, LoadResult[]>>;
  readonly notes: Map<string, string>;
  readonly plans: Map<string, string[]>;
}

const sizes: SizeResult[] = [];
const titles = new Map<string, string>();
let vendor = 'sqlite';
for (const size of options.sizes) {
  log(`\n# ${size.toLocaleString('en-US')} rows`);
  const started = performance.now();
  const databases = await prepareDatabases(options.database, (_db, url) =>
    bulkSeed(url, { books: size, users: size }),
  );
  const seedSeconds = (performance.now() - started) / 1000;
  log(`seeded in ${seedSeconds.toFixed(1)} s`);
  vendor = databases.vendor;
  try {
    const url = await databases.fresh();
    const middlePage = Math.max(1, Math.ceil(size / 100 / 2));
    const all = [
      read(
        'cursor',
        'list, cursor pagination (page in the middle)',
        `/bench/api/books-cursor/?cursor=${encodeCursor(await isbnAt(url, Math.floor(size / 2)), false)}`,
      ),
      {
        ...read('cursor-random', 'list, cursor pagination (a different page each request)', ''),
        request: ((cursors: string[]) => (n: number) => ({
          path: `/bench/api/books-cursor/?cursor=${cursors[n % cursors.length]}`,
        }))((await isbnSample(url, size, 1000)).map((isbn) => encodeCursor(isbn, false))),
      },
      read('list', 'list, page-number pagination (first page, with count)', '/books/api/books/'),
      read(
        'list-middle',
        `list, page-number pagination (middle page, with count)`,
        `/books/api/books/?page=${middlePage}`,
      ),
      read(
        'profile',
        '/api/profile/?ordering=email (join, first page, with count)',
        '/api/profile/?ordering=email',
      ),
    ];
    for (const scenario of all) titles.set(scenario.id, scenario.title);
    const scenarios = options.scenarios
      ? all.filter((s) => options.scenarios?.includes(s.id))
      : all;
    const notes = new Map<string, string>();
    const answers = new Map<ContenderName, Awaited<ReturnType<typeof capture>>>();
    for (const name of CONTENDERS) {
      const server = await startServer(name, { databaseUrl: url });
      try {
        answers.set(name, await capture(server, scenarios));
      } finally {
        await server.stop();
      }
    }
    const measured = scenarios.filter((s) => {
      const problem = compareAnswers(
        s,
        answers.get('toolkit')?.get(s.id),
        answers.get('baseline')?.get(s.id),
      );
      if (problem) notes.set(s.id, `not measured, the answers differ: ${problem}`);
      return !problem;
    });
    // Every scenario only reads, so both contenders share one copy of the data.
    const results = new Map<string, Map<ContenderName, LoadResult[]>>();
    for (let round = 1; round <= options.rounds; round++) {
      for (const name of CONTENDERS) {
        const server = await startServer(name, { databaseUrl: url });
        try {
          for (const scenario of measured) {
            const load = { connections: options.connections, counter: { n: 1 } };
            if (options.warmup > 0)
              await runLoad(server, scenario, { ...load, seconds: options.warmup });
            const result = await runLoad(server, scenario, { ...load, seconds: options.duration });
            log(
              `${size} ${name.padEnd(8)} ${scenario.id.padEnd(12)} ${fmt.rps(result.rps).padStart(7)} req/s  p50 ${fmt.ms(result.p50)} ms  p99 ${fmt.ms(result.p99)} ms${result.failures ? `  ${result.failures} FAILED` : ''}`,
            );
            let byName = results.get(scenario.id);
            if (!byName) results.set(scenario.id, (byName = new Map()));
            byName.set(name, [...(byName.get(name) ?? []), result]);
          }
        } finally {
          await server.stop();
        }
      }
    }
    sizes.push({ size, seedSeconds, results, notes, plans: await plans(url, scenarios) });
  } finally {
    await databases.cleanup();
  }
}

// The report: p50 per size for each scenario, the growth, then the plans.
const ids = ['cursor', 'cursor-random', 'list', 'list-middle', 'profile'].filter(
  (id) => !options.scenarios || options.scenarios.includes(id),
);
const p50 = (s: SizeResult, id: string, name: ContenderName) =>
  median((s.results.get(id)?.get(name) ?? []).map((r) => r.p50));
const rps = (s: SizeResult, id: string, name: ContenderName) =>
  median((s.results.get(id)?.get(name) ?? []).map((r) => r.rps));
const cpu = (s: SizeResult, id: string, name: ContenderName) =>
  median((s.results.get(id)?.get(name) ?? []).map((r) => r.cpuPerRequest));
const lines: string[] = [
  `Date: ${new Date().toISOString()}`,
  `Machine: ${machine(vendor)}`,
  `Load average (1 min): ${loadAtStart.toFixed(2)} at the start, ${(loadavg()[0] as number).toFixed(2)} at the end.`,
  `Command: \`npm run bench:scale -- ${process.argv.slice(2).join(' ')}\``.replace(' -- `', '`'),
  `Settings: ${options.connections} connections, ${options.warmup} s warm-up + ${options.duration} s per scenario and size, ${options.rounds} round(s); each cell: p50 (autocannon's median latency under that load, ms), then requests/s and the server's CPU time per request (steadier than latency when other work shares the machine). Seeding: ${sizes.map((s) => `${s.size.toLocaleString('en-US')} rows in ${s.seedSeconds.toFixed(1)} s`).join(', ')} (books, users and profiles each).`,
  '',
];
const header = [
  'scenario',
  ...sizes.flatMap((s) => [
    `toolkit p50 @ ${s.size.toLocaleString('en-US')}`,
    `baseline p50 @ ${s.size.toLocaleString('en-US')}`,
  ]),
];
const rows = ids.map((id) => [
  `\`${id}\`: ${titles.get(id) ?? id}`,
  ...sizes.flatMap((s) => [
    `${fmt.ms(p50(s, id, 'toolkit'))} (${fmt.rps(rps(s, id, 'toolkit'))}/s, ${fmt.us(cpu(s, id, 'toolkit'))} µs)`,
    `${fmt.ms(p50(s, id, 'baseline'))} (${fmt.rps(rps(s, id, 'baseline'))}/s, ${fmt.us(cpu(s, id, 'baseline'))} µs)`,
  ]),
]);
lines.push(table(header, rows), '');
const first = sizes[0];
const last = sizes[sizes.length - 1];
if (first && last && first !== last) {
  for (const id of ['cursor', 'cursor-random'].filter((i) => ids.includes(i))) {
    const growth = p50(last, id, 'toolkit') / p50(first, id, 'toolkit');
    const cpuGrowth = cpu(last, id, 'toolkit') / cpu(first, id, 'toolkit');
    lines.push(
      `- \`${id}\`, toolkit p50 at ${last.size.toLocaleString('en-US')} rows / at ${first.size.toLocaleString('en-US')} rows: **${fmt.ratio(growth)}x** (target ≤ 1.5x: ${growth <= 1.5 ? 'met' : 'MISSED'}); CPU per request ${fmt.ratio(cpuGrowth)}x.`,
    );
  }
  lines.push('');
}
for (const s of sizes) {
  for (const [id, note] of s.notes) lines.push(`- ${s.size} \`${id}\`: ${note}`);
}
// One blank line before the heading, as the formatter (Biome) writes markdown.
if (lines[lines.length - 1] !== '') lines.push('');
lines.push('### Query plans of the toolkit’s SQL (the baseline runs the same SQL)', '');
for (const s of sizes) {
  lines.push(`#### ${s.size.toLocaleString('en-US')} rows`, '');
  for (const [id, plan] of s.plans) lines.push(`\`${id}\`:`, '', '```', ...plan, '```', '');
}
const output = lines.join('\n');
console.log(output);
if (options.writeResults) {
  writeSection(
    join(import.meta.dirname, '..', 'RESULTS.md'),
    'bench-scale',
    `## How cost grows with the table (\`npm run bench:scale\`)\n\n${output}`,
  );
  log('Written to bench/RESULTS.md.');
}
