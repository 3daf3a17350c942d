/**
 * The baseline's data access: the toolkit's SQL, written out by hand, run straight on the
 * driver (better-sqlite3 prepared statements, `pg` with named prepared statements, or
 * `mysql2`). No toolkit code. SQL is written with `?` and numbered (`$1`) for PostgreSQL once,
 * at start-up; MySQL runs it with ANSI_QUOTES (its identifiers in double quotes) and, having
 * no RETURNING, reads a written row back by its key in the same transaction, as the toolkit
 * does there.
 * @module
 */
import BetterSqlite3 from 'better-sqlite3';
import mysql from 'mysql2';
import pg from 'pg';

/** A row as the driver returns it. */
export type RawRow = Record<string, unknown>;

/** What a write decides once it holds the current row: the columns to change, or an error. */
export type Patch = { readonly changes: Record<string, unknown> } | { readonly error: unknown };

/** The queries the baseline runs. Every method is one statement, or one transaction. */
export interface Store {
  readonly vendor: 'sqlite' | 'postgres' | 'mysql';
  /** Rows of `select ... from books_book <where> order by ... limit ? offset ?`. */
  all(sql: string, parameters: readonly unknown[]): Promise<RawRow[]> | RawRow[];
  /** `count(*)` of a statement that selects `count`. */
  count(sql: string, parameters?: readonly unknown[]): Promise<number> | number;
  /** One transaction: the unique check, then the INSERT ... RETURNING. Null: the key exists. */
  insertUnique(
    checkSql: string,
    checkParameters: readonly unknown[],
    insertSql: string,
    insertParameters: readonly unknown[],
  ): Promise<RawRow | null> | RawRow | null;
  /**
   * One transaction: reads the row, lets `decide` compute the changes, writes them with
   * `UPDATE ... RETURNING` (or reads the row again when nothing changed). Undefined: no row.
   */
  update(
    selectSql: string,
    selectParameters: readonly unknown[],
    decide: (row: RawRow) => Patch,
    updateSql: (columns: readonly string[]) => string,
    reselectSql: string,
    key: unknown,
    reselectParameters: readonly unknown[],
  ): Promise<RawRow | { error: unknown } | undefined> | RawRow | { error: unknown } | undefined;
  close(): Promise<void> | void;
}

/** Opens the database of a URL: `sqlite:PATH`, `postgres://...` or `mysql://...`. */
export function openStore(url: string): Store {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return postgresStore(url);
  if (url.startsWith('mysql://') || url.startsWith('mariadb://')) return mysqlStore(url);
  if (url.startsWith('sqlite:')) return sqliteStore(url.slice('sqlite:'.length));
  throw new Error(`Unsupported database URL ${url}: use sqlite:PATH or postgres://...`);
}

