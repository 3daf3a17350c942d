/**
 * MySQL/MariaDB errors, as the toolkit's typed database errors: constraint violations become
 * `IntegrityError`s naming the model fields (a 400 at the right field), an unreachable or
 * overloaded server, a missing database or table, a lock or deadlock `DatabaseUnavailableError`
 * of its kind (a 503).
 * @module
 */
import type { AnyModel } from '../../../models/model.ts';
import {
  CheckViolationError,
  DataError,
  ForeignKeyViolationError,
  InvalidLookupValueError,
  NotNullViolationError,
  POOL_TIMEOUT,
  type UnavailableKind,
  UniqueViolationError,
  unavailable,
} from '../../database-errors.ts';
import { constraintName, fieldsForColumns } from '../dialect-adapter.ts';

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

/**
 * Server errors that mean the database cannot serve the request now, by kind (the same numbers
 * on MySQL and MariaDB unless noted).
 */
const UNAVAILABLE_ERRNOS: Readonly<Record<number, UnavailableKind>> = {
  // Too many connections (for the server, for the user), shutting down, aborted or killed
  // connections, network errors, the login refused or the host blocked.
  1040: 'unreachable',
  1044: 'unreachable',
  1045: 'unreachable',
  1053: 'unreachable',
  1129: 'unreachable',
  1130: 'unreachable',
  1152: 'unreachable',
  1153: 'unreachable',
  1156: 'unreachable',
  1158: 'unreachable',
  1159: 'unreachable',
  1160: 'unreachable',
  1161: 'unreachable',
  1203: 'unreachable',
  1226: 'unreachable',
  /** MariaDB: ER_CONNECTION_KILLED. */
  1927: 'unreachable',
  /** ER_BAD_DB_ERROR: no such database (at login). */
  1049: 'database-missing',
  /** ER_NO_DB_ERROR: the session's database was dropped under it. */
  1046: 'database-missing',
  /** ER_NO_SUCH_TABLE, ER_BAD_FIELD_ERROR: the schema is behind the models. */
  1146: 'schema-missing',
  1054: 'schema-missing',
  /** --read-only (ER_OPTION_PREVENTS_STATEMENT), a read-only transaction, table or InnoDB. */
  1290: 'read-only',
  1792: 'read-only',
  1036: 'read-only',
  1836: 'read-only',
  1874: 'read-only',
  /** ER_LOCK_WAIT_TIMEOUT: a row lock (InnoDB) or a metadata lock (LOCK TABLES, DDL). */
  1205: 'locked',
  /** ER_LOCK_DEADLOCK; MariaDB 11.6's ER_CHECKREAD under innodb_snapshot_isolation. */
  1213: 'conflict',
  1020: 'conflict',
  /** MariaDB's max_statement_time, MySQL's max_execution_time. */
  1969: 'timeout',
  3024: 'timeout',
  /** Disk full, table full, an error of the storage engine. */
  1021: 'storage',
  1114: 'storage',
  1030: 'storage',
};

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
]);
const UNAVAILABLE_MESSAGES = [
  'Pool is closed',
  "Can't add new command when connection is in closed state",
  'Connection lost',
];

/**
 * The kind of outage a mysql2 error stands for, or undefined when it is none (a constraint
 * violation, a value the column cannot hold, a bug).
 */
function mysqlUnavailableKind(error: unknown): UnavailableKind | undefined {
  const e = (error ?? {}) as Mysql2Error;
  const errno = typeof e.errno === 'number' ? e.errno : undefined;
  const code = typeof e.code === 'string' ? e.code : undefined;
  const byErrno = errno === undefined ? undefined : UNAVAILABLE_ERRNOS[errno];
  if (byErrno) return byErrno;
  if (code === POOL_TIMEOUT) return 'pool-exhausted';
  const message = typeof e.message === 'string' ? e.message : '';
  if (
    e.fatal === true ||
    (code !== undefined && UNAVAILABLE_CODES.has(code)) ||
    UNAVAILABLE_MESSAGES.some((m) => message.includes(m))
  ) {
    return 'unreachable';
  }
  return undefined;
}

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
  const message = typeof e.message === 'string' ? e.message : '';
  const options = { cause: error };
  const kind = mysqlUnavailableKind(error);
  if (kind) return unavailable(kind, error);
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
      if (!field) {
        // A unique constraint over several fields, by its name.
        const together = model?.uniqueConstraints.find((c) => c.name === key);
        if (together)
          return new UniqueViolationError(message, model, [...together.fields], options);
      }
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
