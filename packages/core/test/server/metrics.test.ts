/**
 * The metrics plugin: requests counted by route pattern (never the raw URL) and status, with
 * durations; statements by kind; throttle decisions; per-view cache hits and misses.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AnonRateThrottle,
  cachePage,
  Database,
  DefaultRouter,
  MemoryCache,
  metrics,
  restFramework,
} from '@restframework/core';
import Fastify from 'fastify';
import { Registry } from 'prom-client';
import { STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet, seedBooks } from '../fixtures/store-views.ts';

class CachedThrottled extends BookViewSet {
  static override cachePolicy = cachePage(30);
  override throttleClasses = [AnonRateThrottle];
}

/** The value of a sample line (`name{labels} value`), or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inner = line.slice(name.length + 1, line.lastIndexOf('}'));
    const found = Object.fromEntries(
      [...inner.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('metrics', () => {
  it('counts requests by route pattern, statements, throttle decisions and cache hits', async () => {
    const db = Database.connect('sqlite::memory:');
    await db.migrate(STORE_MODELS);
    await seedBooks(db, 2);
    const registry = new Registry();
    const app = Fastify();
    await app.register(restFramework, {
      database: db,
      settings: {
        CACHES: { default: new MemoryCache() },
        DEFAULT_THROTTLE_RATES: { anon: '3/min' },
      },
    });
    await app.register(metrics, { registry, metricPrefix: 'shop_', defaultMetrics: false });
    await app.register(
      new DefaultRouter().register('books', CachedThrottled, { basename: 'book' }).plugin,
      {
        prefix: '/api',
      },
    );
    const headers = { host: 'localhost', accept: 'application/json' };
    try {
      for (const id of [1, 2, 1]) await app.inject({ url: `/api/books/${id}/`, headers });
      const throttled = await app.inject({ url: '/api/books/1/', headers });
      assert.equal(throttled.statusCode, 429);
      await app.inject({ url: '/no/such/route', headers });

      const scraped = await app.inject({ url: '/metrics', headers });
      assert.equal(scraped.statusCode, 200);
      assert.match(String(scraped.headers['content-type']), /^text\/plain/);
      const text = scraped.body;
      const route = '/api/books/:pk/';
      assert.equal(
        sample(text, 'shop_http_requests_total', { method: 'GET', route, status: '200' }),
        3,
      );
      assert.equal(
        sample(text, 'shop_http_requests_total', { method: 'GET', route, status: '429' }),
        1,
      );
      assert.equal(
        sample(text, 'shop_http_requests_total', { route: 'unmatched', status: '404' }),
        1,
      );
      assert.doesNotMatch(text, /route="\/api\/books\/1\/"/, 'never the raw URL');
      assert.equal(
        sample(text, 'shop_http_request_duration_seconds_count', { route, status: '200' }),
        3,
      );
      assert.equal(
        sample(text, 'shop_throttle_decisions_total', { scope: 'anon', decision: 'allowed' }),
        3,
      );
      assert.equal(
        sample(text, 'shop_throttle_decisions_total', { scope: 'anon', decision: 'refused' }),
        1,
      );
      assert.equal(
        sample(text, 'shop_cache_requests_total', { cache: 'default', result: 'miss' }),
        2,
      );
      assert.equal(
        sample(text, 'shop_cache_requests_total', { cache: 'default', result: 'hit' }),
        1,
      );
      assert.ok(
        (sample(text, 'shop_db_statement_duration_seconds_count', {
          kind: 'select',
          outcome: 'ok',
        }) ?? 0) >= 2,
      );
    } finally {
      await app.close();
      await db.close();
    }
  });
});
