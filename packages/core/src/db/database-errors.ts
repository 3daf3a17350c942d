/**
 * Typed database errors. The dialects translate driver errors into these, so the HTTP layer
 * can answer a constraint violation with a 400 at the right field and an outage with a 503,
 * never with a 500.
 * @module
 */
import type { AnyModel } from '../models/model.ts';

/**
 * Base of every error the query layer raises on purpose.
 *
 * @example
 * ```ts
 * try {
 *   await Book.objects.get({ pk: 1 });
 * } catch (error) {
 *   if (error instanceof DatabaseError) error.name; // 'DoesNotExist', 'UniqueViolationError', ...
 * }
 * ```
 */
export class DatabaseError extends Error {
  /** The class's name, as the error's `name`. */
  override readonly name: string = 'DatabaseError';
}

/**
 * A constraint refused a write. `fields` names the model fields involved, when known.
 *
 * @example
 * ```ts
 * try {
 *   await Book.objects.create({ title: 'Dune', isbn: '978-0-441-17271-9', publication_date: '1965-08-01', price: '9.99' });
 * } catch (error) {
 *   if (error instanceof IntegrityError) error.fields; // ['isbn'] when that ISBN is already stored
 * }
 * ```
 */
export class IntegrityError extends DatabaseError {
  /** The class's name, as the error's `name`. */
  override readonly name: string = 'IntegrityError';
  /** The model whose write broke the constraint, when known. */
  readonly model: AnyModel | undefined;
  /** The columns of the constraint, when the database names them. */
  readonly fields: readonly string[];

  constructor(
    message: string,
    model: AnyModel | undefined,
    fields: readonly string[],
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.model = model;
    this.fields = fields;
  }
}

/**
 * A unique constraint refused a value (also when two requests race for it).
 *
 * @example
 * ```ts
 * try {
 *   await Book.objects.filter({ pk: 2 }).update({ isbn: '978-0-441-17271-9' }); // book 1's ISBN
 * } catch (error) {
 *   if (error instanceof UniqueViolationError) error.fields; // ['isbn']
 * }
 * ```
 */
export class UniqueViolationError extends IntegrityError {
  /** The class's name, as the error's `name`. */
  override readonly name = 'UniqueViolationError';
}

/**
 * A NOT NULL column was left empty.
 *
 * @example
 * ```ts
 * try {
 *   await Profile.objects.create({ user_id: 1, hobbies: 'chess' }); // no biography, no default
 * } catch (error) {
 *   if (error instanceof NotNullViolationError) error.fields; // ['biography']
 * }
 * ```
 */
export class NotNullViolationError extends IntegrityError {
  /** The class's name, as the error's `name`. */
  override readonly name = 'NotNullViolationError';
}

/**
 * A foreign key points to no row, or a row is still referenced.
 *
 * @example
 * ```ts
 * try {
 *   await Profile.objects.create({ user_id: 999_999, biography: '', hobbies: '' }); // no such user
 * } catch (error) {
 *   error instanceof ForeignKeyViolationError; // true
 * }
 * ```
 */
export class ForeignKeyViolationError extends IntegrityError {
  /** The class's name, as the error's `name`. */
  override readonly name = 'ForeignKeyViolationError';
}

/**
 * A CHECK constraint refused a value (a negative positive integer, say).
 *
 * @example
 * ```ts
 * try {
 *   await Book.objects.filter({ pk: 1 }).update({ pages: -1 }); // a positive integer's CHECK
 * } catch (error) {
 *   error instanceof CheckViolationError; // true
 * }
 * ```
 */
export class CheckViolationError extends IntegrityError {
  /** The class's name, as the error's `name`. */
  override readonly name = 'CheckViolationError';
}

/**
 * The database refused a value it cannot hold or compare (PostgreSQL's class 22: a NUL
 * character in text, a number out of range). The answer is 400: such a value can only come
 * from a client, past a check that should have refused it.
 *
 * @example
 * ```ts
 * try {
 *   await Book.objects.filter({ pk: 1 }).update({ title: 'nul \u0000 inside' });
 * } catch (error) {
 *   error instanceof DataError; // true on PostgreSQL: text cannot hold NUL
 * }
 * ```
 */
export class DataError extends DatabaseError {
  /** The class's name, as the error's `name`. */
  override readonly name: string = 'DataError';
}

/**
 * Why the database cannot serve a request: the key of the unavailable log (one line per kind
 * per interval) and of what the toolkit tries again.
 *
 * - `unreachable`: the server cannot be reached, went away, refused the login or the
 *   connection (too many connections, shutting down, an administrator's kill).
 * - `database-missing`: the database does not exist (dropped, or not created yet).
 * - `schema-missing`: a table or column the models need does not exist (migrations not run,
 *   or the database made again empty).
 * - `read-only`: the database refuses writes (a read-only server, replica or file).
 * - `locked`: a lock another connection holds was not released within `lockTimeoutMs`.
 * - `conflict`: a deadlock or serialization failure that running the transaction again did not
 *   get past (or a transaction that cannot be run again).
 * - `pool-exhausted`: no connection of the pool became free within `connectionTimeoutMs`.
 * - `timeout`: a statement ran past `statementTimeoutMs`.
 * - `storage`: the database's storage failed (disk full, I/O error, a damaged file).
 * - `closed`: the `Database` was closed.
 * - `unavailable`: anything else, and an error raised without a kind.
 */
export const UNAVAILABLE_KINDS = [
  'unreachable',
  'database-missing',
  'schema-missing',
  'read-only',
  'locked',
  'conflict',
  'pool-exhausted',
  'timeout',
  'storage',
  'closed',
  'unavailable',
] as const;

