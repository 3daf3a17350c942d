/**
 * `restframework serve` as a real process tree: two workers on a loopback port answer
 * requests, a worker killed with SIGKILL is started again while requests keep succeeding, and
 * SIGTERM lets the requests in flight finish before the primary exits 0.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLI, CORE, runCli } from '../fixtures/cli-project.ts';
import { freePort } from '../fixtures/free-port.ts';

const FASTIFY = import.meta.resolve('fastify');

const CONFIG = `
import Fastify from '${FASTIFY}';
import { Database, defineConfig, healthChecks, restFramework, serverOptions } from '${CORE}';

export default defineConfig({
  models: [],
  databaseUrl: 'sqlite::memory:',
  createApp: async () => {
    const app = Fastify({ ...serverOptions() });
    await app.register(restFramework, { database: Database.connect('sqlite::memory:') });
    await app.register(healthChecks);
    app.get('/pid', async () => ({ pid: process.pid }));
    app.get('/slow', async (request) => {
      await new Promise((resolve) => setTimeout(resolve, Number(request.query.ms)));
      return { pid: process.pid, done: true };
    });
    return app;
  },
});
`;

interface Answer {
  readonly status: number;
  readonly body: { pid?: number; done?: boolean; status?: string };
  readonly requestId: string | undefined;
}

/** One request on its own connection (no keep-alive: each may go to another worker). */
function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, agent: false, headers: { connection: 'close', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(text),
            requestId: res.headers['x-request-id'] as string | undefined,
          }),
        );
      },
    );
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`GET ${path} timed out`)));
    req.end();
  });
}

interface Waiter {
  readonly pattern: RegExp;
  readonly from: number;
  readonly resolve: (m: RegExpExecArray) => void;
}

/** The server's output so far, and a way to wait for a line matching a pattern. */
class Output {
  text = '';
  readonly #waiters: Waiter[] = [];

  constructor(child: ChildProcess) {
    const take = (chunk: Buffer) => {
      this.text += chunk.toString();
      for (const waiter of [...this.#waiters]) this.#check(waiter);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
  }

  #check(waiter: Waiter): void {
    const pattern = new RegExp(waiter.pattern.source, 'g');
    pattern.lastIndex = waiter.from;
    const match = pattern.exec(this.text);
    if (!match) return;
    this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
    waiter.resolve(match);
  }

  /** The next match of `pattern` after `from` (default: the end of what was read). */
  next(pattern: RegExp, timeoutMs = 20_000, from = this.text.length): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${pattern} within ${timeoutMs} ms; output:\n${this.text}`)),
        timeoutMs,
      );
      const waiter: Waiter = {
        pattern,
        from,
        resolve: (m: RegExpExecArray) => {
          clearTimeout(timer);
          resolve(m);
        },
      };
      this.#waiters.push(waiter);
      this.#check(waiter);
    });
  }
}

function exitOf(child: ChildProcess, timeoutMs: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    const timer = setTimeout(() => reject(new Error('the server did not exit')), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

describe('restframework serve (two worker processes)', { timeout: 120_000 }, () => {
  let dir: string;
  let child: ChildProcess | undefined;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rf-serve-'));
    writeFileSync(join(dir, 'restframework.config.ts'), CONFIG);
  });

  after(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves on both workers, restarts a killed one, and drains on SIGTERM', async () => {
    const port = await freePort();
    child = spawn(process.execPath, [CLI, 'serve', '--workers', '2', '--port', String(port)], {
      cwd: dir,
      env: { ...process.env, WEB_CONCURRENCY: '' },
    });
    const output = new Output(child);
    await output.next(/listening[\s\S]*listening/, 30_000, 0);

    // Both workers answer (the primary hands connections round-robin).
    const pids = new Set<number>();
    for (let i = 0; i < 30 && pids.size < 2; i++) {
      const answer = await get(port, '/pid');
      assert.equal(answer.status, 200);
      pids.add(answer.body.pid as number);
    }
    assert.equal(pids.size, 2, 'both workers answered');
    assert.equal((await get(port, '/healthz')).body.status, 'alive');
    assert.equal((await get(port, '/readyz')).status, 200);

    // A worker killed outright is started again; the other keeps answering meanwhile.
    const [victim] = [...pids] as [number];
    const died = output.next(new RegExp(`worker ${victim} died \\(SIGKILL\\)`));
    process.kill(victim, 'SIGKILL');
    await died;
    const restarted = await output.next(/worker (\d+) listening/);
    const fresh = Number(restarted[1]);
    assert.ok(!pids.has(fresh), 'a new process took the dead one’s place');
    const seen = new Set<number>();
    for (let i = 0; i < 30; i++) {
      const answer = await get(port, '/pid');
      assert.equal(answer.status, 200, 'every request after the crash succeeds');
      seen.add(answer.body.pid as number);
    }
    assert.ok(!seen.has(victim));
    assert.ok(seen.has(fresh), 'the restarted worker answers');

    // SIGTERM with slow requests in flight: they finish, then the primary exits 0.
    const slow = Array.from({ length: 4 }, () => get(port, '/slow?ms=1500'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    child.kill('SIGTERM');
    const answers = await Promise.all(slow);
    for (const answer of answers) {
      assert.equal(answer.status, 200);
      assert.equal(answer.body.done, true);
    }
    assert.equal(await exitOf(child, 20_000), 0, output.text);
    assert.match(output.text, /SIGTERM: stopping 2 workers[\s\S]*stopped\n/);
  });

  it('refuses to start without createApp, naming the setting', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'rf-serve-bare-'));
    try {
      writeFileSync(
        join(bare, 'restframework.config.ts'),
        `import { defineConfig } from '${CORE}';\nexport default defineConfig({ models: [] });\n`,
      );
      const run = await runCli(bare, ['serve', '--workers', '0']);
      assert.equal(run.code, 1);
      assert.match(run.stderr, /REST_ERR_SERVE: .*createApp/);
      const usage = await runCli(bare, ['serve', '--workers', 'two']);
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /--workers must be a whole number/);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
