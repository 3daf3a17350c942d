/**
 * The bookstore's project configuration for the `restframework` command line
 * (`npx restframework makemigrations`, `migrate`, `showmigrations`, `sqlmigrate books NAME`,
 * `createsuperuser`, `changepassword NAME`), and `npx restframework serve`, which runs the
 * worker of `src/production.ts` (see docs/deploying.md).
 * @module
 */
import { defineConfig } from '@restframework/core';
import { auth } from './src/auth.ts';
import { readConfig } from './src/config.ts';
import { ALL_MODELS } from './src/models/index.ts';

export default defineConfig({
  app: 'books',
  models: ALL_MODELS,
  databaseUrl: readConfig().databaseUrl,
  migrations: 'migrations',
  // The users of `createsuperuser` and `changepassword`.
  auth,
  // `restframework serve`: each worker builds the production app (replicas, Redis, S3) from
  // the environment; loaded only then, so the other commands need none of it.
  createApp: async () => (await import('./src/production.ts')).createProductionApp(),
});
