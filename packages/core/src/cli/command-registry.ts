/**
 * The commands of the `restframework` command line, by name.
 * @module
 */
import type { Command } from './command.ts';
import { changepassword } from './commands/changepassword.ts';
import { createsuperuser } from './commands/createsuperuser.ts';
import { makemigrations } from './commands/makemigrations.ts';
import { migrate } from './commands/migrate.ts';
import { serve } from './commands/serve.ts';
import { showmigrations } from './commands/showmigrations.ts';
import { sqlmigrate } from './commands/sqlmigrate.ts';

/** Every command; a new one is one more entry. */
export const COMMANDS: readonly Command[] = [
  makemigrations,
  migrate,
  showmigrations,
  sqlmigrate,
  createsuperuser,
  changepassword,
  serve,
];
