/**
 * Pagination of list views.
 * @module
 */
import type { QuerySet } from '../db/query-set.ts';
import type { Request } from '../http/request.ts';
import type { Response } from '../http/response.ts';
import type { PaginationHtmlContext } from './page-links.ts';

/** A pagination style. Instances are made per request (they remember the page). */
export interface Pagination {
  /** The rows of the requested page, or null when this request is not paginated. */
  paginateQueryset(
    queryset: QuerySet<any>,
    request: Request,
    view: unknown,
  ): Promise<unknown[] | null>;
  /** The response around the page's rendered items (`{count, next, previous, results}`). */
  getPaginatedResponse(data: unknown[]): Response;
  /** The query parameters it reads, for OpenAPI. */
  getSchemaOperationParameters?(view: unknown): Record<string, unknown>[];
  /** The JSON schema of the paginated response around the items' schema. */
  getPaginatedResponseSchema?(itemsSchema: Record<string, unknown>): Record<string, unknown>;
  /** Links for the browsable API. */
  getLinks?(): {
    /** The next page's URL; null on the last page. */
    next: string | null;
    /** The previous page's URL; null on the first page. */
    previous: string | null;
  };
  /** Numbered page links for the browsable API (DRF's `get_html_context`). */
  getHtmlContext?(): PaginationHtmlContext;
}

/** A pagination class. */
export type PaginationClass = new () => Pagination;

/** The page size a client asked for with `param`, bounded by `max`; undefined when not asked. */
export function clientPageSize(
  request: Request,
  param: string | null,
  max: number | null,
): number | undefined {
  if (!param) return undefined;
  const raw = request.queryParam(param);
  if (raw === undefined || !/^\s*\d+\s*$/.test(raw)) return undefined;
  const size = Number(raw);
  if (!Number.isSafeInteger(size) || size <= 0) return undefined;
  return max ? Math.min(size, max) : size;
}

/**
 * An OpenAPI query parameter a pagination reads (always optional).
 *
 * @example
 * ```ts-fragment
 * queryParameter('page', 'A page number within the paginated result set.', 'integer');
 * ```
 */
export function queryParameter(
  name: string,
  description: string,
  type: 'integer' | 'string',
): Record<string, unknown> {
  return { name, required: false, in: 'query', description, schema: { type } };
}

/** The page-size parameter, when the pagination lets a client choose the size. */
export function pageSizeParameters(param: string | null): Record<string, unknown>[] {
  return param ? [queryParameter(param, 'Number of results to return per page.', 'integer')] : [];
}

/**
 * The JSON schema of a page: `{count?, next, previous, results}` around the items' schema
 * (`count` for the paginations that count the rows).
 */
export function pageSchema(
  itemsSchema: Record<string, unknown>,
  counted: boolean,
): Record<string, unknown> {
  return {
    type: 'object',
    required: counted ? ['count', 'results'] : ['results'],
    properties: {
      ...(counted ? { count: { type: 'integer', example: 123 } } : {}),
      next: { type: ['string', 'null'], format: 'uri' },
      previous: { type: ['string', 'null'], format: 'uri' },
      results: { type: 'array', items: itemsSchema },
    },
  };
}
