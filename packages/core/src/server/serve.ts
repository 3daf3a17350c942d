/**
 * Runs an app in production: `workers` processes (Node's `cluster`) sharing one port, a
 * crashed worker started again (with a growing delay while it keeps crashing, so that a
 * worker that dies at start-up does not restart in a loop), and a graceful stop on SIGTERM
 * or SIGINT: each worker stops accepting connections, finishes the requests in flight
 * within `drainTimeoutMs`, closes the app (its `onClose` hooks: the database pool, the
 * Redis clients of the stores) and exits; the primary exits 0 once every worker has
 * stopped cleanly. With `workers: 0` the app runs in this process, with the same stop.
 *
 * The `restframework serve` command calls it with the config's `createApp`; a program of
 * one's own can call it directly (the workers run the same program again, as `cluster`
 * does, so the call must be reached the same way in every process).
 *
 * @example
 * ```ts
 * import { serve } from '@restframework/core';
 * import type { FastifyInstance } from 'fastify';
 *
 * declare function buildApp(): Promise<FastifyInstance>; // the app, not listening
 * await serve({ createApp: buildApp, workers: 4, port: 8000 });
 * ```
 * @module
 */
import cluster, { type Worker } from 'node:cluster';
import { createServer, type Server } from 'node:http';
import { availableParallelism } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { requireOptional } from '../utils/optional-dependency.ts';

/** Options of {@link serve}. */
export interface ServeOptions {
  /** Builds the app, not listening (called once in each worker). */
  readonly createApp: () => FastifyInstance | Promise<FastifyInstance>;
  /** Worker processes (default: the machine's available parallelism); 0 runs in this process. */
  readonly workers?: number;
  /** Address to listen on (default `127.0.0.1`; `0.0.0.0` or `::` for every interface). */
  readonly host?: string;
  /** Port (default 8000). */
  readonly port?: number;
  /**
   * How long a stopping worker waits for its requests in flight, in ms (default 30 000, under
   * the usual 30 s between a load balancer's SIGTERM and its SIGKILL); the connections still
   * open then are closed and the worker exits 1.
   */
  readonly drainTimeoutMs?: number;
  /**
   * Delay before the first restart of a worker that crashed soon after starting, in ms
   * (default 100); doubled at each further quick crash, up to `maxRestartDelayMs`.
   */
  readonly restartDelayMs?: number;
  /** The longest delay between restarts (default 30 000). */
  readonly maxRestartDelayMs?: number;
  /**
   * A worker that ran this long (ms, default 10 000) before it died counts as having started
   * well: it is restarted after `restartDelayMs` and the doubling starts again.
   */
  readonly stableAfterMs?: number;
  /**
   * A port on which the primary serves the Prometheus metrics of every worker together
   * (`prom-client`'s `AggregatorRegistry`; the app registers the `metrics` plugin). Off by
   * default.
   */
  readonly metricsPort?: number;
  /** Where the primary writes what it does (default: standard output). */
  readonly log?: (line: string) => void;
}

/** What {@link serve} resolves to once it has stopped: the exit code it advises. */
export type ServeResult = number;

const SHUTDOWN = 'restframework:shutdown';

function checkWhole(name: string, value: number | undefined, min: number): void {
  if (value === undefined || (Number.isInteger(value) && value >= min)) return;
  throw new ImproperlyConfigured(
    'REST_ERR_SERVE',
    `serve: ${name} must be a whole number ${min} or more, got ${JSON.stringify(value)}.`,
  );
}

/**
 * Runs the app (see the module). In the primary process and with `workers: 0` it resolves
 * with the exit code once stopped (0 after a clean stop); in a worker it never resolves
 * (the worker exits when told to stop).
 */
export async function serve(options: ServeOptions): Promise<ServeResult> {
  if (typeof options.createApp !== 'function') {
    throw new ImproperlyConfigured(
      'REST_ERR_SERVE',
      'serve: createApp must be a function that builds the Fastify app (not listening).',
    );
  }
  checkWhole('workers', options.workers, 0);
  checkWhole('port', options.port, 0);
  checkWhole('drainTimeoutMs', options.drainTimeoutMs, 0);
  checkWhole('restartDelayMs', options.restartDelayMs, 0);
  checkWhole('maxRestartDelayMs', options.maxRestartDelayMs, 0);
  checkWhole('stableAfterMs', options.stableAfterMs, 0);
  checkWhole('metricsPort', options.metricsPort, 0);
  if (cluster.isWorker) return runWorker(options, true);
  const workers = options.workers ?? availableParallelism();
  if (workers === 0) return runWorker(options, false);
  return runPrimary(options, workers);
}

