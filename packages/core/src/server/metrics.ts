/**
 * Prometheus metrics with `prom-client` (an optional package: `npm install prom-client`),
 * off unless the app registers this plugin:
 *
 * - `http_requests_total` and `http_request_duration_seconds` (histogram), by method, route
 *   pattern (`/api/books/:pk/`, never the raw URL: ids would make a series each) and status;
 * - `db_statement_duration_seconds` (histogram) by statement kind (select, insert, ...);
 * - `db_pool_connections` by state (`total`, `idle`, `waiting`), for pools that tell;
 * - `throttle_decisions_total` by scope and decision (`allowed`, `refused`);
 * - `cache_requests_total` of per-view caching by cache and result (`hit`, `miss`);
 * - with `defaultMetrics` (the default), prom-client's process metrics (CPU, memory, event loop).
 *
 * The plugin serves them at `path` (default `/metrics`; `false` for none, as under `serve`
 * with several workers, where the primary serves every worker's at `--metrics-port`). The
 * route is plain, not a view: no authentication, so keep it off the public network (or
 * behind the proxy's own rule).
 *
 * @example
 * ```ts
 * import { metrics } from '@restframework/core';
 *
 * await app.register(metrics); // GET /metrics
 * ```
 * @module
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type * as PromClient from 'prom-client';
import type { Database } from '../db/database.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { ThrottleEvent } from '../throttling/throttles.ts';
import { requireOptional } from '../utils/optional-dependency.ts';
import type { CacheEvent } from '../views/cache-page.ts';

/** Options of {@link metrics}. */
export interface MetricsOptions {
  /** Where the metrics are served (default `/metrics`); `false` serves none. */
  readonly path?: string | false;
  /**
   * The registry (default prom-client's global `register`, which `serve`'s primary gathers): a
   * prom-client `Registry`.
   */
  readonly registry?: MetricsRegistry;
  /**
   * Prefix of every metric name (default `restframework_`). Not `prefix`, which Fastify takes
   * as the prefix of the plugin's routes.
   */
  readonly metricPrefix?: string;
  /** Also collect prom-client's default process metrics (default true). */
  readonly defaultMetrics?: boolean;
  /** The database watched (default: the one `restFramework` was given). */
  readonly database?: Database;
  /** Histogram buckets of request durations, in seconds. */
  readonly buckets?: readonly number[];
}

const STATEMENT_KINDS = new Set(['select', 'insert', 'update', 'delete', 'begin', 'commit']);

/** The first word of a statement, among a few kinds (`other` else): a bounded label. */
function statementKind(sql: string): string {
  const match = /^\s*([a-z]+)/i.exec(sql);
  const word = match ? (match[1] as string).toLowerCase() : '';
  return STATEMENT_KINDS.has(word) ? word : 'other';
}

/**
 * What the plugin reads of a prom-client `Registry`, written here so that the package's types
 * do not name prom-client: it is optional, and an app without it must still type-check.
 */
export interface MetricsRegistry {
  /** The metrics in Prometheus' text format. */
  metrics(): Promise<string>;
  /** The text format's media type. */
  readonly contentType: string;
  /** A metric already registered under `name`, if any. */
  getSingleMetric(name: string): unknown;
}

