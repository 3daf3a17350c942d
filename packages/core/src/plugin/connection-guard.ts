/**
 * Bounds on connections whose client does not read its answers: how long an answer may wait
 * to be written (`RESPONSE_WRITE_TIMEOUT`), and how many answers one connection may have
 * pending at once (`MAX_PENDING_RESPONSES`, pipelined requests). Past either, the connection
 * is closed.
 *
 * Node bounds the time a client may take to send a request (`requestTimeout`) and the time an
 * idle connection stays open (`keepAliveTimeout`), but not the time an answer waits for a
 * client that stopped reading: such a connection, and its file descriptor and buffered
 * answers, stayed open for good. A client that pipelines requests and never reads kept a
 * queue of answers per connection the same way.
 * @module
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Options of {@link guardConnections}. */
export interface ConnectionGuardOptions {
  /** How long an answer may make no progress towards the client, in ms; 0 for no limit. */
  readonly writeTimeoutMs: number;
  /** The most answers one connection may have pending at once; 0 for no limit. */
  readonly maxPendingResponses: number;
}

/** What the guard keeps per connection, on the socket itself. */
interface Watched {
  /** Answers begun and not yet finished. */
  pending: number;
  /** Bytes waiting to be written at the last check, and since when they were that many. */
  waiting: number;
  since: number;
}

const kWatched = Symbol('restframework.connectionGuard');
type GuardedSocket = Socket & { [kWatched]?: Watched };
type GuardedResponse = ServerResponse & { [kWatched]?: Watched | undefined };

/**
 * Watches the connections of `server`: a check every second at most (a quarter of the write
 * timeout) closes those whose unwritten bytes have not moved for `writeTimeoutMs`; each
 * request counts its connection's pending answers, and one past `maxPendingResponses` closes
 * the connection. Returns a function that stops watching.
 *
 * @example
 * ```ts
 * const stop = guardConnections(app.server, { writeTimeoutMs: 30_000, maxPendingResponses: 32 });
 * app.addHook('onClose', async () => stop());
 * ```
 */
export function guardConnections(server: Server, options: ConnectionGuardOptions): () => void {
  const sockets = new Set<GuardedSocket>();
  const { writeTimeoutMs, maxPendingResponses } = options;

  const onConnection = (socket: GuardedSocket) => {
    socket[kWatched] = { pending: 0, waiting: 0, since: 0 };
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  function onFinished(this: GuardedResponse) {
    const watched = this[kWatched];
    if (watched) {
      watched.pending--;
      this[kWatched] = undefined;
    }
  }

  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    const watched = (request.socket as GuardedSocket)[kWatched];
    if (!watched) return;
    watched.pending++;
    if (maxPendingResponses > 0 && watched.pending > maxPendingResponses) {
      // A client that sends and does not read: its answers would queue without end.
      request.socket.destroy();
      return;
    }
    (response as GuardedResponse)[kWatched] = watched;
    // 'close' comes after 'finish', and also when the connection goes first: counted once
    // (onFinished forgets the record). `on`, not `once`: a response closes once and is then
    // dropped, and `once` cost each request a bound wrapper and a removeListener.
    response.on('close', onFinished);
  };

  server.on('connection', onConnection);
  server.on('request', onRequest);
  let timer: NodeJS.Timeout | undefined;
  if (writeTimeoutMs > 0) {
    timer = setInterval(
      () => checkWrites(sockets, writeTimeoutMs),
      Math.max(100, Math.min(1000, Math.floor(writeTimeoutMs / 4))),
    );
    timer.unref();
  }
  return () => {
    if (timer) clearInterval(timer);
    server.off('connection', onConnection);
    server.off('request', onRequest);
    sockets.clear();
  };
}

/** Closes every connection whose unwritten bytes have not moved for `timeoutMs`. */
function checkWrites(sockets: ReadonlySet<GuardedSocket>, timeoutMs: number): void {
  const now = Date.now();
  for (const socket of sockets) {
    const watched = socket[kWatched];
    if (!watched) continue;
    const waiting = socket.writableLength;
    if (waiting === 0 || waiting !== watched.waiting) {
      // Nothing waits, or the client took some: the clock starts again.
      watched.waiting = waiting;
      watched.since = now;
    } else if (now - watched.since >= timeoutMs) {
      socket.destroy();
    }
  }
}
