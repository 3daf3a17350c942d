/**
 * The bookstore under `serve` with `WORKERS` worker processes on `PORT`, on the database of
 * `DATABASE_URL`: what `bench/src/workers.ts` starts. `cluster` runs this file again in each
 * worker, which builds the app there.
 * @module
 */
import { Database, serve } from '@restframework/core';
import { buildApp } from '../../../examples/bookstore/src/app.ts';

await serve({
  createApp: () => buildApp({ database: Database.connect(process.env.DATABASE_URL as string) }),
  workers: Number(process.env.WORKERS),
  port: Number(process.env.PORT),
  log: () => {},
});
