/**
 * The bookstore on Redis (`REDIS_URL`): one throttle count and one set of sessions for every
 * process of the service, so that running several processes (behind a load balancer, or
 * with a process manager) neither multiplies the limits nor loses a login made on another
 * process. Without it, each process counts its own limits (in memory) and sessions stay in
 * the database (shared already).
 * @module
 */
import {
  type Auth,
  RedisSessionStore,
  RedisThrottleStore,
  type ThrottleStore,
} from '@restframework/core';
import { bookstoreAuth } from './auth.ts';

/** Where the bookstore's Redis is, and the prefix of its keys. */
export interface BookstoreRedis {
  /** `redis://[user:password@]host:port/db`. */
  readonly url: string;
  /** Keeps services sharing a Redis apart (default `bookstore:`). */
  readonly keyPrefix?: string;
}

/** The stores of one app, closed with it. */
export interface RedisStores {
  readonly throttles: ThrottleStore;
  /** `auth` with its sessions in Redis (the same users, tables and permissions). */
  readonly auth: Auth;
  readonly sessions: RedisSessionStore;
}

/**
 * A throttle store and a session store on `redis`, and the bookstore's `Auth` with that
 * session store. A limit counted by Redis refuses (503) when Redis does not answer: the login
 * limit must not vanish with it.
 */
export function redisStores(redis: BookstoreRedis): RedisStores {
  const prefix = redis.keyPrefix ?? 'bookstore:';
  const sessions = new RedisSessionStore({ url: redis.url, keyPrefix: `${prefix}session:` });
  return {
    throttles: new RedisThrottleStore({ url: redis.url, keyPrefix: `${prefix}throttle:` }),
    sessions,
    auth: bookstoreAuth({ sessions }),
  };
}
