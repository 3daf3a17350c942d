/**
 * Starts the bookstore service: `npm start` at the repository root. Creates the database
 * (MySQL/MariaDB, when missing), applies the pending migrations (`migrations/`), seeds an
 * empty database, listens, and shuts down gracefully on SIGINT/SIGTERM.
 * @module
 */
import { fileURLToPath } from 'node:url';
import { applyMigrations, Database } from '@restframework/core';
import { buildApp } from './app.ts';
import { auth } from './auth.ts';
import { readConfig } from './config.ts';
import { createDatabaseIfMissing } from './create-database.ts';
import { Book } from './models/index.ts';
import { seed } from './seed.ts';

const config = readConfig();
if (await createDatabaseIfMissing(config.databaseUrl))
  console.log('Created the database DATABASE_URL names.');
const db = Database.connect(config.databaseUrl);
// A database made before the bookstore had migrations (by db.migrate) is adopted: its tables
// are there, so the initial migration is recorded without running.
await applyMigrations(db, {
  folder: fileURLToPath(new URL('../migrations', import.meta.url)),
  app: 'books',
  fakeInitial: true,
  log: (line) => {
    if (!line.endsWith('...')) console.log(line.trim());
  },
});
const seeded = await seed(db);
// The add/change/delete/view permissions of books, for the management routes.
await db.run(() => auth.createPermissions([Book]));
if (seeded.books)
  console.log(`Seeded ${seeded.books} books, ${seeded.authors} authors, ${seeded.users} users.`);

const app = await buildApp({
  database: db,
  mediaRoot: config.mediaRoot,
  ...(config.allowedHosts ? { allowedHosts: config.allowedHosts } : {}),
  logger: { level: process.env.LOG_LEVEL ?? 'warn' },
  ...(config.redisUrl ? { redis: { url: config.redisUrl, keyPrefix: config.redisKeyPrefix } } : {}),
});
app.addHook('onClose', () => db.close());

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    // Stop accepting, finish the requests in flight, then close the database.
    void app.close().then(
      () => {
        console.log('Bookstore stopped.');
        process.exit(0);
      },
      () => process.exit(1),
    );
  });
}

await app.listen({ host: config.host, port: config.port });
const shown = config.host.includes(':') ? `[${config.host}]` : config.host;
console.log(
  `Bookstore running at http://${shown}:${config.port}/books/api/ and http://${shown}:${config.port}/api/`,
);
