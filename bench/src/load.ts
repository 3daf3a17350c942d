/**
 * One load run with autocannon against a running server, sampling the server's memory.
 * @module
 */
import autocannon from 'autocannon';
import { cpuTimeOf, memoryOf, type RunningServer } from './contenders.ts';
import type { Scenario } from './scenarios.ts';

/** What one measured run gives. */
export interface LoadResult {
  /** Mean requests per second over the run. */
  readonly rps: number;
  /** Latency percentiles, ms. */
  readonly p50: number;
  readonly p99: number;
  readonly requests: number;
  /** Answers that were not the scenario's status, connection errors, timeouts. */
  readonly failures: number;
  /** The largest VmRSS seen while the run went on, bytes. */
  readonly peakRss: number;
  /**
   * The server's CPU time per answered request, µs: what a request costs, much less
   * sensitive than throughput to other processes competing for the cores.
   */
  readonly cpuPerRequest: number;
}

/** Loads `server` with `scenario` for `seconds`, on `connections` connections. */
export async function runLoad(
  server: RunningServer,
  scenario: Scenario,
  options: {
    readonly seconds: number;
    readonly connections: number;
    readonly counter: { n: number };
    /** Requests per second over all connections; unset: as fast as the server answers. */
    readonly rate?: number | undefined;
  },
): Promise<LoadResult> {
  const first = scenario.request(options.counter.n);
  let peakRss = memoryOf(server.pid).rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, memoryOf(server.pid).rss);
  }, 100);
  const cpuBefore = cpuTimeOf(server.pid);
  try {
    const result = await autocannon({
      url: server.origin,
      connections: options.connections,
      duration: options.seconds,
      timeout: 10,
      ...(options.rate ? { overallRate: options.rate } : {}),
      requests: [
        {
          method: scenario.method,
          path: first.path,
          headers: first.body ? { 'content-type': 'application/json' } : {},
          ...(first.body ? { body: first.body } : {}),
          setupRequest(request) {
            const next = scenario.request(options.counter.n++);
            request.path = next.path;
            if (next.body !== undefined) request.body = next.body;
            return request;
          },
        },
      ],
    });
    peakRss = Math.max(peakRss, memoryOf(server.pid).rss);
    const cpu = cpuTimeOf(server.pid) - cpuBefore;
    const expected = String(scenario.status);
    let wrong = 0;
    for (const [code, stats] of Object.entries(result.statusCodeStats ?? {}))
      if (code !== expected) wrong += stats.count;
    return {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      requests: result.requests.total,
      failures: wrong + result.errors + result.timeouts,
      peakRss,
      cpuPerRequest: result.requests.total ? (cpu * 1000) / result.requests.total : Number.NaN,
    };
  } finally {
    clearInterval(sampler);
  }
}
