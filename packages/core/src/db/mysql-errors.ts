/**
 * MySQL/MariaDB errors, as the toolkit's typed database errors: constraint violations become
 * `IntegrityError`s naming the model fields (a 400 at the right field), an unreachable or
 * overloaded server `DatabaseUnavailableError` (a 503).
 * @module
 */
import type { AnyModel } from '../models/model.ts';
import {
  CheckViolationError,
  DatabaseUnavailableError,
  DataError,
  ForeignKeyViolationError,
  InvalidLookupValueError,
  NotNullViolationError,
  UniqueViolationError,
} from './database-errors.ts';
import { constraintName, fieldsForColumns } from './dialect-adapter.ts';

/** Server error numbers (the same on MySQL and MariaDB unless noted). */
const ER = {
  DUP_ENTRY: 1062,
  BAD_NULL: 1048,
  NO_DEFAULT_FOR_FIELD: 1364,
  ROW_IS_REFERENCED: 1217,
  NO_REFERENCED_ROW: 1216,
  ROW_IS_REFERENCED_2: 1451,
  NO_REFERENCED_ROW_2: 1452,
  /** MariaDB: CONSTRAINT `name` failed for `db`.`table`. */
  CONSTRAINT_FAILED: 4025,
  /** MySQL 8: Check constraint 'name' is violated. */
  CHECK_CONSTRAINT_VIOLATED: 3819,
  LOCK_WAIT_TIMEOUT: 1205,
  LOCK_DEADLOCK: 1213,
  /** MariaDB's max_statement_time. */
  STATEMENT_TIMEOUT: 1969,
  /** MySQL's max_execution_time. */
  QUERY_TIMEOUT: 3024,
  /** MariaDB: Regex error '...' (an invalid pattern). */
  REGEXP_ERROR: 1139,
  /** Data too long for column; out of range; an incorrect value (strict mode). */
  DATA_TOO_LONG: 1406,
  OUT_OF_RANGE: 1264,
  TRUNCATED_WRONG_VALUE: 1292,
  INCORRECT_VALUE: 1366,
} as const;

/** MySQL 8 (ICU): ER_REGEXP_PATTERN_SYNTAX and the other ER_REGEXP_* errors. */
const MYSQL_REGEXP_ERRNOS = { first: 3685, last: 3699 } as const;

/** Server errors that mean "not now": too many connections, shutting down, killed. */
const UNAVAILABLE_ERRNOS = new Set([
  1040, 1053, 1152, 1153, 1156, 1158, 1159, 1160, 1161, 1203, 1927,
]);

/** Client and socket codes that mean the server cannot be reached or went away. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'POOL_TIMEOUT',
]);
const UNAVAILABLE_MESSAGES = [
  'Pool is closed',
  "Can't add new command when connection is in closed state",
  'Connection lost',
];

interface Mysql2Error {
  code?: unknown;
  errno?: unknown;
  fatal?: unknown;
  message?: unknown;
}

/**
 * The typed error of a mysql2 error, or the error unchanged when it is none of the above.
 *
 * @example
 * ```ts
 * declare const error: unknown; // mysql2's ER_DUP_ENTRY for the unique key of Book's isbn
 *
 * throw translateMysqlError(error, Book); // a UniqueViolationError naming the isbn field
 * ```
 */
export function translateMysqlError(error: unknown, model: AnyModel | undefined): unknown {
  const e = (error ?? {}) as Mysql2Error;
  const errno = typeof e.errno === 'number' ? e.errno : undefined;
  const code = typeof e.code === 'string' ? e.code : undefined;
  const message = typeof e.message === 'string' ? e.message : '';
  const options = { cause: error };
  if (
    e.fatal === true ||
    (code !== undefined && UNAVAILABLE_CODES.has(code)) ||
    (errno !== undefined && UNAVAILABLE_ERRNOS.has(errno)) ||
    UNAVAILABLE_MESSAGES.some((m) => message.includes(m))
  ) {
    return new DatabaseUnavailableError('The database is unavailable; try again.', options);
  }
  // An invalid regular expression is the client's input (a `$` search, a regex filter): 400.
  if (
    errno === ER.REGEXP_ERROR ||
    (errno !== undefined && errno >= MYSQL_REGEXP_ERRNOS.first && errno <= MYSQL_REGEXP_ERRNOS.last)
  ) {
    return new InvalidLookupValueError(
      'Invalid regular expression.',
      undefined,
      undefined,
      options,
    );
  }
  switch (errno) {
    case ER.DUP_ENTRY: {
      // "Duplicate entry 'x' for key 'name'" (MySQL 8 writes 'table.name').
      const key = /for key '([^']+)'$/.exec(message)?.[1]?.split('.').pop();
      const field = model?.fieldList.find((f) =>
        key === 'PRIMARY' ? f.isPrimaryKey : key === constraintName(model.table, [f.column], 'key'),
      );
      const found = fieldsForColumns(model, undefined, field ? [field.column] : []);
      return new UniqueViolationError(message, found.model, found.fields, options);
    }
    case ER.BAD_NULL:
    case ER.NO_DEFAULT_FOR_FIELD: {
      // "Column 'x' cannot be null", "Field 'x' doesn't have a default value".
      const column = /^(?:Column|Field) '([^']+)'/.exec(message)?.[1];
      const found = fieldsForColumns(model, undefined, column ? [column] : []);
      return new NotNullViolationError(message, found.model, found.fields, options);
    }
    case ER.ROW_IS_REFERENCED:
    case ER.NO_REFERENCED_ROW:
    case ER.ROW_IS_REFERENCED_2:
    case ER.NO_REFERENCED_ROW_2:
      return new ForeignKeyViolationError(message, model, [], options);
    case ER.CONSTRAINT_FAILED:
    case ER.CHECK_CONSTRAINT_VIOLATED: {
      const name = /CONSTRAINT [`']([^`']+)[`']|constraint '([^']+)'/i.exec(message);
      const constraint = name?.[1] ?? name?.[2];
      const field = model?.fieldList.find(
        (f) => constraint === constraintName(model.table, [f.column], 'check'),
      );
      return new CheckViolationError(message, model, field ? [field.name] : [], options);
    }
    case ER.LOCK_WAIT_TIMEOUT:
    case ER.LOCK_DEADLOCK:
      return new DatabaseUnavailableError('The database is busy; try again.', options);
    case ER.STATEMENT_TIMEOUT:
    case ER.QUERY_TIMEOUT:
      return new DatabaseUnavailableError(
        'The database did not answer in time; try again.',
        options,
      );
    // A value the column cannot hold, past the checks that should have refused it: a 400, as
    // PostgreSQL's class 22.
    case ER.DATA_TOO_LONG:
    case ER.OUT_OF_RANGE:
    case ER.TRUNCATED_WRONG_VALUE:
    case ER.INCORRECT_VALUE:
      return new DataError(message, options);
    default:
      return error;
  }
}
