/**
 * Probes for a load balancer or an orchestrator: `GET /healthz` answers 200 while the process
 * serves requests (liveness), `GET /readyz` answers 200 when the app can do its work: its
 * database answers a statement, and every cache of `CACHES` that can be pinged (Redis) answers
 * a ping. Otherwise 503 with a JSON body naming each check and which failed. Opt-in: the app
 * registers the plugin. The probes are plain routes, not views: no authentication, permission
 * or throttle runs for them (a throttled probe would take a healthy process out of rotation);
 * the host check of `restFramework` still does, so probe with a host of `ALLOWED_HOSTS`.
 *
 * @example
 * ```ts
 * import { healthChecks } from '@restframework/core';
 *
 * declare const searchClient: { ping(): Promise<void> };
 * await app.register(healthChecks, {
 *   checks: { search: () => searchClient.ping() },
 * });
 * // GET /readyz → 200 {"status":"ready","checks":{"database":"ok","cache:default":"ok","search":"ok"}}
 * ```
 * @module
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';

/** Options of {@link healthChecks}. */
export interface HealthChecksOptions {
  /** Path of the liveness probe (default `/healthz`). */
  readonly livePath?: string;
  /** Path of the readiness probe (default `/readyz`). */
  readonly readyPath?: string;
  /**
   * The database checked (default: the one `restFramework` was given, and with `databases`
   * each of them: `database` is the `default` one, `database:<alias>` each other, reported
   * but not required: one that fails is listed under `degraded` and the answer stays 200).
   */
  readonly database?: Database;
  /** More readiness checks by name: each resolves when ready, rejects (or times out) when not. */
  readonly checks?: Readonly<Record<string, () => Promise<unknown>>>;
  /** How long one check may take, in ms (default 2000). */
  readonly timeoutMs?: number;
}

/** A check's result: `ok`, `failed` or `timeout`. */
export type CheckResult = 'ok' | 'failed' | 'timeout';

function withTimeout(work: () => Promise<unknown>, timeoutMs: number): Promise<CheckResult> {
  return new Promise<CheckResult>((resolve) => {
    const timer = setTimeout(() => resolve('timeout'), timeoutMs);
    let started: Promise<unknown>;
    try {
      started = Promise.resolve(work());
    } catch {
      started = Promise.reject(new Error('check threw'));
    }
    started.then(
      () => {
        clearTimeout(timer);
        resolve('ok');
      },
      () => {
        clearTimeout(timer);
        resolve('failed');
      },
    );
  });
}

/**
 * The probes' plugin (see the module). Register it after `restFramework` (it reads the
 * database and caches from there unless given).
 */
export async function healthChecks(
  app: FastifyInstance,
  options: HealthChecksOptions = {},
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 2000;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw new ImproperlyConfigured(
      'REST_ERR_SERVE',
      `healthChecks: timeoutMs must be a whole number of ms, 1 or more, got ${JSON.stringify(timeoutMs)}.`,
    );
  }
  const state = app.hasDecorator('restFramework') ? app.restFramework : undefined;
  const database = options.database ?? state?.database;
  const checks: Record<string, () => Promise<unknown>> = {};
  // Reported, not required: a replica (or another database of `databases`) that is down is
  // skipped by its router, and taking every instance out of rotation for it would stop the
  // service the primary still serves.
  const optional = new Set<string>();
  if (database) {
    checks.database = () => Promise.resolve(database.execute({ sql: 'select 1', parameters: [] }));
  }
  const databases = options.database === undefined ? state?.databases : undefined;
  for (const alias of databases?.aliases ?? []) {
    if (alias === 'default') continue;
    const db = databases?.get(alias) as Database;
    checks[`database:${alias}`] = () =>
      Promise.resolve(db.execute({ sql: 'select 1', parameters: [] }));
    optional.add(`database:${alias}`);
  }
  for (const [name, cache] of Object.entries(state?.caches ?? {})) {
    if (cache.ping) checks[`cache:${name}`] = () => cache.ping?.() as Promise<unknown>;
  }
  for (const [name, check] of Object.entries(options.checks ?? {})) {
    if (typeof check !== 'function') {
      throw new ImproperlyConfigured(
        'REST_ERR_SERVE',
        `healthChecks: the check "${name}" must be a function returning a promise.`,
      );
    }
    checks[name] = check;
  }
  const names = Object.keys(checks);

  app.get(options.livePath ?? '/healthz', (_request, reply) => {
    reply.header('cache-control', 'no-store').send({ status: 'alive' });
  });

  app.get(options.readyPath ?? '/readyz', async (request, reply) => {
    const results = await Promise.all(names.map((name) => withTimeout(checks[name]!, timeoutMs)));
    const body: Record<string, CheckResult> = {};
    const failed: string[] = [];
    const degraded: string[] = [];
    names.forEach((name, i) => {
      body[name] = results[i] as CheckResult;
      if (results[i] !== 'ok') (optional.has(name) ? degraded : failed).push(name);
    });
    // Only the names: a driver's message may hold a host name or a user.
    if (failed.length) request.log.warn({ failed }, 'readiness check failed');
    if (degraded.length) request.log.warn({ degraded }, 'a secondary database is not answering');
    reply
      .code(failed.length ? 503 : 200)
      .header('cache-control', 'no-store')
      .send(
        failed.length
          ? {
              status: 'unavailable',
              checks: body,
              failed,
              ...(degraded.length ? { degraded } : {}),
            }
          : { status: 'ready', checks: body, ...(degraded.length ? { degraded } : {}) },
      );
  });
}
