/**
 * Faults of the database under load:
 *
 * - PostgreSQL restarted while clients write and read (only where TEST_POSTGRES_RESTART=1 says
 *   the server may be restarted — `.ci/run` sets it — and TEST_POSTGRES_URL names a server on
 *   this machine that `pg_ctlcluster` can restart; skipped with a notice otherwise; a restart
 *   would cut every other client of a shared server, such as a developer's other test runs):
 *   requests during the outage answer 503 `{"detail": ...}` within the connection timeout (no
 *   hang, never a 500), the service recovers by itself once the server is back, and no request
 *   leaves a partial record (a stored file without its row, a row without its file, a PATCH
 *   half applied).
 * - SQLite locked by another process: a write waits for the lock up to the timeout (and
 *   succeeds when the lock goes in time), then answers 503; other clients are served meanwhile.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type TestDialect, testDialects, testPostgresUrl } from '@restframework/core/testing';
import { Book, Upload } from '../../src/models/index.ts';
import { multipart } from './arbitraries.ts';
import { type Bookstore, jsonBody, listFiles, send, sleep, startBookstore } from './support.ts';

const [sqlite, postgres] = testDialects() as [TestDialect, TestDialect];
/** How long a request waits for a connection or a lock before its 503. */
const CONNECTION_TIMEOUT_MS = 1000;
/** No answer may take longer (the timeout, plus room for a busy 2-core machine). */
const NO_HANG_MS = CONNECTION_TIMEOUT_MS + 4000;
const UNAVAILABLE = '{"detail":"Service temporarily unavailable, try again later."}';

/** Why the restart test cannot run here, or false when it can. */
function restartSkip(): string | false {
  const url = testPostgresUrl();
  if (!url) return 'TEST_POSTGRES_URL is not set: PostgreSQL restart test skipped';
  if (process.env.TEST_POSTGRES_RESTART !== '1')
    return 'TEST_POSTGRES_RESTART=1 is not set (it restarts the whole server): PostgreSQL restart test skipped';
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(host))
    return `PostgreSQL at ${host} is not on this machine: restart test skipped`;
  if (!existsSync('/usr/bin/pg_ctlcluster') || !existsSync('/etc/postgresql'))
    return 'pg_ctlcluster is not installed: PostgreSQL restart test skipped';
  if (process.getuid?.() !== 0) return 'not root, cannot restart PostgreSQL: restart test skipped';
  return false;
}

/** `pg_ctlcluster <version> main <action>` for the one installed cluster. */
function pgCluster(action: 'stop' | 'start'): void {
  const version = readdirSync('/etc/postgresql').sort().at(-1) as string;
  execFileSync(
    'pg_ctlcluster',
    [
      '--skip-systemctl-redirect',
      version,
      'main',
      action,
      ...(action === 'stop' ? ['-m', 'fast'] : []),
    ],
    {
      stdio: 'ignore',
    },
  );
}

interface Outcome {
  readonly kind: 'read' | 'create' | 'patch' | 'upload';
  readonly status: number;
  readonly body: string;
  readonly ms: number;
  readonly retryAfter: unknown;
  readonly key: string;
}

