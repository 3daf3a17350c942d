import { defineConfig } from '@restframework/core';
import { ALL_MODELS } from './src/models.ts';

/** The app's label in the migrations table, and `migrate <app>`'s name. */
export const APP = 'tasks';
/** `sqlite:FILE` (the default), `postgres://...` or `mysql://...`. */
export const DATABASE_URL = process.env.DATABASE_URL ?? 'sqlite:db.sqlite3';

/** What `npx restframework makemigrations`, `migrate` and `showmigrations` work on. */
export default defineConfig({
  app: APP,
  models: ALL_MODELS,
  databaseUrl: DATABASE_URL,
  migrations: 'migrations',
});
