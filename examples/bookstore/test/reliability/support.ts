/**
 * What the reliability tests share: a bookstore on a fresh database of one dialect with a small
 * seed, a snapshot of everything a request could change (every row of every table, every file
 * under MEDIA_ROOT), and a raw socket client for bodies `inject()` cannot send (a client that
 * stops half-way, a body trickled byte by byte).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Database, type DatabaseOptions } from '@restframework/core';
import type { TestDialect } from '@restframework/core/testing';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { type BookstoreOptions, buildApp } from '../../src/app.ts';
import { ALL_MODELS } from '../../src/models/index.ts';
import { seed } from '../../src/seed.ts';

/** The tables of the bookstore, in migration order. */
export const TABLES: readonly string[] = ALL_MODELS.map((model) => model.table);

/** A seed small enough to snapshot whole after every request. */
export const SMALL_SEED = { books: 20, authors: 5, users: 10 };

/** A running bookstore for one test file. */
export interface Bookstore {
  readonly db: Database;
  /** The URL of its database (one of its own, made for it). */
  readonly url: string;
  readonly app: FastifyInstance;
  readonly media: string;
  /** Closes the app, drops the database, removes the media folder. */
  close(): Promise<void>;
}

/** Options of {@link startBookstore}. */
export interface StartOptions {
  readonly seed?: { books: number; authors: number; users: number };
  readonly database?: DatabaseOptions;
  readonly app?: Omit<BookstoreOptions, 'database' | 'mediaRoot'>;
}

/** A bookstore on a new database of `dialect`, migrated and seeded, ready for `inject()`. */
export async function startBookstore(
  dialect: TestDialect,
  options: StartOptions = {},
): Promise<Bookstore> {
  const { url, drop } = await dialect.createUrl();
  const db = Database.connect(url, options.database);
  await db.migrate(ALL_MODELS);
  await seed(db, options.seed ?? SMALL_SEED);
  const media = mkdtempSync(join(tmpdir(), 'bookstore-reliability-media-'));
  const app = await buildApp({ database: db, mediaRoot: media, ...options.app });
  await app.ready();
  return {
    db,
    url,
    app,
    media,
    async close() {
      await app.close();
      await db.close();
      await drop();
      rmSync(media, { recursive: true, force: true });
    },
  };
}

/** Every row of every table (ordered by id) and every file under `media`. */
export interface Snapshot {
  readonly rows: Record<string, unknown[]>;
  readonly files: string[];
}

/** What a request could have changed: compare two of these with `deepEqual`. */
export async function snapshot(db: Database, media: string): Promise<Snapshot> {
  const rows: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    rows[table] = await db.kysely.selectFrom(table).selectAll().orderBy('id').execute();
  }
  return { rows, files: listFiles(media) };
}

/** The files under `dir`, relative, sorted; [] when it does not exist. */
export function listFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
  } catch {
    return [];
  }
  return entries.sort();
}

/** `inject()` with an allowed Host and JSON accepted. */
export function send(
  app: FastifyInstance,
  options: InjectOptions & { readonly url: string },
): Promise<LightMyRequestResponse> {
  return app.inject({
    ...options,
    headers: { host: '127.0.0.1', accept: 'application/json', ...options.headers },
  });
}

/** A JSON body (already serialised, so hostile keys survive) and its Content-Type. */
export function jsonBody(text: string): Pick<InjectOptions, 'payload' | 'headers'> {
  return { payload: text, headers: { 'content-type': 'application/json' } };
}

/** Starts listening on 127.0.0.1, port 0; returns the port. */
export async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as { port: number }).port;
}

/** What a raw exchange gave: the status (0 when none came), the head and body, and timing. */
export interface RawAnswer {
  readonly status: number;
  readonly head: string;
  readonly body: string;
  readonly ms: number;
  /** The server closed the connection (or reset it). */
  readonly closed: boolean;
}

/** Options of {@link rawExchange}. */
export interface RawOptions {
  /** Bytes to send after the head; an async iterable sends piece by piece. */
  readonly body?: Buffer | AsyncIterable<Buffer>;
  /** Give up waiting for an answer after this long (the answer then has status 0). */
  readonly timeoutMs?: number;
}

/**
 * Sends `head` (the request line and headers, ending in a blank line) and `body` over a new
 * socket, and reads until the first response's body is complete, the server closes, or the
 * timeout. The server may answer before the body is sent; sending then stops.
 */
export function rawExchange(
  port: number,
  head: string,
  options: RawOptions = {},
): Promise<RawAnswer> {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket: Socket = connect({ host: '127.0.0.1', port });
    let received = Buffer.alloc(0);
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseAnswer(received), ms: Date.now() - started, closed });
    };
    const timer = setTimeout(() => finish(false), options.timeoutMs ?? 10_000);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (answerComplete(received)) finish(false);
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('connect', async () => {
      socket.write(head);
      const body = options.body;
      if (body === undefined) return;
      if (Buffer.isBuffer(body)) {
        socket.write(body);
        return;
      }
      try {
        for await (const piece of body) {
          if (done || socket.destroyed) return;
          if (!socket.write(piece)) await new Promise((r) => socket.once('drain', r));
        }
      } catch {
        // The body's producer failed: the client hangs up, as a crashed client would.
        socket.destroy();
      }
    });
  });
}

function parseAnswer(bytes: Buffer): { status: number; head: string; body: string } {
  const text = bytes.toString('utf8');
  const end = text.indexOf('\r\n\r\n');
  const head = end === -1 ? text : text.slice(0, end);
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
  return { status, head, body: end === -1 ? '' : text.slice(end + 4) };
}

function answerComplete(bytes: Buffer): boolean {
  const text = bytes.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1];
  if (length !== undefined) return bytes.length - (end + 4) >= Number(length);
  return /\r\ntransfer-encoding: *chunked/i.test(text.slice(0, end))
    ? text.endsWith('0\r\n\r\n')
    : false;
}

/** A plain GET over a new socket, to check the server still serves others. */
export async function probe(port: number, path = '/books/api/books/1/'): Promise<RawAnswer> {
  return rawExchange(port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
}

/** Resolves after `ms`. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
