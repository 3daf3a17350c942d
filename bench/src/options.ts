/**
 * Command-line options of `npm run bench` and `npm run bench:scale`.
 * @module
 */
import { parseArgs } from 'node:util';

export interface BenchOptions {
  readonly scenarios: readonly string[] | null;
  readonly duration: number;
  readonly warmup: number;
  readonly rounds: number;
  readonly connections: number;
  /** `sqlite`, or a `postgres://` or `mysql://` URL. */
  readonly database: string;
  /** Row counts of the scale run. */
  readonly sizes: readonly number[];
  /** Write the table into bench/RESULTS.md. */
  readonly writeResults: boolean;
  /** Write every figure as JSON to this file. */
  readonly json: string | null;
  /** Run the servers with --cpu-prof into this folder. */
  readonly profile: string | null;
  /** A `bench:instructions --json` file: its ratios become a column of the table. */
  readonly instructions: string | null;
  /** Load the floor too (Fastify answering recorded bytes); `--no-floor` leaves it out. */
  readonly floor: boolean;
}

const HELP = `Options:
  --scenarios a,b,...   scenarios to run (default: all); ids: list, filtered, cursor, detail, options,
                        profile, proxy-books, create, patch (scale: cursor, list, list-middle, profile)
  --duration S          seconds measured per scenario and round (default 10; scale 5)
  --warmup S            seconds of warm-up before each measured run (default 3; scale 2)
  --rounds N            rounds, each running toolkit then baseline (default 2; scale 1)
  --connections N       concurrent connections (default 32)
  --database D          sqlite (default), postgres://user@host:port/name or
                        mysql://user@host:port/name (MariaDB too)
                        (default: DATABASE_URL when it is such a URL)
  --sizes a,b,...       scale run: row counts (default 1000,100000,1000000)
  --write-results       write the table into bench/RESULTS.md (its own section)
  --json FILE           write every figure as JSON
  --profile DIR         run the servers with --cpu-prof, profiles into DIR
  --no-floor            do not load the floor (Fastify answering the baseline's recorded
                        bytes, which shows each contender's cost above what Fastify costs)
  --instructions FILE   add the instruction ratio of each row from FILE, written by
                        \`npm run bench:instructions -- --scenarios ... --json FILE\`
  --help                this text`;

/** The number given to `--name`, or `fallback` when none was; throws unless it is positive. */
export function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
  return n;
}

/** Parses `argv`; prints the help and exits on --help. */
export function parseOptions(
  argv: readonly string[],
  defaults: { duration: number; warmup: number; rounds: number },
): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      scenarios: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
      database: { type: 'string' },
      sizes: { type: 'string' },
      'write-results': { type: 'boolean' },
      json: { type: 'string' },
      profile: { type: 'string' },
      instructions: { type: 'string' },
      'no-floor': { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const database = databaseOption(values.database);
  return {
    scenarios: values.scenarios
      ? values.scenarios
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : null,
    duration: positive('duration', values.duration, defaults.duration),
    warmup: values.warmup === '0' ? 0 : positive('warmup', values.warmup, defaults.warmup),
    rounds: Math.round(positive('rounds', values.rounds, defaults.rounds)),
    connections: Math.round(positive('connections', values.connections, 32)),
    database,
    sizes: values.sizes
      ? values.sizes.split(',').map((s) => Math.round(positive('sizes', s.trim(), 0)))
      : [1000, 100_000, 1_000_000],
    writeResults: values['write-results'] ?? false,
    json: values.json ?? null,
    profile: values.profile ?? null,
    instructions: values.instructions ?? null,
    floor: !values['no-floor'],
  };
}

const SERVER_URL = /^(postgres(ql)?|mysql|mariadb):\/\//;

/**
 * The `--database` option: `sqlite`, a `postgres://` or `mysql://` URL, or (when the option is
 * absent) `DATABASE_URL` if it is such a URL, else `sqlite`.
 */
export function databaseOption(value: string | undefined): string {
  const envUrl = process.env.DATABASE_URL ?? '';
  const database = value ?? (SERVER_URL.test(envUrl) ? envUrl : 'sqlite');
  if (database !== 'sqlite' && !SERVER_URL.test(database))
    throw new Error('--database must be sqlite, a postgres:// or a mysql:// URL');
  return database;
}
