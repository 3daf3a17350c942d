/**
 * Clients that send requests and never read the answers, over real sockets. Bounded: a few
 * dozen connections, and every socket is destroyed by the test at the end whatever happens.
 *
 * - Answers too large for the kernel's buffers wait for a client that does not read: the
 *   server closes such a connection once its answer has not moved for
 *   `RESPONSE_WRITE_TIMEOUT`, and serves other clients meanwhile.
 * - A client that pipelines many requests without reading: its connection is closed once
 *   more than `MAX_PENDING_RESPONSES` answers are pending, long before the write timeout.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '@restframework/core/testing';
import { multipart } from './arbitraries.ts';
import { type Bookstore, listen, probe, send, sleep, startBookstore } from './support.ts';

const sqlite = testDialects()[0];

/** Opens `count` connections that each send `requests` pipelined requests and never read. */
async function neverReading(port: number, count: number, requests: string[]): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i++) {
    const socket = connect({ host: '127.0.0.1', port });
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    // Never read: the kernel's receive buffer fills and the server's writes stop moving.
    socket.pause();
    socket.write(requests.join(''));
    sockets.push(socket);
  }
  return sockets;
}

/** The server's open connections. */
function openConnections(store: Bookstore): Promise<number> {
  return new Promise((resolve, reject) =>
    store.app.server.getConnections((error, n) => (error ? reject(error) : resolve(n))),
  );
}

/** Polls until the server has at most `max` connections open, or `withinMs` passes. */
async function closedWithin(store: Bookstore, max: number, withinMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    if ((await openConnections(store)) <= max) return Date.now() - started;
    await sleep(100);
  }
  return Number.POSITIVE_INFINITY;
}

const request = (path: string) =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\r\n`;

describe('clients that never read', () => {
  let store: Bookstore;
  let port: number;
  let file: string;
  const WRITE_TIMEOUT_MS = 1000;
  before(async () => {
    store = await startBookstore(sqlite, {
      app: { settings: { RESPONSE_WRITE_TIMEOUT: WRITE_TIMEOUT_MS } },
    });
    // A 4 MiB file: a few answers of it are more than the kernel's buffers of a loopback
    // connection take (answers of a few hundred KB all fit, and nothing waits in the server).
    const upload = await send(store.app, {
      method: 'POST',
      url: '/api/upload/',
      ...multipart([
        { name: 'username', value: 'big' },
        { name: 'resume', filename: 'big.txt', content: 4 * 1024 * 1024 },
      ]),
    });
    assert.equal(upload.statusCode, 201, upload.body);
    file = new URL((upload.json() as { resume: string }).resume).pathname;
    port = await listen(store.app);
  });
  after(() => store?.close());

  it('closes connections whose answers wait past RESPONSE_WRITE_TIMEOUT, serving others', async () => {
    const sockets = await neverReading(port, 20, Array(8).fill(request(file)));
    try {
      await sleep(200);
      assert.ok((await openConnections(store)) >= 15, 'the attack did not take');
      // Another client is served meanwhile.
      const other = await probe(port);
      assert.equal(other.status, 200);
      const ms = await closedWithin(store, 0, WRITE_TIMEOUT_MS + 4000);
      assert.ok(
        ms < WRITE_TIMEOUT_MS + 4000,
        `${await openConnections(store)} connections still open`,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});

describe('clients that pipeline without reading', () => {
  let store: Bookstore;
  let port: number;
  const MAX_PENDING = 8;
  before(async () => {
    // A write timeout far longer than the test: only the count of pending answers can close.
    store = await startBookstore(sqlite, {
      app: { settings: { RESPONSE_WRITE_TIMEOUT: 120_000, MAX_PENDING_RESPONSES: MAX_PENDING } },
    });
    port = await listen(store.app);
  });
  after(() => store?.close());

  it('closes a connection with more than MAX_PENDING_RESPONSES answers pending', async () => {
    const sockets = await neverReading(port, 10, Array(300).fill(request('/books/api/books/1/')));
    try {
      const ms = await closedWithin(store, 0, 3000);
      assert.ok(ms < 3000, `${await openConnections(store)} connections still open`);
      assert.equal((await probe(port)).status, 200);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  it('keeps a connection that pipelines a few requests and reads the answers', async () => {
    const socket = connect({ host: '127.0.0.1', port });
    try {
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
      });
      socket.write(Array(MAX_PENDING).fill(request('/books/api/books/1/')).join(''));
      const started = Date.now();
      while ((received.match(/HTTP\/1\.1 200/g) ?? []).length < MAX_PENDING) {
        assert.ok(
          Date.now() - started < 5000,
          `only ${(received.match(/HTTP\/1\.1 200/g) ?? []).length} answers`,
        );
        await sleep(20);
      }
      assert.equal(socket.destroyed, false);
    } finally {
      socket.destroy();
    }
  });
});
