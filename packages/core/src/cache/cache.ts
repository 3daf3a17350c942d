/**
 * The cache API, as Django's: `get`/`set`/`add`/`delete`, `getMany`/`setMany`, `incr`/`decr`,
 * `clear`, with a default timeout, a key prefix and versions. Values are what JSON can
 * carry (objects, arrays, text, numbers, booleans, `null`), so that every backend gives back
 * the same value: a copy, never the object that was stored. Each method answers at once when
 * the backend can (memory) and with a promise when it waits (Redis): `await` either.
 *
 * Keys become `KEY_PREFIX:VERSION:key` (Django's `make_key`): changing the prefix separates
 * apps sharing a backend; bumping the version (`new RedisCache({ version: 2 })`, or
 * `version` on a call) makes every older entry unreachable at once.
 *
 * @example
 * ```ts
 * import { MemoryCache } from '@restframework/core';
 *
 * const cache = new MemoryCache({ timeout: 60 });
 * await cache.set('greeting', { text: 'hello' });
 * await cache.get('greeting'); // { text: 'hello' }
 * await cache.add('greeting', 'other'); // false: already there
 * try {
 *   await cache.incr('visits');
 * } catch {
 *   await cache.set('visits', 1); // incr needs the key
 * }
 * ```
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';

/** A value a cache keeps: what JSON can carry. */
export type CacheValue =
  | string
  | number
  | boolean
  | null
  | readonly CacheValue[]
  | { readonly [key: string]: CacheValue };

/**
 * How long an entry lives, in seconds: a number (0 or less: not stored, and an older entry
 * is removed), `null` for ever, `undefined` for the cache's default.
 */
export type Timeout = number | null | undefined;

/** Options every backend takes. */
export interface CacheOptions {
  /** Default lifetime in seconds (default 300, Django's); `null` for ever. */
  readonly timeout?: number | null;
  /** Prefix of every key (default none). */
  readonly keyPrefix?: string;
  /** Default version of the keys (default 1). */
  readonly version?: number;
}

/** A cache (see the module). */
export interface Cache {
  /** Its stored value, or `fallback` (default `undefined`) when absent or expired. */
  get<T extends CacheValue>(
    key: string,
    fallback?: T,
    version?: number,
  ): T | undefined | Promise<T | undefined>;
  /** Stores `value`. */
  set(key: string, value: CacheValue, timeout?: Timeout, version?: number): void | Promise<void>;
  /** Stores `value` only when `key` is absent; true when it stored it. */
  add(
    key: string,
    value: CacheValue,
    timeout?: Timeout,
    version?: number,
  ): boolean | Promise<boolean>;
  /** Removes `key`; true when it was there. */
  delete(key: string, version?: number): boolean | Promise<boolean>;
  /** The values of the keys that are present (absent ones are left out). */
  getMany(
    keys: readonly string[],
    version?: number,
  ): Record<string, CacheValue> | Promise<Record<string, CacheValue>>;
  /** Stores every entry. */
  setMany(
    values: Readonly<Record<string, CacheValue>>,
    timeout?: Timeout,
    version?: number,
  ): void | Promise<void>;
  /**
   * Adds `delta` (default 1) to the number at `key` and answers the result; throws
   * `CacheKeyMissing` when the key is absent (as Django's `ValueError`).
   */
  incr(key: string, delta?: number, version?: number): number | Promise<number>;
  /** `incr` with `-delta`. */
  decr(key: string, delta?: number, version?: number): number | Promise<number>;
  /** Removes every entry of this cache (only those of its key prefix on a shared Redis). */
  clear(): void | Promise<void>;
  /** Waits (briefly) for a connection; called when the app starts. Absent when always ready. */
  ready?(): Promise<void>;
  /** Resolves when the backend answers (for readiness probes); absent when always ready. */
  ping?(): Promise<void>;
  /** Releases connections (called when the app closes). */
  close?(): Promise<void>;
}

/**
 * `incr`/`decr` on a key that is not in the cache.
 *
 * @example
 * ```ts
 * const cache = new MemoryCache();
 * try {
 *   cache.incr('absent');
 * } catch (error) {
 *   console.log(error instanceof CacheKeyMissing); // true
 * }
 * ```
 */
export class CacheKeyMissing extends Error {
  constructor(key: string) {
    super(`The key "${key}" is not in the cache.`);
    this.name = 'CacheKeyMissing';
  }
}

/**
 * The key prefix, version and default timeout, and how they make keys and lifetimes: the base
 * of the backends (a backend of your own extends it and implements {@link Cache}).
 *
 * @example
 * ```ts
 * const cache = new MemoryCache({ keyPrefix: 'shop', version: 2 });
 * cache.makeKey('books'); // 'shop:2:books'
 * cache.lifetimeMs(undefined); // 300000: the default timeout
 * ```
 */
export abstract class BaseCache {
  /** The prefix of every key (`prefix:version:key`). */
  readonly keyPrefix: string;
  /** The version of keys when a call gives none. */
  readonly version: number;
  /** The lifetime of entries when a call gives none, in seconds; `null` for ever. */
  readonly defaultTimeout: number | null;

  constructor(owner: string, options: CacheOptions = {}) {
    const timeout = options.timeout === undefined ? 300 : options.timeout;
    if (timeout !== null && !(typeof timeout === 'number' && Number.isFinite(timeout))) {
      throw new ImproperlyConfigured(
        'REST_ERR_CACHE',
        `${owner}: timeout must be a number of seconds or null (for ever), got ${JSON.stringify(timeout)}.`,
      );
    }
    if (options.version !== undefined && !Number.isInteger(options.version)) {
      throw new ImproperlyConfigured(
        'REST_ERR_CACHE',
        `${owner}: version must be a whole number, got ${JSON.stringify(options.version)}.`,
      );
    }
    if (options.keyPrefix !== undefined && typeof options.keyPrefix !== 'string') {
      throw new ImproperlyConfigured('REST_ERR_CACHE', `${owner}: keyPrefix must be text.`);
    }
    this.defaultTimeout = timeout;
    this.keyPrefix = options.keyPrefix ?? '';
    this.version = options.version ?? 1;
  }

  /** `prefix:version:key`, Django's `make_key`. */
  makeKey(key: string, version?: number): string {
    return `${this.keyPrefix}:${version ?? this.version}:${key}`;
  }

  /**
   * The lifetime of an entry in ms: `null` for ever, 0 or less for "do not store" (Django
   * deletes the key then).
   */
  lifetimeMs(timeout: Timeout): number | null {
    const seconds = timeout === undefined ? this.defaultTimeout : timeout;
    return seconds === null ? null : seconds * 1000;
  }
}
