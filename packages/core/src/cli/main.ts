#!/usr/bin/env node
/**
 * The `restframework` bin: a project's command line, in the spirit of Django's `manage.py`.
 *
 *   restframework makemigrations | migrate | showmigrations | sqlmigrate
 * @module
 */
import { createInterface } from 'node:readline/promises';
import { runCli } from './run-cli.ts';

/** A yes/no question on the terminal; only when one is attached (never in CI or a pipe). */
async function ask(question: string): Promise<boolean> {
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await terminal.question(question)).trim());
  } finally {
    terminal.close();
  }
}

process.exitCode = await runCli(process.argv.slice(2), {
  cwd: process.cwd(),
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  ...(process.stdin.isTTY && process.stdout.isTTY ? { ask } : {}),
});
