/**
 * Where throttles count requests. A store answers one question atomically: may one more
 * request of `key` pass, given at most `limit` in any window of `windowMs`? It records the
 * request when it passes, and says how long to wait when it does not (DRF's sliding history
 * of request times). The in-process store is the default; {@link RedisThrottleStore} shares
 * limits between processes.
 *
 * @example
 * ```ts
 * await app.register(restFramework, {
 *   database: db,
 *   settings: { THROTTLE_STORE: new MemoryThrottleStore({ maxKeys: 50_000 }) },
 * });
 * ```
 * @module
 */
import type { FastifyBaseLogger } from 'fastify';

/** The answer of a store. */
export interface ThrottleDecision {
  /** True when the request passes (and was counted). */
  readonly allowed: boolean;
  /** When refused: milliseconds until the oldest counted request leaves the window. */
  readonly waitMs: number;
}

/** A throttle store. */
export interface ThrottleStore {
  /**
   * Counts one request of `key` if fewer than `limit` were counted in the last `windowMs`.
   * A store that cannot answer decides, from its own options, between letting the request
   * pass (logging a warning on `log`) and throwing `ServiceUnavailable` (503); never
   * anything else.
   */
  hit(
    key: string,
    limit: number,
    windowMs: number,
    log: FastifyBaseLogger,
  ): ThrottleDecision | Promise<ThrottleDecision>;
  /** Waits (briefly) for the store to be reachable; called when the app starts. */
  ready?(): Promise<void>;
  /** Releases connections; called when the app closes. */
  close?(): Promise<void>;
}

/** Options of {@link MemoryThrottleStore}. */
export interface MemoryThrottleStoreOptions {
  /** The most keys (callers × scopes) kept; past it the expired ones are dropped. Default 100 000. */
  readonly maxKeys?: number;
}

const ALLOWED: ThrottleDecision = Object.freeze({ allowed: true, waitMs: 0 });

/**
 * Counts in this process's memory: right for one process. Each key keeps the times of its
 * requests in the window, at most `limit` of them, so memory is bounded by keys × limit.
 *
 * @example
 * ```ts
 * const store = new MemoryThrottleStore();
 * store.hit('throttle_anon_203.0.113.7', 2, 60_000); // { allowed: true, waitMs: 0 }
 * store.hit('throttle_anon_203.0.113.7', 2, 60_000); // { allowed: true, waitMs: 0 }
 * store.hit('throttle_anon_203.0.113.7', 2, 60_000); // { allowed: false, waitMs: 60000 } or just under
 * ```
 */
export class MemoryThrottleStore implements ThrottleStore {
  readonly #histories = new Map<string, { windowMs: number; times: number[] }>();
  readonly #maxKeys: number;

  constructor(options: MemoryThrottleStoreOptions = {}) {
    this.#maxKeys = options.maxKeys ?? 100_000;
  }

  hit(key: string, limit: number, windowMs: number): ThrottleDecision {
    const now = Date.now();
    let history = this.#histories.get(key);
    if (!history) {
      if (this.#histories.size >= this.#maxKeys) this.#sweep(now);
      history = { windowMs, times: [] };
      this.#histories.set(key, history);
    }
    history.windowMs = windowMs;
    const times = history.times;
    // Oldest first: drop the times that left the window.
    let expired = 0;
    while (expired < times.length && (times[expired] as number) <= now - windowMs) expired++;
    if (expired) times.splice(0, expired);
    if (times.length < limit) {
      times.push(now);
      return ALLOWED;
    }
    return { allowed: false, waitMs: (times[0] as number) + windowMs - now };
  }

  /** Drops keys whose window is over; if every key is live, the oldest half. */
  #sweep(now: number): void {
    for (const [key, { windowMs, times }] of this.#histories) {
      const last = times[times.length - 1];
      if (last === undefined || last <= now - windowMs) this.#histories.delete(key);
    }
    if (this.#histories.size < this.#maxKeys) return;
    let drop = Math.ceil(this.#histories.size / 2);
    for (const key of this.#histories.keys()) {
      if (drop-- <= 0) break;
      this.#histories.delete(key);
    }
  }
}