/** One of {@link UNAVAILABLE_KINDS}. */
export type UnavailableKind = (typeof UNAVAILABLE_KINDS)[number];

/** What each kind of {@link DatabaseUnavailableError} says (in the log, never to a client). */
const UNAVAILABLE_MESSAGES: Readonly<Record<UnavailableKind, string>> = {
  unreachable: 'The database server cannot be reached; try again.',
  'database-missing': 'The database does not exist; try again once it is created.',
  'schema-missing': 'A table or column the models need does not exist; run the migrations.',
  'read-only': 'The database refuses writes (read-only); try again.',
  locked: 'A lock held by another connection outlasted the lock timeout; try again.',
  conflict: 'The transaction kept conflicting with others (deadlock or serialization failure).',
  'pool-exhausted': 'No database connection became free within the connection timeout.',
  timeout: 'The database did not answer in time; try again.',
  storage: "The database's storage failed (disk full, I/O error, damaged file).",
  closed: 'The database is closed.',
  unavailable: 'The database is unavailable; try again.',
};

/**
 * The database cannot serve the request now: it cannot be reached, is missing or read-only,
 * stayed locked past the timeout, and so on (see {@link UnavailableKind}). A view answers
 * 503 with `Retry-After`, and the log gets one line per kind per interval.
 *
 * @example
 * ```ts
 * try {
 *   await Book.objects.count();
 * } catch (error) {
 *   if (error instanceof DatabaseUnavailableError) {
 *     error.kind; // 'unreachable', 'locked', ...
 *     // a view answers 503 {"detail": "Service temporarily unavailable, try again later."}
 *   }
 * }
 * ```
 */
export class DatabaseUnavailableError extends DatabaseError {
  /** The class's name, as the error's `name`. */
  override readonly name = 'DatabaseUnavailableError';
  /** Why (the unavailable log's key). */
  readonly kind: UnavailableKind;

  constructor(message?: string, options?: ErrorOptions & { readonly kind?: UnavailableKind }) {
    const kind = options?.kind ?? 'unavailable';
    super(message ?? UNAVAILABLE_MESSAGES[kind], options);
    this.kind = kind;
  }
}

/**
 * The {@link DatabaseUnavailableError} of `kind` for the driver error `cause`, with the kind's
 * own message: what the dialects' error translations return.
 *
 * @example
 * ```ts
 * declare const driverError: unknown; // pg's 42P01: relation "books_book" does not exist
 *
 * throw unavailable('schema-missing', driverError); // a 503, logged as schema-missing
 * ```
 */
export function unavailable(kind: UnavailableKind, cause: unknown): DatabaseUnavailableError {
  return new DatabaseUnavailableError(undefined, { kind, cause });
}

/**
 * `get()` found no row.
 *
 * @example
 * ```ts
 * try {
 *   await Book.objects.get({ pk: 999_999 });
 * } catch (error) {
 *   if (error instanceof DoesNotExist) error.message; // 'Book matching query does not exist.'
 * }
 * ```
 */
export class DoesNotExist extends DatabaseError {
  /** The class's name, as the error's `name`. */
  override readonly name = 'DoesNotExist';
  /** The model that was queried. */
  readonly model: AnyModel;

  constructor(model: AnyModel) {
    super(`${model.name} matching query does not exist.`);
    this.model = model;
  }
}

/**
 * `get()` found more than one row.
 *
 * @example
 * ```ts
 * try {
 *   await Book.objects.get({ pages: 200 });
 * } catch (error) {
 *   error instanceof MultipleObjectsReturned; // true when two books have 200 pages
 * }
 * ```
 */
export class MultipleObjectsReturned extends DatabaseError {
  /** The class's name, as the error's `name`. */
  override readonly name = 'MultipleObjectsReturned';
}

/**
 * A lookup value the column cannot hold (`filter({ pages: 'many' })` on an integer column: a
 * type error too when the key and value are written out, so this comes from values known at
 * run time), or that the database refused as malformed (an invalid regular expression). The
 * view's exception handler answers it with 400; the filter backends name the query parameter.
 *
 * @example
 * ```ts
 * const given: Filter = { pages: 'many' }; // from a request: not checked at compile time
 * try {
 *   await Book.objects.filter(given).execute();
 * } catch (error) {
 *   if (error instanceof InvalidLookupValueError) error.message; // Field 'pages' expected a number but got "many".
 * }
 * ```
 */
export class InvalidLookupValueError extends DataError {
  /** The class's name, as the error's `name`. */
  override readonly name = 'InvalidLookupValueError';
  /** The model field compared with, when known. */
  readonly field:
    | {
        /** The field's name. */
        readonly name: string;
      }
    | undefined;
  /** The value the column cannot hold. */
  readonly value: unknown;

  constructor(
    message: string,
    field: { readonly name: string } | undefined,
    value: unknown,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.field = field;
    this.value = value;
  }
}

/**
 * The `code` of the error a connection pool gives when no connection became free within the
 * connection timeout (the MySQL pool's and SQLite's wait for their one connection; pg's pool
 * has its own message). The dialects translate it to `pool-exhausted`.
 */
export const POOL_TIMEOUT = 'POOL_TIMEOUT';

/**
 * The error of a wait for a pool connection that gave up after `timeoutMs`.
 *
 * @example
 * ```ts
 * poolTimeout(5000).code; // 'POOL_TIMEOUT'
 * ```
 */
export function poolTimeout(timeoutMs: number): Error & { readonly code: string } {
  return Object.assign(new Error(`No database connection became free within ${timeoutMs} ms.`), {
    code: POOL_TIMEOUT,
  });
}
