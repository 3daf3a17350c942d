/**
 * The baseline's queries on SQLite through better-sqlite3: every statement prepared once (the
 * fixed ones at start-up, those of an ordering, a filter or an offset the first time they run),
 * one row read with `get()`, writes in `db.transaction` functions made at start-up.
 * @module
 */
import BetterSqlite3 from 'better-sqlite3';
import { SQL } from './sql.ts';
import { type CursorOp, memo, type Patch, type RawRow, type Store } from './store.ts';

/** The baseline's store on the SQLite file `filename`. */
export function sqliteStore(filename: string): Store {
  const db = new BetterSqlite3(filename, { timeout: 5000 });
  // The same connection settings as the toolkit's SQLite adapter.
  if (filename !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  db.pragma(`mmap_size = ${256 * 1024 * 1024}`);

  const countBooks = db.prepare(SQL.countBooks()).pluck();
  const countProfiles = db.prepare(SQL.countProfiles).pluck();
  const bookById = db.prepare(SQL.bookById);
  const isbnTaken = db.prepare(SQL.isbnTaken).pluck();
  const insertBook = db.prepare(SQL.insertBook);
  const cursorPages = new Map<CursorOp, BetterSqlite3.Statement>(
    ([null, '>', '<', '>=', '<='] as const).map((op) => [op, db.prepare(SQL.cursorPage(op))]),
  );
  const countWhere = memo((where: string) => db.prepare(SQL.countBooks(where)).pluck());
  // One statement per ordering and offset, made the first time a page is asked for.
  const bookPages = memo((order: string) =>
    memo((offset: number) => db.prepare(SQL.bookPage(order, offset))),
  );
  const filteredPages = memo((where: string) =>
    memo((order: string) =>
      memo((offset: number) => db.prepare(SQL.bookPage(order, offset, where))),
    ),
  );
  const profilePages = memo((order: string) =>
    memo((offset: number) => db.prepare(SQL.profilePage(order, offset))),
  );
  const prepared = memo((sql: string) => db.prepare(sql));
  const updates = memo((key: string) => db.prepare(SQL.updateBook(key.split(','))));

  const create = db.transaction((isbn: unknown, values: readonly unknown[]) =>
    isbnTaken.get(isbn) === undefined ? (insertBook.get(values) as RawRow) : null,
  );
  const update = db.transaction((id: number, decide: (row: RawRow) => Patch) => {
    const row = bookById.get(id) as RawRow | undefined;
    if (row === undefined) return undefined;
    const patch = decide(row);
    if ('error' in patch) return patch;
    const columns = Object.keys(patch.changes);
    if (columns.length === 0) return row;
    const values = Object.values(patch.changes);
    values.push(id);
    return updates(columns.join(',')).get(values) as RawRow;
  });

  return {
    vendor: 'sqlite',
    countBooks: (where, parameters) =>
      Number(where ? countWhere(where).get(parameters) : countBooks.get()),
    bookPage: (order, offset, where, parameters) =>
      (where
        ? filteredPages(where)(order)(offset).all(parameters)
        : bookPages(order)(offset).all()) as RawRow[],
    cursorPage: (op, isbn) => {
      const statement = cursorPages.get(op) as BetterSqlite3.Statement;
      return (op === null ? statement.all() : statement.all(isbn)) as RawRow[];
    },
    bookById: (id) => bookById.get(id) as RawRow | undefined,
    countProfiles: () => Number(countProfiles.get()),
    profilePage: (order, offset) => profilePages(order)(offset).all() as RawRow[],
    createBook: (isbn, values) => create(isbn, values),
    updateBook: (id, decide) => update(id, decide),
    rows: (sql, parameters) => prepared(sql).all(parameters) as RawRow[],
    close: () => {
      db.close();
    },
  };
}
