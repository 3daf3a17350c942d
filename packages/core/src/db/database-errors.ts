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
  override readonly name: string = 'IntegrityError';
  readonly model: AnyModel | undefined;
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
  override readonly name: string = 'DataError';
}

/**
 * The database cannot be reached, is shutting down, or stayed locked past the timeout.
 *
 * @example
 * ```ts
 * try {
 *   await Book.objects.count();
 * } catch (error) {
 *   if (error instanceof DatabaseUnavailableError) {
 *     // a view answers 503 {"detail": "Service temporarily unavailable, try again later."}
 *   }
 * }
 * ```
 */
export class DatabaseUnavailableError extends DatabaseError {
  override readonly name = 'DatabaseUnavailableError';
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
  override readonly name = 'DoesNotExist';
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
  override readonly name = 'MultipleObjectsReturned';
}

/**
 * A lookup value the column cannot hold (`filter({ pages: 'many' })` on an integer column),
 * or that the database refused as malformed (an invalid regular expression). The view's
 * exception handler answers it with 400; the filter backends name the query parameter.
 *
 * @example
 * ```ts
 * try {
 *   await Book.objects.filter({ pages: 'many' }).execute();
 * } catch (error) {
 *   if (error instanceof InvalidLookupValueError) error.message; // Field 'pages' expected a number but got "many".
 * }
 * ```
 */
export class InvalidLookupValueError extends DataError {
  override readonly name = 'InvalidLookupValueError';
  /** The model field compared with, when known. */
  readonly field: { readonly name: string } | undefined;
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
