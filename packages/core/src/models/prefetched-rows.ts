/**
 * Where a row keeps the related rows a prefetch loaded for it (Django's
 * `_prefetched_objects_cache`): `QuerySet.prefetchRelated` writes them, and whatever reads a
 * relation of the row (a related set, a serializer's related or nested field) reads them here
 * before it asks the database.
 *
 * The rows sit under a symbol, not an own string key, so a representation, `JSON.stringify` and
 * `Object.keys` of the row never see them.
 * @module
 */

const PREFETCHED: unique symbol = Symbol('restframework.prefetched');

type Holder = { [PREFETCHED]?: Map<string, readonly unknown[]> };

/**
 * Keeps `rows` as the prefetched contents of the relation `name` of `row`.
 *
 * @example
 * ```ts-fragment
 * setPrefetched(article, 'tags', [python, web]);
 * getPrefetched(article, 'tags'); // [python, web]
 * ```
 */
export function setPrefetched(row: object, name: string, rows: readonly unknown[]): void {
  const holder = row as Holder;
  let cache = holder[PREFETCHED];
  if (cache === undefined) {
    cache = new Map();
    Object.defineProperty(row, PREFETCHED, { value: cache, enumerable: false, writable: false });
  }
  cache.set(name, rows);
}

/** The prefetched rows of the relation `name` of `row`, or undefined when none were loaded. */
export function getPrefetched(row: object, name: string): readonly unknown[] | undefined {
  return (row as Holder)[PREFETCHED]?.get(name);
}

/** Forgets what was prefetched for `row` (after its relation changed). */
export function clearPrefetched(row: object, name?: string): void {
  const cache = (row as Holder)[PREFETCHED];
  if (cache === undefined) return;
  if (name === undefined) cache.clear();
  else cache.delete(name);
}
