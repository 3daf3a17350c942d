/**
 * Filter backends narrow or order a list view's query set from the request.
 * @module
 */
import type { QuerySet } from '../db/query-set.ts';
import type { Request } from '../http/request.ts';

/** A filter backend. */
export interface FilterBackend {
  /** The query set, filtered or ordered for this request. Must never put client input into SQL identifiers. */
  filterQueryset(
    request: Request,
    queryset: QuerySet<any>,
    view: any,
  ): QuerySet<any> | Promise<QuerySet<any>>;
  /**
   * Checks a view's configuration at start-up (a mapped path that does not resolve, say);
   * throws `ImproperlyConfigured` naming the view and the fix.
   */
  check?(view: any): void;
  /** The OpenAPI parameters this backend reads. */
  getSchemaOperationParameters?(view: any): Record<string, unknown>[];
  /** What the browsable API offers for this backend (ordering names, say). */
  describe?(view: any): Record<string, unknown> | undefined;
}

/** A filter backend class. */
export type FilterBackendClass = new () => FilterBackend;

/**
 * Defaults for {@link FilterBackend}: leaves the query set alone.
 *
 * @example
 * ```ts
 * class InPrintFilter extends BaseFilterBackend {
 *   override filterQueryset(request: Request, queryset: QuerySet<any>) {
 *     return request.queryParam('in_print') === '1' ? queryset.filter({ in_print: true }) : queryset;
 *   }
 * }
 * ```
 */
export class BaseFilterBackend implements FilterBackend {
  filterQueryset(
    _request: Request,
    queryset: QuerySet<any>,
    _view: any,
  ): QuerySet<any> | Promise<QuerySet<any>> {
    return queryset;
  }
}
