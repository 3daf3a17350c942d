/**
 * A throttle store in Redis, so that several processes (or machines) share one limit. Each
 * decision is one Lua script, run atomically by Redis: no request is lost or counted twice
 * between processes. Needs the optional `ioredis` package.
 *
 * @example
 * ```ts
 * const store = new RedisThrottleStore({ url: 'redis://127.0.0.1:6379', keyPrefix: 'shop:' });
 * await app.register(restFramework, {
 *   database: db,
 *   settings: {
 *     THROTTLE_STORE: store,
 *     DEFAULT_THROTTLE_CLASSES: [AnonRateThrottle],
 *     DEFAULT_THROTTLE_RATES: { anon: '100/min' },
 *   },
 * });
 * ```
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis as IORedis } from 'ioredis';
import { ServiceUnavailable } from '../errors/api-exception.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { redisConnection } from '../utils/redis-connection.ts';
import type { ThrottleDecision, ThrottleStore } from './throttle-store.ts';

/** What to do when Redis does not answer. */
export type WhenUnavailable = 'allow' | 'refuse';

/** Options of {@link RedisThrottleStore}. */
export interface RedisThrottleStoreOptions {
  /** `redis://[user:password@]host:port/db`; or give `client`. */
  readonly url?: string;
  /** A client of your own (an `ioredis` `Redis`); it is not closed with the store. */
  readonly client?: unknown;
  /** Prefix of every key (default `throttle:`): keeps apps sharing a Redis apart. */
  readonly keyPrefix?: string;
  /**
   * When Redis cannot be reached or does not answer in `timeoutMs`: `'refuse'` answers 503
   * (the default: a limit that protects logins should not silently vanish), `'allow'` lets the
   * request pass and logs a warning at most once per `warnIntervalMs`.
   */
  readonly whenUnavailable?: WhenUnavailable;
  /** How long a decision may take before Redis counts as unavailable (default 500 ms). */
  readonly timeoutMs?: number;
  /** Least time between two warnings about an unavailable Redis (default 60 s). */
  readonly warnIntervalMs?: number;
}

// A sliding window in a sorted set: members are requests, scores their time in microseconds
// from Redis's own clock (one clock for every process). Returns {1, 0} when counted, else
// {0, microseconds until the oldest request leaves the window}.
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local window = tonumber(ARGV[1]) * 1000
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now, now .. ':' .. ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return {1, 0}
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {0, tonumber(oldest[2]) + window - now}
`;

type ThrottleClient = IORedis & {
  restframeworkThrottle(key: string, windowMs: number, limit: number, id: string): Promise<unknown>;
};

/**
 * Counts in Redis (see the module).
 *
 * @example
 * ```ts
 * const store = new RedisThrottleStore({ url: 'redis://127.0.0.1:6379', whenUnavailable: 'allow' });
 * await app.register(restFramework, { database: db, settings: { THROTTLE_STORE: store } });
 * ```
 */
export class RedisThrottleStore implements ThrottleStore {
  readonly #client: ThrottleClient;
  readonly #ownsClient: boolean;
  readonly #prefix: string;
  readonly #whenUnavailable: WhenUnavailable;
  readonly #timeoutMs: number;
  readonly #warnIntervalMs: number;
  #lastWarning = -Infinity;
  #counter = 0;
  readonly #processId = randomBytes(6).toString('hex');

  constructor(options: RedisThrottleStoreOptions) {
    const whenUnavailable = options.whenUnavailable ?? 'refuse';
    if (whenUnavailable !== 'allow' && whenUnavailable !== 'refuse') {
      throw new ImproperlyConfigured(
        'REST_ERR_THROTTLE_STORE',
        `RedisThrottleStore: whenUnavailable must be 'allow' or 'refuse', got ${JSON.stringify(whenUnavailable)}.`,
      );
    }
    this.#whenUnavailable = whenUnavailable;
    this.#timeoutMs = options.timeoutMs ?? 500;
    this.#warnIntervalMs = options.warnIntervalMs ?? 60_000;
    this.#prefix = options.keyPrefix ?? 'throttle:';
    const { client, owned } = redisConnection(options, {
      owner: 'RedisThrottleStore',
      code: 'REST_ERR_THROTTLE_STORE',
      timeoutMs: this.#timeoutMs,
    });
    this.#ownsClient = owned;
    client.defineCommand('restframeworkThrottle', { numberOfKeys: 1, lua: SCRIPT });
    this.#client = client as ThrottleClient;
  }

  async hit(
    key: string,
    limit: number,
    windowMs: number,
    log: FastifyBaseLogger,
  ): Promise<ThrottleDecision> {
    const id = `${this.#processId}:${(this.#counter = (this.#counter + 1) % 1e9)}`;
    let answer: unknown;
    try {
      answer = await this.#client.restframeworkThrottle(
        this.#prefix + key,
        Math.ceil(windowMs),
        limit,
        id,
      );
    } catch (error) {
      return this.#unavailable(error, log);
    }
    const [allowed, waitMicros] = answer as [number, number];
    return { allowed: allowed === 1, waitMs: Math.max(0, Number(waitMicros) / 1000) };
  }

  #unavailable(error: unknown, log: FastifyBaseLogger): ThrottleDecision {
    const now = Date.now();
    if (now - this.#lastWarning >= this.#warnIntervalMs) {
      this.#lastWarning = now;
      // The error's name and message only: never the client's options (they hold the URL).
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : 'unknown';
      log.warn(
        { reason, whenUnavailable: this.#whenUnavailable },
        this.#whenUnavailable === 'allow'
          ? 'throttle store unavailable: requests pass unthrottled'
          : 'throttle store unavailable: requests are refused with 503',
      );
    }
    if (this.#whenUnavailable === 'allow') return { allowed: true, waitMs: 0 };
    throw new ServiceUnavailable();
  }

  /**
   * Waits until the client is connected, at most `timeoutMs`: the first requests then find
   * Redis ready. An unreachable Redis does not stop the app from starting (requests are then
   * answered as `whenUnavailable` says).
   */
  async ready(): Promise<void> {
    const client = this.#client;
    if (client.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        client.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, this.#timeoutMs);
      client.once('ready', done);
    });
  }

  async close(): Promise<void> {
    if (this.#ownsClient) this.#client.disconnect();
  }
}
