/**
 * The Redis client of a store that lives in Redis (throttle counts, sessions): the one the
 * application passed, or one made from a URL with the settings every such store needs.
 *
 * A store must never make a request wait on a reconnecting server, nor print the URL (which
 * may hold a password), so a client made here fails commands at once while disconnected
 * (`enableOfflineQueue: false`), gives up after `timeoutMs`, and swallows connection errors:
 * each command still fails on its own, and the store answers that failure as it decides.
 *
 * @example
 * ```ts
 * const { client, owned } = redisConnection(
 *   { url: 'redis://127.0.0.1:6379' },
 *   { owner: 'RedisThrottleStore', code: 'REST_ERR_THROTTLE_STORE', timeoutMs: 500 },
 * );
 * if (owned) await client.quit();
 * ```
 * @module
 */
import type { Redis as IORedis } from 'ioredis';
import type { ErrorCode } from '../errors/error-codes.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { requireOptional } from './optional-dependency.ts';

/** Where a store's client comes from: exactly one of the two. */
export interface RedisConnectionOptions {
  /** `redis://host:port/db`: the store makes (and later closes) its own client. */
  readonly url?: string | undefined;
  /**
   * A client of the application's (an ioredis `Redis`), left open when the store closes.
   * Typed `unknown` so that no public type names ioredis, an optional dependency.
   */
  readonly client?: unknown;
}

/** Who asks, for the start-up error, and how long a command may take. */
export interface RedisConnectionUse {
  readonly owner: string;
  readonly code: ErrorCode;
  readonly timeoutMs: number;
}

/** The client, and whether the store made it (and so must close it). */
export function redisConnection(
  options: RedisConnectionOptions,
  use: RedisConnectionUse,
): { readonly client: IORedis; readonly owned: boolean } {
  if (!options.url === !options.client) {
    throw new ImproperlyConfigured(
      use.code,
      `${use.owner}: give either \`url\` (redis://host:port) or \`client\` (an ioredis client), not both.`,
    );
  }
  if (options.client) return { client: options.client as IORedis, owned: false };
  const { Redis } = requireOptional<{ Redis: typeof IORedis }>('ioredis', use.owner);
  const client = new Redis(options.url as string, {
    lazyConnect: true,
    // Fail at once while disconnected instead of queueing: the request waits for nothing.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: use.timeoutMs,
  });
  // Connection errors also reach each command; without a listener ioredis would print them
  // (with the URL, which may hold a password) on every reconnection attempt.
  client.on('error', () => {});
  client.connect().catch(() => {});
  return { client, owned: true };
}
