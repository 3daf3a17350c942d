/**
 * The one kind of cache the toolkit keeps beyond a request, and the objects that own them.
 *
 * Every cache has a name, a bound and one eviction policy (the oldest entry goes first), and
 * counts its hits, misses and evictions, so a test or an operator reads a cache's behaviour
 * from the cache itself instead of from counters in the modules that use it. A cache belongs
 * to the object whose lifetime it shares:
 *
 * - what depends on one database (compiled statements, lookup plans) is in that `Database`'s
 *   {@link CacheSet} (`db.caches`), emptied at once after a migration;
 * - what depends only on a class or a model (a serializer's plan, a field class's messages) is
 *   kept on that object with {@link ownPlan}, so it lives and dies with it;
 * - what depends only on a text (an `Accept` header, a throttle rate) is in
 *   {@link processCaches}, the one set of process-wide caches.
 *
 * No other module keeps a `Map` or `WeakMap` at module level as a cache (a test checks it).
 *
 * @example
 * ```ts
 * import { BoundedCache } from '@restframework/core/internal';
 *
 * const parsed = new BoundedCache<string, number>('parsed numbers', 256);
 * parsed.getOrCreate('42', (text) => Number(text)); // 42, made
 * parsed.getOrCreate('42', (text) => Number(text)); // 42, found
 * parsed.stats(); // { name: 'parsed numbers', size: 1, max: 256, hits: 1, misses: 1, evictions: 0 }
 * ```
 * @module
 */

/** What a cache reports of itself. */
export interface CacheStats {
  readonly name: string;
  readonly size: number;
  readonly max: number;
  readonly hits: number;
  readonly misses: number;
  readonly evictions: number;
}

/**
 * A map with a bound: past `max` entries, the oldest goes first. Keys a client can vary (an
 * `Accept` header, the length of an `__in` list) therefore cost at most `max` entries.
 */
export class BoundedCache<K, V> {
  readonly name: string;
  readonly max: number;
  readonly #entries = new Map<K, V>();
  #hits = 0;
  #misses = 0;
  #evictions = 0;

  /** `max` is a whole number of entries, 1 or more. */
  constructor(name: string, max: number) {
    if (!Number.isSafeInteger(max) || max < 1)
      throw new RangeError(
        `The cache ${JSON.stringify(name)} needs a bound of 1 or more; got ${max}.`,
      );
    this.name = name;
    this.max = max;
  }

  /** The entry of `key`, or undefined (counted as a hit or a miss). */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) this.#misses++;
    else this.#hits++;
    return value;
  }

  /** Keeps `value` under `key`, the oldest entry going first when the cache is full. */
  set(key: K, value: V): V {
    const entries = this.#entries;
    if (entries.size >= this.max && !entries.has(key)) {
      entries.delete(entries.keys().next().value as K);
      this.#evictions++;
    }
    entries.set(key, value);
    return value;
  }

  /** The entry of `key`, made by `make` and kept when there is none. */
  getOrCreate(key: K, make: (key: K) => V): V {
    const value = this.get(key);
    return value === undefined ? this.set(key, make(key)) : value;
  }

  /** Removes the entry of `key`; true when there was one. */
  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  /** Removes every entry (the counters stay). */
  clear(): void {
    this.#entries.clear();
  }

  /** How many entries the cache holds. */
  get size(): number {
    return this.#entries.size;
  }

  /** The cache's name, size, bound and counters. */
  stats(): CacheStats {
    return {
      name: this.name,
      size: this.#entries.size,
      max: this.max,
      hits: this.#hits,
      misses: this.#misses,
      evictions: this.#evictions,
    };
  }
}

/**
 * The named caches one object owns (a `Database`, the process): each made on first use,
 * cleared together.
 *
 * @example
 * ```ts
 * import { CacheSet } from '@restframework/core/internal';
 *
 * const caches = new CacheSet();
 * caches.cache<string, string>('statements', 2000).set('select 1', 'prepared');
 * caches.clear(); // after a migration: every cache of the set is empty
 * ```
 */
export class CacheSet {
  readonly #caches = new Map<string, BoundedCache<any, any>>();

  /**
   * The cache named `name`, made with the bound `max` on first use. Asking for a name again
   * with another bound is a programming error.
   */
  cache<K, V>(name: string, max: number): BoundedCache<K, V> {
    let cache = this.#caches.get(name);
    if (cache === undefined) this.#caches.set(name, (cache = new BoundedCache<K, V>(name, max)));
    else if (cache.max !== max)
      throw new RangeError(
        `The cache ${JSON.stringify(name)} was made with the bound ${cache.max}, not ${max}.`,
      );
    return cache;
  }

  /** Empties every cache of the set. */
  clear(): void {
    for (const cache of this.#caches.values()) cache.clear();
  }

  /** Each cache's {@link CacheStats}, by name. */
  stats(): CacheStats[] {
    return [...this.#caches.values()].map((cache) => cache.stats());
  }
}

/**
 * The process-wide caches: those whose answer depends only on a text the process meets (a
 * parsed `Accept` header, a throttle rate, a charset's decoder), whatever app or database
 * asked.
 */
export const processCaches: CacheSet = new CacheSet();

/**
 * What `owner` itself keeps under `key`, made by `make` on first use: a plan that lives and
 * dies with a class, a model or a database (a serializer class's prepared fields, a field
 * class's merged messages). Only `owner`'s own entry counts: a subclass does not find its
 * parent's plan, as its declaration may differ.
 *
 * @example
 * ```ts
 * import { ownPlan } from '@restframework/core/internal';
 *
 * const FIELDS = Symbol('fields');
 * class Declared { static fields = ['a', 'b']; }
 * ownPlan(Declared, FIELDS, () => new Set(Declared.fields)); // made once, kept on Declared
 * ```
 */
export function ownPlan<T>(owner: object, key: symbol, make: () => T): T {
  if (Object.hasOwn(owner, key)) return (owner as Record<symbol, T>)[key] as T;
  const value = make();
  Object.defineProperty(owner, key, { value, configurable: true });
  return value;
}
