#!/usr/bin/env node
/**
 * The `restframework` bin: a project's command line, in the spirit of Django's `manage.py`.
 *
 *   restframework makemigrations | migrate | showmigrations | sqlmigrate
 * @module
 */
import { runCli } from './run-cli.ts';

process.exitCode = await runCli(process.argv.slice(2), {
  cwd: process.cwd(),
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
