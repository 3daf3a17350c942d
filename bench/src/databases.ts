/**
 * The benchmark's databases: one template made once per run (the bookstore's schema from the
 * toolkit's `db.migrate(BENCH_MODELS)`, then the data), and a fresh copy of it for every server
 * start, so that every contender and round sees the same rows whatever the previous one wrote.
 * The two most recent copies exist at once (both contenders run side by side); a third
 * replaces the oldest.
 *
 * SQLite: files in a temporary folder. PostgreSQL: databases `<name>_rfbench_tpl`,
 * `<name>_rfbench_run0` and `<name>_rfbench_run1` created next to the database of
 * `DATABASE_URL` (which is itself never touched) and dropped at the end. MySQL/MariaDB: the
 * same names; having no template databases, a copy is made by `migrate` and then
 * `insert ... select` of every table of the template.
 * @module
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '@restframework/core';
import pg from 'pg';
import { BENCH_MODELS, benchTables } from './bench-models.ts';

/** A template database and its copies. */
export interface BenchDatabases {
  readonly vendor: 'sqlite' | 'postgres' | 'mysql';
  /** The template's URL (for EXPLAIN and checks; do not write to it). */
  readonly templateUrl: string;
  /**
   * A fresh copy of the template; returns its URL. The copy made two calls earlier is removed
   * (its server must have stopped); the previous one stays.
   */
  fresh(): Promise<string>;
  /** Removes the copies and the template. */
  cleanup(): Promise<void>;
}

/** How the template is filled once its tables exist. */
export type Filler = (db: Database, url: string) => Promise<void>;

/** Creates the template on `target` (`sqlite` or a `postgres://` URL) and fills it. */
export async function prepareDatabases(target: string, fill: Filler): Promise<BenchDatabases> {
  if (target.startsWith('mysql://') || target.startsWith('mariadb://'))
    return prepareMysql(target, fill);
  return target.startsWith('postgres://') || target.startsWith('postgresql://')
    ? preparePostgres(target, fill)
    : prepareSqlite(fill);
}

/** `<name>_rfbench_<suffix>` next to the database of `target`, and its URL. */
function namesNextTo(target: string, fallback: string) {
  const url = new URL(target);
  const base = decodeURIComponent(url.pathname.slice(1)) || fallback;
  const name = (suffix: string) => `${base}_rfbench_${suffix}`.replace(/[^A-Za-z0-9_]/g, '_');
  const urlOf = (db: string) => {
    const copy = new URL(target);
    copy.pathname = `/${db}`;
    return copy.toString();
  };
  return { name, urlOf };
}

async function prepareMysql(target: string, fill: Filler): Promise<BenchDatabases> {
  const { name, urlOf } = namesNextTo(target, 'test');
  // One connection: foreign_key_checks is a session setting.
  const admin = async (statements: string[]) => {
    const db = Database.connect(target, { poolSize: 1 });
    try {
      for (const statement of statements) await db.query(statement, []);
    } finally {
      await db.close();
    }
  };
  const template = name('tpl');
  const runs = [name('run0'), name('run1')];
  const dropRuns = runs.map((run) => `drop database if exists \`${run}\``);
  let copies = 0;
  await admin([
    ...dropRuns,
    `drop database if exists \`${template}\``,
    `create database \`${template}\``,
  ]);
  await migrateAndFill(urlOf(template), fill);
  return {
    vendor: 'mysql',
    templateUrl: urlOf(template),
    async fresh() {
      const run = runs[copies++ % 2] as string;
      await admin([`drop database if exists \`${run}\``, `create database \`${run}\``]);
      const db = Database.connect(urlOf(run));
      try {
        await db.migrate(BENCH_MODELS);
      } finally {
        await db.close();
      }
      await admin([
        'set foreign_key_checks = 0',
        ...benchTables().map(
          (model) =>
            `insert into \`${run}\`.\`${model.table}\` select * from \`${template}\`.\`${model.table}\``,
        ),
      ]);
      return urlOf(run);
    },
    async cleanup() {
      await admin([...dropRuns, `drop database if exists \`${template}\``]);
    },
  };
}

async function migrateAndFill(url: string, fill: Filler): Promise<void> {
  const db = Database.connect(url);
  try {
    await db.migrate(BENCH_MODELS);
    await fill(db, url);
  } finally {
    await db.close();
  }
}

async function prepareSqlite(fill: Filler): Promise<BenchDatabases> {
  const dir = mkdtempSync(join(tmpdir(), 'restframework-bench-'));
  const template = join(dir, 'template.sqlite3');
  await migrateAndFill(`sqlite:${template}`, fill);
  let copies = 0;
  const live: string[] = [];
  const remove = (file: string) => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  };
  return {
    vendor: 'sqlite',
    templateUrl: `sqlite:${template}`,
    async fresh() {
      if (live.length >= 2) remove(live.shift() as string);
      const file = join(dir, `run-${++copies}.sqlite3`);
      // Closing the template checkpointed its WAL: the main file holds every row.
      copyFileSync(template, file);
      live.push(file);
      return `sqlite:${file}`;
    },
    async cleanup() {
      for (const file of live.splice(0)) remove(file);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function preparePostgres(target: string, fill: Filler): Promise<BenchDatabases> {
  const { name, urlOf } = namesNextTo(target, 'postgres');
  const admin = async (statements: string[]) => {
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    try {
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const template = name('tpl');
  const runs = [name('run0'), name('run1')];
  const dropRuns = runs.map((run) => `drop database if exists "${run}" with (force)`);
  let copies = 0;
  await admin([
    ...dropRuns,
    `drop database if exists "${template}" with (force)`,
    `create database "${template}"`,
  ]);
  await migrateAndFill(urlOf(template), fill);
  return {
    vendor: 'postgres',
    templateUrl: urlOf(template),
    async fresh() {
      const run = runs[copies++ % 2] as string;
      await admin([
        `drop database if exists "${run}" with (force)`,
        `create database "${run}" template "${template}"`,
      ]);
      return urlOf(run);
    },
    async cleanup() {
      await admin([...dropRuns, `drop database if exists "${template}" with (force)`]);
    },
  };
}
