/**
 * The baseline's driver for MySQL/MariaDB (`mysql2`): the toolkit adapter's session (double
 * quoted identifiers) set once per pooled connection, and, having no RETURNING, a written row
 * read back by its key in the same transaction, as the toolkit does there.
 * @module
 */
import mysql from 'mysql2';
import { type Run, serverStore } from './server-store.ts';
import { RETURNED } from './sql.ts';
import { memo, type RawRow, type Store } from './store.ts';

const SESSION = [
  "set session sql_mode = 'ANSI_QUOTES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION,NO_AUTO_VALUE_ON_ZERO'",
  "set session time_zone = '+00:00'",
  'set session transaction isolation level read committed',
];

/** `insert into "t" ... returning ...` (or an UPDATE) without its RETURNING. */
const withoutReturning = memo((sql: string) => sql.slice(0, sql.lastIndexOf(' returning ')));
const SELECT_WRITTEN = `select ${RETURNED} from "books_book" where "id" = ?`;

/** The baseline's store on the MySQL database of `url`. */
export function mysqlStore(url: string): Store {
  const core = mysql.createPool({
    uri: url.replace(/^mariadb:/, 'mysql:'),
    connectionLimit: 10,
    dateStrings: true,
    timezone: 'Z',
    charset: 'utf8mb4',
  });
  // Queued on a new connection before anything else runs on it.
  core.on('connection', (connection) => {
    for (const statement of SESSION) connection.query(statement);
  });
  const pool = core.promise();
  type Connection = Awaited<ReturnType<typeof pool.getConnection>>;
  const on =
    (client: typeof pool | Connection): Run =>
    async (sql, values) =>
      (await client.query(sql, values as unknown[]))[0] as RawRow[];
  return serverStore({
    vendor: 'mysql',
    run: on(pool),
    async transaction(fn) {
      const connection = await pool.getConnection();
      try {
        await connection.query('begin');
        const result = await fn(on(connection));
        await connection.query('commit');
        return result;
      } catch (error) {
        await connection.query('rollback').catch(() => {});
        throw error;
      } finally {
        connection.release();
      }
    },
    async written(run, sql, values, key) {
      const result = (await run(withoutReturning(sql), values)) as unknown as { insertId: number };
      return (await run(SELECT_WRITTEN, [key ?? result.insertId]))[0] as RawRow;
    },
    close: () => pool.end(),
  });
}
