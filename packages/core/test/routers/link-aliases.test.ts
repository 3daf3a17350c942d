/**
 * Links of records under the router they were listed by: a view set registered in a second
 * router (itself or a subclass, under another basename) reverses the first router's route
 * names to its own routes, as DRF's namespaced URLs keep links in the namespace they were
 * listed by; routes of the same router are left as they are.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  Database,
  DefaultRouter,
  type Request,
  Response,
  restFramework,
  ViewSet,
} from '@restframework/core';
import fc from 'fast-check';
import Fastify, { type FastifyInstance } from 'fastify';

class ThingViewSet extends ViewSet {
  list(request: Request) {
    return new Response({
      list: request.reverse('thing-list'),
      detail: request.reverse('thing-detail', { pk: String(request.queryParam('pk') ?? '7') }),
      other: request.reverse('gadget-list'),
    });
  }
  retrieve(request: Request) {
    return new Response({ pk: this.kwargs.pk, self: request.reverse('thing-detail', this.kwargs) });
  }
}
class ManagedThingViewSet extends ThingViewSet {}
class SiblingThingViewSet extends ThingViewSet {}
class GadgetViewSet extends ViewSet {
  list(request: Request) {
    return new Response({ thing: request.reverse('thing-detail', { pk: 1 }) });
  }
}

describe('links under the router a record was listed by', () => {
  let app: FastifyInstance;
  after(() => app?.close());

  it('reverses the other router’s names to this router’s routes of the same view set', async () => {
    app = Fastify({ logger: false });
    await app.register(restFramework, {
      database: Database.connect('sqlite::memory:'),
      settings: { ALLOWED_HOSTS: ['*'] },
    });
    const publicRouter = new DefaultRouter()
      .register('things', ThingViewSet, { basename: 'thing' })
      .register('siblings', SiblingThingViewSet, { basename: 'sibling' })
      .register('gadgets', GadgetViewSet, { basename: 'gadget' });
    const manageRouter = new DefaultRouter()
      .register('things', ManagedThingViewSet, { basename: 'managed-thing' })
      .register('gadgets', GadgetViewSet, { basename: 'managed-gadget' });
    await app.register(publicRouter.plugin, { prefix: '/public' });
    await app.register(manageRouter.plugin, { prefix: '/manage' });
    await app.ready();
    const get = async (url: string) =>
      (await app.inject({ url, headers: { host: 'h', accept: 'application/json' } })).json();

    assert.deepEqual(await get('/public/things/'), {
      list: 'http://h/public/things/',
      detail: 'http://h/public/things/7/',
      other: 'http://h/public/gadgets/',
    });
    // Same router, another view set extending it: its links stay the named routes.
    assert.deepEqual(await get('/public/siblings/'), {
      list: 'http://h/public/things/',
      detail: 'http://h/public/things/7/',
      other: 'http://h/public/gadgets/',
    });
    // The managed router: things link under /manage/; gadgets, a view set of both, too.
    assert.deepEqual(await get('/manage/things/'), {
      list: 'http://h/manage/things/',
      detail: 'http://h/manage/things/7/',
      other: 'http://h/manage/gadgets/',
    });
    assert.deepEqual(await get('/manage/things/3/'), {
      pk: '3',
      self: 'http://h/manage/things/3/',
    });
    // As in a DRF namespace, every view of the managed router links to its things, and the
    // public router's views to the public ones.
    assert.deepEqual(await get('/manage/gadgets/'), { thing: 'http://h/manage/things/1/' });
    assert.deepEqual(await get('/public/gadgets/'), { thing: 'http://h/public/things/1/' });
    // Any key: the managed link is the public one under /manage/.
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 20 }), async (pk) => {
        const query = `?pk=${encodeURIComponent(pk)}`;
        const [managed, open] = [
          await get(`/manage/things/${query}`),
          await get(`/public/things/${query}`),
        ];
        assert.equal(managed.detail, open.detail.replace('/public/', '/manage/'));
      }),
      { numRuns: 30 },
    );
  });
});
