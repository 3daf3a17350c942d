/**
 * The baseline's data access: one method per query the routes run, each a statement written
 * out by hand (`sql.ts`) and prepared once, run straight on the driver. No toolkit code.
 * SQLite answers synchronously (better-sqlite3), PostgreSQL and MySQL with a promise; the
 * routes take either ({@link Maybe}), so that SQLite requests never wait a microtask turn.
 * @module
 */
import { mysqlStore } from './mysql-store.ts';
import { postgresStore } from './postgres-store.ts';
import { sqliteStore } from './sqlite-store.ts';

/** A row as the driver returns it. */
export type RawRow = Record<string, unknown>;

/** A value now (SQLite) or later (a database server). */
export type Maybe<T> = T | Promise<T>;

/** The comparison of a keyset page: after (`>`), before (`<`), or the first page (null). */
export type CursorOp = '>' | '<' | '>=' | '<=' | null;

/** What a PATCH decides once it holds the current row: the columns to change, or an error. */
export type Patch = { readonly changes: Record<string, unknown> } | { readonly error: unknown };

/** The queries the baseline runs. Every method is one statement, or one transaction. */
export interface Store {
  readonly vendor: 'sqlite' | 'postgres' | 'mysql';
  /** `count(*)` of the books (with `where`, written with `?`, and its parameters). */
  countBooks(where?: string, parameters?: readonly unknown[]): Maybe<number>;
  /** 100 books from `offset` in the `order by` terms `order` (`where` as above). */
  bookPage(
    order: string,
    offset: number,
    where?: string,
    parameters?: readonly unknown[],
  ): Maybe<RawRow[]>;
  /** 101 books after (or before, descending) `isbn`: a keyset page and whether there is more. */
  cursorPage(op: CursorOp, isbn: string | null): Maybe<RawRow[]>;
  /** The book of a primary key (its first row: the key is unique). */
  bookById(id: number): Maybe<RawRow | undefined>;
  /** `count(*)` of the profiles. */
  countProfiles(): Maybe<number>;
  /** 100 profiles joined to their user, from `offset`, in the `order by` terms `order`. */
  profilePage(order: string, offset: number): Maybe<RawRow[]>;
  /** One transaction: the isbn's unique check, then the INSERT ... RETURNING. Null: taken. */
  createBook(isbn: unknown, values: readonly unknown[]): Maybe<RawRow | null>;
  /**
   * One transaction: reads the row, lets `decide` compute the changes, writes them with
   * `UPDATE ... RETURNING` (or answers the row read when nothing changed). Undefined: no row.
   */
  updateBook(
    id: number,
    decide: (row: RawRow) => Patch,
  ): Maybe<RawRow | { error: unknown } | undefined>;
  /** The rows of any read statement (`?` placeholders), prepared once per SQL text. */
  rows(sql: string, parameters: readonly unknown[]): Maybe<RawRow[]>;
  close(): Maybe<void>;
}

/** Opens the database of a URL: `sqlite:PATH`, `postgres://...` or `mysql://...`. */
export function openStore(url: string): Store {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return postgresStore(url);
  if (url.startsWith('mysql://') || url.startsWith('mariadb://')) return mysqlStore(url);
  if (url.startsWith('sqlite:')) return sqliteStore(url.slice('sqlite:'.length));
  throw new Error(`Unsupported database URL ${url}: use sqlite:PATH or postgres://...`);
}

/** A cache of things made once per key (statements per SQL text), bounded all the same. */
export function memo<K, V>(make: (key: K) => V, limit = 1000): (key: K) => V {
  const cache = new Map<K, V>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = make(key);
      if (cache.size < limit) cache.set(key, value);
    }
    return value;
  };
}
