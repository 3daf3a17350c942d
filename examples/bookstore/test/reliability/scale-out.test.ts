/**
 * The horizontal-scaling path: two service processes (`src/main.ts`, as `npm start` runs it)
 * on one PostgreSQL database and one media folder, the requests of each race split between
 * them. Runs when TEST_POSTGRES_URL is set.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { applyMigrations, type Database } from '@restframework/core';
import { type TestDialect, testDialects, testPostgresUrl } from '@restframework/core/testing';
import { seed } from '../../src/seed.ts';

const MIGRATIONS = join(import.meta.dirname, '..', '..', 'migrations');

import { freePort } from '../../../../packages/core/test/fixtures/free-port.ts';
import { type Client, isbnRace, patchRace, uploadRace } from './races.ts';
import { SMALL_SEED, sleep } from './support.ts';

const postgres = testDialects()[1] as TestDialect;
const bookstore = join(import.meta.dirname, '..', '..');

/** Starts `src/main.ts` on `port`; resolves once it answers. */
async function startService(env: Record<string, string>, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: bookstore,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/books/api/`)).ok) return child;
    } catch {
      // Not listening yet.
    }
    await sleep(200);
  }
  child.kill('SIGKILL');
  throw new Error(`the service on port ${port} did not start within 30 s`);
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

describe('two service processes on one PostgreSQL', { skip: postgres.skip }, () => {
  let db: Database;
  let media: string;
  const services: ChildProcess[] = [];
  let client: Client;

  before(async () => {
    db = await postgres.create();
    // As npm start makes it: the committed migrations (main.ts then finds nothing to apply).
    await applyMigrations(db, { folder: MIGRATIONS, app: 'books' });
    await seed(db, SMALL_SEED);
    const row = await db.kysely
      .selectNoFrom((eb) => eb.fn<string>('current_database', []).as('name'))
      .executeTakeFirstOrThrow();
    const url = new URL(testPostgresUrl() as string);
    url.pathname = `/${row.name}`;
    media = mkdtempSync(join(tmpdir(), 'bookstore-scale-out-media-'));
    const env = { DATABASE_URL: url.toString(), MEDIA_ROOT: media };
    const ports = [await freePort(), await freePort()];
    for (const port of ports) services.push(await startService(env, port));
    client = async (i, request) => {
      const port = ports[i % 2] as number;
      const response = await fetch(`http://127.0.0.1:${port}${request.url}`, {
        method: request.method,
        headers: request.headers ?? {},
        ...(request.payload === undefined ? {} : { body: request.payload }),
      });
      return {
        status: response.status,
        body: await response.text(),
        headers: Object.fromEntries(response.headers),
      };
    };
  });
  after(async () => {
    await Promise.all(services.map(stop));
    await postgres.drop(db);
    rmSync(media, { recursive: true, force: true });
  });

  it('50 concurrent PATCHes split between them lose no update', async () => {
    await patchRace(client, 1, 1);
    await patchRace(client, 1, 2);
  });

  it('20 concurrent POSTs with one isbn give exactly one 201', async () => {
    await isbnRace(client, 'SCALE-OUT-ISBN');
  });

  it('20 concurrent uploads with one file name keep every file', async () => {
    await uploadRace(client, 'resume.txt');
  });

  it('both processes answered', async () => {
    for (const i of [0, 1]) {
      const response = await client(i, { method: 'GET', url: '/books/api/books/1/' });
      assert.equal(response.status, 200);
    }
  });
});
