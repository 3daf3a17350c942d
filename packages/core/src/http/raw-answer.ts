/**
 * Answers written straight to a socket, for what Node hands over before (or instead of) a
 * request Fastify could route: a request the HTTP parser gave up on, a `CONNECT`.
 * @module
 */
import type { Duplex } from 'node:stream';

/** Headers every response carries. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
});

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/**
 * Writes a JSON answer (`{"detail": ...}` or any body) with the security headers and
 * `Connection: close`, then closes the socket once it is flushed.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 *
 * const server = createServer();
 * server.on('connect', (_request, socket) => writeRawAnswer(socket, 405, { detail: 'No.' }));
 * ```
 */
export function writeRawAnswer(
  socket: Duplex,
  status: number,
  data: unknown,
  extraHeaders: Readonly<Record<string, string>> = {},
): void {
  const body = JSON.stringify(data);
  const headers = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
    ...SECURITY_HEADERS,
    ...extraHeaders,
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  // end() sends the answer and a FIN; the socket is destroyed once that is flushed.
  socket.once('finish', () => socket.destroy());
  socket.once('error', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\n${head}\r\n${body}`);
}
