/**
 * Load for the scale-out test: PATCHes of distinct books and multipart uploads, sent at once
 * or by a fixed number of clients, each outcome recorded (acknowledged or not), and the
 * checks that the database and the bucket hold every acknowledged write.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Database } from '@restframework/core';
import { type HttpAnswer, type HttpRequest, send } from './http.ts';

const HOST = '127.0.0.1';

/** One request's outcome. */
export interface Outcome {
  readonly kind: 'patch' | 'upload';
  /** The book patched, or the upload's username. */
  readonly key: string;
  /** The title written, or the file's content. */
  readonly value: string;
  readonly startedAt: number;
  /** When the answer (or the failure) came. */
  readonly finishedAt: number;
  readonly status: number;
  /** The upload's id when acknowledged. */
  readonly id?: number;
  readonly error?: string;
}

/**
 * Sends `request` and records its outcome: `judged` says what an answer means (the upload's
 * id, or why it is not acknowledged); no answer at all is status 0 with the failure.
 */
async function attempt(
  baseUrl: string,
  what: Pick<Outcome, 'kind' | 'key' | 'value'>,
  request: HttpRequest,
  judged: (res: HttpAnswer) => Pick<Outcome, 'id' | 'error'>,
): Promise<Outcome> {
  const startedAt = Date.now();
  let res: HttpAnswer;
  try {
    res = await send(baseUrl, request);
  } catch (error) {
    return { ...what, startedAt, finishedAt: Date.now(), status: 0, error: String(error) };
  }
  return { ...what, startedAt, finishedAt: Date.now(), status: res.statusCode, ...judged(res) };
}

/** PATCHes book `book` with `title`. */
export function patchBook(baseUrl: string, book: number, title: string): Promise<Outcome> {
  return attempt(
    baseUrl,
    { kind: 'patch', key: String(book), value: title },
    {
      method: 'PATCH',
      url: `/books/api/books/${book}/`,
      headers: { host: HOST },
      payload: { title },
    },
    (res) =>
      res.statusCode === 200
        ? {}
        : { error: `${res.headers['x-request-id']} ${res.body.slice(0, 300)}` },
  );
}

/** Uploads a small text file as `username`. */
export function upload(baseUrl: string, username: string): Promise<Outcome> {
  const boundary = `scale${Math.random().toString(36).slice(2)}`;
  const content = `resume of ${username}\n`;
  const payload = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="username"\r\n\r\n${username}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="resume"; filename="${username}.txt"\r\n` +
      `Content-Type: text/plain\r\n\r\n${content}\r\n--${boundary}--\r\n`,
  );
  return attempt(
    baseUrl,
    { kind: 'upload', key: username, value: content },
    {
      method: 'POST',
      url: '/api/upload/',
      headers: { host: HOST, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    },
    (res) => {
      const id = res.statusCode === 201 ? (res.json().id as number | undefined) : undefined;
      return id === undefined ? { error: res.body.slice(0, 200) } : { id };
    },
  );
}

/** Runs `next()` with `clients` requests in flight until it answers undefined. */
export async function runClients(
  clients: number,
  next: () => Promise<Outcome> | undefined,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let request = next(); request; request = next()) outcomes.push(await request);
    }),
  );
  return outcomes;
}

export const acknowledged = (o: Outcome) =>
  o.kind === 'patch' ? o.status === 200 : o.status === 201;

/**
 * Every acknowledged write is in the primary. A book holds the title of one of the PATCHes of
 * it (titles are unique per phase), and no acknowledged PATCH of it started after that one had
 * answered (it would have replaced it): an acknowledged write is never lost to an older one.
 * Each acknowledged upload is a row with its username, its file in the bucket with its content.
 */
export async function assertKept(
  primaryUrl: string,
  outcomes: readonly Outcome[],
  readObject: (name: string) => Promise<string | undefined>,
): Promise<{ patches: number; uploads: number }> {
  const db = Database.connect(primaryUrl, { poolSize: 2 });
  try {
    const patches = outcomes.filter((o) => o.kind === 'patch' && acknowledged(o));
    const uploads = outcomes.filter((o) => o.kind === 'upload' && acknowledged(o));
    const titles = new Map<string, string>();
    for (const row of (await db.query('select id, title from books_book', [])) as {
      id: number;
      title: string;
    }[])
      titles.set(String(row.id), row.title);
    const lost: string[] = [];
    const byBook = Map.groupBy(
      outcomes.filter((o) => o.kind === 'patch'),
      (o) => o.key,
    );
    for (const [book, writes] of byBook) {
      const acked = writes.filter(acknowledged);
      if (!acked.length) continue;
      const stored = titles.get(book);
      const source = writes.find((o) => o.value === stored);
      const later = source ? acked.filter((o) => o.startedAt > source.finishedAt) : acked;
      if (later.length)
        lost.push(`book ${book}: ${later.at(-1)?.value} acknowledged, ${stored} stored`);
    }
    assert.deepEqual(lost, []);
    const rows = new Map<number, { username: string; resume: string }>();
    for (const row of (await db.query('select id, username, resume from books_upload', [])) as {
      id: number;
      username: string;
      resume: string;
    }[])
      rows.set(Number(row.id), row);
    const missing: string[] = [];
    for (const o of uploads) {
      const row = rows.get(o.id as number);
      if (!row || row.username !== o.key) {
        missing.push(`upload ${o.id} (${o.key}): no row`);
        continue;
      }
      const stored = await readObject(row.resume);
      if (stored !== o.value) missing.push(`upload ${o.id}: file ${row.resume} holds ${stored}`);
    }
    assert.deepEqual(missing, []);
    return { patches: patches.length, uploads: uploads.length };
  } finally {
    await db.close();
  }
}

/** HAProxy's view of each server (`UP`, `DOWN`, `MAINT`...), from its stats socket. */
export function serverStates(dir: string): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    const socket = connect(join(dir, 'haproxy.sock'));
    let text = '';
    socket.on('data', (chunk) => {
      text += String(chunk);
    });
    socket.on('error', reject);
    socket.on('end', () => {
      const states = new Map<string, string>();
      for (const line of text.split('\n')) {
        const fields = line.split(',');
        if (fields[0] === 'workers' && fields[1] !== 'BACKEND')
          states.set(fields[1] as string, fields[17] as string);
      }
      resolve(states);
    });
    socket.write('show stat\n');
  });
}

/** Resolves once HAProxy sees `server` in `state` (at most `timeoutMs`), with the time it took. */
export async function waitState(
  dir: string,
  server: string,
  state: RegExp,
  timeoutMs = 20_000,
): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const states = await serverStates(dir);
    if (state.test(states.get(server) ?? '')) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`HAProxy did not see ${server} ${state} within ${timeoutMs} ms`);
}

/** A worker's count of answered requests of `method` on `route` with `status`, from /metrics. */
export async function requestCount(
  port: number,
  method: string,
  route: string,
  status: string,
): Promise<number> {
  const res = await send(`http://127.0.0.1:${port}`, { url: '/metrics', headers: { host: HOST } });
  assert.equal(res.statusCode, 200);
  let total = 0;
  for (const line of res.body.split('\n')) {
    if (!line.startsWith('restframework_http_requests_total{')) continue;
    if (
      line.includes(`method="${method}"`) &&
      line.includes(`route="${route}"`) &&
      line.includes(`status="${status}"`)
    )
      total += Number(line.split(' ').at(-1));
  }
  return total;
}
