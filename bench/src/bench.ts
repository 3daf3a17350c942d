/**
 * `npm run bench`: the toolkit (the bookstore, core + tricks) against the hand-written Fastify
 * baseline, side by side in one run.
 *
 * 1. One template database: the bookstore's schema (`db.migrate(ALL_MODELS)`) and its
 *    deterministic seed; every server start gets a fresh copy of it.
 * 2. Each scenario's request is sent once to each contender; the answers must agree (bytes
 *    for reads, structure for writes) or the scenario is not measured.
 * 3. Rounds: both servers run, each in its own process, and every scenario loads one then the
 *    other (the order flips every round): a warm-up, then a measured autocannon run.
 * 4. A markdown table: requests/s (median over rounds), p50/p99 latency, the server's peak
 *    RSS, and the ratio toolkit/baseline.
 *
 *   npm run bench -- --duration 10 --rounds 2 --connections 32 --scenarios list,detail
 * @module
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '@restframework/core';
import pg from 'pg';
import { type ContenderName, memoryOf, type RunningServer, startServer } from './contenders.ts';
import { prepareDatabases } from './databases.ts';
import { type LoadResult, runLoad } from './load.ts';
import { parseOptions } from './options.ts';
import { fmt, machine, median, table, writeSection } from './report.ts';
import { buildScenarios, type Scenario, type ScenarioData, seedScenarioData } from './scenarios.ts';
import { type Captured, capture, compareAnswers, floorAnswers } from './verify.ts';

const CONTENDERS: readonly ContenderName[] = ['toolkit', 'baseline'];
const options = parseOptions(process.argv.slice(2), { duration: 10, warmup: 3, rounds: 2 });
/** Loaded in every round: the two contenders, and the floor unless `--no-floor`. */
const LOADED: readonly ContenderName[] = options.floor ? [...CONTENDERS, 'floor'] : CONTENDERS;
// The floor's answers: the baseline's, recorded when the answers are compared.
const floorDir = mkdtempSync(join(tmpdir(), 'rf-bench-floor-'));
const floorFile = join(floorDir, 'answers.json');
const log = (text: string) => process.stderr.write(`${text}\n`);
const loadAtStart = loadavg()[0] as number;

const DATABASE_NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL', mysql: 'MariaDB' } as const;
log(`Preparing the template database (${options.database === 'sqlite' ? 'SQLite' : 'server'})…`);
let data: ScenarioData = { cursorIsbn: '', books: 0 };
const databases = await prepareDatabases(options.database, async (db) => {
  data = await seedScenarioData(db);
});

let databaseVersion: string | undefined;
if (databases.vendor === 'postgres') {
  const client = new pg.Client({ connectionString: databases.templateUrl });
  await client.connect();
  databaseVersion = (await client.query('show server_version')).rows[0]?.server_version;
  await client.end();
} else if (databases.vendor === 'mysql') {
  const db = Database.connect(databases.templateUrl, { poolSize: 1 });
  databaseVersion = ((await db.query('select version() as v', [])) as { v: string }[])[0]?.v;
  await db.close();
}

const all = buildScenarios(data);
const unknown = (options.scenarios ?? []).filter((id) => !all.some((s) => s.id === id));
if (unknown.length) throw new Error(`Unknown scenarios: ${unknown.join(', ')}`);
const selected = options.scenarios ? all.filter((s) => options.scenarios?.includes(s.id)) : all;

const notes = new Map<string, string>();
const runnable: Scenario[] = [];
for (const scenario of selected) {
  const reason = scenario.pending();
  if (reason) notes.set(scenario.id, `pending: ${reason}`);
  else runnable.push(scenario);
}

