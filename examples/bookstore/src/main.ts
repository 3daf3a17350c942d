/**
 * Starts the bookstore service: `npm start` at the repository root.
 */

import { Database } from '@restframework/core';
import Fastify from 'fastify';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 8000);
const db = Database.connect(process.env.DATABASE_URL ?? 'sqlite:bookstore.sqlite3');

const app = Fastify({ logger: { level: process.env.LOG_LEVEL ?? 'info' } });
app.get('/', async () => ({ status: 'ok', database: db.vendor }));
app.addHook('onClose', () => db.close());

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}

await app.listen({ host, port });
console.log(`Bookstore running at http://${host}:${port}/`);
