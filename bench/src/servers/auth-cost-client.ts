/**
 * The program `auth-cost.ts --instructions` runs under callgrind: the app of
 * `auth-cost-app.ts` on 127.0.0.1 and a client in the same process sending `COUNT` GETs of
 * one book, one after another on one keep-alive connection, to `/bench/open/1/` or, with the
 * token, to `/bench/token/1/`. A minor GC every 250 requests keeps the collector's schedule
 * the same from run to run (as `instruction-client.ts`).
 *
 *   node auth-cost-client.ts open|token COUNT
 * @module
 */
import http from 'node:http';
import { buildAuthCostApp } from './auth-cost-app.ts';

const [scenario, countText] = process.argv.slice(2);
if ((scenario !== 'open' && scenario !== 'token') || !countText)
  throw new Error('usage: auth-cost-client.ts open|token COUNT');

const { app, key } = await buildAuthCostApp();
await app.listen({ host: '127.0.0.1', port: 0 });
const port = (app.server.address() as { port: number }).port;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const path = `/bench/${scenario}/1/`;
const headers: Record<string, string> = { accept: 'application/json' };
if (scenario === 'token') headers.authorization = `Token ${key}`;

function once(): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end();
  });
}

const gc = (globalThis as { gc?: (options: { type: 'minor' }) => void }).gc;
for (let i = 0; i < Number(countText); i++) {
  if (i % 250 === 0) gc?.({ type: 'minor' });
  const status = await once();
  if (status !== 200) throw new Error(`GET ${path} answered ${status}`);
}
process.exit(0);
