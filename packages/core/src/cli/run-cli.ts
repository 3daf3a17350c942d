/**
 * The `restframework` command line without the process: parses the arguments, runs the
 * command, turns failures into a message and an exit code (1 for a failure, 2 for a mistake
 * in the command line). Tests and the bin both call it.
 * @module
 */
import { parseArgs } from 'node:util';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { MigrationError } from '../migrations/migration-error.ts';
import { UsageError } from './command.ts';
import { COMMANDS } from './command-registry.ts';
import { findConfig, type LoadedConfig, loadConfig } from './project-config.ts';

/** Where the command line writes, and the folder it runs in. */
export interface CliIo {
  /** The folder the command line runs in. */
  readonly cwd: string;
  /** Writes a line of output. */
  out(line: string): void;
  /** Writes a line of error. */
  err(line: string): void;
  /** Asks a yes/no question (given when a terminal is attached); absent, nothing is asked. */
  readonly ask?: (question: string) => Promise<boolean>;
}

/**
 * Runs `restframework <command> ...` and resolves to the exit code.
 *
 * @example
 * ```ts
 * const code = await runCli(['showmigrations'], { cwd: process.cwd(), out: console.log, err: console.error });
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    io.out(help());
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`Unknown command "${name}".\n\n${help()}`);
    return 2;
  }
  try {
    const { values, positionals } = parseArgs({
      args: [...rest],
      options: { ...command.options, config: { type: 'string' }, help: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      io.out(`restframework ${command.usage}\n\n${command.summary}`);
      return 0;
    }
    let config: Promise<LoadedConfig> | undefined;
    return await command.run({
      positionals,
      values,
      cwd: io.cwd,
      config: () => {
        config ??= loadConfig(findConfig(io.cwd, values.config as string | undefined));
        return config;
      },
      out: io.out,
      err: io.err,
      ...(io.ask ? { ask: io.ask } : {}),
    });
  } catch (error) {
    if (
      error instanceof UsageError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      io.err(`${(error as Error).message}\nUsage: restframework ${command.usage}`);
      return 2;
    }
    if (error instanceof MigrationError || error instanceof ImproperlyConfigured) {
      io.err(`${error.code}: ${error.message}`);
      return 1;
    }
    // A failure nobody foresaw (the database unreachable, say): the message, and the stack
    // when RESTFRAMEWORK_DEBUG is set.
    const shown = process.env.RESTFRAMEWORK_DEBUG
      ? (error as Error)?.stack
      : (error as Error)?.message;
    io.err(`restframework ${name} failed: ${shown ?? String(error)}`);
    return 1;
  }
}

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: restframework <command> [options] [--config FILE]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'The project is described by restframework.config.ts (or .mts, .js, .mjs), found in the',
    "current folder or above it. `restframework <command> --help` shows a command's options.",
  ].join('\n');
}
