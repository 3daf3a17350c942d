/**
 * Instructions per request, counted by valgrind's callgrind: the same for the same build and
 * inputs whatever else the machine is doing, where times on this VM drift by tens of percent.
 * Each checkout's contender serves `--requests` requests after `--warmup` others, twice (the
 * second run twice as long), and the difference of the two counts divided by `--requests` is
 * the cost of one request with start-up and warm-up taken out. The client runs in the same
 * process (`servers/instruction-client.ts`), so the figure includes it: compare figures,
 * never read one alone. Kernel work (the socket writes) is not counted.
 *
 *   npm run bench:instructions -- --a /tmp/before --b . --path /books/api/books/1/
 *   npm run bench:instructions -- --a . --contenders toolkit,baseline
 *   npm run bench:instructions -- --contenders toolkit,baseline --scenarios detail,options
 *
 * `--scenarios` counts the bench's rows (`INSTRUCTION_SCENARIOS`: the request of each) one
 * after another and ends with a table of the ratios toolkit/baseline. `--database` counts on
 * PostgreSQL or MySQL/MariaDB instead of SQLite (fresh copies of one seeded template, as
 * `npm run bench` makes them); the database server's own work is not counted, only the Node.js
 * process's, which is what the figure compares.
 *
 * The default warm-up is long (15,000 requests) because V8 keeps compiling for a while: after
 * 3,000 requests of GET one book, Turbofan still took 164,000 of the toolkit's 546,000
 * instructions per request of the next 3,000, against 10,600 of 338,000 after 15,000.
 * So each figure is printed with the part of it that V8's optimizing compilers (Maglev,
 * Turbofan) took, and the rest: a function reaching its tier-up inside the counted requests
 * in one build and after them in the other moves a one-time compile of millions of
 * instructions into one figure (bench/RESULTS.md, "Issue 38: the step is a compile").
 *
 * Needs valgrind (`apt-get install -y valgrind`); takes about six minutes per contender.
 * @module
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { seed } from '../../examples/bookstore/src/seed.ts';
import { seedArticles } from './articles/seed.ts';
import { prepareDatabases } from './databases.ts';
import { INSTRUCTION_SCENARIOS, type InstructionScenario } from './instruction-scenarios.ts';

const HELP = `Options:
  --a DIR             a checkout (default .)
  --b DIR             another checkout to compare with the first (optional)
  --contenders a,b    toolkit and/or baseline (default toolkit)
  --path P            the request's path (default /books/api/books/1/)
  --method M          its method (default GET)
  --body JSON         its JSON body; UNIQUE in it changes with every request
  --scenarios a,b     instead of --path: rows of the bench (${Object.keys(INSTRUCTION_SCENARIOS).join(', ')})
  --json FILE         also write the counts as JSON (for \`npm run bench -- --instructions FILE\`)
  --warmup N          requests before the counted ones (default 15000)
  --requests N        requests counted (default 3000)
  --node-flags F      more flags for node, comma-separated (e.g. --no-incremental-marking)
  --keep DIR          keep the callgrind files in DIR (for callgrind_annotate) instead of deleting them
  --connections N     concurrent keep-alive connections of the client (default 1): above 1
                      the server works with requests interleaved, as under load
  --database D        sqlite (default), postgres:// or mysql://user@host:port/name (copies are
                      made next to that database, which is never touched)`;

const { values } = parseArgs({
  options: {
    a: { type: 'string', default: '.' },
    b: { type: 'string' },
    contenders: { type: 'string', default: 'toolkit' },
    path: { type: 'string', default: '/books/api/books/1/' },
    method: { type: 'string', default: 'GET' },
    body: { type: 'string' },
    scenarios: { type: 'string' },
    json: { type: 'string' },
    warmup: { type: 'string', default: '15000' },
    requests: { type: 'string', default: '3000' },
    database: { type: 'string', default: 'sqlite' },
    connections: { type: 'string', default: '1' },
    keep: { type: 'string' },
    'node-flags': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const warmup = Number(values.warmup);
const requests = Number(values.requests);
if (!Number.isSafeInteger(warmup) || warmup < 1 || !Number.isSafeInteger(requests) || requests < 1)
  throw new Error('--warmup and --requests must be positive integers');
const contenders = values.contenders.split(',');
for (const c of contenders) {
  if (c !== 'toolkit' && c !== 'baseline') throw new Error(`unknown contender "${c}"`);
}
const checkouts = [values.a, ...(values.b ? [values.b] : [])].map((dir) => resolve(dir));
const client = join(import.meta.dirname, 'servers', 'instruction-client.ts');

if (values.keep) mkdirSync(values.keep, { recursive: true });
const work = values.keep ? resolve(values.keep) : mkdtempSync(join(tmpdir(), 'rf-instructions-'));
const databases = await prepareDatabases(values.database, async (db) => {
  await seed(db);
  await seedArticles(db);
});

/** One run's totals: all instructions, and those inside V8's optimizing compilers. */
interface Counted {
  readonly total: number;
  readonly compiling: number;
}

