/**
 * The bookstore as one worker of a service on several processes or machines, configured from
 * the environment as docs/deploying.md says (the page shows this file): a PostgreSQL primary
 * and its read replicas, one Redis (`REDIS_URL`) for the cache, the throttle counts and the
 * sessions, uploads in an S3 bucket, `/healthz` and `/readyz` for the load balancer, metrics
 * and request ids. `restframework serve` runs it (`createApp` of restframework.config.ts);
 * the scale-out test (`npm run test:scale`) runs three of them behind HAProxy.
 *
 * @example
 * ```ts
 * const app = await createProductionApp(process.env);
 * await app.listen({ port: 8000 });
 * ```
 * @module
 */
import {
  Database,
  healthChecks,
  metrics,
  PrimaryReplicaRouter,
  RedisCache,
  RedisSessionStore,
  S3Storage,
  s3StorageOptionsFromEnv,
} from '@restframework/core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { bookstoreAuth } from './auth.ts';

/**
 * Builds one worker's app (not listening) from `env`: `DATABASE_URL` (the primary),
 * `DATABASE_REPLICA_URLS` (comma-separated, optional), `DATABASE_POOL_SIZE` (10), `REDIS_URL` (required),
 * `REDIS_KEY_PREFIX` (`bookstore:`), the `AWS_*` variables of `s3StorageOptionsFromEnv`, and
 * `ALLOWED_HOSTS` (comma-separated).
 */
export async function createProductionApp(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<FastifyInstance> {
  if (!env.DATABASE_URL || !env.REDIS_URL)
    throw new Error('The bookstore in production needs DATABASE_URL and REDIS_URL.');
  const replicaUrls = (env.DATABASE_REPLICA_URLS ?? '').split(',').filter(Boolean);
  const replicas = replicaUrls.map((_, i) => `replica${i + 1}`);
  const router = new PrimaryReplicaRouter({ replicas, maxLagSeconds: 10 });
  // Each worker holds this many connections to each database: keep workers x pool under the
  // server's max_connections, with room for a worker started during a rolling restart.
  const pool = env.DATABASE_POOL_SIZE ? { poolSize: Number(env.DATABASE_POOL_SIZE) } : {};
  const databases = {
    default: Database.connect(env.DATABASE_URL, pool),
    ...Object.fromEntries(replicaUrls.map((url, i) => [replicas[i], Database.connect(url, pool)])),
  };
  // One Redis for all three: the cache, the throttle counts (the default cache's client, as
  // THROTTLE_STORE is not set) and the sessions.
  const prefix = env.REDIS_KEY_PREFIX || 'bookstore:';
  const cache = new RedisCache({ url: env.REDIS_URL, keyPrefix: prefix.replace(/:$/, '') });
  const sessions = new RedisSessionStore({ client: cache.client, keyPrefix: `${prefix}session:` });
  const storage = new S3Storage(s3StorageOptionsFromEnv(env));
  // Replicas get reads from the first request on, not from their first timed check.
  if (replicas.length) await router.checkReplicas();
  const app = await buildApp({
    databases,
    databaseRouters: [router],
    logger: { level: env.LOG_LEVEL ?? 'warn' },
    ...(env.ALLOWED_HOSTS ? { allowedHosts: env.ALLOWED_HOSTS.split(',') } : {}),
    settings: {
      CACHES: { default: cache },
      AUTH: bookstoreAuth({ sessions }),
      STORAGE: storage,
    },
  });
  app.addHook('onClose', async () => storage.close());
  await app.register(healthChecks);
  await app.register(metrics);
  return app;
}
