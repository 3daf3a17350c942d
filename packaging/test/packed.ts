/**
 * Helpers of the packaging tests: pack the packages as `npm pack` would for a release, and run
 * commands in a consumer's folder as a consumer would (plain Node, none of this repository's
 * settings).
 * @module
 */
import { type SpawnOptions, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

/** The packages a consumer installs. */
export const PACKAGES = ['core', 'tricks', 'create-restframework-app'] as const;
export type PackageName = (typeof PACKAGES)[number];

/** One packed package: its tarball and the files `npm pack` put in it. */
export interface Tarball {
  readonly path: string;
  readonly files: readonly string[];
}

/**
 * The environment of a consumer's commands: this repository's export condition and every
 * `npm_*` setting of the `npm test` that runs us are left out, and `node` is the Node.js that
 * runs this test (CI runs the tests on Node 24 and on the oldest supported line).
 */
export function consumerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // NODE_TEST_CONTEXT would make a consumer's `node --test` report to our runner instead.
    if (key === 'NODE_OPTIONS' || key === 'NODE_TEST_CONTEXT') continue;
    if (key.toLowerCase().startsWith('npm_')) continue;
    env[key] = value;
  }
  env.PATH = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`;
  return { ...env, ...extra };
}

/** `npm pack` of each package into `destination` (each package's `prepack` builds it). */
export function packAll(destination: string): Record<PackageName, Tarball> {
  mkdirSync(destination, { recursive: true });
  const packed = {} as Record<PackageName, Tarball>;
  for (const name of PACKAGES) {
    const result = run('npm', ['pack', '--json', '--pack-destination', destination], {
      cwd: join(ROOT, 'packages', name),
    });
    const [info] = JSON.parse(result.stdout.slice(result.stdout.indexOf('['))) as {
      filename: string;
      files: { path: string }[];
    }[];
    if (!info) throw new Error(`npm pack printed no JSON for ${name}`);
    packed[name] = {
      path: join(destination, info.filename),
      files: info.files.map((file) => file.path).sort(),
    };
  }
  return packed;
}

/** The version of a package this repository installed (the consumer asks for the same). */
export function repoVersion(name: string): string {
  const manifest = join(ROOT, 'node_modules', name, 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** Runs a command to its end; throws with its output when it fails. */
export function run(
  command: string,
  args: readonly string[],
  options: SpawnOptions & { cwd: string },
): { stdout: string; stderr: string } {
  const result = spawnSync(command, args, {
    env: consumerEnv(),
    encoding: 'utf8',
    // A bound on a hung install, not a measure of speed.
    timeout: 10 * 60_000,
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} (in ${options.cwd}) exited ${result.status ?? result.signal}\n` +
        `${result.stdout}\n${result.stderr}`,
    );
  }
  return { stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** `npm install` in a consumer's folder, from npm's cache when it has the versions. */
export function npmInstall(cwd: string, specs: readonly string[]): void {
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...specs], { cwd });
}

/** A server started in the background, once it printed the line `ready` matches. */
export interface Started {
  readonly match: RegExpExecArray;
  stop(): Promise<void>;
}

/** Starts `command` and waits for a line of its output that matches `ready`. */
export function startServer(
  command: string,
  args: readonly string[],
  cwd: string,
  ready: RegExp,
  env: Record<string, string> = {},
): Promise<Started> {
  const child = spawn(command, args, {
    cwd,
    env: consumerEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      // The whole group: `npm start` runs node as a child of its own.
      process.kill(-(child.pid as number), 'SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = ready.exec(output);
      if (match) {
        child.stdout?.off('data', onData);
        resolve({ match, stop });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`${command} ${args.join(' ')} exited ${code ?? signal}:\n${output}`)),
    );
  });
}