describe('PostgreSQL restarted under load', { skip: restartSkip() }, () => {
  let store: Bookstore;

  before(async () => {
    store = await startBookstore(postgres, {
      database: { connectionTimeoutMs: CONNECTION_TIMEOUT_MS, poolSize: 5 },
    });
  });
  after(async () => {
    // Whatever happened, leave the server running for the other tests.
    try {
      pgCluster('start');
    } catch {
      // Already running.
    }
    await store?.close();
  });

  it('answers 503 during the outage, recovers by itself, and keeps no partial record', async (t) => {
    const outcomes: Outcome[] = [];
    let running = true;
    let serial = 0;

    async function worker(w: number): Promise<void> {
      while (running) {
        const n = serial++;
        const kind = (['read', 'create', 'patch', 'upload'] as const)[n % 4] as Outcome['kind'];
        const key = `w${w}-${n}`;
        const request =
          kind === 'read'
            ? {
                method: 'GET' as const,
                url: n % 8 ? `/books/api/books/${1 + (n % 10)}/` : '/books/api/books/',
              }
            : kind === 'create'
              ? {
                  method: 'POST' as const,
                  url: '/books/api/books/',
                  ...jsonBody(
                    JSON.stringify({
                      title: key,
                      summary: key,
                      publishing_information: {
                        publication_date: '2021-01-01',
                        isbn: `FAULT-${key}`,
                      },
                      stock_information: { price: '1.00', stock_count: n },
                    }),
                  ),
                }
              : kind === 'patch'
                ? {
                    method: 'PATCH' as const,
                    url: `/books/api/books/${1 + (n % 10)}/`,
                    // Both leaves carry the same n: a half-applied PATCH would show two.
                    ...jsonBody(
                      JSON.stringify({
                        summary: `patch ${n}`,
                        stock_information: { stock_count: n },
                      }),
                    ),
                  }
                : {
                    method: 'POST' as const,
                    url: '/api/upload/',
                    ...multipart([
                      { name: 'username', value: key },
                      { name: 'resume', filename: `${key}.txt`, content: `resume of ${key}` },
                    ]),
                  };
        const started = Date.now();
        const response = await send(store.app, request);
        outcomes.push({
          kind,
          key,
          status: response.statusCode,
          body: response.body,
          ms: Date.now() - started,
          retryAfter: response.headers['retry-after'],
        });
        if (response.statusCode === 503) await sleep(50);
      }
    }

    const workers = Array.from({ length: 8 }, (_, w) => worker(w));
    await sleep(1000);
    const stopAt = outcomes.length;
    pgCluster('stop');
    await sleep(2500);
    pgCluster('start');
    const backAt = outcomes.length;
    // Recovery: within 15 s of the server's return, reads and writes succeed again.
    const deadline = Date.now() + 15_000;
    let recovered = false;
    while (Date.now() < deadline && !recovered) {
      await sleep(250);
      const recent = outcomes.slice(-16);
      recovered = recent.length === 16 && recent.every((o) => o.status < 300);
    }
    await sleep(500);
    running = false;
    await Promise.all(workers);

    const byStatus = new Map<number, number>();
    for (const o of outcomes) byStatus.set(o.status, (byStatus.get(o.status) ?? 0) + 1);
    t.diagnostic(
      `${outcomes.length} requests (${stopAt} before the stop, ${backAt - stopAt} during the outage): ` +
        [...byStatus]
          .sort()
          .map(([s, n]) => `${n}× ${s}`)
          .join(', ') +
        `; slowest ${Math.max(...outcomes.map((o) => o.ms))} ms`,
    );
    assert.ok(recovered, 'the service did not recover within 15 s of the server coming back');
    for (const o of outcomes) {
      assert.ok([200, 201, 503].includes(o.status), `${o.kind} ${o.key}: ${o.status} ${o.body}`);
      assert.ok(o.ms < NO_HANG_MS, `${o.kind} ${o.key} took ${o.ms} ms`);
      if (o.status === 503) {
        assert.equal(o.body, UNAVAILABLE);
        assert.equal(o.retryAfter, '1');
      }
    }
    assert.ok(byStatus.get(503), 'no request saw the outage');

    // No partial record. A create answered 201 is stored whole; one answered 503 may or may
    // not have committed (the answer can be lost after the commit), but if stored it is whole.
    const books = await Book.objects
      .using(store.db)
      .filter({ isbn__startswith: 'FAULT-' })
      .execute();
    const stored = new Map(books.map((b) => [b.title as string, b]));
    for (const o of outcomes.filter((x) => x.kind === 'create')) {
      const book = stored.get(o.key);
      if (o.status === 201) assert.ok(book, `created ${o.key} is missing`);
      if (book) {
        assert.equal(book.summary, o.key);
        assert.equal(book.isbn, `FAULT-${o.key}`);
      }
    }
    for (const book of await Book.objects.using(store.db).filter({ id__lte: 10 }).execute()) {
      const n = /^patch (\d+)$/.exec(String(book.summary))?.[1];
      if (n !== undefined)
        assert.equal(book.stock_count, Number(n), `book ${book.id} is half patched`);
    }
    // Every stored file has its row and every row its file.
    const uploads = await Upload.objects.using(store.db).execute();
    const files = listFiles(store.media);
    assert.deepEqual(files, uploads.map((u) => String(u.resume)).sort(), 'files and rows differ');
    for (const o of outcomes.filter((x) => x.kind === 'upload' && x.status === 201)) {
      assert.ok(
        uploads.some((u) => u.username === o.key),
        `upload ${o.key} is missing`,
      );
    }
  });
});

