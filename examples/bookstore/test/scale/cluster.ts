/**
 * What the scale-out test runs: a PostgreSQL primary and its streaming replica (the core
 * tests' fixture), moto's S3 server, the shared Redis under a key prefix of this run's own,
 * bookstore workers started with `restframework serve` as docs/deploying.md says (the
 * production app of `src/production.ts`), each on its own port, and HAProxy in front. Every
 * process started here is stopped by `close()`, which also removes the folder, the cluster
 * and the Redis keys it made.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { applyMigrations, Database } from '@restframework/core';
import { Redis } from 'ioredis';
import { freePort } from '../../../../packages/core/test/fixtures/free-port.ts';
import {
  type ReplicaPair,
  replicaSkipReason,
  startReplicaPair,
} from '../../../../packages/core/test/fixtures/postgres-replica.ts';
import {
  type S3TestServer,
  startS3Server,
  TEST_CREDENTIALS,
} from '../../../../packages/core/test/fixtures/s3-server.ts';
import { auth } from '../../src/auth.ts';
import { Book } from '../../src/models/index.ts';
import { seed } from '../../src/seed.ts';
import { haproxySkipReason, startHaproxy } from './haproxy.ts';
import { send } from './http.ts';

const BOOKSTORE = fileURLToPath(new URL('../..', import.meta.url));
const CLI = fileURLToPath(
  new URL('../../../../packages/core/bin/restframework.js', import.meta.url),
);
const BUCKET = 'bookstore-scale';
const SOURCE_CONDITION = '--conditions=@restframework/source';

/** Why the scale-out test cannot run here, or false. */
export function scaleSkipReason(): string | false {
  if (!process.env.TEST_REDIS_URL) return 'TEST_REDIS_URL is not set: scale-out test skipped';
  const replica = replicaSkipReason();
  if (replica) return replica;
  const haproxy = haproxySkipReason();
  if (haproxy) return haproxy;
  try {
    execFileSync(process.env.MOTO_SERVER ?? 'moto_server', ['--help'], { stdio: 'ignore' });
  } catch {
    return 'moto_server is not installed (Debian: python3-moto): scale-out test skipped';
  }
  return false;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A worker process: its name in HAProxy, port and process. */
export interface Worker {
  readonly name: string;
  readonly port: number;
  process: ChildProcess;
  output: string;
}

export class ScaleCluster {
  readonly dir = mkdtempSync(join(tmpdir(), 'rf-scale-'));
  readonly redisPrefix = `rf-scale-${process.pid}:`;
  readonly workers = new Map<string, Worker>();
  baseUrl = '';
  primaryUrl = '';
  replicaUrl = '';
  haproxyOutput = '';
  #pair: ReplicaPair | undefined;
  #s3: S3TestServer | null = null;
  #haproxy: ChildProcess | undefined;
  #s3Client: S3Client | undefined;
  readonly #log: (line: string) => void;

  constructor(log: (line: string) => void) {
    this.#log = log;
  }

  /** Starts the databases, S3, the workers and HAProxy; resolves once all are ready. */
  async start(workerCount: number): Promise<void> {
    this.#pair = await startReplicaPair(this.#log);
    this.primaryUrl = this.#pair.primaryUrl;
    this.replicaUrl = this.#pair.replicaUrl;
    await this.#prepareDatabase();
    this.#s3 = await startS3Server([BUCKET]);
    if (!this.#s3) throw new Error('moto_server did not start (see above)');
    for (let i = 1; i <= workerCount; i++) {
      const name = `w${i}`;
      const port = await freePort();
      this.workers.set(name, this.#spawnWorker(name, port));
    }
    await Promise.all([...this.workers.values()].map((w) => this.waitReady(w)));
    const port = await freePort();
    this.baseUrl = `http://127.0.0.1:${port}`;
    const ports = new Map([...this.workers].map(([name, w]) => [name, w.port]));
    this.#haproxy = startHaproxy(port, ports, this.dir, (chunk) => {
      this.haproxyOutput += chunk;
    });
    await this.#waitBalancer();
  }

  /**
   * The primary commits once the replica has applied the change (`remote_apply`): a read
   * that a later request sends to the replica sees every write acknowledged before it.
   */
  async #prepareDatabase(): Promise<void> {
    const admin = Database.connect(this.primaryUrl, { poolSize: 4 });
    try {
      await admin.query("alter system set synchronous_standby_names = '*'", []);
      await admin.query("alter system set synchronous_commit = 'remote_apply'", []);
      await admin.query('select pg_reload_conf()', []);
      await applyMigrations(admin, {
        folder: join(BOOKSTORE, 'migrations'),
        app: 'books',
        log: () => {},
      });
      await seed(admin);
      await admin.run(() => auth.createPermissions([Book]));
    } finally {
      await admin.close();
    }
  }

  #spawnWorker(name: string, port: number): Worker {
    const nodeOptions = process.env.NODE_OPTIONS ?? '';
    const child = spawn(
      process.execPath,
      [CLI, 'serve', '--workers', '0', '--port', String(port), '--drain-timeout', '15000'],
      {
        cwd: BOOKSTORE,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          NODE_OPTIONS: nodeOptions.includes(SOURCE_CONDITION)
            ? nodeOptions
            : `${nodeOptions} ${SOURCE_CONDITION}`.trim(),
          DATABASE_URL: this.primaryUrl,
          DATABASE_REPLICA_URLS: this.replicaUrl,
          DATABASE_POOL_SIZE: '6',
          REDIS_URL: process.env.TEST_REDIS_URL,
          REDIS_KEY_PREFIX: this.redisPrefix,
          AWS_STORAGE_BUCKET_NAME: BUCKET,
          AWS_S3_ENDPOINT_URL: this.#s3?.endpoint,
          AWS_REGION: 'us-east-1',
          AWS_ACCESS_KEY_ID: TEST_CREDENTIALS.accessKeyId,
          AWS_SECRET_ACCESS_KEY: TEST_CREDENTIALS.secretAccessKey,
          LOG_LEVEL: 'error',
        },
      },
    );
    const worker: Worker = { name, port, process: child, output: '' };
    const keep = (chunk: Buffer) => {
      worker.output = (worker.output + String(chunk)).slice(-20_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    return worker;
  }

  /** Resolves once `worker` answers 200 at /readyz (at most 60 s). */
  async waitReady(worker: Worker): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (worker.process.exitCode !== null || worker.process.signalCode !== null)
        throw new Error(`worker ${worker.name} exited: ${worker.output}`);
      try {
        const res = await send(`http://127.0.0.1:${worker.port}`, { url: '/readyz' });
        if (res.statusCode === 200) return;
      } catch {
        // Not listening yet.
      }
      await sleep(200);
    }
    throw new Error(`worker ${worker.name} not ready after 60 s: ${worker.output}`);
  }

  async #waitBalancer(): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (this.#haproxy?.exitCode !== null)
        throw new Error(`haproxy exited: ${this.haproxyOutput}`);
      try {
        const res = await send(this.baseUrl, { url: '/readyz' });
        if (res.statusCode === 200) return;
      } catch {
        // Not listening yet.
      }
      await sleep(200);
    }
    throw new Error(`haproxy not answering after 20 s: ${this.haproxyOutput}`);
  }

  /** Sends `signal` to a worker and resolves with its exit code once it exited. */
  async stopWorker(name: string, signal: NodeJS.Signals): Promise<number | null> {
    const worker = this.workers.get(name) as Worker;
    const exited = once(worker.process, 'exit');
    worker.process.kill(signal);
    const [code] = await exited;
    return code as number | null;
  }

  /** Starts a new worker in the place (name, port) of a stopped one; resolves once ready. */
  async replaceWorker(name: string): Promise<void> {
    const old = this.workers.get(name) as Worker;
    const worker = this.#spawnWorker(name, old.port);
    this.workers.set(name, worker);
    await this.waitReady(worker);
  }

  /** Stops everything started here and removes what it made; never throws. */
  async close(): Promise<void> {
    const children = [
      ...[...this.workers.values()].map((w) => w.process),
      ...(this.#haproxy ? [this.#haproxy] : []),
    ];
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = once(child, 'exit');
        child.kill('SIGKILL');
        await exited;
      }),
    );
    this.#s3Client?.destroy();
    await this.#s3?.close().catch(() => {});
    await this.#pair?.remove().catch((error) => this.#log(`removing the clusters: ${error}`));
    await this.#deleteRedisKeys().catch((error) => this.#log(`redis cleanup: ${error}`));
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Deletes this run's keys (its prefix) from the shared Redis. */
  async deleteRedisKeys(pattern = '*'): Promise<number> {
    const redis = new Redis(process.env.TEST_REDIS_URL as string, { lazyConnect: true });
    try {
      await redis.connect();
      let deleted = 0;
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(
          cursor,
          'MATCH',
          `${this.redisPrefix}${pattern}`,
          'COUNT',
          500,
        );
        cursor = next;
        if (keys.length) deleted += await redis.del(...keys);
      } while (cursor !== '0');
      return deleted;
    } finally {
      redis.disconnect();
    }
  }

  async #deleteRedisKeys(): Promise<void> {
    await this.deleteRedisKeys();
  }

  /** The content of the bucket's object `name`, or undefined when there is none. */
  async readObject(name: string): Promise<string | undefined> {
    this.#s3Client ??= new S3Client({
      endpoint: this.#s3?.endpoint as string,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: TEST_CREDENTIALS,
    });
    try {
      const object = await this.#s3Client.send(new GetObjectCommand({ Bucket: BUCKET, Key: name }));
      return await object.Body?.transformToString();
    } catch (error) {
      if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
  }

  /** Kills every child synchronously (the process is exiting). */
  killAllNow(): void {
    for (const w of this.workers.values()) w.process.kill('SIGKILL');
    this.#haproxy?.kill('SIGKILL');
  }
}