const nodeOptions = (name: string, round: number) =>
  options.profile
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${options.profile}`,
        `--cpu-prof-name=${name}-round${round}-${process.pid}.cpuprofile`,
      ]
    : [];

try {
  // 2. The answers must agree before anything is measured.
  log('Comparing the answers of both contenders…');
  const answers = new Map<ContenderName, Map<string, Captured>>();
  for (const name of CONTENDERS) {
    const server = await startServer(name, { databaseUrl: await databases.fresh() });
    try {
      answers.set(name, await capture(server, runnable));
    } finally {
      await server.stop();
    }
  }
  const measured = runnable.filter((scenario) => {
    const problem = compareAnswers(
      scenario,
      answers.get('toolkit')?.get(scenario.id),
      answers.get('baseline')?.get(scenario.id),
    );
    if (problem) notes.set(scenario.id, `not measured, the answers differ: ${problem}`);
    return !problem;
  });
  writeFileSync(
    floorFile,
    JSON.stringify(floorAnswers(measured, answers.get('baseline') ?? new Map())),
  );

  // 3. Rounds. Both contenders run side by side (the idle one costs nothing) and each
  // scenario loads one, then the other, seconds apart: this machine's speed drifts by tens of
  // percent over minutes, so figures measured far apart would compare the drift, not the
  // code. The order flips every round.
  const results = new Map<string, Map<ContenderName, LoadResult[]>>();
  const hwm = new Map<ContenderName, number>();
  for (let round = 1; round <= options.rounds && measured.length > 0; round++) {
    const order = round % 2 === 1 ? LOADED : [...LOADED].reverse();
    const servers = new Map<ContenderName, RunningServer>();
    try {
      for (const name of order) {
        servers.set(
          name,
          await startServer(name, {
            // The floor reads no database.
            databaseUrl: name === 'floor' ? '' : await databases.fresh(),
            nodeOptions: nodeOptions(name, round),
            env: { BENCH_FLOOR_ANSWERS: floorFile },
          }),
        );
      }
      for (const scenario of measured) {
        for (const name of order) {
          const server = servers.get(name) as RunningServer;
          const counter = { n: 1 };
          const load = { connections: options.connections, counter };
          if (options.warmup > 0)
            await runLoad(server, scenario, { ...load, seconds: options.warmup });
          const result = await runLoad(server, scenario, { ...load, seconds: options.duration });
          log(
            `round ${round} ${name.padEnd(8)} ${scenario.id.padEnd(12)} ${fmt.rps(result.rps).padStart(7)} req/s  p50 ${fmt.ms(result.p50)} ms  p99 ${fmt.ms(result.p99)} ms  cpu ${fmt.us(result.cpuPerRequest)} µs/req  rss ${fmt.mb(result.peakRss)}${result.failures ? `  ${result.failures} FAILED` : ''}`,
          );
          let byName = results.get(scenario.id);
          if (!byName) results.set(scenario.id, (byName = new Map()));
          byName.set(name, [...(byName.get(name) ?? []), result]);
        }
      }
      for (const [name, server] of servers)
        hwm.set(name, Math.max(hwm.get(name) ?? 0, memoryOf(server.pid).hwm));
    } finally {
      for (const server of servers.values()) await server.stop();
    }
  }

  // 4. The table.
  const instructionCounts = options.instructions
    ? (
        JSON.parse(readFileSync(options.instructions, 'utf8')) as {
          counts: Record<string, { toolkit?: number; baseline?: number }>;
        }
      ).counts
    : null;
  /** Baseline's instructions per request over the toolkit's (above 1: the toolkit does less). */
  const instructionRatio = (id: string) => {
    const counts = instructionCounts?.[id];
    return counts?.toolkit && counts.baseline ? fmt.ratio(counts.baseline / counts.toolkit) : '–';
  };
  const rows: string[][] = [];
  const figures: Record<string, unknown>[] = [];
  for (const scenario of selected) {
    const byName = results.get(scenario.id);
    if (!byName) {
      rows.push([
        scenario.title,
        ...Array.from({ length: 13 }, () => '–'),
        notes.get(scenario.id) ?? '',
      ]);
      continue;
    }
    const summary = (name: ContenderName) => {
      const runs = byName.get(name) ?? [];
      return {
        rps: median(runs.map((r) => r.rps)),
        p50: median(runs.map((r) => r.p50)),
        p99: median(runs.map((r) => r.p99)),
        cpu: median(runs.map((r) => r.cpuPerRequest)),
        rss: Math.max(0, ...runs.map((r) => r.peakRss)),
        failures: runs.reduce((sum, r) => sum + r.failures, 0),
      };
    };
    const t = summary('toolkit');
    const b = summary('baseline');
    const f = byName.has('floor') ? summary('floor') : null;
    const ratio = t.rps / b.rps;
    const verdict = ratio >= scenario.target ? 'met' : 'MISSED';
    const failed = t.failures + b.failures ? ` (${t.failures + b.failures} failed requests)` : '';
    rows.push([
      scenario.title,
      fmt.rps(t.rps),
      fmt.rps(b.rps),
      `**${fmt.ratio(ratio)}**`,
      `${fmt.us(t.cpu)} / ${fmt.us(b.cpu)}`,
      fmt.ratio(b.cpu / t.cpu),
      f ? `${fmt.rps(f.rps)} / ${fmt.us(f.cpu)}` : '–',
      f ? `${fmt.us(t.cpu - f.cpu)} / ${fmt.us(b.cpu - f.cpu)}` : '–',
      instructionRatio(scenario.id),
      `${fmt.ms(t.p50)} / ${fmt.ms(t.p99)}`,
      `${fmt.ms(b.p50)} / ${fmt.ms(b.p99)}`,
      fmt.mb(t.rss),
      fmt.mb(b.rss),
      `≥ ${scenario.target}`,
      `${verdict}${failed}`,
    ]);
    figures.push({
      id: scenario.id,
      toolkit: t,
      baseline: b,
      floor: f,
      ratio,
      cpuRatio: b.cpu / t.cpu,
      instructions: instructionCounts?.[scenario.id] ?? null,
      target: scenario.target,
    });
  }
  for (const scenario of selected) {
    if (results.has(scenario.id)) continue;
    figures.push({ id: scenario.id, note: notes.get(scenario.id) });
  }

  const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim();
  const output = [
    `Date: ${new Date().toISOString()}`,
    `Machine: ${machine(databases.vendor, databaseVersion)}`,
    `Load average (1 min): ${loadAtStart.toFixed(2)} at the start, ${(loadavg()[0] as number).toFixed(2)} at the end (the run itself keeps about 2 busy; more means other work competed with it, and CPU per request is then the figure to compare).`,
    `Command: \`${command}\``,
    `Settings: ${options.connections} connections, ${options.warmup} s warm-up + ${options.duration} s per scenario, ${options.rounds} round(s), each scenario loading toolkit and baseline back to back (order flipped every round); medians over rounds; ratio = toolkit req/s / baseline req/s; CPU µs/req = the server process's CPU time (user + system, /proc/<pid>/stat) over the measured run divided by the requests answered, and CPU ratio = baseline / toolkit CPU per request (what the throughput ratio tends to on a quiet machine, much less sensitive to other load); instr. ratio = baseline / toolkit instructions per request counted by callgrind on SQLite (\`npm run bench:instructions -- --scenarios … --json FILE\`, given with \`--instructions FILE\`; the same whatever the machine's load, client included); RSS is the largest VmRSS of the server process sampled every 100 ms during the scenario; the floor (\`bench/floor/\`, loaded in the same rounds unless \`--no-floor\`) is Fastify answering the baseline's recorded bytes and doing nothing else: its CPU per request is the part of both contenders' cost that only Fastify and Node.js spend, "above floor" what each spends on top of it, and its req/s how fast the load generator can go (a baseline as fast as the floor is limited by the client, not by its own work).`,
    '',
    table(
      [
        'scenario',
        'toolkit req/s',
        'baseline req/s',
        'ratio',
        'CPU µs/req toolkit / baseline',
        'CPU ratio',
        'floor req/s / CPU µs',
        'CPU µs above floor toolkit / baseline',
        'instr. ratio',
        'toolkit p50 / p99 ms',
        'baseline p50 / p99 ms',
        'toolkit RSS',
        'baseline RSS',
        'target',
        'result',
      ],
      rows,
    ),
    '',
    `Peak RSS over the whole run (VmHWM): toolkit ${fmt.mb(hwm.get('toolkit') ?? 0)}, baseline ${fmt.mb(hwm.get('baseline') ?? 0)}.`,
    ...[...notes].map(([id, note]) => `- \`${id}\`: ${note}`),
  ].join('\n');
  console.log(output);
  if (options.writeResults) {
    // One section per database, so a PostgreSQL run does not replace the SQLite figures.
    const vendor = databases.vendor;
    writeSection(
      join(import.meta.dirname, '..', 'RESULTS.md'),
      vendor === 'sqlite' ? 'bench' : `bench-${vendor}`,
      `## Toolkit against the hand-written baseline${vendor === 'sqlite' ? '' : ` on ${DATABASE_NAMES[vendor]}`}\n\n${output}`,
    );
    log('Written to bench/RESULTS.md.');
  }
  if (options.json) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(options.json, `${JSON.stringify({ command, figures }, null, 2)}\n`);
  }
} finally {
  await databases.cleanup();
  rmSync(floorDir, { recursive: true, force: true });
}
