/**
 * Page-number pagination: `?page=2`, `{count, next, previous, results}`.
 * @module
 */
import type { QuerySet } from '../db/query-set.ts';
import { NotFound } from '../errors/api-exception.ts';
import type { Request } from '../http/request.ts';
import { Response } from '../http/response.ts';
import { removeQueryParam, replaceQueryParam } from '../utils/urls.ts';
import { displayedPageNumbers, type PaginationHtmlContext, pageLinks } from './page-links.ts';
import {
  clientPageSize,
  type Pagination,
  pageSchema,
  pageSizeParameters,
  queryParameter,
} from './pagination.ts';

/**
 * DRF's `PageNumberPagination`: one COUNT and one page query; `page=last` is the last page;
 * a page out of range or not a number is 404 `{"detail":"Invalid page."}`. Links are
 * absolute and keep the other query parameters.
 *
 * @example
 * ```ts
 * class LargePages extends PageNumberPagination {
 *   override pageSize = 1000;
 *   override pageSizeQueryParam = 'page_size';
 *   override maxPageSize = 10000;
 * }
 * ```
 */
export class PageNumberPagination implements Pagination {
  // Defaults on the prototype (below the class), as DRF's class attributes: a paginator is
  // made per request, and each field defined here was one more store per request. A subclass
  // overrides one with a field of its own (`override pageSize = 1000`).
  /** Items per page; defaults to the `PAGE_SIZE` setting. */
  declare pageSize: number | null;
  /** The query parameter of the page number (`page`). */
  declare pageQueryParam: string;
  /** A parameter that lets clients choose the page size (off by default). */
  declare pageSizeQueryParam: string | null;
  /** The largest page size a client may ask for with `pageSizeQueryParam`. */
  declare maxPageSize: number | null;
  /** Page numbers that mean the last page (`?page=last`). */
  declare lastPageStrings: readonly string[];
  /** The 404's message for a page out of range or not a number. */
  declare invalidPageMessage: string;

  /** The rows of the whole list (set by `paginateQueryset`). */
  declare count: number;
  /** The number of this page (set by `paginateQueryset`). */
  declare pageNumber: number;
  /** How many pages the list has (set by `paginateQueryset`). */
  declare numPages: number;
  /** The request being paginated (set by `paginateQueryset`). */
  declare request: Request | undefined;

  /** Items per page for this request: `pageSize`, or the client's within `maxPageSize`. */
  getPageSize(request: Request): number | null {
    return (
      clientPageSize(request, this.pageSizeQueryParam, this.maxPageSize) ??
      this.pageSize ??
      request.settings.PAGE_SIZE
    );
  }

  async paginateQueryset(queryset: QuerySet<any>, request: Request): Promise<unknown[] | null> {
    const size = this.getPageSize(request);
    if (!size) return null;
    this.request = request;
    this.count = await queryset.count();
    this.numPages = Math.max(1, Math.ceil(this.count / size));
    const raw = request.queryParam(this.pageQueryParam) ?? '1';
    let page: number;
    if (this.lastPageStrings.includes(raw)) page = this.numPages;
    else if (/^\s*\+?\d+\s*$/.test(raw)) page = Number(raw);
    else throw new NotFound(this.invalidPageMessage);
    if (!Number.isSafeInteger(page) || page < 1 || page > this.numPages)
      throw new NotFound(this.invalidPageMessage);
    this.pageNumber = page;
    return queryset.slice((page - 1) * size, page * size).execute();
  }

  /** The URL of the next page, or null on the last. */
  getNextLink(): string | null {
    if (!this.request || this.pageNumber >= this.numPages) return null;
    return replaceQueryParam(
      this.request.buildAbsoluteUri(),
      this.pageQueryParam,
      this.pageNumber + 1,
    );
  }

  /** The URL of the previous page, or null on the first. */
  getPreviousLink(): string | null {
    if (!this.request || this.pageNumber <= 1) return null;
    const url = this.request.buildAbsoluteUri();
    if (this.pageNumber - 1 === 1) return removeQueryParam(url, this.pageQueryParam);
    return replaceQueryParam(url, this.pageQueryParam, this.pageNumber - 1);
  }

  getLinks(): {
    /** The next page's URL; null on the last page. */
    next: string | null;
    /** The previous page's URL; null on the first page. */
    previous: string | null;
  } {
    return { next: this.getNextLink(), previous: this.getPreviousLink() };
  }

  /** DRF's `get_html_context`: previous, next and numbered page links for the browsable API. */
  getHtmlContext(): PaginationHtmlContext {
    const request = this.request;
    const url = request ? request.buildAbsoluteUri() : '';
    const urlOf = (page: number) =>
      page === 1
        ? removeQueryParam(url, this.pageQueryParam)
        : replaceQueryParam(url, this.pageQueryParam, page);
    const numbers = displayedPageNumbers(this.pageNumber, this.numPages);
    return {
      previousUrl: this.getPreviousLink(),
      nextUrl: this.getNextLink(),
      pageLinks: request ? pageLinks(numbers, this.pageNumber, urlOf) : [],
    };
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
      queryParameter(
        this.pageQueryParam,
        'A page number within the paginated result set.',
        'integer',
      ),
      ...pageSizeParameters(this.pageSizeQueryParam),
    ];
  }

  getPaginatedResponseSchema(itemsSchema: Record<string, unknown>): Record<string, unknown> {
    return pageSchema(itemsSchema, true);
  }
}

Object.assign(PageNumberPagination.prototype, {
  pageSize: null,
  pageQueryParam: 'page',
  pageSizeQueryParam: null,
  maxPageSize: null,
  lastPageStrings: Object.freeze(['last']),
  invalidPageMessage: 'Invalid page.',
  count: 0,
  pageNumber: 1,
  numPages: 1,
  request: undefined,
});
