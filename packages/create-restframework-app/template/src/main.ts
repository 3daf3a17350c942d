import { fileURLToPath } from 'node:url';
import { applyMigrations, Database } from '@restframework/core';
import { APP, DATABASE_URL } from '../restframework.config.ts';
import { buildApp } from './app.ts';

const db = Database.connect(DATABASE_URL);
// The committed migrations, applied before serving; when a model changes,
// `npx restframework makemigrations` writes the next one.
await applyMigrations(db, {
  folder: fileURLToPath(new URL('../migrations', import.meta.url)),
  app: APP,
});
const app = await buildApp(db);
app.addHook('onClose', () => db.close());
// Ctrl-C: finish the requests in flight, close the database, exit.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close());

const address = await app.listen({
  host: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? 8000),
});
console.log(`Serving ${address}/api/`);
