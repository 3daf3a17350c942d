/**
 * The baseline's driver for PostgreSQL (`pg`): every statement a named prepared statement
 * (prepared by each connection the first time it runs it), dates and timestamps kept as text
 * as the toolkit's adapter reads them, queries through pg's callback form (its promise form
 * keeps parsed rows alive past a young collection: bench/RESULTS.md, seventh session).
 * @module
 */
import pg from 'pg';
import { type Run, serverStore } from './server-store.ts';
import { memo, type RawRow, type Store } from './store.ts';

/** `?` placeholders → `$1, $2, ...` (the baseline's SQL has no `?` in literals). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

type Queryable = pg.Pool | pg.PoolClient;

/** The baseline's store on the PostgreSQL database of `connectionString`. */
export function postgresStore(connectionString: string): Store {
  const identity = (value: string) => value;
  const parsers: Record<number, (value: string) => unknown> = {
    1082: identity,
    1114: identity,
    1184: identity,
  };
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    options: '-c TimeZone=UTC',
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        parsers[oid] ??
        pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  pool.on('error', () => {});
  let names = 0;
  const statement = memo((sql: string) => ({ name: `b${names++}`, text: numbered(sql) }));
  const on =
    (client: Queryable): Run =>
    (sql, values) => {
      const { name, text } = statement(sql);
      return new Promise((resolve, reject) => {
        client.query({ name, text, values: values as unknown[] }, (error, result) =>
          error ? reject(error) : resolve(result.rows as RawRow[]),
        );
      });
    };
  const simple = (client: pg.PoolClient, sql: string) =>
    new Promise<void>((resolve, reject) => {
      client.query(sql, (error) => (error ? reject(error) : resolve()));
    });
  return serverStore({
    vendor: 'postgres',
    run: on(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await simple(client, 'begin');
        const result = await fn(on(client));
        await simple(client, 'commit');
        return result;
      } catch (error) {
        await simple(client, 'rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    written: async (run, sql, values) => (await run(sql, values))[0] as RawRow,
    close: () => pool.end(),
  });
}
