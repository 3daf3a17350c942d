/**
 * The contenders as child processes: each server runs alone in its own Node.js process
 * (NODE_ENV=production), so its memory is its own and nothing of the harness runs in it.
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The toolkit, the hand-written baseline, and the floor (`floor/app.ts`: Fastify answering
 * recorded bytes, the cost no contender can go under).
 */
export type ContenderName = 'toolkit' | 'baseline' | 'floor';

const SCRIPTS: Record<ContenderName, string> = {
  toolkit: join(import.meta.dirname, 'servers', 'toolkit-server.ts'),
  baseline: join(import.meta.dirname, '..', 'baseline', 'server.ts'),
  floor: join(import.meta.dirname, '..', 'floor', 'server.ts'),
};

/** A running server. */
export interface RunningServer {
  readonly name: ContenderName;
  readonly pid: number;
  readonly port: number;
  readonly origin: string;
  /** SIGTERM, then SIGKILL after 5 s; resolves when the process is gone. */
  stop(): Promise<void>;
}

export interface StartOptions {
  readonly databaseUrl: string;
  /** Extra Node.js options (`--cpu-prof`, ...). */
  readonly nodeOptions?: readonly string[];
  /** Another copy of the contender's server script (another checkout's, to compare builds). */
  readonly script?: string;
  /** More environment variables for the server (the floor's recorded answers). */
  readonly env?: Readonly<Record<string, string>>;
}

/** Starts a contender and waits for its `READY <port>` line (30 s at most). */
export function startServer(name: ContenderName, options: StartOptions): Promise<RunningServer> {
  const child: ChildProcess = spawn(
    process.execPath,
    [...(options.nodeOptions ?? []), options.script ?? SCRIPTS[name]],
    {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        BENCH_DATABASE_URL: options.databaseUrl,
        PORT: '0',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within 30 s`));
    }, 30_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited before it was ready (${code ?? signal})`));
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /READY (\d+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.removeAllListeners('data');
      child.stdout?.resume();
      const port = Number(match[1]);
      resolve({
        name,
        pid: child.pid as number,
        port,
        origin: `http://127.0.0.1:${port}`,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
          child.kill('SIGTERM');
          await exited;
          clearTimeout(kill);
        },
      });
    });
  });
}

/** CPU time (user + system) a process has used so far, in ms (from /proc/<pid>/stat). */
export function cpuTimeOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** USER_HZ: 100 on Linux for every architecture Node.js runs on. */
const CLOCK_TICKS = 100;

/** VmRSS and VmHWM of a process, in bytes (0 when it is gone). */
export function memoryOf(pid: number): { rss: number; hwm: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) =>
      Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}