/** Builds and starts the app, and stops it on SIGTERM/SIGINT (or the primary's message). */
async function runWorker(options: ServeOptions, inCluster: boolean): Promise<number> {
  const app = await options.createApp();
  const drainTimeoutMs = options.drainTimeoutMs ?? 30_000;
  let stopping: Promise<number> | undefined;
  const stop = (): Promise<number> => {
    stopping ??= drain(app, drainTimeoutMs);
    return stopping;
  };
  const finished = new Promise<number>((resolve) => {
    const onStop = () => void stop().then(resolve);
    process.once('SIGTERM', onStop);
    process.once('SIGINT', onStop);
    if (inCluster) {
      process.on('message', (message) => {
        if (message === SHUTDOWN) onStop();
      });
      // The primary is gone (killed): stop rather than run unsupervised.
      process.once('disconnect', onStop);
    }
  });
  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 8000 });
  const code = await finished;
  if (inCluster) process.exit(code);
  return code;
}

/**
 * Stops accepting, waits for the requests in flight (at most `timeoutMs`), closes the app and
 * the toolkit's database. 0 when everything finished in time, 1 otherwise.
 */
async function drain(app: FastifyInstance, timeoutMs: number): Promise<number> {
  let forced = false;
  const timer = setTimeout(() => {
    forced = true;
    app.server.closeAllConnections();
  }, timeoutMs);
  try {
    // Fastify stops listening, closes idle keep-alive connections, answers the requests in
    // flight, then runs the onClose hooks (stores' Redis clients, the app's own).
    await app.close();
    if (app.hasDecorator('restFramework')) {
      const state = app.restFramework;
      await (state.databases ?? state.database).close();
    }
  } catch {
    forced = true;
  } finally {
    clearTimeout(timer);
  }
  return forced ? 1 : 0;
}

/** Forks the workers, restarts the ones that die, and stops them all on a signal. */
function runPrimary(options: ServeOptions, count: number): Promise<number> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const base = options.restartDelayMs ?? 100;
  const max = options.maxRestartDelayMs ?? 30_000;
  const stableAfter = options.stableAfterMs ?? 10_000;
  const drainTimeoutMs = options.drainTimeoutMs ?? 30_000;
  const started = new Map<Worker, number>();
  /** Quick crashes in a row, per worker slot. */
  const quickCrashes: number[] = new Array(count).fill(0);
  const slotOf = new Map<Worker, number>();
  const pendingRestarts = new Set<NodeJS.Timeout>();
  let stopping = false;
  let failed = false;
  let metricsServer: Server | undefined;

  const fork = (slot: number) => {
    const worker = cluster.fork();
    started.set(worker, Date.now());
    slotOf.set(worker, slot);
    worker.once('listening', (address) =>
      log(`worker ${worker.process.pid} listening on ${address.address ?? ''}:${address.port}`),
    );
  };

  return new Promise<number>((resolve) => {
    const finishIfDone = () => {
      if (!stopping || Object.keys(cluster.workers ?? {}).length > 0) return;
      metricsServer?.close();
      log(failed ? 'stopped (a worker did not stop cleanly)' : 'stopped');
      resolve(failed ? 1 : 0);
    };
    cluster.on('exit', (worker, code, signal) => {
      const slot = slotOf.get(worker) as number;
      const lived = Date.now() - (started.get(worker) ?? 0);
      started.delete(worker);
      slotOf.delete(worker);
      if (stopping) {
        if (code !== 0) failed = true;
        finishIfDone();
        return;
      }
      const crashes = lived >= stableAfter ? 0 : (quickCrashes[slot] as number) + 1;
      quickCrashes[slot] = crashes;
      const delay = Math.min(max, crashes === 0 ? base : base * 2 ** (crashes - 1));
      log(
        `worker ${worker.process.pid} died (${signal ?? `exit ${code}`}); restarting in ${delay} ms`,
      );
      const timer = setTimeout(() => {
        pendingRestarts.delete(timer);
        if (!stopping) fork(slot);
      }, delay);
      pendingRestarts.add(timer);
    });
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      log(`${signal}: stopping ${Object.keys(cluster.workers ?? {}).length} workers`);
      for (const timer of pendingRestarts) clearTimeout(timer);
      for (const worker of Object.values(cluster.workers ?? {})) {
        if (worker?.isConnected()) worker.send(SHUTDOWN);
        else worker?.process.kill('SIGTERM');
      }
      // A worker that outlives its own bound by far is stuck: kill it.
      setTimeout(() => {
        for (const worker of Object.values(cluster.workers ?? {})) {
          failed = true;
          worker?.process.kill('SIGKILL');
        }
      }, drainTimeoutMs + 5_000).unref();
      finishIfDone();
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
    for (let slot = 0; slot < count; slot++) fork(slot);
    if (options.metricsPort !== undefined) {
      metricsServer = serveClusterMetrics(options.metricsPort, options.host ?? '127.0.0.1');
    }
  });
}

/** The primary's metrics port: every worker's metrics, gathered over IPC by prom-client. */
function serveClusterMetrics(port: number, host: string): Server {
  const { AggregatorRegistry } = requireOptional<typeof import('prom-client')>(
    'prom-client',
    'serve --metrics-port',
  );
  const registry = new AggregatorRegistry();
  const server = createServer((_request, response) => {
    registry.clusterMetrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': registry.contentType });
        response.end(text);
      },
      () => {
        response.writeHead(503, { 'content-type': 'text/plain' });
        response.end('metrics unavailable\n');
      },
    );
  });
  server.listen(port, host);
  return server;
}
