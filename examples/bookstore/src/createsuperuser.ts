/**
 * Creates a superuser of the bookstore, for scripts: `npm run createsuperuser -- --username
 * ada --email ada@example.org` with the password in the `PASSWORD` environment variable (never
 * a flag: flags show in the process list). Uses `DATABASE_URL` as `npm start` does.
 * @module
 */
import { parseArgs } from 'node:util';
import { createSuperuser, Database, ValidationError } from '@restframework/core';
import { auth } from './auth.ts';
import { readConfig } from './config.ts';
import { ALL_MODELS, Book } from './models/index.ts';

const { values } = parseArgs({
  options: { username: { type: 'string' }, email: { type: 'string', default: '' } },
});
const password = process.env.PASSWORD;
if (!values.username || !password) {
  console.error('Usage: PASSWORD=... npm run createsuperuser -- --username NAME [--email ADDRESS]');
  process.exit(2);
}
const db = Database.connect(readConfig().databaseUrl);
try {
  await db.migrate(ALL_MODELS);
  await db.run(() => auth.createPermissions([Book]));
  await createSuperuser(db, { username: values.username, email: values.email, password }, auth);
  console.log(`Superuser ${values.username} created.`);
} catch (error) {
  if (!(error instanceof ValidationError)) throw error;
  console.error(Object.values(error.detail).flat().join('\n'));
  process.exitCode = 1;
} finally {
  await db.close();
}
