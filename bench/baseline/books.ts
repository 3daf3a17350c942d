/**
 * Books by hand: the SQL the toolkit runs for the bookstore's Book view sets, the JSON it
 * answers with (spec 2.3: `url`, `id`, two nested groups over flat columns), and the checks it
 * makes on writes, written out for this one model.
 * @module
 */
import type { Patch, RawRow } from './store.ts';

const COLUMNS =
  '"books_book"."id" as "id", "books_book"."title" as "title", "books_book"."description" as "description", ' +
  '"books_book"."summary" as "summary", "books_book"."publication_date" as "publication_date", ' +
  '"books_book"."state" as "state", "books_book"."isbn" as "isbn", "books_book"."price" as "price", ' +
  '"books_book"."pages" as "pages", "books_book"."stock_count" as "stock_count"';
const RETURNING =
  'returning "id", "title", "description", "summary", "publication_date", "state", "isbn", "price", "pages", "stock_count"';

export const SQL = {
  count: 'select count(*) as "count" from "books_book"',
  /** A page in one ordering (`order by` terms already written). */
  // LIMIT and OFFSET are numbers in the SQL, as the toolkit writes them on SQLite (bound, they
  // make this SQLite prepare the statement again on every run).
  page: (orderBy: string, limit: number, offset: number) =>
    `select ${COLUMNS} from "books_book" order by ${orderBy} limit ${limit}${offset ? ` offset ${offset}` : ''}`,
  /** A page of the rows matching `where` (written out with `?` for its parameters). */
  filteredPage: (where: string, orderBy: string, limit: number, offset: number) =>
    `select ${COLUMNS} from "books_book" where ${where} order by ${orderBy} limit ${limit}${offset ? ` offset ${offset}` : ''}`,
  filteredCount: (where: string) => `select count(*) as "count" from "books_book" where ${where}`,
  /** A keyset page: the rows after (or before) a cursor's isbn. */
  after: (op: '>' | '<' | '>=' | '<=' | null, descending: boolean, limit: number) =>
    `select ${COLUMNS} from "books_book"${op ? ` where "books_book"."isbn" ${op} ?` : ''} order by "books_book"."isbn" ${descending ? 'desc' : 'asc'} limit ${limit}`,
  // No ORDER BY for a single row, as the toolkit (and Django's get()).
  byId: `select ${COLUMNS} from "books_book" where "books_book"."id" = ? limit 2`,
  isbnTaken: 'select "books_book"."id" from "books_book" where "books_book"."isbn" = ? limit 1',
  insert: `insert into "books_book" ("title", "description", "summary", "publication_date", "state", "isbn", "price", "pages", "stock_count") values (?, ?, ?, ?, ?, ?, ?, ?, ?) ${RETURNING}`,
};

const updateTexts = new Map<string, string>();
/** `update ... set "a" = ?, "b" = ? where "id" = ? returning ...`, one text per column set. */
export function updateSql(columns: readonly string[]): string {
  const key = columns.join(',');
  let text = updateTexts.get(key);
  if (!text) {
    const set = columns.map((c) => `"${c}" = ?`).join(', ');
    text = `update "books_book" set ${set} where "id" = ? ${RETURNING}`;
    updateTexts.set(key, text);
  }
  return text;
}

/** A decimal with 2 places: SQLite's NUMERIC column gives a number, PostgreSQL a string. */
function price(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'number' ? value.toFixed(2) : String(value);
}

/** The representation of one book; `base` is `http://host/books/api/books/`. */
export function book(row: RawRow, base: string) {
  return {
    url: `${base}${row.id}/`,
    id: row.id,
    title: row.title,
    description: row.description,
    summary: row.summary,
    publishing_information: {
      publication_date: row.publication_date,
      isbn: row.isbn,
      pages: row.pages,
    },
    stock_information: {
      stock_count: row.stock_count,
      price: price(row.price),
      state: row.state,
    },
  };
}

const STATES = new Set(['published', 'not_published', 'in_progress']);
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DECIMAL = /^\s*([+-]?)(\d*)(?:\.(\d*))?\s*$/;
const MAX_INT = 2147483647;

type Errors = Record<string, unknown>;

/** The checks of the Book serializer for one leaf; returns the value or an error list. */
type Check = (value: unknown) => { value: unknown } | { error: string[] };

const required = ['This field is required.'];

function text(maxLength: number, allowBlank: boolean, allowNull: boolean): Check {
  return (value) => {
    if (value === null)
      return allowNull ? { value: null } : { error: ['This field may not be null.'] };
    if (typeof value !== 'string' && typeof value !== 'number')
      return { error: ['Not a valid string.'] };
    const trimmed = String(value).trim();
    if (!trimmed && !allowBlank) return { error: ['This field may not be blank.'] };
    if ([...trimmed].length > maxLength)
      return { error: [`Ensure this field has no more than ${maxLength} characters.`] };
    return { value: trimmed };
  };
}

const integer: Check = (value) => {
  if (value === null) return { error: ['This field may not be null.'] };
  const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n))
    return { error: ['A valid integer is required.'] };
  if (n < 0) return { error: ['Ensure this value is greater than or equal to 0.'] };
  if (n > MAX_INT) return { error: [`Ensure this value is less than or equal to ${MAX_INT}.`] };
  return { value: n };
};

