/**
 * A cache in Redis (Django's `RedisCache`), shared by every process and machine of an app.
 * Needs the optional `ioredis` package. Values travel as JSON text. A command that fails (Redis
 * unreachable, or slower than `timeoutMs`) rejects: callers decide (per-view caching answers
 * without the cache then).
 *
 * Its client can be shared: the throttle store of an app whose default cache is a
 * `RedisCache` counts in the same Redis (see `CACHES`), and a session store can be given
 * `{ client: cache.client }`, so that one `REDIS_URL` configures all three.
 *
 * @example
 * ```ts
 * import { RedisCache } from '@restframework/core';
 *
 * const cache = new RedisCache({ url: process.env.REDIS_URL, keyPrefix: 'shop', timeout: 60 });
 * await cache.set('greeting', 'hello');
 * await cache.get('greeting'); // 'hello'
 * ```
 * @module
 */
import type { Redis as IORedis } from 'ioredis';
import { redisConnection } from '../utils/redis-connection.ts';
import {
  BaseCache,
  type Cache,
  CacheKeyMissing,
  type CacheOptions,
  type CacheValue,
  type Timeout,
} from './cache.ts';

/** Options of {@link RedisCache}. */
export interface RedisCacheOptions extends CacheOptions {
  /** `redis://[user:password@]host:port/db`; or give `client`. */
  readonly url?: string | undefined;
  /** A client of your own (an `ioredis` `Redis`); it is not closed with the cache. */
  readonly client?: unknown;
  /** How long a command may take before it fails, in ms (default 500). */
  readonly timeoutMs?: number;
}

