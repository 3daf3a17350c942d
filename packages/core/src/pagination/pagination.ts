/**
 * Pagination of list views.
 * @module
 */
import type { QuerySet } from '../db/query-set.ts';
import type { Request } from '../http/request.ts';
import type { Response } from '../http/response.ts';

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
  getLinks?(): { next: string | null; previous: string | null };
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