/** A second process that takes SQLite's write lock on `file` and holds it for `ms`. */
function holdWriteLock(file: string, ms: number): Promise<ChildProcess> {
  const script = `
    import Database from 'better-sqlite3';
    const db = new Database(${JSON.stringify(file)});
    db.exec('BEGIN IMMEDIATE');
    db.prepare("UPDATE books_book SET summary = 'locker' WHERE id = 20").run();
    console.log('locked');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${ms});
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: join(import.meta.dirname, '..', '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
}

describe('SQLite locked by another process', () => {
  let store: Bookstore;
  let file: string;

  before(async () => {
    store = await startBookstore(sqlite, {
      database: { connectionTimeoutMs: CONNECTION_TIMEOUT_MS },
    });
    const row = await store.db.kysely
      .selectFrom('pragma_database_list' as never)
      .select('file' as never)
      .executeTakeFirstOrThrow();
    file = (row as { file: string }).file;
  });
  after(() => store?.close());

  it('waits for a lock that goes in time, then writes', async () => {
    const locker = await holdWriteLock(file, 300);
    const started = Date.now();
    const response = await send(store.app, {
      method: 'PATCH',
      url: '/books/api/books/2/',
      ...jsonBody('{"title":"after the lock"}'),
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.ok(Date.now() - started < NO_HANG_MS);
    await new Promise((r) => (locker.exitCode === null ? locker.once('exit', r) : r(null)));
  });

  it('answers 503 when the lock outlasts the timeout, and serves reads meanwhile', async () => {
    const locker = await holdWriteLock(file, CONNECTION_TIMEOUT_MS * 3);
    try {
      const before_ = await send(store.app, { method: 'GET', url: '/books/api/books/3/' });
      const started = Date.now();
      const write = send(store.app, {
        method: 'PATCH',
        url: '/books/api/books/3/',
        ...jsonBody('{"title":"locked out"}'),
      });
      await sleep(100);
      const readStarted = Date.now();
      const read = await send(store.app, { method: 'GET', url: '/books/api/books/4/' });
      const readMs = Date.now() - readStarted;
      const response = await write;
      const writeMs = Date.now() - started;
      assert.equal(response.statusCode, 503, response.body);
      assert.equal(response.body, UNAVAILABLE);
      assert.ok(writeMs >= CONNECTION_TIMEOUT_MS - 50, `503 after ${writeMs} ms: too soon`);
      assert.ok(writeMs < NO_HANG_MS, `503 after ${writeMs} ms`);
      assert.equal(read.statusCode, 200);
      assert.ok(readMs < 500, `a read waited ${readMs} ms behind the locked write`);
      const after_ = await send(store.app, { method: 'GET', url: '/books/api/books/3/' });
      assert.equal(after_.body, before_.body);
    } finally {
      await new Promise((r) => (locker.exitCode === null ? locker.once('exit', r) : r(null)));
    }
  });
});
