/**
 * `CACHES`: checked at registration; a Redis default cache also carries the throttle counts
 * (one `REDIS_URL` for both), so two processes of an app share one limit; a session store can
 * take the cache's client.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  AnonRateThrottle,
  APIView,
  Database,
  MemoryCache,
  MemoryThrottleStore,
  RedisCache,
  RedisSessionStore,
  RedisThrottleStore,
  Response,
  restFramework,
  type SettingsInput,
} from '@restframework/core';
import Fastify, { type FastifyInstance } from 'fastify';

const REDIS_URL = process.env.TEST_REDIS_URL;

class Hello extends APIView {
  override throttleClasses = [AnonRateThrottle];
  get() {
    return new Response({ hello: true });
  }
}

async function appWith(db: Database, settings: SettingsInput): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(restFramework, { database: db, settings });
  const { DefaultRouter } = await import('@restframework/core');
  await app.register(new DefaultRouter().path('hello/', Hello, { name: 'hello' }).plugin, {
    prefix: '/api',
  });
  await app.ready();
  return app;
}

describe('CACHES', () => {
  it('refuses a CACHES without a default or with something that is no cache', async () => {
    const db = Database.connect('sqlite::memory:');
    try {
      for (const CACHES of [{}, { other: new MemoryCache() }, { default: { get: 1 } }]) {
        await assert.rejects(
          appWith(db, { CACHES: CACHES as never }),
          (error: Error & { code?: string }) => error.code === 'REST_ERR_CACHE',
        );
      }
      const app = await appWith(db, { DEFAULT_THROTTLE_RATES: { anon: '100/min' } });
      assert.ok(app.restFramework.caches.default instanceof MemoryCache, 'a memory default');
      assert.ok(app.restFramework.settings.THROTTLE_STORE instanceof MemoryThrottleStore);
      await app.close();
    } finally {
      await db.close();
    }
  });

  it('counts throttles in the default Redis cache, shared by two apps', {
    skip: !REDIS_URL && 'TEST_REDIS_URL is not set',
  }, async () => {
    const keyPrefix = `settings-${randomUUID()}`;
    const db = Database.connect('sqlite::memory:');
    const caches = [0, 1].map(() => new RedisCache({ url: REDIS_URL, keyPrefix }));
    const apps = await Promise.all(
      caches.map((cache) =>
        appWith(db, { CACHES: { default: cache }, DEFAULT_THROTTLE_RATES: { anon: '3/min' } }),
      ),
    );
    try {
      assert.ok(apps[0]?.restFramework.settings.THROTTLE_STORE instanceof RedisThrottleStore);
      const statuses: number[] = [];
      for (const app of [...apps, ...apps]) {
        const answer = await app.inject({ url: '/api/hello/', headers: { host: 'localhost' } });
        statuses.push(answer.statusCode);
      }
      assert.deepEqual(statuses, [200, 200, 200, 429], 'one limit for both processes');
      // A session store on the same client: one connection for the three.
      const sessions = new RedisSessionStore({
        client: caches[0]?.client,
        keyPrefix: `${keyPrefix}:session:`,
      });
      await sessions.close();
      assert.equal(await caches[0]?.get('still-open', 'yes'), 'yes', 'the client stays open');
    } finally {
      for (const cache of caches) await cache.clear();
      for (const app of apps) await app.close();
      await db.close();
    }
  });
});
