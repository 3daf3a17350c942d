/**
 * HAProxy (Debian's package) in front of the workers, run in the foreground by the scale-out
 * test: round robin, a health check on `/readyz` every 300 ms (a worker out after 2 failures,
 * back after 1 success), and a request whose connection to a worker fails or gets no answer
 * sent again to another worker (`retry-on`, `redispatch`), as a production balancer is set.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Why HAProxy cannot run here, or false. */
export function haproxySkipReason(): string | false {
  const found = spawnSync('haproxy', ['-v'], { encoding: 'utf8' });
  return found.status === 0
    ? false
    : 'haproxy is not installed (Debian: apt-get install haproxy): scale-out test skipped';
}

/** The configuration for `workers` (name → port), listening on `port`. */
export function haproxyConfig(port: number, workers: ReadonlyMap<string, number>, dir: string) {
  const servers = [...workers].map(
    ([name, workerPort]) => `  server ${name} 127.0.0.1:${workerPort} check`,
  );
  return [
    'global',
    '  maxconn 4096',
    // Server state changes (UP, DOWN and why) and failed requests (dontlog-normal).
    '  log stderr format short local0 info',
    `  stats socket ${join(dir, 'haproxy.sock')} mode 600 level admin`,
    'defaults',
    '  mode http',
    '  log global',
    '  option httplog',
    '  option dontlog-normal',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout queue 60s',
    // A request is sent again, to another worker, when its connection failed, the worker
    // closed it without answering (a worker stopping or killed) or answered 503: Fastify
    // answers 503 to a request that arrives on a connection it accepted once it is closing
    // (its return503OnClosing), before any view runs.
    '  retries 5',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response 503',
    '  option http-buffer-request',
    // One connection per request to the workers: a stopping worker closes no kept-alive
    // connection under a request HAProxy is sending.
    '  option http-server-close',
    'frontend web',
    `  bind 127.0.0.1:${port}`,
    '  default_backend workers',
    'backend workers',
    '  balance roundrobin',
    '  option httpchk',
    '  http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host 127.0.0.1',
    '  http-check expect status 200',
    // Fewer requests at a worker than its pool has connections: the rest wait in HAProxy's
    // queue, not for a pool connection in the worker, where /readyz would wait behind them.
    '  timeout check 3s',
    // A connection a worker refuses takes it out at once (not at the next checks): the retry
    // of that request, and the requests queued for it, go to the other workers.
    '  default-server inter 300ms fall 3 rise 1 maxconn 4 observe layer4 error-limit 1 on-error mark-down',
    ...servers,
    '',
  ].join('\n');
}

/** Starts HAProxy on `port`; its output goes to `log`. */
export function startHaproxy(
  port: number,
  workers: ReadonlyMap<string, number>,
  dir: string,
  log: (chunk: string) => void,
): ChildProcess {
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, haproxyConfig(port, workers, dir));
  const child = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk) => log(String(chunk)));
  child.stderr?.on('data', (chunk) => log(String(chunk)));
  return child;
}
