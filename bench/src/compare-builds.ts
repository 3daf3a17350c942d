/**
 * Two builds of the toolkit side by side: did a change make requests cheaper?
 *
 *   git worktree add /tmp/before HEAD~1 && cp -a node_modules /tmp/before/
 *   npm run bench:compare -- --a /tmp/before --b . --scenarios detail,patch
 *
 * Both servers (each checkout's `bench/src/servers/toolkit-server.ts`, on its own fresh copy of
 * the database) run at once, and each scenario loads them in short bursts, A then B, then B
 * then A. What counts is the ratio of the two CPU times per request within each pair: this
 * machine's speed drifts by tens of percent within minutes, so comparing runs made minutes
 * apart measures the drift more than the change; pairs a few seconds apart see the same
 * machine. One server process can also stay a few percent faster than another of the same
 * build for its whole life (an A/A comparison showed 0.94 once, 0.99 the next time), so the
 * servers are started afresh for each of several sessions, in turn A first and B first. The
 * result is the median of all pair ratios: a change of 3 % shows as about 0.97, with most pairs
 * below 1; compare the same build with itself (`--a . --b .`) to see the noise of the hour.
 * @module
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type RunningServer, startServer } from './contenders.ts';
import { prepareDatabases } from './databases.ts';
import { runLoad } from './load.ts';
import { databaseOption, positive } from './options.ts';
import { fmt, median, table } from './report.ts';
import { buildScenarios, type ScenarioData, seedScenarioData } from './scenarios.ts';

const HELP = `Options:
  --a DIR            the checkout measured first (with its node_modules), e.g. a git worktree
  --b DIR            the checkout compared with it (default: this one)
  --scenarios a,b    scenario ids (default: detail,list,create,patch); see npm run bench -- --help
  --sessions N       times both servers are started afresh (default 3)
  --pairs N          pairs of bursts per scenario and session (default 4)
  --seconds S        length of a burst (default 1.5)
  --connections N    concurrent connections (default 32)
  --database D       sqlite (default), postgres:// or mysql://user@host:port/name
  --rate N           a fixed rate of N requests/s in every burst (default: as fast as each
                     server answers); below both servers' capacity, CPU per request moves less
  --help             this text`;

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    scenarios: { type: 'string' },
    sessions: { type: 'string' },
    pairs: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string' },
    rate: { type: 'string' },
    database: { type: 'string' },
    help: { type: 'boolean' },
  },
});
if (values.help || !values.a) {
  console.log(HELP);
  process.exit(values.help ? 0 : 1);
}
const sessions = Math.round(positive('sessions', values.sessions, 3));
const pairsPerSession = Math.round(positive('pairs', values.pairs, 4));
const seconds = positive('seconds', values.seconds, 1.5);
const connections = Math.round(positive('connections', values.connections, 32));
const rate = values.rate === undefined ? undefined : positive('rate', values.rate, 0);
const builds = {
  A: resolve(values.a),
  B: resolve(values.b ?? resolve(import.meta.dirname, '..', '..')),
};
const log = (text: string) => process.stderr.write(`${text}\n`);

let data: ScenarioData = { cursorIsbn: '', books: 0 };
const databases = await prepareDatabases(databaseOption(values.database), async (db) => {
  data = await seedScenarioData(db);
});
const all = buildScenarios(data);
const ids = (values.scenarios ?? 'detail,list,create,patch').split(',');
const unknown = ids.filter((id) => !all.some((s) => s.id === id));
if (unknown.length) throw new Error(`Unknown scenarios: ${unknown.join(', ')}`);

const scenarios = all.filter((s) => ids.includes(s.id));
const cpu = new Map(scenarios.map((s) => [s.id, { A: [] as number[], B: [] as number[] }]));
const ratios = new Map(scenarios.map((s) => [s.id, [] as number[]]));
const servers: RunningServer[] = [];
try {
  const start = async (build: 'A' | 'B') => {
    const server = await startServer('toolkit', {
      databaseUrl: await databases.fresh(),
      script: resolve(builds[build], 'bench/src/servers/toolkit-server.ts'),
    });
    servers.push(server);
    return server;
  };
  const counter = { n: 1_000_000 };
  for (let session = 0; session < sessions; session++) {
    // Fresh processes each session, started in turn A first and B first: one process of the
    // same build can stay a few percent faster than another for its whole life.
    const first = session % 2 === 0 ? 'A' : 'B';
    const up = { [first]: await start(first) } as Record<'A' | 'B', RunningServer>;
    const second = first === 'A' ? 'B' : 'A';
    up[second] = await start(second);
    for (const scenario of scenarios) {
      for (const server of [up.A, up.B])
        await runLoad(server, scenario, { seconds: 3, connections, counter });
      for (let i = 0; i < pairsPerSession; i++) {
        const order = i % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const);
        const pair = { A: 0, B: 0 };
        for (const build of order) {
          const result = await runLoad(up[build], scenario, {
            seconds,
            connections,
            counter,
            rate,
          });
          pair[build] = result.cpuPerRequest;
          cpu.get(scenario.id)?.[build].push(result.cpuPerRequest);
        }
        ratios.get(scenario.id)?.push(pair.B / pair.A);
        log(
          `${scenario.id} session ${session + 1} pair ${i + 1}: A ${fmt.us(pair.A)} µs, B ${fmt.us(pair.B)} µs`,
        );
      }
    }
    for (const server of servers.splice(0)) await server.stop();
  }
  const rows = scenarios.map((scenario) => {
    const r = ratios.get(scenario.id) ?? [];
    const c = cpu.get(scenario.id) ?? { A: [], B: [] };
    const sorted = [...r].sort((x, y) => x - y);
    return [
      scenario.title,
      fmt.us(median(c.A)),
      fmt.us(median(c.B)),
      `**${median(r).toFixed(3)}**`,
      `${(sorted[0] ?? Number.NaN).toFixed(2)}–${(sorted[sorted.length - 1] ?? Number.NaN).toFixed(2)}`,
      `${r.filter((x) => x < 1).length} of ${r.length}`,
    ];
  });
  console.log(`A: ${builds.A}\nB: ${builds.B}\n`);
  console.log(
    table(
      [
        'scenario',
        'A CPU µs/req',
        'B CPU µs/req',
        'B/A (median of pairs)',
        'range of pairs',
        'pairs where B is cheaper',
      ],
      rows,
    ),
  );
} finally {
  for (const server of servers) await server.stop();
  await databases.cleanup();
}
