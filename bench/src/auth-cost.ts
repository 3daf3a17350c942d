/**
 * What token authentication costs a request: GET of one book with AllowAny (the spec's view)
 * and the same GET with `Authorization: Token <key>` (TokenAuthentication + IsAuthenticated:
 * a header parse, a SHA-256 and one indexed lookup joined to the user), loaded in alternating
 * bursts on one server process so that the machine's drift hits both alike. Prints the server's
 * CPU time per request and the requests per second of each, and the ratio.
 *
 * Usage: node bench/src/auth-cost.ts [--rounds 4] [--seconds 3] [--connections 16]
 *   [--token-cache 0] (the Auth's tokenCacheSeconds: 0 asks the database on every request)
 *
 * With `--instructions` it counts instead, under valgrind's callgrind, the instructions of one
 * request of each (`servers/auth-cost-client.ts`: server and client in one process, so compare
 * the two figures, never read one alone): the same whatever else the machine is doing. Each
 * scenario runs `--warmup` requests (default 10000) and then `--warmup` + `--requests` (default
 * 3000); the difference divided by `--requests` is one request without start-up and warm-up.
 * Needs valgrind; the four runs go at once and take a few minutes.
 *
 * With `--loop` it times, in this process and without HTTP, `TokenAuthentication.authenticate`
 * against a primary-key lookup of a book (the query of the open GET), alternating 20,000 calls
 * of each for 12 rounds: what authentication itself costs, in units of the one query every
 * detail GET makes. Hot caches make both cheaper than in a server, so read the ratio.
 * @module
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { cpuTimeOf } from './contenders.ts';
import { median } from './report.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '16' },
    'token-cache': { type: 'string', default: '0' },
    instructions: { type: 'boolean', default: false },
    loop: { type: 'boolean', default: false },
    warmup: { type: 'string', default: '10000' },
    requests: { type: 'string', default: '3000' },
  },
});
if (values.loop) {
  await loop();
  process.exit(0);
}
if (values.instructions) {
  await countInstructions(Number(values.warmup), Number(values.requests));
  process.exit(0);
}
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const connections = Number(values.connections);

const server = spawn(
  process.execPath,
  [
    '--conditions=@restframework/source',
    fileURLToPath(new URL('./servers/auth-cost-server.ts', import.meta.url)),
  ],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', TOKEN_CACHE_SECONDS: values['token-cache'] },
  },
);
const [line] = (await once(server.stdout, 'data')) as [Buffer];
const [, port, key] = line.toString().trim().split(' ') as [string, string, string];
const pid = server.pid as number;

const scenarios = {
  open: { path: '/bench/open/1/', headers: {} },
  token: { path: '/bench/token/1/', headers: { authorization: `Token ${key}` } },
} as const;

async function burst(name: keyof typeof scenarios, duration: number) {
  const { path, headers } = scenarios[name];
  const before = cpuTimeOf(pid);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    connections,
    duration,
    requests: [{ method: 'GET', path, headers: { accept: 'application/json', ...headers } }],
  });
  const cpuMs = cpuTimeOf(pid) - before;
  const ok = result.requests.total - result.non2xx - result.errors - result.timeouts;
  if (ok !== result.requests.total || ok === 0)
    throw new Error(`${name}: ${result.requests.total - ok} answers were not 2xx`);
  return { cpuPerRequest: (cpuMs * 1000) / ok, rps: result.requests.average };
}

try {
  await burst('open', 2);
  await burst('token', 2);
  const cpu = { open: [] as number[], token: [] as number[] };
  const rps = { open: [] as number[], token: [] as number[] };
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order: (keyof typeof scenarios)[] = round % 2 ? ['token', 'open'] : ['open', 'token'];
    const pair: Record<string, number> = {};
    for (const name of order) {
      const result = await burst(name, seconds);
      cpu[name].push(result.cpuPerRequest);
      rps[name].push(result.rps);
      pair[name] = result.cpuPerRequest;
    }
    ratios.push((pair.token as number) / (pair.open as number));
  }
  const row = (name: 'open' | 'token') =>
    `| ${name === 'open' ? 'GET /books/1/, AllowAny' : 'GET /books/1/, Token + IsAuthenticated'} | ${median(cpu[name]).toFixed(1)} | ${Math.round(median(rps[name]))} |`;
  console.log('| scenario | CPU µs/request (median) | requests/s (median) |');
  console.log('| --- | --- | --- |');
  console.log(row('open'));
  console.log(row('token'));
  console.log(
    `\ntoken cache ${values['token-cache']} s; token/open CPU per request, median of ${rounds} paired rounds: ${median(ratios).toFixed(3)} (pairs: ${ratios.map((r) => r.toFixed(3)).join(', ')})`,
  );
} finally {
  server.kill('SIGTERM');
}

/** Instructions per request of each scenario, and their ratio (see the module). */
async function countInstructions(warmup: number, requests: number): Promise<void> {
  const client = fileURLToPath(new URL('./servers/auth-cost-client.ts', import.meta.url));
  const work = mkdtempSync(join(tmpdir(), 'rf-auth-instructions-'));
  const run = (scenario: string, count: number) =>
    new Promise<number>((done, fail) => {
      const out = join(work, `${scenario}-${count}.callgrind`);
      const args = [
        '--tool=callgrind',
        `--callgrind-out-file=${out}`,
        '--smc-check=all-non-file',
        process.execPath,
        '--conditions=@restframework/source',
        '--single-threaded',
        '--predictable',
        '--expose-gc',
        client,
        scenario,
        String(count),
      ];
      execFile('valgrind', args, { maxBuffer: 64 * 1024 * 1024 }, (error, _out, stderr) => {
        if (error) return fail(new Error(`valgrind failed (${scenario}): ${stderr.slice(-2000)}`));
        const summary = /^summary: (\d+)$/m.exec(readFileSync(out, 'utf8'));
        if (!summary) return fail(new Error(`no summary in ${out}`));
        done(Number(summary[1]));
      });
    });
  try {
    const [openShort, openLong, tokenShort, tokenLong] = await Promise.all([
      run('open', warmup),
      run('open', warmup + requests),
      run('token', warmup),
      run('token', warmup + requests),
    ]);
    const open = Math.round(((openLong as number) - (openShort as number)) / requests);
    const token = Math.round(((tokenLong as number) - (tokenShort as number)) / requests);
    console.log(`GET /books/1/, AllowAny: ${open.toLocaleString('en')} instructions per request`);
    console.log(
      `GET /books/1/, Token + IsAuthenticated: ${token.toLocaleString('en')} instructions per request`,
    );
    console.log(`token/open instructions per request: ${(token / open).toFixed(3)}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** `authenticate()` against a book lookup, CPU time per call, alternating (see the module). */
async function loop(): Promise<void> {
  const { buildAuthCostApp } = await import('./servers/auth-cost-app.ts');
  const { TokenAuthentication } = await import('@restframework/core');
  const { Book } = await import('../../examples/bookstore/src/models/index.ts');
  const { app, key, auth, db } = await buildAuthCostApp();
  const request = { settings: { AUTH: auth }, raw: { headers: { authorization: `Token ${key}` } } };
  const authentication = new TokenAuthentication();
  const times = { authenticate: [] as number[], lookup: [] as number[] };
  const calls = 20_000;
  const time = (name: keyof typeof times, call: () => unknown) => {
    const before = process.cpuUsage();
    for (let i = 0; i < calls; i++) {
      if (!Array.isArray(call())) throw new Error(`${name} did not answer at once`);
    }
    const used = process.cpuUsage(before);
    times[name].push((used.user + used.system) / calls);
  };
  db.run(() => {
    for (let round = 0; round < 12; round++) {
      time('authenticate', () => authentication.authenticate(request as never));
      time('lookup', () => Book.objects.lookup({ pk: 1 }));
    }
  });
  // The first two rounds warm the compiler up.
  const authenticate = median(times.authenticate.slice(2));
  const lookup = median(times.lookup.slice(2));
  console.log(
    `TokenAuthentication.authenticate: ${authenticate.toFixed(2)} µs CPU per call (median)`,
  );
  console.log(`Book.objects.lookup({ pk: 1 }):   ${lookup.toFixed(2)} µs CPU per call (median)`);
  console.log(`authenticate / lookup: ${(authenticate / lookup).toFixed(2)}`);
  await app.close();
}
