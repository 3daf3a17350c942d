/**
 * Requests over HTTP for the scale-out test, with `node:http` (fetch refuses to set `Host`,
 * which the replays send as recorded). Answers are read whole.
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';

/** A request as the replays describe it. */
export interface HttpRequest {
  readonly method?: string;
  readonly url: string;
  readonly headers?: Record<string, string | undefined>;
  readonly payload?: string | Buffer | object;
}

/** An answer, shaped as Fastify's `inject` answers (what the replays read). */
export interface HttpAnswer {
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  json(): any;
}

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

/** Sends `req` to `baseUrl` (`http://127.0.0.1:PORT`). */
export function send(baseUrl: string, req: HttpRequest): Promise<HttpAnswer> {
  const url = new URL(req.url, baseUrl);
  let body: Buffer | undefined;
  const headers: Record<string, string> = { host: url.host };
  for (const [name, value] of Object.entries(req.headers ?? {}))
    if (value !== undefined) headers[name.toLowerCase()] = value;
  if (req.payload !== undefined) {
    if (Buffer.isBuffer(req.payload)) body = req.payload;
    else if (typeof req.payload === 'string') body = Buffer.from(req.payload);
    else {
      body = Buffer.from(JSON.stringify(req.payload));
      headers['content-type'] ??= 'application/json';
    }
    headers['content-length'] = String(body.length);
  }
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: req.method ?? 'GET',
        path: url.pathname + url.search,
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            statusCode: res.statusCode ?? 0,
            headers: res.headers,
            body: text,
            json: () => JSON.parse(text),
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Closes the kept-alive connections. */
export function closeConnections(): void {
  agent.destroy();
}
