/**
 * Typed database errors. The dialects translate driver errors into these, so the HTTP layer
 * can answer a constraint violation with a 400 at the right field and an outage with a 503,
 * never with a 500.
 * @module
 */
import type { AnyModel } from '../models/model.ts';

/** Base of every error the query layer raises on purpose. */
export class DatabaseError extends Error {
  override readonly name: string = 'DatabaseError';
}

/** A constraint refused a write. `fields` names the model fields involved, when known. */
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

/** A unique constraint refused a value (also when two requests race for it). */
export class UniqueViolationError extends IntegrityError {
  override readonly name = 'UniqueViolationError';
}

/** A NOT NULL column was left empty. */
export class NotNullViolationError extends IntegrityError {
  override readonly name = 'NotNullViolationError';
}

/** A foreign key points to no row, or a row is still referenced. */
export class ForeignKeyViolationError extends IntegrityError {
  override readonly name = 'ForeignKeyViolationError';
}

/** A CHECK constraint refused a value (a negative positive integer, say). */
export class CheckViolationError extends IntegrityError {
  override readonly name = 'CheckViolationError';
}

/**
 * The database refused a value it cannot hold or compare (PostgreSQL's class 22: a NUL
 * character in text, a number out of range). The answer is 400: such a value can only come
 * from a client, past a check that should have refused it.
 */
export class DataError extends DatabaseError {
  override readonly name: string = 'DataError';
}

/** The database cannot be reached, is shutting down, or stayed locked past the timeout. */
export class DatabaseUnavailableError extends DatabaseError {
  override readonly name = 'DatabaseUnavailableError';
}

/** `get()` found no row. */
export class DoesNotExist extends DatabaseError {
  override readonly name = 'DoesNotExist';
  readonly model: AnyModel;

  constructor(model: AnyModel) {
    super(`${model.name} matching query does not exist.`);
    this.model = model;
  }
}

/** `get()` found more than one row. */
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
 *   await Room.objects.filter({ capacity: 'many' }).execute();
 * } catch (error) {
 *   if (error instanceof InvalidLookupValueError) error.message; // Field 'capacity' expected a number but got "many".
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
