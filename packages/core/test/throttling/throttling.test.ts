/**
 * Throttling: DRF's rate syntax (and a malformed or missing rate failing at start-up), the
 * three throttles through `inject()` (429 with DRF's detail and `Retry-After`), the in-process
 * store, and the Redis store: shared by two server processes under concurrent load (when
 * TEST_REDIS_URL is set), and unreachable (503, or pass with one warning that holds no secret).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  AnonRateThrottle,
  BaseAuthentication,
  Database,
  DefaultRouter,
  ImproperlyConfigured,
  MemoryThrottleStore,
  parseRate,
  RedisThrottleStore,
  type Request,
  type RequestUser,
  Response,
  resolveSettings,
  restFramework,
  ScopedRateThrottle,
  type SettingsInput,
  UserRateThrottle,
  ViewSet,
} from '@restframework/core';
import fc from 'fast-check';
import Fastify, { type FastifyInstance } from 'fastify';

/** `X-User: <id>` logs in as that user (a test scheme). */
class HeaderAuthentication extends BaseAuthentication {
  override async authenticate(request: Request): Promise<readonly [RequestUser, unknown] | null> {
    const id = request.raw.headers['x-user'];
    return typeof id === 'string' ? [{ isAuthenticated: true, id }, null] : null;
  }
}

class PingViewSet extends ViewSet {
  override authenticationClasses = [HeaderAuthentication];
  list() {
    return new Response({ ok: true });
  }
}

class AnonViewSet extends PingViewSet {
  override throttleClasses = [AnonRateThrottle];
}
class UserViewSet extends PingViewSet {
  override throttleClasses = [UserRateThrottle];
}
class ScopedViewSet extends PingViewSet {
  override throttleClasses = [ScopedRateThrottle];
  override throttleScope = 'uploads';
}
class UnscopedViewSet extends PingViewSet {
  override throttleClasses = [ScopedRateThrottle];
}

async function appWith(
  settings: SettingsInput,
  viewsets: Record<string, typeof PingViewSet>,
  logger: unknown = false,
): Promise<FastifyInstance> {
  const app = Fastify({ logger: logger as false });
  await app.register(restFramework, { database: Database.connect('sqlite::memory:'), settings });
  const router = new DefaultRouter();
  for (const [prefix, viewset] of Object.entries(viewsets))
    router.register(prefix, viewset, { basename: prefix });
  await app.register(router.plugin, { prefix: '/api' });
  await app.ready();
  return app;
}

const get = (app: FastifyInstance, url: string, headers: Record<string, string> = {}) =>
  app.inject({ url, headers: { accept: 'application/json', ...headers } });

describe('rates', () => {
  it('reads DRF rate syntax', () => {
    const table: [string, number, number][] = [
      ['100/min', 100, 60],
      ['5/second', 5, 1],
      ['5/s', 5, 1],
      ['1/hour', 1, 3600],
      ['1000/day', 1000, 86400],
      ['3/d', 3, 86400],
      ['10/minute', 10, 60],
    ];
    for (const [text, requests, seconds] of table)
      assert.deepEqual(parseRate(text), { requests, seconds }, text);
  });

  it('refuses anything else with REST_ERR_THROTTLE_RATE', () => {
    const valid = /^\s*\d{1,9}\s*\/\s*(s|sec|seconds?|m|min|minutes?|h|hours?|d|days?)\s*$/i;
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (text) => {
        fc.pre(!valid.test(text));
        assert.throws(() => parseRate(text), { code: 'REST_ERR_THROTTLE_RATE' });
      }),
    );
    for (const text of ['0/min', '100/mango', '100', '/min', '-1/s', '1.5/s', 'ten/min'])
      assert.throws(() => parseRate(text), ImproperlyConfigured, text);
  });

  it('fails at start-up on a malformed rate in the settings or a scope without a rate', async () => {
    assert.throws(
      () => resolveSettings({ DEFAULT_THROTTLE_RATES: { anon: '100/fortnight' } }),
      /DEFAULT_THROTTLE_RATES\.anon: "100\/fortnight" is not a rate/,
    );
    await assert.rejects(
      appWith({ DEFAULT_THROTTLE_RATES: {} }, { ping: AnonViewSet }),
      /AnonRateThrottle: no rate for the scope "anon"/,
    );
    await assert.rejects(
      appWith({ DEFAULT_THROTTLE_RATES: { anon: null } }, { ping: ScopedViewSet }),
      /no rate for the scope "uploads"/,
    );
  });
});