function sqliteStore(filename: string): Store {
  const db = new BetterSqlite3(filename, { timeout: 5000 });
  // The same connection settings as the toolkit's SQLite adapter.
  if (filename !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  db.pragma(`mmap_size = ${256 * 1024 * 1024}`);
  const statements = new Map<string, BetterSqlite3.Statement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  const insert = db.transaction(
    (
      checkSql: string,
      checkParameters: readonly unknown[],
      insertSql: string,
      insertParameters: readonly unknown[],
    ) => {
      if (prepare(checkSql).get(...checkParameters)) return null;
      return prepare(insertSql).get(...insertParameters) as RawRow;
    },
  );
  const update = db.transaction(
    (
      selectSql: string,
      selectParameters: readonly unknown[],
      decide: (row: RawRow) => Patch,
      updateSql: (columns: readonly string[]) => string,
      reselectSql: string,
      key: unknown,
      reselectParameters: readonly unknown[],
    ) => {
      const rows = prepare(selectSql).all(...selectParameters) as RawRow[];
      if (rows.length !== 1) return undefined;
      const patch = decide(rows[0] as RawRow);
      if ('error' in patch) return patch;
      const columns = Object.keys(patch.changes);
      if (columns.length === 0) return prepare(reselectSql).get(...reselectParameters) as RawRow;
      return prepare(updateSql(columns)).get(...Object.values(patch.changes), key) as RawRow;
    },
  );
  return {
    vendor: 'sqlite',
    all: (sql, parameters) => prepare(sql).all(...parameters) as RawRow[],
    count: (sql, parameters = []) =>
      Number((prepare(sql).get(...parameters) as { count: number }).count),
    insertUnique: (checkSql, checkParameters, insertSql, insertParameters) =>
      insert(checkSql, checkParameters, insertSql, insertParameters),
    update: (
      selectSql,
      selectParameters,
      decide,
      updateSql,
      reselectSql,
      key,
      reselectParameters,
    ) =>
      update(selectSql, selectParameters, decide, updateSql, reselectSql, key, reselectParameters),
    close: () => {
      db.close();
    },
  };
}

/**
 * The body of {@link Store.update} on a server (inside its transaction): reads the row, lets
 * `decide` compute the changes, then `write`s them (the changed values in column order) and
 * answers the row as stored, or reads it again when nothing changed.
 */
async function readDecideWrite(
  run: (sql: string, values: readonly unknown[]) => Promise<RawRow[]>,
  selectSql: string,
  selectParameters: readonly unknown[],
  decide: (row: RawRow) => Patch,
  reselectSql: string,
  reselectParameters: readonly unknown[],
  write: (columns: readonly string[], values: readonly unknown[]) => Promise<RawRow>,
): Promise<RawRow | { error: unknown } | undefined> {
  const rows = await run(selectSql, selectParameters);
  if (rows.length !== 1) return undefined;
  const patch = decide(rows[0] as RawRow);
  if ('error' in patch) return patch;
  const columns = Object.keys(patch.changes);
  if (columns.length === 0) return (await run(reselectSql, reselectParameters))[0] as RawRow;
  return write(columns, Object.values(patch.changes));
}

/** `?` placeholders → `$1, $2, ...` (the baseline's SQL has no `?` in literals). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

function postgresStore(connectionString: string): Store {
  const identity = (value: string) => value;
  // DATE and timestamps stay text, as the toolkit's adapter reads them.
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
  const texts = new Map<string, { name: string; text: string }>();
  const statement = (sql: string) => {
    let prepared = texts.get(sql);
    if (!prepared) texts.set(sql, (prepared = { name: `b${texts.size}`, text: numbered(sql) }));
    return prepared;
  };
  const run = async (client: pg.Pool | pg.PoolClient, sql: string, values: readonly unknown[]) => {
    const { name, text } = statement(sql);
    return (await client.query({ name, text, values: values as unknown[] })).rows as RawRow[];
  };
  const inTransaction = async <T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const result = await fn(client);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  };
  return {
    vendor: 'postgres',
    all: (sql, parameters) => run(pool, sql, parameters),
    count: async (sql, parameters = []) =>
      Number(((await run(pool, sql, parameters))[0] as { count: unknown }).count),
    insertUnique: (checkSql, checkParameters, insertSql, insertParameters) =>
      inTransaction(async (client) => {
        if ((await run(client, checkSql, checkParameters)).length) return null;
        return (await run(client, insertSql, insertParameters))[0] as RawRow;
      }),
    update: (
      selectSql,
      selectParameters,
      decide,
      updateSql,
      reselectSql,
      key,
      reselectParameters,
    ) =>
      inTransaction((client) =>
        readDecideWrite(
          (sql, values) => run(client, sql, values),
          selectSql,
          selectParameters,
          decide,
          reselectSql,
          reselectParameters,
          async (columns, values) =>
            (await run(client, updateSql(columns), [...values, key]))[0] as RawRow,
        ),
      ),
    close: () => pool.end(),
  };
}

/**
 * `insert into "t" (...) values (...) returning "a", "b"` (or an UPDATE) → the statement
 * without RETURNING, and the SELECT of those columns by `"id"`.
 */
function withoutReturning(sql: string): { write: string; select: string } {
  const match = /^(?:insert into|update) ("[^"]+") .*? returning (.*)$/.exec(sql);
  if (!match) throw new Error(`No RETURNING in ${sql}`);
  return {
    write: sql.slice(0, sql.lastIndexOf(' returning ')),
    select: `select ${match[2]} from ${match[1]} where "id" = ?`,
  };
}

function mysqlStore(url: string): Store {
  // The same session as the toolkit's adapter, with double-quoted identifiers.
  const session = [
    "set session sql_mode = 'ANSI_QUOTES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION,NO_AUTO_VALUE_ON_ZERO'",
    "set session time_zone = '+00:00'",
    'set session transaction isolation level read committed',
  ];
  const pool = mysql
    .createPool({
      uri: url.replace(/^mariadb:/, 'mysql:'),
      connectionLimit: 10,
      dateStrings: true,
      timezone: 'Z',
      charset: 'utf8mb4',
    })
    .promise();
  const prepared = new WeakSet<object>();
  const connection = async () => {
    const conn = await pool.getConnection();
    const raw = conn.connection as object;
    if (!prepared.has(raw)) {
      for (const statement of session) await conn.query(statement);
      prepared.add(raw);
    }
    return conn;
  };
  type Conn = Awaited<ReturnType<typeof connection>>;
  const run = async (conn: Conn, sql: string, values: readonly unknown[]) =>
    (await conn.query(sql, values as unknown[]))[0] as RawRow[] & { insertId?: number };
  const once = async <T>(fn: (conn: Conn) => Promise<T>): Promise<T> => {
    const conn = await connection();
    try {
      return await fn(conn);
    } finally {
      conn.release();
    }
  };
  const inTransaction = <T>(fn: (conn: Conn) => Promise<T>): Promise<T> =>
    once(async (conn) => {
      await conn.query('begin');
      try {
        const result = await fn(conn);
        await conn.query('commit');
        return result;
      } catch (error) {
        await conn.query('rollback').catch(() => {});
        throw error;
      }
    });
  const split = new Map<string, { write: string; select: string }>();
  const parts = (sql: string) => {
    let found = split.get(sql);
    if (!found) split.set(sql, (found = withoutReturning(sql)));
    return found;
  };
  return {
    vendor: 'mysql',
    all: (sql, parameters) => once((conn) => run(conn, sql, parameters)),
    count: (sql) =>
      once(async (conn) => Number(((await run(conn, sql, []))[0] as { count: unknown }).count)),
    insertUnique: (checkSql, checkParameters, insertSql, insertParameters) =>
      inTransaction(async (conn) => {
        if ((await run(conn, checkSql, checkParameters)).length) return null;
        const { write, select } = parts(insertSql);
        const result = await run(conn, write, insertParameters);
        return (await run(conn, select, [result.insertId]))[0] as RawRow;
      }),
    update: (
      selectSql,
      selectParameters,
      decide,
      updateSql,
      reselectSql,
      key,
      reselectParameters,
    ) =>
      inTransaction((conn) =>
        readDecideWrite(
          (sql, values) => run(conn, sql, values),
          selectSql,
          selectParameters,
          decide,
          reselectSql,
          reselectParameters,
          async (columns, values) => {
            const { write, select } = parts(updateSql(columns));
            await run(conn, write, [...values, key]);
            return (await run(conn, select, [key]))[0] as RawRow;
          },
        ),
      ),
    close: () => pool.end(),
  };
}
