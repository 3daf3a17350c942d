/**
 * Upload limit benchmark: a client streams a 1 GiB multipart upload (generated on the fly,
 * never held in memory) to a real server whose `resume` field is a
 * `ConstrainedFileField({ maxUploadSize: 5 MiB })`, and measures
 *
 * - the server process's peak RSS growth during the upload (sampled in the server every 2 ms
 *   with `process.memoryUsage.rss()`, and read from `/proc/<pid>/status` VmHWM after resetting
 *   it through `/proc/<pid>/clear_refs`), target < 32 MiB;
 * - the time from the client having sent the (limit + 1)-th byte of the file to the 400
 *   arriving, target < 1 s;
 * - how much of the body the client had sent by then (the server stops reading early).
 *
 * Run: `npm run bench:upload` (or `node bench/upload-limit.ts [--gib 1] [--runs 3]`).
 * The server runs as a child process on 127.0.0.1; everything stops by itself (60 s at most
 * per run). Exits 1 when a target is missed.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const MiB = 1024 * 1024;
const LIMIT = 5 * MiB;
const RSS_TARGET = 32 * MiB;
const LATENCY_TARGET_MS = 1000;
const RUN_TIMEOUT_MS = 60_000;
const BOUNDARY = '----benchboundary7MA4YWxkTrZu0gW';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

// ---------------------------------------------------------------------------------------------
// Server (child process)

async function runServer(): Promise<void> {
  const { Database, DefaultRouter, defineModel, FormParser, JSONParser, ModelSerializer } =
    await import('@restframework/core');
  const { ModelViewSet, MultiPartParser, models, restFramework } = await import(
    '@restframework/core'
  );
  const { ConstrainedFileField } = await import('@restframework/tricks');
  const { default: Fastify } = await import('fastify');

  const dir = mkdtempSync(join(tmpdir(), 'bench-upload-'));
  const Upload = defineModel({
    name: 'Upload',
    table: 'bench_upload',
    fields: { username: models.CharField({ maxLength: 255 }), resume: models.FileField() },
  });
  class UploadSerializer extends ModelSerializer.with({
    model: Upload,
    fields: ['id', 'username', 'resume'],
    declaredFields: { resume: new ConstrainedFileField({ maxUploadSize: 5 * 1024 * 1024 }) },
  }) {}
  class UploadViewSet extends ModelViewSet {
    override queryset = Upload.objects.all();
    override serializerClass = UploadSerializer;
    override parserClasses = [MultiPartParser, FormParser, JSONParser];
  }

  const db = Database.connect(`sqlite:${join(dir, 'db.sqlite3')}`);
  await db.migrate([Upload]);
  const app = Fastify({ logger: false });
  await app.register(restFramework, {
    database: db,
    settings: { MEDIA_ROOT: join(dir, 'media'), FILE_UPLOAD_TEMP_DIR: join(dir, 'tmp') },
  });
  const router = new DefaultRouter();
  router.register('upload', UploadViewSet);
  await app.register(router.plugin, { prefix: '/api' });
  await app.listen({ host: '127.0.0.1', port: 0 });

  let baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => {
    const rss = process.memoryUsage.rss();
    if (rss > peak) peak = rss;
  }, 2);

  const gc = (globalThis as { gc?: () => void }).gc;
  process.on('message', async (message: { type: string }) => {
    if (message.type === 'reset') {
      gc?.();
      baseline = process.memoryUsage.rss();
      peak = baseline;
      process.send?.({ type: 'reset', baseline });
    } else if (message.type === 'report') {
      process.send?.({ type: 'report', baseline, peak });
    } else if (message.type === 'stop') {
      clearInterval(sampler);
      await app.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    }
  });
  const { port } = app.server.address() as { port: number };
  process.send?.({ type: 'ready', port });
}

// ---------------------------------------------------------------------------------------------
// Client (parent process)

interface RunResult {
  status: number;
  body: string;
  sentBytes: number;
  crossToResponseMs: number;
  rssGrowthSampled: number;
  rssGrowthHwm: number | null;
  wallMs: number;
}

function ask<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (message: { type: string }) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      resolve(message as T);
    };
    child.on('message', onMessage);
    child.send({ type });
  });
}

function procStatus(pid: number, key: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(
      new RegExp(`${key}:\\s+(\\d+) kB`),
    );
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Resets the peak RSS the kernel keeps for `pid` (Linux 4.0+); false when not allowed. */
function resetHwm(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** One upload of `fileSize` bytes of `a`, streamed; resolves when the answer is in. */
function streamUpload(
  port: number,
  fileSize: number,
): Promise<Omit<RunResult, 'rssGrowthSampled' | 'rssGrowthHwm'>> {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="username"\r\n\r\nbench\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="resume"; filename="big.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const chunk = Buffer.alloc(256 * 1024, 'a');
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let sent = 0;
    let crossedAt: number | null = null;
    let answered = false;
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${RUN_TIMEOUT_MS} ms`));
    }, RUN_TIMEOUT_MS);
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/upload/',
      headers: {
        host: '127.0.0.1',
        accept: 'application/json',
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': head.length + fileSize + tail.length,
      },
    });
    req.on('response', (res) => {
      const answeredAt = performance.now();
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (data: Buffer) => parts.push(data));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(parts).toString(),
          sentBytes: sent,
          crossToResponseMs: crossedAt === null ? Number.NaN : answeredAt - crossedAt,
          wallMs: answeredAt - started,
        });
      });
    });
    req.on('error', (error) => {
      // The server closes the connection after answering: a late EPIPE/ECONNRESET is expected.
      if (!answered) {
        clearTimeout(timer);
        reject(error);
      }
    });
    req.write(head);
    const pump = () => {
      while (!answered && sent < fileSize) {
        const size = Math.min(chunk.length, fileSize - sent);
        const ok = req.write(size === chunk.length ? chunk : chunk.subarray(0, size));
        sent += size;
        if (crossedAt === null && sent > LIMIT) crossedAt = performance.now();
        if (!ok) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered && sent >= fileSize) req.end(tail);
    };
    pump();
  });
}

async function runClient(): Promise<void> {
  const gib = option('gib', 1);
  const runs = option('runs', 3);
  const fileSize = Math.round(gib * 1024 * MiB);
  const child = fork(fileURLToPath(import.meta.url), ['--server'], {
    execArgv: [...process.execArgv, '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const killer = setTimeout(
    () => {
      console.error('bench: overall time limit reached, stopping');
      child.kill('SIGKILL');
      process.exit(1);
    },
    (runs + 2) * RUN_TIMEOUT_MS,
  );
  try {
    const { port } = await new Promise<{ port: number }>((resolve, reject) => {
      child.once('message', (m: { type: string; port: number }) =>
        m.type === 'ready' ? resolve(m) : reject(new Error(`unexpected ${m.type}`)),
      );
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    const pid = child.pid as number;
    // Warm-up: load the code paths once (a small accepted upload, a small refused one).
    await streamUpload(port, 1024);
    await streamUpload(port, LIMIT + 1);

    const results: RunResult[] = [];
    for (let run = 1; run <= runs; run++) {
      await ask(child, 'reset');
      const hwmReset = resetHwm(pid);
      const rssBefore = procStatus(pid, 'VmRSS');
      const result = await streamUpload(port, fileSize);
      await new Promise((r) => setTimeout(r, 100));
      const { baseline, peak } = await ask<{ baseline: number; peak: number }>(child, 'report');
      const hwm = procStatus(pid, 'VmHWM');
      const full: RunResult = {
        ...result,
        rssGrowthSampled: peak - baseline,
        rssGrowthHwm: hwmReset && hwm !== null && rssBefore !== null ? hwm - rssBefore : null,
      };
      results.push(full);
      console.log(
        `run ${run}: ${full.status} ${full.body} | sent ${(full.sentBytes / MiB).toFixed(1)} MiB of ` +
          `${(fileSize / MiB).toFixed(0)} MiB | limit crossed → 400: ${full.crossToResponseMs.toFixed(1)} ms | ` +
          `RSS growth: sampled ${(full.rssGrowthSampled / MiB).toFixed(1)} MiB, VmHWM ` +
          `${full.rssGrowthHwm === null ? 'n/a' : `${(full.rssGrowthHwm / MiB).toFixed(1)} MiB`}`,
      );
    }
    report(results, fileSize);
    const worstRss = Math.max(
      ...results.map((r) => Math.max(r.rssGrowthSampled, r.rssGrowthHwm ?? 0)),
    );
    const worstLatency = Math.max(...results.map((r) => r.crossToResponseMs));
    const ok =
      results.every((r) => r.status === 400) &&
      worstRss < RSS_TARGET &&
      worstLatency < LATENCY_TARGET_MS;
    console.log(
      `\ntargets: RSS growth < 32 MiB (worst ${(worstRss / MiB).toFixed(1)} MiB), ` +
        `answer < 1000 ms after the limit (worst ${worstLatency.toFixed(1)} ms): ${ok ? 'met' : 'MISSED'}`,
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    clearTimeout(killer);
    if (child.connected) child.send({ type: 'stop' });
    await new Promise((resolve) => {
      if (child.exitCode !== null) resolve(null);
      else child.once('exit', resolve);
    });
  }
}

function report(results: RunResult[], fileSize: number): void {
  const fmt = (bytes: number | null) =>
    bytes === null ? 'n/a' : `${(bytes / MiB).toFixed(1)} MiB`;
  console.log(
    '\n| run | status | body sent before the answer | limit crossed → 400 | peak RSS growth (sampled) | peak RSS growth (VmHWM) |',
  );
  console.log('|---|---|---|---|---|---|');
  results.forEach((r, i) => {
    console.log(
      `| ${i + 1} | ${r.status} | ${fmt(r.sentBytes)} of ${fmt(fileSize)} | ${r.crossToResponseMs.toFixed(1)} ms | ${fmt(r.rssGrowthSampled)} | ${fmt(r.rssGrowthHwm)} |`,
    );
  });
  console.log(
    `\nmachine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB RAM; Node ${process.version}`,
  );
}

if (process.argv.includes('--server')) await runServer();
else await runClient();
