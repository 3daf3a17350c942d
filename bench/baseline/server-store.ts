/**
 * The baseline's queries on a database server (PostgreSQL, MySQL): the same statements as on
 * SQLite, their texts made once per ordering, filter and offset, run through a
 * {@link ServerDriver} (one per vendor) that prepares or escapes them as its driver does.
 * @module
 */
import { SQL } from './sql.ts';
import { type CursorOp, memo, type RawRow, type Store } from './store.ts';

/** Runs one statement (on a pooled connection, or the transaction's). */
export type Run = (sql: string, values: readonly unknown[]) => Promise<RawRow[]>;

/** What a vendor's driver gives the store. */
export interface ServerDriver {
  readonly vendor: 'postgres' | 'mysql';
  /** One statement on any pooled connection. */
  readonly run: Run;
  /** `fn` inside BEGIN ... COMMIT on one connection (ROLLBACK when it throws). */
  transaction<T>(fn: (run: Run) => Promise<T>): Promise<T>;
  /** An INSERT or UPDATE `... returning` (the `id` of the written row: `key`), the row written. */
  written(run: Run, sql: string, values: readonly unknown[], key?: number): Promise<RawRow>;
  close(): Promise<void>;
}

const count = (rows: RawRow[]) => Number((rows[0] as { count: unknown }).count);
const NO_VALUES: readonly unknown[] = [];

/** The baseline's store on a database server. */
export function serverStore(driver: ServerDriver): Store {
  const { run } = driver;
  const countBooks = SQL.countBooks();
  const cursorPages = new Map<CursorOp, string>(
    ([null, '>', '<', '>=', '<='] as const).map((op) => [op, SQL.cursorPage(op)]),
  );
  const countWhere = memo((where: string) => SQL.countBooks(where));
  const bookPages = memo((order: string) => memo((offset: number) => SQL.bookPage(order, offset)));
  const filteredPages = memo((where: string) =>
    memo((order: string) => memo((offset: number) => SQL.bookPage(order, offset, where))),
  );
  const profilePages = memo((order: string) =>
    memo((offset: number) => SQL.profilePage(order, offset)),
  );
  const updates = memo((key: string) => SQL.updateBook(key.split(',')));

  return {
    vendor: driver.vendor,
    countBooks: async (where, parameters) =>
      count(
        await (where
          ? run(countWhere(where), parameters ?? NO_VALUES)
          : run(countBooks, NO_VALUES)),
      ),
    bookPage: (order, offset, where, parameters) =>
      where
        ? run(filteredPages(where)(order)(offset), parameters ?? NO_VALUES)
        : run(bookPages(order)(offset), NO_VALUES),
    cursorPage: (op, isbn) => run(cursorPages.get(op) as string, op === null ? NO_VALUES : [isbn]),
    bookById: async (id) => (await run(SQL.bookById, [id]))[0],
    countProfiles: async () => count(await run(SQL.countProfiles, NO_VALUES)),
    profilePage: (order, offset) => run(profilePages(order)(offset), NO_VALUES),
    createBook: (isbn, values) =>
      driver.transaction(async (inTransaction) => {
        if ((await inTransaction(SQL.isbnTaken, [isbn])).length) return null;
        return driver.written(inTransaction, SQL.insertBook, values);
      }),
    updateBook: (id, decide) =>
      driver.transaction(async (inTransaction) => {
        const row = (await inTransaction(SQL.bookById, [id]))[0];
        if (row === undefined) return undefined;
        const patch = decide(row);
        if ('error' in patch) return patch;
        const columns = Object.keys(patch.changes);
        if (columns.length === 0) return row;
        const values = Object.values(patch.changes);
        values.push(id);
        return driver.written(inTransaction, updates(columns.join(',')), values, id);
      }),
    rows: (sql, parameters) => run(sql, parameters),
    close: () => driver.close(),
  };
}