/** The same metric when the registry has it already (several apps of one process). */
function metric<T>(registry: PromClient.Registry, name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

async function plugin(app: FastifyInstance, options: MetricsOptions): Promise<void> {
  const prom = requireOptional<typeof PromClient>('prom-client', 'The metrics plugin');
  const registry = (options.registry as PromClient.Registry | undefined) ?? prom.register;
  const prefix = options.metricPrefix ?? 'restframework_';
  if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$|^$/.test(prefix)) {
    throw new ImproperlyConfigured(
      'REST_ERR_SERVE',
      `metrics: metricPrefix must be a Prometheus name prefix such as "shop_", got ${JSON.stringify(prefix)}.`,
    );
  }
  const registers = [registry];
  if (
    options.defaultMetrics !== false &&
    !registry.getSingleMetric(`${prefix}process_cpu_seconds_total`)
  )
    prom.collectDefaultMetrics({ register: registry, prefix });

  const requests = metric(
    registry,
    `${prefix}http_requests_total`,
    () =>
      new prom.Counter({
        name: `${prefix}http_requests_total`,
        help: 'HTTP requests answered, by method, route pattern and status.',
        labelNames: ['method', 'route', 'status'],
        registers,
      }),
  );
  const durations = metric(
    registry,
    `${prefix}http_request_duration_seconds`,
    () =>
      new prom.Histogram({
        name: `${prefix}http_request_duration_seconds`,
        help: 'Time to answer an HTTP request, by method, route pattern and status.',
        labelNames: ['method', 'route', 'status'],
        buckets: [
          ...(options.buckets ?? [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]),
        ],
        registers,
      }),
  );
  const statements = metric(
    registry,
    `${prefix}db_statement_duration_seconds`,
    () =>
      new prom.Histogram({
        name: `${prefix}db_statement_duration_seconds`,
        help: 'Time of database statements, by kind.',
        labelNames: ['kind', 'outcome'],
        buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
        registers,
      }),
  );
  const throttles = metric(
    registry,
    `${prefix}throttle_decisions_total`,
    () =>
      new prom.Counter({
        name: `${prefix}throttle_decisions_total`,
        help: 'Throttle decisions, by scope and decision.',
        labelNames: ['scope', 'decision'],
        registers,
      }),
  );
  const cacheRequests = metric(
    registry,
    `${prefix}cache_requests_total`,
    () =>
      new prom.Counter({
        name: `${prefix}cache_requests_total`,
        help: 'Per-view cache lookups, by cache and result.',
        labelNames: ['cache', 'result'],
        registers,
      }),
  );
  const database =
    options.database ??
    (app.hasDecorator('restFramework') ? app.restFramework.database : undefined);
  const pool = database?.adapter as { poolStats?(): PoolStats | undefined } | undefined;
  if (pool?.poolStats) {
    metric(
      registry,
      `${prefix}db_pool_connections`,
      () =>
        new prom.Gauge({
          name: `${prefix}db_pool_connections`,
          help: 'Connections of the database pool, by state.',
          labelNames: ['state'],
          registers,
          collect() {
            const stats = pool.poolStats?.();
            if (!stats) return;
            this.set({ state: 'total' }, stats.total);
            this.set({ state: 'idle' }, stats.idle);
            this.set({ state: 'waiting' }, stats.waiting);
          },
        }),
    );
  }

  app.addHook('onResponse', (request, reply, done) => {
    // The pattern of the route that answered; one label for every URL no route took.
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route, status: String(reply.statusCode) };
    requests.inc(labels);
    durations.observe(labels, reply.elapsedTime / 1000);
    done();
  });
  const stopQueries = database?.onQuery((event) =>
    statements.observe(
      { kind: statementKind(event.sql), outcome: event.error === undefined ? 'ok' : 'error' },
      event.durationMs / 1000,
    ),
  );
  const onThrottle = (message: unknown) => {
    const event = message as ThrottleEvent;
    throttles.inc({ scope: event.scope, decision: event.allowed ? 'allowed' : 'refused' });
  };
  const onCache = (message: unknown) => {
    const event = message as CacheEvent;
    cacheRequests.inc({ cache: event.cache, result: event.result });
  };
  subscribe('restframework:throttle', onThrottle);
  subscribe('restframework:cache', onCache);
  app.addHook('onClose', (_instance, done) => {
    stopQueries?.();
    unsubscribe('restframework:throttle', onThrottle);
    unsubscribe('restframework:cache', onCache);
    done();
  });

  const path = options.path ?? '/metrics';
  if (path !== false) {
    app.get(path, async (_request, reply) => {
      const text = await registry.metrics();
      reply.header('content-type', registry.contentType).header('cache-control', 'no-store');
      return text;
    });
  }
}

/** What a pool tells of itself (`DialectAdapter.poolStats`, where the driver says). */
export interface PoolStats {
  /** Connections open. */
  readonly total: number;
  /** Connections open and unused. */
  readonly idle: number;
  /** Requests waiting for a connection. */
  readonly waiting: number;
}

/**
 * The metrics plugin (see the module); shared with the whole app (`fastify-plugin`), so that
 * its hook counts every route, the routers' registered after it included.
 */
export const metrics = fp(plugin, { name: '@restframework/core/metrics', fastify: '5.x' });
