/**
 * Pagination links as DRF writes them: the request's URL with one parameter replaced or
 * removed, parameters sorted by key, encoded as Python's `urlencode` (`+` for spaces).
 * @module
 */

function quotePlus(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${(c.codePointAt(0) as number).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

function unquotePlus(value: string): string {
  const text = value.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * `origin + path` with the query string `query` where `name` is set to `value` (or removed
 * when `value` is null).
 */
export function pageLink(
  origin: string,
  path: string,
  query: string,
  name: string,
  value: string | number | null,
): string {
  const pairs: Array<[string, string]> = [];
  if (query) {
    for (const part of query.split('&')) {
      if (!part) continue;
      const eq = part.indexOf('=');
      const key = unquotePlus(eq === -1 ? part : part.slice(0, eq));
      if (key === name) continue;
      pairs.push([key, eq === -1 ? '' : unquotePlus(part.slice(eq + 1))]);
    }
  }
  if (value !== null) pairs.push([name, String(value)]);
  if (pairs.length === 0) return origin + path;
  // A stable sort by key keeps repeated keys in their order, as Python's sorted() does.
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return `${origin}${path}?${pairs.map(([k, v]) => `${quotePlus(k)}=${quotePlus(v)}`).join('&')}`;
}
