/**
 * Limit-offset pagination: `?limit=100&offset=400`, `{count, next, previous, results}`.
 * @module
 */
import type { QuerySet } from '../db/query-set.ts';
import type { Request } from '../http/request.ts';
import { Response } from '../http/response.ts';
import { removeQueryParam, replaceQueryParam } from '../utils/urls.ts';
import { displayedPageNumbers, type PaginationHtmlContext, pageLinks } from './page-links.ts';
import { type Pagination, pageSchema, queryParameter } from './pagination.ts';

/**
 * Python's `int()` on a query parameter: surrounding spaces, a sign and `_` between digits
 * are accepted. Values past `Number.MAX_SAFE_INTEGER` are clamped to it (they are beyond any
 * row count anyway). Undefined when the text is no integer.
 */
function parseInteger(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const match = /^\s*([+-]?)(\d+(?:_\d+)*)\s*$/.exec(raw);
  if (!match) return undefined;
  const digits = (match[2] as string).replaceAll('_', '');
  const magnitude = Math.min(Number(digits), Number.MAX_SAFE_INTEGER);
  return match[1] === '-' ? -magnitude : magnitude;
}

/**
 * DRF's `LimitOffsetPagination`: one COUNT and one page query. `limit` defaults to
 * `defaultLimit` (the `PAGE_SIZE` setting unless set) and is capped by `maxLimit`; a `limit`
 * that is not a positive integer, or an `offset` that is not a non-negative integer, is
 * ignored as DRF ignores it (never an error). An offset past the end gives an empty page.
 * Links are absolute, keep the other query parameters, and the previous link of the first
 * page drops `offset`.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override paginationClass = class extends LimitOffsetPagination {
 *     override defaultLimit = 50;
 *     override maxLimit = 500;
 *   };
 * }
 * // GET /books/?limit=2&offset=4
 * // {"count":9,"next":"http://host/books/?limit=2&offset=6","previous":"http://host/books/?limit=2&offset=2","results":[...]}
 * ```
 */
export class LimitOffsetPagination implements Pagination {
  // Defaults on the prototype (below the class), as DRF's class attributes: a paginator is
  // made per request, and each field defined here was one more store per request. A subclass
  // overrides one with a field of its own (`override defaultLimit = 50`).
  /** The limit when the client sends none; null uses the `PAGE_SIZE` setting. */
  declare defaultLimit: number | null;
  /** The query parameter of the limit (default `limit`). */
  declare limitQueryParam: string;
  /** The query parameter of the offset (default `offset`). */
  declare offsetQueryParam: string;
  /** The largest limit a client may ask for; null for no cap. */
  declare maxLimit: number | null;

  /** The number of rows of the whole result (set by `paginateQueryset`). */
  declare count: number;
  /** This request's limit. */
  declare limit: number;
  /** This request's offset. */
  declare offset: number;
  /** The request being paginated (set by `paginateQueryset`). */
  declare request: Request | undefined;

  /** The limit of this request, or null when the view is not paginated. */
  getLimit(request: Request): number | null {
    const asked = parseInteger(request.queryParam(this.limitQueryParam));
    // DRF's _positive_int(strict=True): zero and negative values fall back to the default.
    if (asked !== undefined && asked > 0)
      return this.maxLimit ? Math.min(asked, this.maxLimit) : asked;
    return this.defaultLimit ?? request.settings.PAGE_SIZE;
  }

  /** The offset of this request: 0 unless a non-negative integer was sent. */
  getOffset(request: Request): number {
    const asked = parseInteger(request.queryParam(this.offsetQueryParam));
    return asked !== undefined && asked >= 0 ? asked : 0;
  }

  async paginateQueryset(queryset: QuerySet<any>, request: Request): Promise<unknown[] | null> {
    const limit = this.getLimit(request);
    if (!limit) return null;
    this.request = request;
    this.limit = limit;
    this.count = await queryset.count();
    this.offset = this.getOffset(request);
    if (this.count === 0 || this.offset > this.count) return [];
    return queryset.slice(this.offset, this.offset + limit).execute();
  }

  /** The next page's URL, or null on the last page. */
  getNextLink(): string | null {
    if (!this.request || this.offset + this.limit >= this.count) return null;
    const url = replaceQueryParam(
      this.request.buildAbsoluteUri(),
      this.limitQueryParam,
      this.limit,
    );
    return replaceQueryParam(url, this.offsetQueryParam, this.offset + this.limit);
  }

  /** The previous page's URL, or null on the first page. */
  getPreviousLink(): string | null {
    if (!this.request || this.offset <= 0) return null;
    const url = replaceQueryParam(
      this.request.buildAbsoluteUri(),
      this.limitQueryParam,
      this.limit,
    );
    if (this.offset - this.limit <= 0) return removeQueryParam(url, this.offsetQueryParam);
    return replaceQueryParam(url, this.offsetQueryParam, this.offset - this.limit);
  }

  /** DRF's `get_html_context`: previous, next and a numbered link per page of `limit` rows. */
  getHtmlContext(): PaginationHtmlContext {
    const request = this.request;
    if (!request || !this.limit) return { previousUrl: null, nextUrl: null, pageLinks: [] };
    const before = Math.ceil(this.offset / this.limit);
    let current = before + 1;
    const final = Math.max(1, Math.ceil((this.count - this.offset) / this.limit) + before);
    if (current > final) current = final;
    const url = request.buildAbsoluteUri();
    const urlOf = (page: number) =>
      page === 1
        ? removeQueryParam(url, this.offsetQueryParam)
        : replaceQueryParam(
            url,
            this.offsetQueryParam,
            this.offset + (page - current) * this.limit,
          );
    return {
      previousUrl: this.getPreviousLink(),
      nextUrl: this.getNextLink(),
      pageLinks: pageLinks(displayedPageNumbers(current, final), current, urlOf),
    };
  }

  getLinks(): {
    /** The next page's URL; null on the last page. */
    next: string | null;
    /** The previous page's URL; null on the first page. */
    previous: string | null;
  } {
    return { next: this.getNextLink(), previous: this.getPreviousLink() };
  }

  getPaginatedResponse(data: unknown[]): Response {
    return new Response({
      count: this.count,
      next: this.getNextLink(),
      previous: this.getPreviousLink(),
      results: data,
    });
  }

  getSchemaOperationParameters(): Record<string, unknown>[] {
    return [
      queryParameter(this.limitQueryParam, 'Number of results to return per page.', 'integer'),
      queryParameter(
        this.offsetQueryParam,
        'The initial index from which to return the results.',
        'integer',
      ),
    ];
  }

  getPaginatedResponseSchema(itemsSchema: Record<string, unknown>): Record<string, unknown> {
    return pageSchema(itemsSchema, true);
  }
}

Object.assign(LimitOffsetPagination.prototype, {
  defaultLimit: null,
  limitQueryParam: 'limit',
  offsetQueryParam: 'offset',
  maxLimit: null,
  count: 0,
  limit: 0,
  offset: 0,
  request: undefined,
});
