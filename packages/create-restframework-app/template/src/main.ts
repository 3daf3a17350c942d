import { Database } from '@restframework/core';
import { buildApp } from './app.ts';
import { ALL_MODELS } from './models.ts';

const db = Database.connect(process.env.DATABASE_URL ?? 'sqlite:db.sqlite3');
await db.migrate(ALL_MODELS);
const app = await buildApp(db);
app.addHook('onClose', () => db.close());
// Ctrl-C: finish the requests in flight, close the database, exit.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close());

const address = await app.listen({
  host: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? 8000),
});
console.log(`Serving ${address}/api/`);