describe('throttles through inject()', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await appWith(
      { DEFAULT_THROTTLE_RATES: { anon: '3/min', user: '2/min', uploads: '1/hour' } },
      { anon: AnonViewSet, user: UserViewSet, scoped: ScopedViewSet, unscoped: UnscopedViewSet },
    );
  });
  after(() => app.close());

  it('AnonRateThrottle: 429 with Retry-After past the rate; logged-in callers pass', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await get(app, '/api/anon/')).statusCode, 200);
    const refused = await get(app, '/api/anon/');
    assert.equal(refused.statusCode, 429);
    const wait = Number(refused.headers['retry-after']);
    assert.ok(wait >= 59 && wait <= 60, `Retry-After ${wait}`);
    assert.deepEqual(refused.json(), {
      detail: `Request was throttled. Expected available in ${wait} seconds.`,
    });
    for (let i = 0; i < 5; i++)
      assert.equal((await get(app, '/api/anon/', { 'x-user': '1' })).statusCode, 200);
  });

  it('UserRateThrottle: counts each user apart', async () => {
    for (const user of ['7', '8']) {
      for (let i = 0; i < 2; i++)
        assert.equal((await get(app, '/api/user/', { 'x-user': user })).statusCode, 200);
      assert.equal((await get(app, '/api/user/', { 'x-user': user })).statusCode, 429);
    }
  });

  it("ScopedRateThrottle: the view's scope; views without one are not throttled", async () => {
    assert.equal((await get(app, '/api/scoped/')).statusCode, 200);
    const refused = await get(app, '/api/scoped/');
    assert.equal(refused.statusCode, 429);
    assert.ok(Number(refused.headers['retry-after']) > 3500);
    for (let i = 0; i < 5; i++) assert.equal((await get(app, '/api/unscoped/')).statusCode, 200);
  });
});

describe('MemoryThrottleStore', () => {
  it('keeps a sliding window and forgets expired keys past maxKeys', async () => {
    const store = new MemoryThrottleStore({ maxKeys: 2 });
    assert.equal(store.hit('a', 1, 20).allowed, true);
    const refused = store.hit('a', 1, 20);
    assert.equal(refused.allowed, false);
    assert.ok(refused.waitMs > 0 && refused.waitMs <= 20);
    await new Promise((resolve) => setTimeout(resolve, 25));
    assert.equal(store.hit('a', 1, 20).allowed, true);
    for (const key of ['b', 'c', 'd', 'e']) assert.equal(store.hit(key, 1, 1000).allowed, true);
  });
});

describe('RedisThrottleStore, Redis unreachable', () => {
  const url = 'redis://:hunter2-secret@127.0.0.1:1';

  it("'refuse' answers 503 with Retry-After, never 500", async () => {
    const store = new RedisThrottleStore({ url, timeoutMs: 200 });
    const app = await appWith(
      { THROTTLE_STORE: store, DEFAULT_THROTTLE_RATES: { anon: '5/min' } },
      { anon: AnonViewSet },
    );
    try {
      const response = await get(app, '/api/anon/');
      assert.equal(response.statusCode, 503);
      assert.equal(response.headers['retry-after'], '1');
    } finally {
      await app.close();
    }
  });

  it("'allow' lets requests pass and warns once per interval, without the URL", async () => {
    const lines: string[] = [];
    const logger = { level: 'warn', stream: { write: (line: string) => lines.push(line) } };
    const store = new RedisThrottleStore({ url, timeoutMs: 200, whenUnavailable: 'allow' });
    const app = await appWith(
      { THROTTLE_STORE: store, DEFAULT_THROTTLE_RATES: { anon: '1/min' } },
      { anon: AnonViewSet },
      logger,
    );
    try {
      for (let i = 0; i < 3; i++) assert.equal((await get(app, '/api/anon/')).statusCode, 200);
      const warnings = lines.filter((line) => line.includes('throttle store unavailable'));
      assert.equal(warnings.length, 1);
      assert.ok(!lines.join('').includes('hunter2'), 'the password was logged');
    } finally {
      await app.close();
    }
  });

  it('refuses a wrong whenUnavailable, and both or neither of url and client', () => {
    assert.throws(() => new RedisThrottleStore({ url, whenUnavailable: 'maybe' as 'allow' }), {
      code: 'REST_ERR_THROTTLE_STORE',
    });
    assert.throws(() => new RedisThrottleStore({}), { code: 'REST_ERR_THROTTLE_STORE' });
  });
});

const REDIS = process.env.TEST_REDIS_URL;

describe('RedisThrottleStore shared by two processes', {
  skip: !REDIS && 'TEST_REDIS_URL is not set',
}, () => {
  const servers: ChildProcess[] = [];
  const ports: number[] = [];
  const prefix = `test-${randomUUID()}:`;
  const RATE = 25;

  before(async () => {
    const script = fileURLToPath(new URL('../fixtures/throttled-server.ts', import.meta.url));
    for (let i = 0; i < 2; i++) {
      const child = spawn(
        process.execPath,
        ['--conditions=@restframework/source', script, REDIS as string, prefix, `${RATE}/min`],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      servers.push(child);
      const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
      ports.push(Number(chunk.toString().trim()));
    }
  });
  after(() => {
    for (const child of servers) child.kill();
  });

  it('admits exactly the rate in total under concurrent load', async () => {
    const TOTAL = 120;
    const statuses = await Promise.all(
      Array.from({ length: TOTAL }, (_, i) =>
        fetch(`http://127.0.0.1:${ports[i % 2]}/api/ping/`).then(async (response) => {
          await response.arrayBuffer();
          return response.status;
        }),
      ),
    );
    const admitted = statuses.filter((status) => status === 200).length;
    const refused = statuses.filter((status) => status === 429).length;
    assert.equal(admitted, RATE);
    assert.equal(refused, TOTAL - RATE);
  });
});
