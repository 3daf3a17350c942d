/**
 * What a router refuses at start-up: a view set that answers none of the routes it makes
 * (an APIView, a ViewSet without actions) fails with REST_ERR_ROUTER instead of serving 404s.
 */
import { describe, it } from 'node:test';
import {
  APIView,
  Database,
  DefaultRouter,
  Response,
  restFramework,
  ViewSet,
} from '@restframework/core';
import { assertImproperlyConfigured } from '@restframework/core/testing';
import Fastify from 'fastify';

class HealthView extends APIView {
  async get() {
    return new Response({ ok: true });
  }
}

class EmptyViewSet extends ViewSet {}

/** A view set with one action of its own: routed, so not refused. */
class OnlyListViewSet extends ViewSet {
  list() {
    return new Response([]);
  }
}

async function mount(viewset: unknown): Promise<void> {
  const db = Database.connect('sqlite::memory:');
  const app = Fastify();
  try {
    await app.register(restFramework, { database: db });
    const router = new DefaultRouter().register('things', viewset as typeof OnlyListViewSet, {
      basename: 'thing',
    });
    await app.register(router.plugin, { prefix: '/api' });
    await app.ready();
  } finally {
    await app.close();
    await db.close();
  }
}

describe('router registration', () => {
  for (const [name, viewset] of [
    ['an APIView', HealthView],
    ['a ViewSet without actions', EmptyViewSet],
  ] as const) {
    it(`refuses ${name} at start-up, saying what to do`, async () => {
      let caught: unknown;
      await mount(viewset).catch((error: unknown) => {
        caught = error;
      });
      assertImproperlyConfigured(
        () => {
          throw caught;
        },
        'REST_ERR_ROUTER',
        /has none of the actions a router routes/,
        /router\.path\(\)/,
      );
    });
  }

  it('accepts a ViewSet with one action', async () => {
    await mount(OnlyListViewSet);
  });
});
