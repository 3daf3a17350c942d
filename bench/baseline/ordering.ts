/**
 * `?ordering=` by hand: friendly names mapped to columns, as the bookstore's view sets
 * declare them (tricks' ordering filter rules: comma list, trimmed, a leading `-` reverses,
 * unknown names dropped, a repeated column left out, the view's ordering when none is left,
 * the primary key appended unless a unique column already orders the rows).
 * @module
 */

/** A friendly name's columns (SQL references). */
export type Mapping = ReadonlyMap<string, readonly string[]>;

export interface OrderingSpec {
  readonly mapping: Mapping;
  /** The view's ordering, as names of `mapping`. */
  readonly fallback: readonly string[];
  /** The primary key's column. */
  readonly pk: string;
  /** Columns that identify a row on their own (the primary key, unique NOT NULL columns). */
  readonly unique: ReadonlySet<string>;
}

const cache = new Map<string, string>();

/** The `order by` list for the raw parameter (undefined: not sent). */
export function orderBy(spec: OrderingSpec, raw: string | undefined, cacheKey: string): string {
  const key = `${cacheKey}|${raw ?? ''}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const terms: string[] = [];
  const seen = new Set<string>();
  const add = (names: readonly string[]) => {
    for (const name of names) {
      const descending = name.startsWith('-');
      const columns = spec.mapping.get(descending ? name.slice(1) : name);
      if (!columns) continue;
      for (const column of columns) {
        if (seen.has(column)) continue;
        seen.add(column);
        terms.push(`${column} ${descending ? 'desc' : 'asc'}`);
      }
    }
  };
  if (raw) add(raw.split(',').map((name) => name.trim()));
  if (terms.length === 0) add(spec.fallback);
  if (![...seen].some((column) => spec.unique.has(column))) terms.push(`${spec.pk} asc`);
  const sql = terms.join(', ');
  // Only names of the mapping reach the SQL; the cache is bounded all the same.
  if (cache.size < 1000) cache.set(key, sql);
  return sql;
}
