/**
 * A cache in this process's memory (Django's `LocMemCache`): right for one process and for
 * tests. Entries are kept as JSON text (text values as they are), so a value read is a copy,
 * as from Redis. At most
 * `maxEntries` entries (default 1000): past it the least recently used goes first.
 *
 * @example
 * ```ts
 * import { MemoryCache } from '@restframework/core';
 *
 * const cache = new MemoryCache({ maxEntries: 10_000, timeout: 60 });
 * cache.set('a', 1);
 * cache.get('a'); // 1 (at once: no promise)
 * ```
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import {
  BaseCache,
  type Cache,
  CacheKeyMissing,
  type CacheOptions,
  type CacheValue,
  type Timeout,
} from './cache.ts';

/** Options of {@link MemoryCache}. */
export interface MemoryCacheOptions extends CacheOptions {
  /** The most entries kept (default 1000). */
  readonly maxEntries?: number;
}

interface Entry {
  /** The value as JSON text, or the text itself when `raw`. */
  readonly text: string;
  /** A text value, kept as it is: text cannot be changed, so it needs no copy. */
  readonly raw: boolean;
  /** When it expires (`Date.now()` ms), or `Infinity`. */
  readonly expires: number;
}

/**
 * The in-memory cache (see the module).
 *
 * @example
 * ```ts
 * const cache = new MemoryCache({ timeout: 60 });
 * cache.set('answer', { value: 42 });
 * cache.get('answer'); // { value: 42 }, a copy
 * ```
 */
export class MemoryCache extends BaseCache implements Cache {
  /** In use order: the least recently used first. */
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;

  constructor(options: MemoryCacheOptions = {}) {
    super('MemoryCache', options);
    const max = options.maxEntries ?? 1000;
    if (!Number.isInteger(max) || max < 1) {
      throw new ImproperlyConfigured(
        'REST_ERR_CACHE',
        `MemoryCache: maxEntries must be a whole number, 1 or more, got ${JSON.stringify(max)}.`,
      );
    }
    this.#maxEntries = max;
  }

  /** The live entry of a full key (touched as most recently used), or undefined. */
  #live(full: string): Entry | undefined {
    const entry = this.#entries.get(full);
    if (entry === undefined) return undefined;
    this.#entries.delete(full);
    if (entry.expires <= Date.now()) return undefined;
    this.#entries.set(full, entry);
    return entry;
  }

  #store(full: string, value: CacheValue, timeout: Timeout): void {
    const ms = this.lifetimeMs(timeout);
    this.#entries.delete(full);
    if (ms !== null && ms <= 0) return;
    const raw = typeof value === 'string';
    const text = raw ? value : JSON.stringify(value);
    if (text === undefined) throw new TypeError('A cache value must be what JSON can carry.');
    this.#entries.set(full, { text, raw, expires: ms === null ? Infinity : Date.now() + ms });
    if (this.#entries.size > this.#maxEntries) this.#evict();
  }

  /** Drops the expired entries, then the least recently used until under the bound. */
  #evict(): void {
    const now = Date.now();
    for (const [key, entry] of this.#entries) if (entry.expires <= now) this.#entries.delete(key);
    for (const key of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) break;
      this.#entries.delete(key);
    }
  }

  /** The value at `key` (a copy), or `fallback` when absent or expired. */
  get<T extends CacheValue>(key: string, fallback?: T, version?: number): T | undefined {
    const entry = this.#live(this.makeKey(key, version));
    if (entry === undefined) return fallback;
    return (entry.raw ? entry.text : JSON.parse(entry.text)) as T;
  }

  /** Stores `value` at `key` for `timeout` seconds (the default when undefined). */
  set(key: string, value: CacheValue, timeout?: Timeout, version?: number): void {
    this.#store(this.makeKey(key, version), value, timeout);
  }

  /** Stores `value` only when `key` is absent; true when it did. */
  add(key: string, value: CacheValue, timeout?: Timeout, version?: number): boolean {
    const full = this.makeKey(key, version);
    if (this.#live(full) !== undefined) return false;
    const ms = this.lifetimeMs(timeout);
    if (ms !== null && ms <= 0) return false;
    this.#store(full, value, timeout);
    return true;
  }

  /** Removes `key`; true when it was there. */
  delete(key: string, version?: number): boolean {
    const full = this.makeKey(key, version);
    const had = this.#live(full) !== undefined;
    this.#entries.delete(full);
    return had;
  }

  /** The values of the keys present. */
  getMany(keys: readonly string[], version?: number): Record<string, CacheValue> {
    const found: Record<string, CacheValue> = {};
    for (const key of keys) {
      const entry = this.#live(this.makeKey(key, version));
      if (entry !== undefined)
        found[key] = (entry.raw ? entry.text : JSON.parse(entry.text)) as CacheValue;
    }
    return found;
  }

  /** Stores every entry of `values`. */
  setMany(values: Readonly<Record<string, CacheValue>>, timeout?: Timeout, version?: number): void {
    for (const key of Object.keys(values))
      this.#store(this.makeKey(key, version), values[key] as CacheValue, timeout);
  }

  /** Adds `delta` to the number at `key`; `CacheKeyMissing` when absent. */
  incr(key: string, delta = 1, version?: number): number {
    const full = this.makeKey(key, version);
    const entry = this.#live(full);
    if (entry === undefined) throw new CacheKeyMissing(key);
    const value = (entry.raw ? entry.text : JSON.parse(entry.text)) as unknown;
    if (typeof value !== 'number') throw new TypeError(`The value of "${key}" is not a number.`);
    const result = value + delta;
    // The entry keeps its expiry.
    this.#entries.set(full, { text: JSON.stringify(result), raw: false, expires: entry.expires });
    return result;
  }

  /** Subtracts `delta` from the number at `key`; `CacheKeyMissing` when absent. */
  decr(key: string, delta = 1, version?: number): number {
    return this.incr(key, -delta, version);
  }

  /** Removes every entry of this cache. */
  clear(): void {
    this.#entries.clear();
  }
}
