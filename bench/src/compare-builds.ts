/**
 * Two builds of the toolkit side by side: did a change make requests cheaper?
 *
 *   git worktree add /tmp/before HEAD~1 && cp -a node_modules /tmp/before/
 *   npm run bench:compare -- --a /tmp/before --b . --scenarios detail,patch
 *
 * Both servers (each checkout's `bench/src/servers/toolkit-server.ts`, on its own fresh copy of
 * the database) stay up, and each scenario loads them in short bursts, A then B, then B then A,
 * many times. What counts is the ratio of the two CPU times per request within each pair: this
 * machine's speed drifts by tens of percent within minutes, so comparing runs made minutes
 * apart (or even the medians of the two series) measures the drift more than the change; pairs
 * a few seconds apart see the same machine. A change of 3 % shows as a median pair ratio of
 * 0.97 with most pairs below 1; a scatter of pairs around 1 means no measurable change.
 * @module
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Book } from '../../examples/bookstore/src/models/index.ts';
import { seed } from '../../examples/bookstore/src/seed.ts';
import { type RunningServer, startServer } from './contenders.ts';
import { prepareDatabases } from './databases.ts';
import { runLoad } from './load.ts';
import { positive } from './options.ts';
import { fmt, median, table } from './report.ts';
import { buildScenarios } from './scenarios.ts';

const HELP = `Options:
  --a DIR            the checkout measured first (with its node_modules), e.g. a git worktree
  --b DIR            the checkout compared with it (default: this one)
  --scenarios a,b    scenario ids (default: detail,list,create,patch); see npm run bench -- --help
  --pairs N          bursts of each build per scenario (default 12)
  --seconds S        length of a burst (default 1.5)
  --connections N    concurrent connections (default 32)
  --help             this text`;

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    scenarios: { type: 'string' },
    pairs: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string' },
    help: { type: 'boolean' },
  },
});
if (values.help || !values.a) {
  console.log(HELP);
  process.exit(values.help ? 0 : 1);
}
const pairs = Math.round(positive('pairs', values.pairs, 12));
const seconds = positive('seconds', values.seconds, 1.5);
const connections = Math.round(positive('connections', values.connections, 32));
const builds = {
  A: resolve(values.a),
  B: resolve(values.b ?? resolve(import.meta.dirname, '..', '..')),
};
const log = (text: string) => process.stderr.write(`${text}\n`);

let cursorIsbn = '';
let books = 0;
const databases = await prepareDatabases('sqlite', async (db) => {
  await seed(db);
  await db.run(async () => {
    books = await Book.objects.count();
    const [row] = await Book.objects.orderBy('isbn').slice(499, 500).execute();
    cursorIsbn = String(row?.isbn ?? '');
  });
});
const all = buildScenarios({ cursorIsbn, books });
const ids = (values.scenarios ?? 'detail,list,create,patch').split(',');
const unknown = ids.filter((id) => !all.some((s) => s.id === id));
if (unknown.length) throw new Error(`Unknown scenarios: ${unknown.join(', ')}`);

const servers: RunningServer[] = [];
try {
  const start = async (dir: string) => {
    const server = await startServer('toolkit', {
      databaseUrl: await databases.fresh(),
      script: resolve(dir, 'bench/src/servers/toolkit-server.ts'),
    });
    servers.push(server);
    return server;
  };
  const a = await start(builds.A);
  const b = await start(builds.B);
  const counter = { n: 1_000_000 };
  const rows: string[][] = [];
  for (const scenario of all.filter((s) => ids.includes(s.id))) {
    for (const server of [a, b])
      await runLoad(server, scenario, { seconds: 3, connections, counter });
    const cpu = { A: [] as number[], B: [] as number[] };
    const ratios: number[] = [];
    for (let i = 0; i < pairs; i++) {
      const order = i % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const);
      const pair = { A: 0, B: 0 };
      for (const build of order) {
        const result = await runLoad(build === 'A' ? a : b, scenario, {
          seconds,
          connections,
          counter,
        });
        pair[build] = result.cpuPerRequest;
        cpu[build].push(result.cpuPerRequest);
      }
      ratios.push(pair.B / pair.A);
      log(`${scenario.id} pair ${i + 1}: A ${fmt.us(pair.A)} µs, B ${fmt.us(pair.B)} µs`);
    }
    const sorted = [...ratios].sort((x, y) => x - y);
    rows.push([
      scenario.title,
      fmt.us(median(cpu.A)),
      fmt.us(median(cpu.B)),
      `**${median(ratios).toFixed(3)}**`,
      `${(sorted[0] as number).toFixed(2)}–${(sorted[sorted.length - 1] as number).toFixed(2)}`,
      String(ratios.filter((r) => r < 1).length),
    ]);
  }
  console.log(`A: ${builds.A}\nB: ${builds.B}\n`);
  console.log(
    table(
      [
        'scenario',
        'A CPU µs/req',
        'B CPU µs/req',
        'B/A (median of pairs)',
        'range of pairs',
        `pairs where B is cheaper (of ${pairs})`,
      ],
      rows,
    ),
  );
} finally {
  for (const server of servers) await server.stop();
  await databases.cleanup();
}
