/**
 * Links to a named route with one parameter, built for every row a request renders: what
 * `HyperlinkedIdentityField` and `HyperlinkedRelatedField` render. The first row of a request
 * goes through `reverse()`; from its second, the URL split around its parameter is kept
 * (for that request only), so a list's links are a concatenation each.
 * @module
 */
import type { RequestLike } from './field.ts';

/** A route's absolute URL around its one parameter. */
interface LinkParts {
  readonly prefix: string;
  readonly suffix: string;
}

/** Stands for the parameter while the URL is split; encoded as `%00`, never in a real URL. */
const PLACEHOLDER = '\u0000';

/**
 * The links of one field to the route `viewName`, its parameter `kwarg` filled with a value.
 *
 * @example
 * ```ts-fragment
 * const links = new RouteLinks('book-detail', 'pk');
 * links.link(request, 7); // 'http://127.0.0.1:8000/books/api/books/7/'
 * ```
 */
export class RouteLinks {
  readonly viewName: string;
  readonly kwarg: string;
  /**
   * The last request seen, and its URL split around the one parameter: a list renders many
   * rows for one request. Checked by identity, so a field shared by requests never mixes them
   * up. `#link` is undefined until the request's second row, null when the URL cannot be split.
   */
  #request: RequestLike | undefined;
  #link: LinkParts | null | undefined;

  constructor(viewName: string, kwarg: string) {
    this.viewName = viewName;
    this.kwarg = kwarg;
  }

  /** The absolute URL of the route with its parameter set to `value`. */
  link(request: RequestLike, value: unknown): string {
    const link = this.#linkFor(request);
    // Integers need no encoding; anything else is encoded as reverse() does.
    if (link) {
      if (typeof value === 'number' && Number.isSafeInteger(value))
        return link.prefix + value + link.suffix;
      if (typeof value === 'string') return link.prefix + encodeURIComponent(value) + link.suffix;
    }
    // Not a computed key in a literal: V8 defines those through a runtime call.
    const params: Record<string, unknown> = {};
    params[this.kwarg] = value;
    return request.reverse(this.viewName, params);
  }

  /**
   * The split URL for this request's rows, or null for its first row (a detail view renders no
   * other, and one reverse() is cheaper than splitting) and for a URL that cannot be split.
   */
  #linkFor(request: RequestLike): LinkParts | null {
    if (this.#request !== request) {
      this.#request = request;
      this.#link = undefined;
      return null;
    }
    if (this.#link === undefined) this.#link = linkParts(request, this.viewName, this.kwarg);
    return this.#link;
  }
}

/** The URL split around its parameter, or null when another parameter or more are in the way. */
function linkParts(request: RequestLike, viewName: string, kwarg: string): LinkParts | null {
  let url: string;
  try {
    url = request.reverse(viewName, { [kwarg]: PLACEHOLDER });
  } catch {
    // Another parameter is missing: each row goes through reverse(), which says what is wrong.
    return null;
  }
  const at = url.indexOf('%00');
  if (at === -1 || url.indexOf('%00', at + 3) !== -1) return null;
  return { prefix: url.slice(0, at), suffix: url.slice(at + 3) };
}
