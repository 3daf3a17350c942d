/**
 * The floor: a Fastify app that answers each scenario's request with the bytes the baseline
 * answered it (recorded once by the harness), doing nothing else. What it costs per request
 * is what Fastify and Node.js cost to receive that request (its body parsed by Fastify's
 * default parser, as the baseline's is) and to send that answer: the part of every
 * contender's figure that neither the toolkit nor the baseline can make cheaper. The bench
 * reports each contender's cost above it, so that a ratio can be read against what was left
 * to win (GET one book: floor 41 µs, baseline 49, toolkit 70 on 2026-11-27).
 * @module
 */
import Fastify, { type FastifyInstance } from 'fastify';

/** One recorded answer: the request it answers and the answer's parts. */
export interface FloorAnswer {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'OPTIONS';
  /** The request's path and query string. */
  readonly path: string;
  readonly status: number;
  /**
   * The headers in the order they were sent, without those Node.js writes itself (`date`,
   * `connection`, `keep-alive`, `content-length`, `transfer-encoding`).
   */
  readonly headers: readonly (readonly [string, string])[];
  /** The body, with `127.0.0.1:PORT` where the recording server's address was. */
  readonly body: string;
}

/** The route of a path: its query string dropped, numeric segments as a parameter. */
export function routeOf(path: string): string {
  const pathname = path.split('?', 1)[0] as string;
  let n = 0;
  return pathname
    .split('/')
    .map((segment) => (/^\d+$/.test(segment) ? `:p${n++}` : segment))
    .join('/');
}

/**
 * The floor for `answers`, not listening. Call `answerWith(port)` once it listens: the
 * bodies then name its own address, as the other contenders' do. A request that matches a
 * route but no recorded path gets the route's first answer (PATCH spreads over many ids).
 */
export function buildFloor(answers: readonly FloorAnswer[]): {
  readonly app: FastifyInstance;
  answerWith(port: number): void;
} {
  // The same Fastify options as the bookstore's buildApp and the baseline.
  const app = Fastify({ logger: false, requestTimeout: 30_000, bodyLimit: 1024 * 1024 });
  interface Ready {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    body: string;
  }
  const byRoute = new Map<string, Map<string, Ready>>();
  const ready: { answer: Ready; recorded: string }[] = [];
  for (const answer of answers) {
    const key = `${answer.method} ${routeOf(answer.path)}`;
    let byPath = byRoute.get(key);
    if (!byPath) {
      byRoute.set(key, (byPath = new Map()));
      const paths = byPath;
      app.route({
        method: answer.method,
        url: routeOf(answer.path),
        handler: (request, reply) => {
          const found = paths.get(request.url) ?? (paths.values().next().value as Ready);
          // Headers as recorded, and the body as it is: no serializer, no charset added.
          reply.code(found.status).headers(found.headers);
          reply.serializer(asItIs);
          return found.body;
        },
      });
    }
    const made: Ready = {
      status: answer.status,
      headers: Object.fromEntries(answer.headers),
      body: answer.body,
    };
    byPath.set(answer.path, made);
    ready.push({ answer: made, recorded: answer.body });
  }
  return {
    app,
    answerWith(port) {
      for (const { answer, recorded } of ready)
        answer.body = recorded.replaceAll('127.0.0.1:PORT', `127.0.0.1:${port}`);
    },
  };
}

function asItIs(text: string): string {
  return text;
}
