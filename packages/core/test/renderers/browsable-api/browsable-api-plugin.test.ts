/**
 * The browsable API is mounted only where it is used: an app whose renderers include
 * `BrowsableAPIRenderer` gets its static files (from restFramework, or from `browsableApi`
 * registered by the app); an app without it gets no static route and loads none of the page's
 * code; a view that lists the renderer while nothing mounts it fails at start-up.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import {
  BrowsableAPIRenderer,
  browsableApi,
  Database,
  DefaultRouter,
  ImproperlyConfigured,
  JSONRenderer,
  type RendererClass,
  Response,
  restFramework,
  type SettingsInput,
  ViewSet,
} from '@restframework/core';
import { STATIC_ROUTE } from '@restframework/core/internal';
import Fastify, { type FastifyInstance } from 'fastify';

const HOST = { host: '127.0.0.1' };

class GreetingViewSet extends ViewSet {
  list() {
    return new Response({ greeting: 'hello' });
  }
}

class PageGreetingViewSet extends GreetingViewSet {
  override rendererClasses: readonly RendererClass[] = [JSONRenderer, BrowsableAPIRenderer];
}

async function buildApp(
  database: Database,
  settings: SettingsInput,
  viewset: typeof GreetingViewSet,
  register: (app: FastifyInstance) => PromiseLike<unknown> = async () => {},
): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(restFramework, { database, settings });
  await register(app);
  await app.register(
    new DefaultRouter().register('greetings', viewset, { basename: 'greeting' }).plugin,
    { prefix: '/api' },
  );
  await app.ready();
  return app;
}

/** The URLs of the stylesheet and script a page links to. */
function linkedAssets(page: string): string[] {
  return [...page.matchAll(/(?:href|src)="(\/__restframework\/static\/[^"]+)"/g)].map(
    (m) => m[1] as string,
  );
}

describe('browsable API plugin', () => {
  let database: Database;
  before(() => {
    database = Database.connect('sqlite::memory:');
  });
  after(() => database.close());

  it('is not mounted when the renderers are JSON only: its files are 404s', async () => {
    // A page rendered by an app that has the API gives the real (hashed) file names.
    const withApi = await buildApp(
      database,
      { DEFAULT_RENDERER_CLASSES: [JSONRenderer, BrowsableAPIRenderer] },
      GreetingViewSet,
    );
    const page = await withApi.inject({
      url: '/api/greetings/',
      headers: { ...HOST, accept: 'text/html' },
    });
    const assets = linkedAssets(page.body);
    assert.equal(assets.length, 2);
    await withApi.close();

    const app = await buildApp(
      database,
      { DEFAULT_RENDERER_CLASSES: [JSONRenderer] },
      GreetingViewSet,
    );
    assert.equal(app.hasRoute({ method: 'GET', url: STATIC_ROUTE }), false);
    for (const url of assets) {
      const response = await app.inject({ url, headers: HOST });
      assert.equal(response.statusCode, 404);
      assert.deepEqual(response.json(), { detail: 'Not found.' });
    }
    assert.doesNotMatch(app.printRoutes(), /__restframework/);
    // JSON is all it answers, as before.
    const html = await app.inject({
      url: '/api/greetings/',
      headers: { ...HOST, accept: 'text/html' },
    });
    assert.equal(html.statusCode, 406);
    await app.close();
  });

  it('is mounted by restFramework when DEFAULT_RENDERER_CLASSES include the renderer', async () => {
    class MyBrowsableAPI extends BrowsableAPIRenderer {}
    for (const renderer of [BrowsableAPIRenderer, MyBrowsableAPI]) {
      const app = await buildApp(
        database,
        { DEFAULT_RENDERER_CLASSES: [JSONRenderer, renderer] },
        GreetingViewSet,
      );
      assert.equal(app.hasRoute({ method: 'GET', url: STATIC_ROUTE }), true);
      const page = await app.inject({
        url: '/api/greetings/',
        headers: { ...HOST, accept: 'text/html' },
      });
      assert.equal(page.statusCode, 200);
      for (const url of linkedAssets(page.body)) {
        const response = await app.inject({ url, headers: HOST });
        assert.equal(response.statusCode, 200, url);
        assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
        // restFramework's hooks apply to the plugin's routes too.
        assert.equal(response.headers['x-content-type-options'], 'nosniff');
      }
      await app.close();
    }
  });

  it('can be registered by the app for views that list the renderer themselves', async () => {
    const app = await buildApp(
      database,
      { DEFAULT_RENDERER_CLASSES: [JSONRenderer] },
      PageGreetingViewSet,
      (app) => app.register(browsableApi),
    );
    const page = await app.inject({
      url: '/api/greetings/',
      headers: { ...HOST, accept: 'text/html' },
    });
    assert.equal(page.statusCode, 200);
    assert.match(page.headers['content-type'] as string, /^text\/html/);
    const assets = linkedAssets(page.body);
    assert.equal(assets.length, 2);
    for (const url of assets)
      assert.equal((await app.inject({ url, headers: HOST })).statusCode, 200);
    await app.close();
  });

  it('is served once when both restFramework and the app register it', async () => {
    const app = await buildApp(
      database,
      { DEFAULT_RENDERER_CLASSES: [JSONRenderer, BrowsableAPIRenderer] },
      GreetingViewSet,
      (app) => app.register(browsableApi),
    );
    assert.equal(app.hasRoute({ method: 'GET', url: STATIC_ROUTE }), true);
    await app.close();
  });

  it('fails at start-up when a view lists the renderer and nothing mounts it', async () => {
    await assert.rejects(
      buildApp(database, { DEFAULT_RENDERER_CLASSES: [JSONRenderer] }, PageGreetingViewSet),
      (error: unknown) =>
        error instanceof ImproperlyConfigured &&
        error.code === 'REST_ERR_BROWSABLE_API' &&
        /PageGreetingViewSet/.test(error.message) &&
        /app\.register\(browsableApi\)/.test(error.message),
    );
  });
});