const date: Check = (value) => {
  const match = typeof value === 'string' ? DATE.exec(value) : null;
  if (!match)
    return { error: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'] };
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  if (day.toISOString().slice(0, 10) !== value)
    return { error: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'] };
  return { value };
};

const decimal: Check = (value) => {
  if (value === null) return { error: ['This field may not be null.'] };
  const match =
    typeof value === 'string' || typeof value === 'number' ? DECIMAL.exec(String(value)) : null;
  if (!match || (!match[2] && !match[3])) return { error: ['A valid number is required.'] };
  const whole = (match[2] ?? '').replace(/^0+(?=\d)/, '');
  const fraction = match[3] ?? '';
  if (fraction.length > 2)
    return { error: ['Ensure that there are no more than 2 decimal places.'] };
  if (whole.length + fraction.length > 10)
    return { error: ['Ensure that there are no more than 10 digits in total.'] };
  if (whole.length > 8)
    return { error: ['Ensure that there are no more than 8 digits before the decimal point.'] };
  return { value: `${match[1] === '-' ? '-' : ''}${whole || '0'}.${fraction.padEnd(2, '0')}` };
};

const choice: Check = (value) =>
  typeof value === 'string' && STATES.has(value)
    ? { value }
    : { error: [`"${String(value)}" is not a valid choice.`] };

/** The leaves of each group, with their checks and whether a create needs them. */
const GROUPS: Record<string, Record<string, { check: Check; required: boolean }>> = {
  publishing_information: {
    publication_date: { check: date, required: false },
    isbn: { check: text(100, false, false), required: false },
    pages: { check: integer, required: false },
  },
  stock_information: {
    stock_count: { check: integer, required: false },
    price: { check: decimal, required: true },
    state: { check: choice, required: false },
  },
};
const TOP: Record<string, { check: Check; required: boolean }> = {
  title: { check: text(100, false, false), required: true },
  description: { check: text(Number.MAX_SAFE_INTEGER, true, true), required: false },
  summary: { check: text(Number.MAX_SAFE_INTEGER, true, true), required: false },
};

/**
 * Validates a Book body: flat columns out, errors nested as the toolkit nests them.
 * `partial` is PATCH: nothing is required.
 */
export function validateBook(
  data: unknown,
  partial: boolean,
): { values: Record<string, unknown> } | { errors: Errors } {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return {
      errors: { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] },
    };
  }
  const input = data as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  const errors: Errors = {};
  for (const name in TOP) {
    const leaf = TOP[name] as { check: Check; required: boolean };
    if (!Object.hasOwn(input, name)) {
      if (leaf.required && !partial) errors[name] = required;
      continue;
    }
    const result = leaf.check(input[name]);
    if ('error' in result) errors[name] = result.error;
    else values[name] = result.value;
  }
  for (const group in GROUPS) {
    if (!Object.hasOwn(input, group)) continue;
    const nested = input[group];
    if (nested === null || typeof nested !== 'object' || Array.isArray(nested)) {
      errors[group] = {
        non_field_errors: [
          nested === null
            ? 'This field may not be null.'
            : 'Invalid data. Expected a dictionary, but got str.',
        ],
      };
      continue;
    }
    const groupErrors: Errors = {};
    const leaves = GROUPS[group] as Record<string, { check: Check; required: boolean }>;
    for (const name in leaves) {
      const leaf = leaves[name] as { check: Check; required: boolean };
      const value = (nested as Record<string, unknown>)[name];
      if (value === undefined) {
        if (leaf.required && !partial) groupErrors[name] = required;
        continue;
      }
      const result = leaf.check(value);
      if ('error' in result) groupErrors[name] = result.error;
      else values[name] = result.value;
    }
    if (Object.keys(groupErrors).length) errors[group] = groupErrors;
  }
  if (Object.keys(errors).length) return { errors };
  return { values };
}

/** The INSERT's values with the model's defaults, or the errors of NOT NULL columns not sent. */
export function insertValues(values: Record<string, unknown>): unknown[] | { errors: Errors } {
  const missing: Errors = {};
  if (values.title === undefined) missing.title = required;
  if (values.publication_date === undefined || values.isbn === undefined) {
    const group: Errors = {};
    if (values.publication_date === undefined) group.publication_date = required;
    if (values.isbn === undefined) group.isbn = required;
    missing.publishing_information = group;
  }
  if (values.price === undefined) missing.stock_information = { price: required };
  if (Object.keys(missing).length) return { errors: missing };
  return [
    values.title,
    values.description ?? null,
    values.summary ?? null,
    values.publication_date,
    values.state ?? 'published',
    values.isbn,
    values.price,
    values.pages ?? 200,
    values.stock_count ?? 30,
  ];
}

/** The columns a PATCH changes: those sent whose value differs from the stored one. */
export function changedColumns(row: RawRow, values: Record<string, unknown>): Patch {
  const changes: Record<string, unknown> = {};
  for (const column in values) {
    const current = column === 'price' ? price(row.price) : row[column];
    if (current !== values[column]) changes[column] = values[column];
  }
  return { changes };
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;

/**
 * `?price__gte=&state=` by hand, as the toolkit's filter set answers them: a value that is no
 * number or no state is a 400 naming the parameter; an empty value filters nothing. Returns
 * the WHERE clause and its parameters (null: no filter), or the error body.
 */
export function bookFilters(
  priceGte: string | undefined,
  state: string | undefined,
): { where: string; parameters: unknown[] } | { error: Record<string, string[]> } | null {
  const terms: string[] = [];
  const parameters: unknown[] = [];
  const error: Record<string, string[]> = {};
  if (priceGte) {
    if (NUMBER.test(priceGte) && priceGte.length <= 40) {
      terms.push('"books_book"."price" >= ?');
      parameters.push(priceGte);
    } else error.price__gte = ['Enter a number.'];
  }
  if (state) {
    if (STATES.has(state)) {
      terms.push('"books_book"."state" = ?');
      parameters.push(state);
    } else error.state = [`Select a valid choice. ${state} is not one of the available choices.`];
  }
  if (Object.keys(error).length) return { error };
  return terms.length ? { where: terms.join(' and '), parameters } : null;
}
