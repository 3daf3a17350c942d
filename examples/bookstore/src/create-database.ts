/**
 * `npm start` on a MySQL/MariaDB server whose database does not exist yet creates it, as it
 * creates a SQLite file: the bookstore is a demo that should start from one command. (The
 * toolkit itself never creates a database: a mistyped name in a real service's URL should
 * fail, not open an empty one.) PostgreSQL databases are made with `createdb` beforehand.
 * @module
 */
import { Database } from '@restframework/core';

/**
 * Creates the database a `mysql://` or `mariadb://` URL names, unless it exists; returns true
 * when it made one. Other URLs are left alone.
 *
 * @example
 * ```ts
 * await createDatabaseIfMissing('mysql://root@127.0.0.1:3306/bookstore');
 * ```
 */
export async function createDatabaseIfMissing(url: string): Promise<boolean> {
  if (!/^(mysql|mariadb):\/\//.test(url)) return false;
  const server = new URL(url);
  const name = decodeURIComponent(server.pathname.slice(1));
  if (!name) return false;
  server.pathname = '/';
  const admin = Database.connect(server.toString(), { poolSize: 1 });
  try {
    const quoted = `\`${name.replaceAll('`', '``')}\``;
    const rows = (await admin.query(
      'select schema_name from information_schema.schemata where schema_name = ?',
      [name],
    )) as unknown[];
    if (rows.length) return false;
    await admin.query(`create database if not exists ${quoted}`, []);
    return true;
  } finally {
    await admin.close();
  }
}
