/**
 * The API root of a router: `GET /prefix/` lists a link to each registered list route.
 * @module
 */
import type { Request } from '../http/request.ts';
import { Response } from '../http/response.ts';
import { APIView } from '../views/api-view.ts';
import type { ViewSetClass } from './simple-router.ts';

/**
 * A view answering `{ prefix: absolute URL of its list }` for each `[prefix, route name]`.
 *
 * @example
 * ```ts
 * const RootView = apiRootView([['books', 'book-list']]); // GET → {"books": "http://host/api/books/"}
 * ```
 */
export function apiRootView(entries: readonly [string, string][]): ViewSetClass {
  return class ApiRootView extends APIView {
    static override viewName = 'Api Root';
    static override description = 'The default basic root view for DefaultRouter';

    async get(request: Request): Promise<Response> {
      return new Response(
        Object.fromEntries(entries.map(([prefix, name]) => [prefix, request.reverse(name)])),
      );
    }
  };
}