describe('browsable API code loading', () => {
  /**
   * The modules of `renderers/browsable-api/` a fresh process loads while it builds an app with
   * `renderers` and answers one request with `accept`.
   */
  function loadedModules(renderers: 'json' | 'browsable', accept: string): string[] {
    const script = `
      import { registerHooks } from 'node:module';
      const loaded = new Set();
      registerHooks({
        load(url, context, next) {
          const at = url.indexOf('/renderers/browsable-api/');
          if (at >= 0) loaded.add(url.slice(at + '/renderers/browsable-api/'.length));
          return next(url, context);
        },
      });
      const core = await import('@restframework/core');
      const { default: Fastify } = await import('fastify');
      class GreetingViewSet extends core.ViewSet {
        list() { return new core.Response({ greeting: 'hello' }); }
      }
      const renderers = ${renderers === 'json' ? '[core.JSONRenderer]' : '[core.JSONRenderer, core.BrowsableAPIRenderer]'};
      const app = Fastify();
      await app.register(core.restFramework, {
        database: core.Database.connect('sqlite::memory:'),
        settings: { DEFAULT_RENDERER_CLASSES: renderers },
      });
      await app.register(new core.DefaultRouter().register('greetings', GreetingViewSet, { basename: 'greeting' }).plugin, { prefix: '/api' });
      const response = await app.inject({ url: '/api/greetings/', headers: { host: '127.0.0.1', accept: ${JSON.stringify(accept)} } });
      if (response.statusCode !== 200) throw new Error(response.statusCode + ' ' + response.body);
      await app.close();
      console.log(JSON.stringify([...loaded].sort()));
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: import.meta.dirname,
      encoding: 'utf8',
    });
    assert.equal(child.status, 0, child.stderr);
    return JSON.parse(child.stdout.trim()) as string[];
  }

  /** What every app loads with the package: the renderer class (the settings name it). */
  const ALWAYS = [
    'browsable-api-plugin.ts',
    'browsable-api-renderer.ts',
    'filter-controls.ts',
    'static-route.ts',
  ];

  it('loads none of the page code or static files with JSON-only renderers', () => {
    assert.deepEqual(loadedModules('json', 'application/json'), ALWAYS);
  });

  it('loads the templates, the forms and the static files when a page is rendered', () => {
    assert.deepEqual(
      loadedModules('browsable', 'text/html'),
      [
        ...ALWAYS,
        'form-skeleton.ts',
        'form-values.ts',
        'forms-context.ts',
        'forms-section.ts',
        'html-form.ts',
        'json-html.ts',
        'page.ts',
        'related-options.ts',
        'static-assets.ts',
      ].sort(),
    );
  });
});
