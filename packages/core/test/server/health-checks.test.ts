/**
 * The probes: /healthz answers while the process runs, /readyz names each check and answers
 * 503 when one fails or times out; neither runs the app's authentication or throttles.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AnonRateThrottle,
  Database,
  healthChecks,
  IsAuthenticated,
  MemoryCache,
  RedisCache,
  restFramework,
} from '@restframework/core';
import { assertImproperlyConfigured } from '@restframework/core/testing';
import Fastify, { type FastifyInstance } from 'fastify';

const HOST = { host: '127.0.0.1' };

async function appWith(
  db: Database,
  options: Parameters<typeof healthChecks>[1] = {},
  caches?: Record<string, MemoryCache | RedisCache>,
): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(restFramework, {
    database: db,
    settings: {
      DEFAULT_PERMISSION_CLASSES: [IsAuthenticated],
      DEFAULT_THROTTLE_CLASSES: [AnonRateThrottle],
      DEFAULT_THROTTLE_RATES: { anon: '1/min' },
      ...(caches ? { CACHES: caches } : {}),
    },
  });
  await app.register(healthChecks, options);
  await app.ready();
  return app;
}

describe('healthChecks', () => {
  it('answers alive and ready, unauthenticated and unthrottled, never cached', async () => {
    const db = Database.connect('sqlite::memory:');
    const app = await appWith(db);
    try {
      for (let i = 0; i < 3; i++) {
        const live = await app.inject({ url: '/healthz', headers: HOST });
        assert.equal(live.statusCode, 200);
        assert.deepEqual(live.json(), { status: 'alive' });
        const ready = await app.inject({ url: '/readyz', headers: HOST });
        assert.equal(ready.statusCode, 200);
        assert.deepEqual(ready.json(), { status: 'ready', checks: { database: 'ok' } });
        assert.equal(ready.headers['cache-control'], 'no-store');
        assert.ok(ready.headers['x-request-id'], 'the request id is sent back');
      }
    } finally {
      await app.close();
      await db.close();
    }
  });

  it('answers 503 naming what failed: an unreachable database, a failing or slow check', async () => {
    // Nothing listens on port 1: the connection is refused at once.
    const db = Database.connect('postgres://nobody@127.0.0.1:1/none', { connectionTimeoutMs: 200 });
    const app = await appWith(db, {
      timeoutMs: 100,
      checks: {
        search: () => Promise.reject(new Error('secret-host:9200 refused')),
        slow: () => new Promise((resolve) => setTimeout(resolve, 1000)),
        fine: async () => {},
      },
    });
    try {
      const ready = await app.inject({ url: '/readyz', headers: HOST });
      assert.equal(ready.statusCode, 503);
      assert.deepEqual(ready.json(), {
        status: 'unavailable',
        checks: { database: 'failed', search: 'failed', slow: 'timeout', fine: 'ok' },
        failed: ['database', 'search', 'slow'],
      });
      assert.doesNotMatch(ready.body, /secret-host|nobody/, 'no driver message in the body');
    } finally {
      await app.close();
      await db.close();
    }
  });

  it('pings the caches that can be pinged: an unreachable Redis is not ready', async () => {
    const db = Database.connect('sqlite::memory:');
    // Nothing listens on port 1: every command fails at once.
    const redis = new RedisCache({ url: 'redis://127.0.0.1:1', timeoutMs: 50 });
    const app = await appWith(
      db,
      { timeoutMs: 500 },
      { default: new MemoryCache(), sessions: redis },
    );
    try {
      const ready = await app.inject({ url: '/readyz', headers: HOST });
      assert.equal(ready.statusCode, 503);
      assert.deepEqual(ready.json().failed, ['cache:sessions']);
      assert.equal(ready.json().checks.database, 'ok');
    } finally {
      await app.close();
      await db.close();
    }
  });

  it('refuses a check that is not a function and a timeout that is not whole', async () => {
    const db = Database.connect('sqlite::memory:');
    try {
      await assert.rejects(
        appWith(db, { checks: { bad: 'yes' as never } }),
        (e: Error & { code?: string }) => e.code === 'REST_ERR_SERVE' && /"bad"/.test(e.message),
      );
      await assert.rejects(
        appWith(db, { timeoutMs: 0.5 }),
        (e: Error & { code?: string }) => e.code === 'REST_ERR_SERVE',
      );
    } finally {
      await db.close();
    }
    assertImproperlyConfigured(
      () => new RedisCache({ url: 'redis://x', client: {} }),
      'REST_ERR_CACHE',
    );
  });
});
