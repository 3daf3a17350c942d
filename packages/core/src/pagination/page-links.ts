/**
 * DRF's numbered page links of the browsable API (`get_html_context`): which page numbers to
 * show (the first, the last, the current one and its neighbours, with breaks between), each
 * with its URL. Paginators that number their pages (page-number, limit/offset) build theirs
 * with these; cursor pagination has no numbers and keeps previous/next.
 * @module
 */

/** A page link, or a break (`…`) between numbers that are not next to each other. */
export type PageLink =
  | {
      /** The page's URL. */
      readonly url: string;
      /** The page's number. */
      readonly number: number;
      /** Whether it is the page shown. */
      readonly isActive: boolean;
      /** False: a page. */
      readonly isBreak: false;
    }
  | {
      /** No URL: a break (`…`) between numbers. */
      readonly url: null;
      /** No number. */
      readonly number: null;
      /** Never active. */
      readonly isActive: false;
      /** True: a break. */
      readonly isBreak: true;
    };

/** What the browsable API shows under a list: previous, next and the numbered links. */
export interface PaginationHtmlContext {
  /** The previous page's URL, or null on the first. */
  readonly previousUrl: string | null;
  /** The next page's URL, or null on the last. */
  readonly nextUrl: string | null;
  /** The numbered links, with breaks. */
  readonly pageLinks: readonly PageLink[];
}

/**
 * DRF's `_get_displayed_page_numbers`: every number up to 5 pages; else the first, the last,
 * the current and its neighbours (the first three or the last three near an end), with `null`
 * for a break.
 *
 * @example
 * ```ts
 * displayedPageNumbers(1, 5); // [1, 2, 3, 4, 5]
 * displayedPageNumbers(5, 10); // [1, null, 4, 5, 6, null, 10]
 * displayedPageNumbers(9, 10); // [1, null, 7, 8, 9, 10]
 * ```
 */
export function displayedPageNumbers(current: number, final: number): (number | null)[] {
  if (final <= 5) return Array.from({ length: final }, (_, i) => i + 1);
  const included = new Set([1, current - 1, current, current + 1, final]);
  if (current <= 4) {
    included.add(2);
    included.add(3);
  }
  if (current >= final - 3) {
    included.add(final - 1);
    included.add(final - 2);
  }
  const numbers: (number | null)[] = [...included]
    .filter((n) => n > 0 && n <= final)
    .sort((a, b) => a - b);
  if (current > 4) numbers.splice(1, 0, null);
  if (current < final - 3) numbers.splice(numbers.length - 1, 0, null);
  return numbers;
}

/**
 * DRF's `_get_page_links`: a link per displayed number (`urlOf` builds its URL), breaks kept.
 *
 * @example
 * ```ts
 * pageLinks([1, null, 9, 10], 10, (n) => `/books/?page=${n}`);
 * // [{ url: '/books/?page=1', number: 1, isActive: false, isBreak: false }, { isBreak: true, ... }, ...]
 * ```
 */
export function pageLinks(
  numbers: readonly (number | null)[],
  current: number,
  urlOf: (page: number) => string,
): PageLink[] {
  return numbers.map((number) =>
    number === null
      ? { url: null, number: null, isActive: false, isBreak: true }
      : { url: urlOf(number), number, isActive: number === current, isBreak: false },
  );
}
