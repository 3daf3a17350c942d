/**
 * Runs `npm start` as a user would (a child process on a free port, a fresh SQLite file and
 * media folder), checks one request of each resource, then stops it with SIGTERM and expects
 * a clean exit. Again on MySQL/MariaDB when TEST_MYSQL_URL is set, with a database name the
 * server does not have yet: `npm start` creates it.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Database } from '@restframework/core';
import { testMysqlUrl } from '@restframework/core/testing';
import { freePort } from '../../../packages/core/test/fixtures/free-port.ts';

const root = join(import.meta.dirname, '..', '..', '..');

async function waitFor(
  url: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs = 60_000,
): Promise<void> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (child.exitCode !== null)
      throw new Error(`npm start exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`npm start did not answer ${url} within ${timeoutMs} ms:\n${output()}`);
}

/** The URL of a MySQL database that does not exist yet, and how to drop it afterwards. */
function mysqlTarget(): { url: string; drop: () => Promise<void> } | undefined {
  const server = testMysqlUrl();
  if (!server) return undefined;
  const name = `rf_start_${process.pid}_${Date.now().toString(36)}`;
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const admin = Database.connect(server, { poolSize: 1 });
      try {
        await admin.query(`drop database if exists \`${name}\``, []);
      } finally {
        await admin.close();
      }
    },
  };
}

const mysql = mysqlTarget();
const targets = [
  { name: 'SQLite', skip: false as const, mysql: undefined },
  {
    name: 'MySQL/MariaDB',
    skip: mysql ? (false as const) : 'TEST_MYSQL_URL is not set: MySQL/MariaDB tests skipped',
    mysql,
  },
];

for (const target of targets)
  describe(`npm start on ${target.name}`, { skip: target.skip }, () => {
    let child: ChildProcess;
    let dir: string;
    let base: string;
    let log = '';

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'bookstore-start-'));
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      child = spawn('npm', ['start'], {
        cwd: root,
        env: {
          ...process.env,
          PORT: String(port),
          DATABASE_URL: target.mysql?.url ?? `sqlite:${join(dir, 'db.sqlite3')}`,
          MEDIA_ROOT: join(dir, 'media'),
        },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.on('data', (chunk) => {
        log += chunk;
      });
      child.stderr?.on('data', (chunk) => {
        log += chunk;
      });
      await waitFor(`${base}/books/api/`, child, () => log);
    });

    after(async () => {
      if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      await target.mysql?.drop();
    });

    it('prints where it runs and that it seeded the empty database', () => {
      if (target.mysql) assert.match(log, /Created the database DATABASE_URL names\./);
      assert.match(log, /Seeded 1000 books, 50 authors, 200 users\./);
      assert.match(log, new RegExp(`Bookstore running at ${base}/books/api/`));
    });

    it('answers one request of each resource', async () => {
      const get = async (path: string) => {
        const response = await fetch(`${base}${path}`);
        assert.equal(response.status, 200, path);
        assert.equal(response.headers.get('content-type'), 'application/json', path);
        return (await response.json()) as Record<string, any>;
      };
      assert.equal((await get('/books/api/books/')).count, 1000);
      assert.equal((await get('/books/api/books/1/')).id, 1);
      assert.equal((await get('/books/api/proxy-books/?ordering=-price')).results.length, 100);
      assert.equal((await get('/books/api/authors/')).count, 50);
      assert.equal((await get('/api/profile/')).count, 200);
      assert.equal((await get('/api/upload/')).count, 0);
      const options = await fetch(`${base}/books/api/books/`, { method: 'OPTIONS' });
      assert.equal(options.headers.get('allow'), 'GET, POST, HEAD, OPTIONS');
      const created = await fetch(`${base}/books/api/books/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          title: 'Smoke',
          publishing_information: { publication_date: '2024-01-01', isbn: 'SMOKE-1' },
          stock_information: { price: '9.99' },
        }),
      });
      assert.equal(created.status, 201);
      assert.equal(created.headers.get('location'), `${base}/books/api/books/1001/`);
    });

    it('stops cleanly on SIGTERM', async () => {
      // 'close' waits for every process holding the output pipes, the server included.
      const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
      // The whole process group gets the signal, as with Ctrl-C in a terminal: npm forwards it
      // and dies of it; the server finishes its requests, closes the database and says so.
      process.kill(-(child.pid as number), 'SIGTERM');
      await exited;
      assert.match(log, /Bookstore stopped\./);
    });
  });
