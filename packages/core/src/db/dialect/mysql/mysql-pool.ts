/**
 * The connection pool of the MySQL/MariaDB adapter: `mysql2`, loaded when the first MySQL
 * database is opened (an optional peer dependency: SQLite and PostgreSQL users need not
 * install it), behind a wait for a free connection that gives up after a timeout, as
 * PostgreSQL's pool does (mysql2's own pool would queue a request forever).
 * @module
 */
import type { MysqlPool, MysqlPoolConnection } from 'kysely';
import { requireOptional } from '../../../utils/optional-dependency.ts';
import { poolTimeout } from '../../database-errors.ts';

/** What the adapter asks of the pool. */
export interface MysqlPoolOptions {
  readonly url: string;
  readonly poolSize: number;
  readonly connectionTimeoutMs: number;
}

/** The part of mysql2 the adapter uses (its own types stay out of the toolkit's public types). */
interface Mysql2 {
  createPool(config: Record<string, unknown>): MysqlPool & {
    on(event: string, listener: (...args: unknown[]) => void): unknown;
  };
}

/** mysql2, or `REST_ERR_MISSING_PACKAGE` naming the package to install. */
export function loadMysql2(): Mysql2 {
  return requireOptional<Mysql2>('mysql2', 'A mysql:// or mariadb:// database');
}

/**
 * A mysql2 pool whose `getConnection` fails with `POOL_TIMEOUT` (see `poolTimeout`) when no connection
 * frees up within `connectionTimeoutMs` (0: wait as long as it takes). A connection that
 * arrives after its caller gave up goes back to the pool.
 *
 * @example
 * ```ts
 * import { MysqlDialect } from 'kysely';
 *
 * const pool = createMysqlPool({ url: 'mysql://root@127.0.0.1:3306/shop', poolSize: 10, connectionTimeoutMs: 5000 });
 * new MysqlDialect({ pool });
 * ```
 */
export function createMysqlPool(options: MysqlPoolOptions): MysqlPool {
  const pool = loadMysql2().createPool({
    uri: options.url,
    connectionLimit: options.poolSize,
    maxIdle: options.poolSize,
    connectTimeout: options.connectionTimeoutMs || 10000,
    // DATE and DATETIME as text: the adapter reads them as UTC (a Date would be local time).
    dateStrings: true,
    timezone: 'Z',
    charset: 'utf8mb4',
    // UPDATE counts the rows it matched, as on the other databases (mysql2's default too).
    flags: ['FOUND_ROWS'],
  });
  const timeout = options.connectionTimeoutMs;
  if (timeout === 0) return pool;
  return {
    end: (callback) => pool.end(callback),
    getConnection(callback) {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        callback(poolTimeout(timeout), undefined as unknown as MysqlPoolConnection);
      }, timeout);
      pool.getConnection((error, connection) => {
        if (settled) {
          if (!error) connection.release();
          return;
        }
        settled = true;
        clearTimeout(timer);
        callback(error, connection);
      });
    },
  };
}
