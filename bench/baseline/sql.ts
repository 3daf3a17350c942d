/**
 * The SQL the toolkit runs for the bookstore's routes, written out by hand with `?`
 * placeholders (numbered `$1` for PostgreSQL once, when a statement is prepared).
 * @module
 */

const COLUMNS =
  '"books_book"."id" as "id", "books_book"."title" as "title", "books_book"."description" as "description", ' +
  '"books_book"."summary" as "summary", "books_book"."publication_date" as "publication_date", ' +
  '"books_book"."state" as "state", "books_book"."isbn" as "isbn", "books_book"."price" as "price", ' +
  '"books_book"."pages" as "pages", "books_book"."stock_count" as "stock_count"';
/** The columns a write answers (MySQL, without RETURNING, selects them by key instead). */
export const RETURNED =
  '"id", "title", "description", "summary", "publication_date", "state", "isbn", "price", "pages", "stock_count"';
const RETURNING = `returning ${RETURNED}`;

/** A page's size, as the bookstore's PAGE_SIZE. */
export const PAGE_SIZE = 100;

// LIMIT and OFFSET are numbers in the SQL, as the toolkit writes them (bound, they make this
// SQLite prepare the statement again on every run).
const limitOffset = (limit: number, offset: number) =>
  ` limit ${limit}${offset ? ` offset ${offset}` : ''}`;

/** The `order by` of the book list (the model's ordering). */
export const ISBN_ORDER = '"books_book"."isbn" asc';

export const SQL = {
  countBooks: (where?: string) =>
    `select count(*) as "count" from "books_book"${where ? ` where ${where}` : ''}`,
  /** A page of books in one ordering (`order by` terms already written). */
  bookPage: (order: string, offset: number, where?: string) =>
    `select ${COLUMNS} from "books_book"${where ? ` where ${where}` : ''} order by ${order}${limitOffset(PAGE_SIZE, offset)}`,
  /** A keyset page: the rows after (or before) a cursor's isbn, one more than a page. */
  cursorPage: (op: '>' | '<' | '>=' | '<=' | null) =>
    `select ${COLUMNS} from "books_book"${op ? ` where "books_book"."isbn" ${op} ?` : ''} order by "books_book"."isbn" ${op === '<' || op === '<=' ? 'desc' : 'asc'} limit ${PAGE_SIZE + 1}`,
  // No ORDER BY for a single row, as the toolkit (and Django's get()).
  bookById: `select ${COLUMNS} from "books_book" where "books_book"."id" = ? limit 2`,
  isbnTaken: 'select "books_book"."id" from "books_book" where "books_book"."isbn" = ? limit 1',
  insertBook: `insert into "books_book" ("title", "description", "summary", "publication_date", "state", "isbn", "price", "pages", "stock_count") values (?, ?, ?, ?, ?, ?, ?, ?, ?) ${RETURNING}`,
  /** `update ... set "a" = ?, "b" = ? where "id" = ? returning ...` for a set of columns. */
  updateBook: (columns: readonly string[]) =>
    `update "books_book" set ${columns.map((c) => `"${c}" = ?`).join(', ')} where "id" = ? ${RETURNING}`,
  countProfiles: 'select count(*) as "count" from "books_profile"',
  profilePage: (order: string, offset: number) =>
    'select "books_profile"."id" as "id", "books_profile"."user_id" as "user_id", "books_profile"."biography" as "biography", ' +
    '"books_profile"."hobbies" as "hobbies", "r_user"."id" as "user__id", "r_user"."username" as "user__username", ' +
    '"r_user"."first_name" as "user__first_name", "r_user"."last_name" as "user__last_name", "r_user"."email" as "user__email" ' +
    'from "books_profile" inner join "auth_user" as "r_user" on "r_user"."id" = "books_profile"."user_id" ' +
    `order by ${order}${limitOffset(PAGE_SIZE, offset)}`,
};
