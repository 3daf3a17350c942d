/**
 * `DefaultRouter`: a `SimpleRouter` with an API root, as DRF's: the routes of view sets as a
 * Fastify plugin mounted under a prefix, named routes for `reverse()`, and a 301 to the
 * trailing slash.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 *
 * const router = new DefaultRouter();
 * router.register('books', BookViewSet, { basename: 'book' });
 * await app.register(restFramework, { database: db });
 * await app.register(router.plugin, { prefix: '/books/api' });
 * // GET /books/api/            → {"books": "http://host/books/api/books/"}
 * // GET /books/api/books/      → list      (route name "book-list")
 * // GET /books/api/books/1/    → retrieve  (route name "book-detail")
 * ```
 * @module
 */
import type { FastifyInstance } from 'fastify';
import type { RestFrameworkState } from '../plugin/rest-framework.ts';
import { apiRootView } from './api-root-view.ts';
import { SimpleRouter } from './simple-router.ts';

export type {
  PathOptions,
  RegisterOptions,
  RouterOptions,
  RouteShape,
  ViewSetClass,
} from './simple-router.ts';

/**
 * The router; see the module documentation.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 * const router = new DefaultRouter().register('books', BookViewSet);
 * await app.register(router.plugin, { prefix: '/api' });
 * // GET /api/books/ → list, GET /api/books/1/ → retrieve, GET /api/ → the API root
 * ```
 */
export class DefaultRouter extends SimpleRouter {
  /** The API root: a link to the list of each top-level registration. */
  protected override mountRoot(
    instance: FastifyInstance,
    base: string,
    entries: readonly [string, string][],
    state: RestFrameworkState,
    namespace?: string,
  ): void {
    const RootView = apiRootView(entries);
    this.mountView(instance, '/', RootView, state, namespace);
    state.endpoints.push({
      path: `${base}/`,
      name: 'api-root',
      viewset: RootView,
      actionMap: {},
      detail: false,
      suffix: undefined,
      prefix: '',
      inSchema: false,
    });
  }
}