/**
 * The entry of V8's optimizing compilers: with `--single-threaded` every Maglev and Turbofan
 * job of a function runs inside it, on the main thread. On-stack replacement's entry is left
 * out: with it too, a 10-request smoke run counted more compiling than instructions (some
 * inclusive cost counted twice; whether that entry was the cause is not yet checked). The
 * 1,000-request counts of bench/RESULTS.md were taken with this entry alone.
 */
const COMPILER_ENTRIES = /^\s*([\d,]+) .*v8::internal::Compiler::CompileOptimized\(/;

/** The instructions spent inside {@link COMPILER_ENTRIES} (callgrind_annotate, inclusive). */
function compilingOf(out: string): Promise<number> {
  return new Promise((done, fail) => {
    const args = ['--inclusive=yes', '--threshold=100', out];
    execFile('callgrind_annotate', args, { maxBuffer: 256 * 1024 * 1024 }, (error, stdout) => {
      if (error) return fail(new Error(`callgrind_annotate failed on ${out}: ${error.message}`));
      let sum = 0;
      for (const line of stdout.split('\n')) {
        const entry = COMPILER_ENTRIES.exec(line);
        if (entry) sum += Number((entry[1] as string).replaceAll(',', ''));
      }
      done(sum);
    });
  });
}

/** Total instructions of one run of `count` requests (callgrind's "summary" line). */
function count(
  checkout: string,
  contender: string,
  request: InstructionScenario,
  total: number,
  tag: string,
  databaseUrl: string,
): Promise<Counted> {
  const out = join(work, `${tag}.callgrind`);
  const args = [
    '--tool=callgrind',
    `--callgrind-out-file=${out}`,
    // V8 writes and rewrites its machine code.
    '--smc-check=all-non-file',
    process.execPath,
    // No compiler or GC threads, no time-based heuristics: the same run every time.
    '--single-threaded',
    '--predictable',
    '--expose-gc',
    ...(values['node-flags'] ? values['node-flags'].split(',') : []),
    client,
    checkout,
    contender,
    databaseUrl,
    request.path,
    String(total),
    request.method,
    ...(request.body ? [request.body] : []),
  ];
  return new Promise((done, fail) => {
    const env = { ...process.env, RF_INSTRUCTION_CONNECTIONS: values.connections };
    execFile('valgrind', args, { maxBuffer: 64 * 1024 * 1024, env }, (error, _stdout, stderr) => {
      if (error)
        return fail(
          new Error(`valgrind failed (${checkout}, ${contender}): ${stderr.slice(-2000)}`),
        );
      const summary = /^summary: (\d+)$/m.exec(readFileSync(out, 'utf8'));
      if (!summary) return fail(new Error(`no summary in ${out}`));
      const total = Number(summary[1]);
      compilingOf(out).then((compiling) => done({ total, compiling }), fail);
    });
  });
}

const unknown = (values.scenarios ?? '')
  .split(',')
  .filter((id) => id && !(id in INSTRUCTION_SCENARIOS));
if (unknown.length) throw new Error(`unknown scenarios: ${unknown.join(', ')}`);
const requestsToCount: [string, InstructionScenario][] = values.scenarios
  ? values.scenarios.split(',').map((id) => [id, INSTRUCTION_SCENARIOS[id] as InstructionScenario])
  : [
      [
        `${values.method} ${values.path}`,
        { path: values.path, method: values.method, ...(values.body ? { body: values.body } : {}) },
      ],
    ];

const rows: {
  scenario: string;
  checkout: string;
  contender: string;
  perRequest: number;
  /** The part of `perRequest` inside V8's optimizing compilers. */
  compiling: number;
}[] = [];

/** "N (C compiling, R the rest)". */
function described(row: { perRequest: number; compiling: number }): string {
  const n = (value: number) => value.toLocaleString('en');
  return `${n(row.perRequest)} (${n(row.compiling)} compiling, ${n(row.perRequest - row.compiling)} the rest)`;
}
try {
  for (const [scenario, request] of requestsToCount) {
    for (const checkout of checkouts) {
      for (const contender of contenders) {
        const tag = `${rows.length}-${scenario.replace(/\W+/g, '_')}-${contender}`;
        // Both runs at once: each is single-threaded, and counts do not depend on timing.
        const [shortDb, longDb] = [await databases.fresh(), await databases.fresh()];
        const [short, long] = await Promise.all([
          count(checkout, contender, request, warmup, `${tag}-short`, shortDb),
          count(checkout, contender, request, warmup + requests, `${tag}-long`, longDb),
        ]);
        const perRequest = Math.round((long.total - short.total) / requests);
        const compiling = Math.round((long.compiling - short.compiling) / requests);
        const row = { scenario, checkout, contender, perRequest, compiling };
        rows.push(row);
        console.log(
          `${scenario}: ${checkout} ${contender}: ${described(row)} instructions per request`,
        );
      }
    }
  }
} finally {
  if (!values.keep) rmSync(work, { recursive: true, force: true });
  await databases.cleanup();
}
for (const [scenario, request] of requestsToCount) {
  const mine = rows.filter((row) => row.scenario === scenario);
  const first = mine[0];
  if (!first || mine.length < 2) continue;
  console.log(`\n${scenario}: ${request.method} ${request.path}`);
  for (const row of mine) {
    const rest = (r: typeof row) => r.perRequest - r.compiling;
    console.log(
      `${row.checkout} ${row.contender}: ${described(row)}: ${(row.perRequest / first.perRequest).toFixed(3)} of the first, the rest ${(rest(row) / rest(first)).toFixed(3)}`,
    );
  }
}
if (values.scenarios && contenders.length === 2) {
  // The bench's own ratio: the baseline's instructions over the toolkit's (above 1: the
  // toolkit does less), per checkout.
  console.log('\n| scenario | toolkit instr./req | baseline instr./req | ratio baseline/toolkit |');
  console.log('| --- | --- | --- | --- |');
  for (const [scenario] of requestsToCount) {
    for (const checkout of checkouts) {
      const of = (contender: string) =>
        rows.find(
          (r) => r.scenario === scenario && r.checkout === checkout && r.contender === contender,
        )?.perRequest ?? Number.NaN;
      const t = of('toolkit');
      const b = of('baseline');
      console.log(
        `| ${scenario}${checkouts.length > 1 ? ` (${checkout})` : ''} | ${t.toLocaleString('en')} | ${b.toLocaleString('en')} | ${(b / t).toFixed(3)} |`,
      );
    }
  }
}
if (values.json) {
  const counts: Record<string, Record<string, number>> = {};
  for (const row of rows) {
    if (row.checkout !== checkouts[0]) continue;
    counts[row.scenario] = { ...counts[row.scenario], [row.contender]: row.perRequest };
  }
  writeFileSync(
    values.json,
    `${JSON.stringify({ date: new Date().toISOString(), warmup, requests, counts }, null, 2)}\n`,
  );
}
