/**
 * The `Host` check the toolkit makes before any view runs (Django's `ALLOWED_HOSTS`, the
 * bookstore's default list), with the absolute URLs a host's answers start with. A service
 * sees few distinct `Host` values, so each is checked once and remembered.
 * @module
 */

/** The bookstore's default ALLOWED_HOSTS. */
const ALLOWED = new Set(['127.0.0.1', 'localhost', '[::1]']);
const VALID_HOST = /^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(:\d+)?$/;

/** What an allowed host's answers start their URLs with. */
export interface Site {
  /** `http://host:port` */
  readonly origin: string;
  /** `http://host:port/books/api/books/`, where every book's `url` starts. */
  readonly books: string;
  /**
   * `http://host:port/bench/api/books-cursor/`: the cursor list's rows link under the router
   * that listed them (its view set extends the books'), as the toolkit's routers reverse them.
   */
  readonly cursorBooks: string;
}

function allowed(header: string): boolean {
  const host = header.trim().toLowerCase();
  if (!VALID_HOST.test(host)) return false;
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : host.lastIndexOf(':');
  const name = end <= 0 ? host : host.slice(0, end);
  return ALLOWED.has(name.endsWith('.') ? name.slice(0, -1) : name);
}

const sites = new Map<string, Site | null>();

/**
 * The site of a request's `Host` header, or null when the host is not allowed (the caller
 * answers 400). The server speaks plain HTTP.
 */
export function siteOf(header: string | undefined): Site | null {
  if (header === undefined) return null;
  let site = sites.get(header);
  if (site === undefined) {
    const origin = `http://${header}`;
    site = allowed(header)
      ? {
          origin,
          books: `${origin}/books/api/books/`,
          cursorBooks: `${origin}/bench/api/books-cursor/`,
        }
      : null;
    // Bounded: a client sending a new Host per request cannot grow it without end.
    if (sites.size < 100) sites.set(header, site);
  }
  return site;
}
