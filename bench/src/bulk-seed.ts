/**
 * Seeding big tables fast: the bookstore's `bookRows()` and users with profiles, written
 * straight through the driver in big transactions (better-sqlite3 prepared statements, or
 * multi-row INSERTs on PostgreSQL), with a progress bar on stderr. The tables themselves come
 * from the toolkit's `db.migrate(ALL_MODELS)` before this runs.
 * @module
 */

import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { bookRows, random } from '../../examples/bookstore/src/seed.ts';

const BOOK_COLUMNS = [
  'title',
  'description',
  'summary',
  'publication_date',
  'state',
  'isbn',
  'price',
  'pages',
  'stock_count',
] as const;
const USER_COLUMNS = ['username', 'first_name', 'last_name', 'email'] as const;
const PROFILE_COLUMNS = ['user_id', 'biography', 'hobbies'] as const;

const FIRST = ['Alice', 'Bob', 'Carol', 'Dave', 'Erin', 'Frank', 'Grace', 'Heidi', 'Ivan', 'Judy'];
const LAST = ['Smith', 'Jones', 'Garcia', 'Hughes', 'Owens', 'Vargas', 'King', 'Müller', 'Silva'];
const DOMAINS = ['example.org', 'mail.test', 'example.com'];
const HOBBIES = ['chess', 'climbing', 'cooking', 'golf', 'reading', 'running', 'sailing'];

/** Users in the shape of the bookstore's seed, unique usernames, e-mails in random order. */
export function* userRows(count: number, seed = 7): Generator<Record<string, unknown>> {
  const rnd = random(seed);
  for (let i = 1; i <= count; i++) {
    const blank = i % 25 === 0;
    const first = blank ? '' : (FIRST[Math.floor(rnd() * FIRST.length)] as string);
    const last = blank ? '' : (LAST[Math.floor(rnd() * LAST.length)] as string);
    // A random prefix, so that e-mail order is unrelated to id order.
    const tag = Math.floor(rnd() * 0xffffff)
      .toString(36)
      .padStart(5, '0');
    yield {
      username: `${first ? `${first}.${last}`.toLowerCase() : 'user'}${i}`,
      first_name: first,
      last_name: last,
      email: `${tag}.${(first || 'user').toLowerCase()}${i}@${DOMAINS[i % DOMAINS.length]}`,
    };
  }
}

/** Profiles of users 1..count. */
export function* profileRows(count: number): Generator<Record<string, unknown>> {
  for (let i = 1; i <= count; i++) {
    yield {
      user_id: i,
      biography: `Biography of user #${i}.`,
      hobbies: HOBBIES[i % HOBBIES.length],
    };
  }
}

/** A progress bar on stderr, redrawn at most every 100 ms (only its last state when not a TTY). */
export function progress(label: string, total: number): { tick(done: number): void; end(): void } {
  const start = performance.now();
  const tty = process.stderr.isTTY === true;
  let last = 0;
  const draw = (done: number) => {
    const share = total ? done / total : 1;
    const width = 30;
    const filled = Math.round(share * width);
    const seconds = ((performance.now() - start) / 1000).toFixed(1);
    process.stderr.write(
      `${tty ? '\r' : ''}${label.padEnd(10)} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(share * 100)).padStart(3)} % ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} ${seconds} s`,
    );
  };
  return {
    tick(done) {
      const now = performance.now();
      if (!tty || (now - last < 100 && done < total)) return;
      last = now;
      draw(done);
    },
    end() {
      draw(total);
      process.stderr.write('\n');
    },
  };
}

type Rows = Iterable<Record<string, unknown>>;
interface Table {
  readonly name: string;
  readonly columns: readonly string[];
  readonly rows: Rows;
  readonly count: number;
}

function tables(counts: { books: number; users: number }): Table[] {
  return [
    {
      name: 'books_book',
      columns: BOOK_COLUMNS,
      rows: bookRows(counts.books),
      count: counts.books,
    },
    { name: 'auth_user', columns: USER_COLUMNS, rows: userRows(counts.users), count: counts.users },
    {
      name: 'books_profile',
      columns: PROFILE_COLUMNS,
      rows: profileRows(counts.users),
      count: counts.users,
    },
  ];
}

/** Fills an empty, migrated database of `url` with `counts` books and users (and profiles). */
export async function bulkSeed(
  url: string,
  counts: { books: number; users: number },
): Promise<void> {
  if (url.startsWith('sqlite:')) return seedSqlite(url.slice('sqlite:'.length), counts);
  return seedPostgres(url, counts);
}

function seedSqlite(filename: string, counts: { books: number; users: number }): void {
  const db = new BetterSqlite3(filename);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  try {
    for (const table of tables(counts)) {
      const columns = table.columns.map((c) => `"${c}"`).join(', ');
      const insert = db.prepare(
        `insert into "${table.name}" (${columns}) values (${table.columns.map(() => '?').join(', ')})`,
      );
      const batch = db.transaction((rows: unknown[][]) => {
        for (const row of rows) insert.run(row);
      });
      const bar = progress(table.name, table.count);
      let rows: unknown[][] = [];
      let done = 0;
      for (const row of table.rows) {
        rows.push(table.columns.map((c) => row[c]));
        if (rows.length === 50_000) {
          batch(rows);
          done += rows.length;
          rows = [];
          bar.tick(done);
        }
      }
      batch(rows);
      bar.end();
    }
    db.exec('analyze');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

async function seedPostgres(url: string, counts: { books: number; users: number }): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const table of tables(counts)) {
      const perStatement = Math.floor(30_000 / table.columns.length);
      const columns = table.columns.map((c) => `"${c}"`).join(', ');
      const bar = progress(table.name, table.count);
      let values: unknown[] = [];
      let done = 0;
      const flush = async () => {
        const rows = values.length / table.columns.length;
        if (!rows) return;
        const tuples: string[] = [];
        for (let r = 0; r < rows; r++) {
          const base = r * table.columns.length;
          tuples.push(`(${table.columns.map((_, c) => `$${base + c + 1}`).join(', ')})`);
        }
        await client.query(
          `insert into "${table.name}" (${columns}) values ${tuples.join(', ')}`,
          values,
        );
        done += rows;
        values = [];
        bar.tick(done);
      };
      await client.query('begin');
      for (const row of table.rows) {
        for (const c of table.columns) values.push(row[c]);
        if (values.length >= perStatement * table.columns.length) await flush();
      }
      await flush();
      await client.query('commit');
      bar.end();
    }
    await client.query('analyze');
  } finally {
    await client.end();
  }
}