// INCRBY creates a missing key; Django's incr refuses one. Nil when absent.
const INCR = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
return redis.call('INCRBY', KEYS[1], ARGV[1])
`;

type CacheClient = IORedis & {
  restframeworkCacheIncr(key: string, delta: number): Promise<number | null>;
};

/** `*`, `?`, `[` and `\` taken literally in a SCAN pattern. */
function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

function parse(text: string | null): CacheValue | undefined {
  return text === null ? undefined : (JSON.parse(text) as CacheValue);
}

function encode(value: CacheValue): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError('A cache value must be what JSON can carry.');
  return text;
}

/**
 * The Redis cache (see the module).
 *
 * @example
 * ```ts
 * const cache = new RedisCache({ url: 'redis://127.0.0.1:6379', keyPrefix: 'shop' });
 * await cache.setMany({ a: 1, b: 2 }, 30);
 * await cache.getMany(['a', 'b', 'c']); // { a: 1, b: 2 }
 * await cache.close();
 * ```
 */
export class RedisCache extends BaseCache implements Cache {
  readonly #client: CacheClient;
  readonly #owns: boolean;
  readonly #timeoutMs: number;

  constructor(options: RedisCacheOptions) {
    super('RedisCache', options);
    this.#timeoutMs = options.timeoutMs ?? 500;
    const { client, owned } = redisConnection(options, {
      owner: 'RedisCache',
      code: 'REST_ERR_CACHE',
      timeoutMs: this.#timeoutMs,
    });
    this.#owns = owned;
    client.defineCommand('restframeworkCacheIncr', { numberOfKeys: 1, lua: INCR });
    this.#client = client as CacheClient;
  }

  /**
   * Resolves once the client is connected, or after `timeoutMs` (the command then fails on
   * its own): a cache made at start-up, or reconnecting, makes a caller wait that long at
   * most, never longer.
   */
  ready(): Promise<void> {
    const client = this.#client;
    if (client.status === 'ready') return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        client.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, this.#timeoutMs);
      client.once('ready', done);
    });
  }

  /** The client, once connected (see {@link ready}). */
  async #connected(): Promise<CacheClient> {
    if (this.#client.status !== 'ready') await this.ready();
    return this.#client;
  }

  /** The ioredis client, to share with a throttle or session store. */
  get client(): unknown {
    return this.#client;
  }

  /** The value at `key` (a copy), or `fallback` when absent or expired. */
  async get<T extends CacheValue>(
    key: string,
    fallback?: T,
    version?: number,
  ): Promise<T | undefined> {
    const client = await this.#connected();
    const value = parse(await client.get(this.makeKey(key, version)));
    return value === undefined ? fallback : (value as T);
  }

  /** Stores `value` at `key` for `timeout` seconds (the default when undefined). */
  async set(key: string, value: CacheValue, timeout?: Timeout, version?: number): Promise<void> {
    const client = await this.#connected();
    const full = this.makeKey(key, version);
    const ms = this.lifetimeMs(timeout);
    if (ms === null) await client.set(full, encode(value));
    else if (ms <= 0) await client.del(full);
    else await client.set(full, encode(value), 'PX', Math.ceil(ms));
  }

  /** Stores `value` only when `key` is absent; true when it did. */
  async add(key: string, value: CacheValue, timeout?: Timeout, version?: number): Promise<boolean> {
    const client = await this.#connected();
    const full = this.makeKey(key, version);
    const ms = this.lifetimeMs(timeout);
    if (ms !== null && ms <= 0) return false;
    const answer =
      ms === null
        ? await client.set(full, encode(value), 'NX')
        : await client.set(full, encode(value), 'PX', Math.ceil(ms), 'NX');
    return answer === 'OK';
  }

  /** Removes `key`; true when it was there. */
  async delete(key: string, version?: number): Promise<boolean> {
    const client = await this.#connected();
    return (await client.del(this.makeKey(key, version))) > 0;
  }

  /** The values of the keys present. */
  async getMany(keys: readonly string[], version?: number): Promise<Record<string, CacheValue>> {
    const client = await this.#connected();
    const found: Record<string, CacheValue> = {};
    if (keys.length === 0) return found;
    const texts = await client.mget(...keys.map((key) => this.makeKey(key, version)));
    keys.forEach((key, i) => {
      const value = parse(texts[i] ?? null);
      if (value !== undefined) found[key] = value;
    });
    return found;
  }

  /** Stores every entry of `values`. */
  async setMany(
    values: Readonly<Record<string, CacheValue>>,
    timeout?: Timeout,
    version?: number,
  ): Promise<void> {
    const client = await this.#connected();
    const ms = this.lifetimeMs(timeout);
    const batch = client.multi();
    for (const key of Object.keys(values)) {
      const full = this.makeKey(key, version);
      const text = encode(values[key] as CacheValue);
      if (ms === null) batch.set(full, text);
      else if (ms <= 0) batch.del(full);
      else batch.set(full, text, 'PX', Math.ceil(ms));
    }
    const results = await batch.exec();
    const failed = results?.find(([error]) => error);
    if (failed) throw failed[0];
  }

  /** Adds `delta` to the number at `key`; `CacheKeyMissing` when absent. */
  async incr(key: string, delta = 1, version?: number): Promise<number> {
    const client = await this.#connected();
    if (!Number.isInteger(delta)) throw new TypeError('RedisCache.incr takes a whole number.');
    const result = await client.restframeworkCacheIncr(this.makeKey(key, version), delta);
    if (result === null) throw new CacheKeyMissing(key);
    return Number(result);
  }

  /** Subtracts `delta` from the number at `key`; `CacheKeyMissing` when absent. */
  decr(key: string, delta = 1, version?: number): Promise<number> {
    return this.incr(key, -delta, version);
  }

  /** Deletes the keys of this cache's prefix (never the rest of the database). */
  async clear(): Promise<void> {
    const client = await this.#connected();
    const pattern = `${globEscape(this.keyPrefix)}:*`;
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (keys.length) await client.unlink(...keys);
    } while (cursor !== '0');
  }

  /** Resolves when Redis answers a PING. */
  async ping(): Promise<void> {
    const client = await this.#connected();
    await client.ping();
  }

  /** Closes the client the cache made (not one it was given). */
  async close(): Promise<void> {
    if (this.#owns) this.#client.disconnect();
  }
}
