/**
 * The browsable API as a Fastify plugin: it serves the pages' stylesheet and script under
 * `/__restframework/static/`. Nothing else needs mounting: the pages themselves are rendered by
 * `BrowsableAPIRenderer` for the routes of the routers.
 *
 * The `restFramework` plugin registers it when the app's `DEFAULT_RENDERER_CLASSES` include
 * `BrowsableAPIRenderer` (or a subclass), as DRF turns the browsable API on by listing the
 * renderer; an app whose renderers do not include it gets no static route, and neither the
 * files nor the page's code are loaded. An app that lists the renderer only on some views
 * (`rendererClasses`) registers this plugin itself; without it, `app.ready()` fails with
 * `REST_ERR_BROWSABLE_API` rather than serving pages whose stylesheet and script are 404s.
 * @module
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ImproperlyConfigured } from '../../errors/improperly-configured.ts';
import type { APISettings } from '../../settings/api-settings.ts';
import type { RendererClass } from '../renderer.ts';
import { BrowsableAPIRenderer } from './browsable-api-renderer.ts';
import { STATIC_ROUTE } from './static-route.ts';

/** True when `renderers` hold the browsable API's renderer (or a subclass of it). */
export function usesBrowsableApi(renderers: readonly RendererClass[] | undefined): boolean {
  return (
    renderers?.some(
      (renderer) =>
        renderer === BrowsableAPIRenderer || renderer.prototype instanceof BrowsableAPIRenderer,
    ) ?? false
  );
}

function hasStaticRoute(app: FastifyInstance): boolean {
  return app.hasRoute({ method: 'GET', url: STATIC_ROUTE });
}

async function plugin(app: FastifyInstance): Promise<void> {
  // Registered twice (by restFramework and by the app): the files are served once.
  if (hasStaticRoute(app)) return;
  const { registerStaticAssets } = await import('./static-assets.ts');
  registerStaticAssets(app);
}

/**
 * The browsable API's static files, for an app that lists `BrowsableAPIRenderer` on some views
 * only (an app that lists it in `DEFAULT_RENDERER_CLASSES` gets them from `restFramework`).
 * Registering it again does nothing.
 *
 * @example
 * ```ts
 * await app.register(restFramework, { database: db });
 * await app.register(browsableApi);
 * await app.register(router.plugin, { prefix: '/api' }); // a view set with rendererClasses: [JSONRenderer, BrowsableAPIRenderer]
 * ```
 */
export const browsableApi = fp(plugin, {
  name: '@restframework/browsable-api',
  fastify: '5.x',
});

/**
 * What `restFramework` does about the browsable API: mounts it when the app's default
 * renderers include it; otherwise checks at start-up that no routed view lists it without the
 * plugin (its pages would come without their stylesheet and script).
 */
export function mountBrowsableApi(app: FastifyInstance, settings: APISettings): void {
  // Not awaited: the plugin loads after restFramework's own hooks are in place, so its routes
  // get them (the security headers) as every other route does.
  if (usesBrowsableApi(settings.DEFAULT_RENDERER_CLASSES)) {
    void app.register(browsableApi);
    return;
  }
  app.addHook('onReady', async () => {
    if (hasStaticRoute(app)) return;
    const seen = new Set<Function>();
    for (const endpoint of app.restFramework.endpoints) {
      if (seen.has(endpoint.viewset)) continue;
      seen.add(endpoint.viewset);
      if (!usesBrowsableApi(new endpoint.viewset().rendererClasses)) continue;
      throw new ImproperlyConfigured(
        'REST_ERR_BROWSABLE_API',
        `${endpoint.viewset.name} lists BrowsableAPIRenderer in its rendererClasses, but the app's ` +
          'DEFAULT_RENDERER_CLASSES do not, so the browsable API is not mounted. Register it: ' +
          '`await app.register(browsableApi)` after restFramework (or list BrowsableAPIRenderer ' +
          'in DEFAULT_RENDERER_CLASSES).',
      );
    }
  });
}
