/**
 * The program `instructions.ts` runs under callgrind: one contender of a checkout (`toolkit`
 * from that checkout's bookstore, or the `baseline`), listening on 127.0.0.1, and a client in
 * the same process sending it `count` requests one after another on one keep-alive
 * connection. A minor GC every 250 requests keeps the collector's schedule the same from run
 * to run, so that the instruction count is repeatable.
 *
 *   node instruction-client.ts CHECKOUT toolkit|baseline DATABASE PATH COUNT [METHOD] [BODY]
 *
 * DATABASE is a URL (`sqlite:…`, `postgres://…`, `mysql://…`) or an SQLite file's path.
 *
 * `UNIQUE` in BODY is replaced by a number that changes with every request. With
 * `RF_INSTRUCTION_CONNECTIONS=N` the requests go on N keep-alive connections at once, each
 * sending its next request when its last is answered: the server then works under
 * concurrency (requests interleaved in its event loop), still counted repeatably.
 *
 * With `RF_INSTRUCTION_CPU_AFTER=N` (run natively, not under callgrind) it prints the process's
 * CPU microseconds per request over the requests after the first N: a native cross-check of a
 * count that the collector's schedule under callgrind may distort.
 * @module
 */
import http from 'node:http';
import { join } from 'node:path';

const [checkout, contender, database, path, countText, method = 'GET', body] =
  process.argv.slice(2);
if (
  !checkout ||
  !database ||
  !path ||
  !countText ||
  (contender !== 'toolkit' && contender !== 'baseline')
)
  throw new Error(
    'usage: instruction-client.ts CHECKOUT toolkit|baseline DATABASE PATH COUNT [METHOD] [BODY]',
  );

const url = /^[a-z]+:/.test(database) ? database : `sqlite:${database}`;
type App = { listen(o: object): Promise<unknown>; server: http.Server };
let app: App;
if (contender === 'toolkit') {
  const core = await import(join(checkout, 'packages/core/src/index.ts'));
  const { buildApp } = await import(join(checkout, 'examples/bookstore/src/app.ts'));
  app = await buildApp({ database: core.Database.connect(url) });
  // The bench-only routes (the cursor list), where the checkout has them.
  const bench = await import(join(checkout, 'bench/src/servers/bench-router.ts')).catch(() => null);
  await bench?.registerBenchRoutes(app);
} else {
  const { buildBaseline } = await import(join(checkout, 'bench/baseline/app.ts'));
  app = await buildBaseline(url);
}
await app.listen({ host: '127.0.0.1', port: 0 });
const port = (app.server.address() as { port: number }).port;
const connections = Number(process.env.RF_INSTRUCTION_CONNECTIONS ?? '1');
if (!Number.isSafeInteger(connections) || connections < 1)
  throw new Error('RF_INSTRUCTION_CONNECTIONS must be a positive integer');
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
let sent = 0;

function once(): Promise<number> {
  return new Promise((resolve, reject) => {
    const payload = body?.replace('UNIQUE', String(sent++));
    const headers: Record<string, string | number> = { accept: '*/*' };
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    const request = http.request(
      { host: '127.0.0.1', port, path, method, agent, headers },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

const first = await once();
if (first >= 300) throw new Error(`${method} ${path} answered ${first}`);
const gc = (globalThis as { gc?: (options: { type: 'minor' }) => void }).gc;
const total = Number(countText);
const cpuAfter = Number(process.env.RF_INSTRUCTION_CPU_AFTER ?? Number.NaN);
let cpuAtStart: NodeJS.CpuUsage | undefined;
let started = 0;
async function loop(): Promise<void> {
  while (started < total) {
    if (started === cpuAfter) cpuAtStart = process.cpuUsage();
    if (started++ % 250 === 0) gc?.({ type: 'minor' });
    const status = await once();
    if (status >= 300) throw new Error(`${method} ${path} answered ${status}`);
  }
}
await Promise.all(Array.from({ length: connections }, loop));
if (cpuAtStart) {
  const used = process.cpuUsage(cpuAtStart);
  console.log(
    `cpu-us-per-request ${((used.user + used.system) / (total - cpuAfter)).toFixed(1)} user ${(used.user / (total - cpuAfter)).toFixed(1)} system ${(used.system / (total - cpuAfter)).toFixed(1)}`,
  );
}
process.exit(0);
