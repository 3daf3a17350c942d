/**
 * Books by hand: the JSON the toolkit answers with (spec 2.3: `url`, `id`, two nested groups
 * over flat columns) and the checks it makes on writes, written out for this one model. A
 * check that passes allocates nothing: it answers the value, or a {@link Failure}.
 * @module
 */
import type { Patch, RawRow } from './store.ts';

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

/** A leaf's errors (what a check answers when the value is refused). */
class Failure {
  readonly errors: readonly string[];
  constructor(errors: readonly string[]) {
    this.errors = errors;
  }
}

/** The checks of the Book serializer for one leaf: the value to store, or a {@link Failure}. */
type Check = (value: unknown) => unknown;

const required = ['This field is required.'];
const NOT_NULL = new Failure(['This field may not be null.']);
const BAD_DATE = new Failure([
  'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
]);

function text(maxLength: number, allowBlank: boolean, allowNull: boolean): Check {
  return (value) => {
    if (value === null) return allowNull ? null : NOT_NULL;
    if (typeof value !== 'string' && typeof value !== 'number')
      return new Failure(['Not a valid string.']);
    const trimmed = String(value).trim();
    if (!trimmed && !allowBlank) return new Failure(['This field may not be blank.']);
    // Code points, as Python counts a str: only a long text needs counting them.
    if (trimmed.length > maxLength && [...trimmed].length > maxLength)
      return new Failure([`Ensure this field has no more than ${maxLength} characters.`]);
    return trimmed;
  };
}

const integer: Check = (value) => {
  if (value === null) return NOT_NULL;
  const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n))
    return new Failure(['A valid integer is required.']);
  if (n < 0) return new Failure(['Ensure this value is greater than or equal to 0.']);
  if (n > MAX_INT) return new Failure([`Ensure this value is less than or equal to ${MAX_INT}.`]);
  return n;
};

const date: Check = (value) => {
  const match = typeof value === 'string' ? DATE.exec(value) : null;
  if (!match) return BAD_DATE;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  // A real day of the calendar (Date.UTC rolls 2024-02-30 over to March).
  const check = new Date(Date.UTC(year, month - 1, day));
  if (
    year < 1 ||
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day
  )
    return BAD_DATE;
  return value;
};

const decimal: Check = (value) => {
  if (value === null) return NOT_NULL;
  const match =
    typeof value === 'string' || typeof value === 'number' ? DECIMAL.exec(String(value)) : null;
  if (!match || (!match[2] && !match[3])) return new Failure(['A valid number is required.']);
  const whole = (match[2] ?? '').replace(/^0+(?=\d)/, '');
  const fraction = match[3] ?? '';
  if (fraction.length > 2)
    return new Failure(['Ensure that there are no more than 2 decimal places.']);
  if (whole.length + fraction.length > 10)
    return new Failure(['Ensure that there are no more than 10 digits in total.']);
  if (whole.length > 8)
    return new Failure(['Ensure that there are no more than 8 digits before the decimal point.']);
  const sign = match[1] === '-' ? '-' : '';
  return fraction.length === 2
    ? `${sign}${whole || '0'}.${fraction}`
    : `${sign}${whole || '0'}.${fraction.padEnd(2, '0')}`;
};

const choice: Check = (value) =>
  typeof value === 'string' && STATES.has(value)
    ? value
    : new Failure([`"${String(value)}" is not a valid choice.`]);

interface Leaf {
  readonly name: string;
  readonly check: Check;
  /** Whether a create needs it. */
  readonly required: boolean;
}

const TOP: readonly Leaf[] = [
  { name: 'title', check: text(100, false, false), required: true },
  { name: 'description', check: text(Number.MAX_SAFE_INTEGER, true, true), required: false },
  { name: 'summary', check: text(Number.MAX_SAFE_INTEGER, true, true), required: false },
];
/** The nested groups and their leaves. */
const GROUPS: readonly { readonly name: string; readonly leaves: readonly Leaf[] }[] = [
  {
    name: 'publishing_information',
    leaves: [
      { name: 'publication_date', check: date, required: false },
      { name: 'isbn', check: text(100, false, false), required: false },
      { name: 'pages', check: integer, required: false },
    ],
  },
  {
    name: 'stock_information',
    leaves: [
      { name: 'stock_count', check: integer, required: false },
      { name: 'price', check: decimal, required: true },
      { name: 'state', check: choice, required: false },
    ],
  },
];

/** A body refused: the errors, nested as the toolkit nests them. */
export class Invalid {
  readonly errors: Errors;
  constructor(errors: Errors) {
    this.errors = errors;
  }
}

const NOT_A_DICTIONARY = new Invalid({
  non_field_errors: ['Invalid data. Expected a dictionary, but got list.'],
});

/**
 * Validates a Book body: its flat columns (only those sent), or {@link Invalid}.
 * `partial` is PATCH: nothing is required.
 */
export function validateBook(data: unknown, partial: boolean): Record<string, unknown> | Invalid {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return NOT_A_DICTIONARY;
  const input = data as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  let errors: Errors | undefined;
  for (const leaf of TOP) {
    if (!Object.hasOwn(input, leaf.name)) {
      if (leaf.required && !partial) (errors ??= {})[leaf.name] = required;
      continue;
    }
    const result = leaf.check(input[leaf.name]);
    if (result instanceof Failure) (errors ??= {})[leaf.name] = result.errors;
    else values[leaf.name] = result;
  }
  for (const group of GROUPS) {
    if (!Object.hasOwn(input, group.name)) continue;
    const nested = input[group.name];
    if (nested === null || typeof nested !== 'object' || Array.isArray(nested)) {
      (errors ??= {})[group.name] = {
        non_field_errors: [
          nested === null
            ? 'This field may not be null.'
            : 'Invalid data. Expected a dictionary, but got str.',
        ],
      };
      continue;
    }
    let groupErrors: Errors | undefined;
    for (const leaf of group.leaves) {
      const value = (nested as Record<string, unknown>)[leaf.name];
      if (value === undefined) {
        if (leaf.required && !partial) (groupErrors ??= {})[leaf.name] = required;
        continue;
      }
      const result = leaf.check(value);
      if (result instanceof Failure) (groupErrors ??= {})[leaf.name] = result.errors;
      else values[leaf.name] = result;
    }
    if (groupErrors) (errors ??= {})[group.name] = groupErrors;
  }
  return errors ? new Invalid(errors) : values;
}

/** The INSERT's values with the model's defaults, or the errors of NOT NULL columns not sent. */
export function insertValues(values: Record<string, unknown>): unknown[] | Invalid {
  const missing: Errors = {};
  if (values.title === undefined) missing.title = required;
  if (values.publication_date === undefined || values.isbn === undefined) {
    const group: Errors = {};
    if (values.publication_date === undefined) group.publication_date = required;
    if (values.isbn === undefined) group.isbn = required;
    missing.publishing_information = group;
  }
  if (values.price === undefined) missing.stock_information = { price: required };
  if (Object.keys(missing).length) return new Invalid(missing);
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
