/**
 * Query-string editing for pagination links, byte-compatible with DRF's
 * `replace_query_param`/`remove_query_param`: parameters parsed keeping blank values,
 * sorted by key, encoded as Python's `urlencode` does (`+` for spaces, `%2C` for commas).
 * @module
 */

const UNRESERVED = /^[A-Za-z0-9_.~-]*$/;

/** Python's `quote_plus`: only letters, digits and `_.-~` stay as they are. */
export function quotePlus(value: string): string {
  // Page numbers and cursors (base64url) need no escaping: skip the three passes.
  if (UNRESERVED.test(value)) return value;
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${(c.codePointAt(0) as number).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

function unquotePlus(value: string): string {
  const text = value.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(text);
  } catch {
    // A malformed escape is kept as sent, as Python does.
    return text;
  }
}

/** Splits an absolute or relative URL into the part before `?` and the query. */
function splitUrl(url: string): { base: string; query: string; fragment: string } {
  const hash = url.indexOf('#');
  const fragment = hash === -1 ? '' : url.slice(hash);
  const withoutFragment = hash === -1 ? url : url.slice(0, hash);
  const q = withoutFragment.indexOf('?');
  return q === -1
    ? { base: withoutFragment, query: '', fragment }
    : { base: withoutFragment.slice(0, q), query: withoutFragment.slice(q + 1), fragment };
}

function parseQuery(query: string): Map<string, string[]> {
  const params = new Map<string, string[]>();
  for (const pair of query.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = unquotePlus(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : unquotePlus(pair.slice(eq + 1));
    const list = params.get(key);
    if (list) list.push(value);
    else params.set(key, [value]);
  }
  return params;
}

function build(base: string, params: Map<string, string[]>, fragment: string): string {
  const keys = [...params.keys()].sort();
  const query = keys
    .flatMap((key) =>
      (params.get(key) as string[]).map((value) => `${quotePlus(key)}=${quotePlus(value)}`),
    )
    .join('&');
  return `${base}${query ? `?${query}` : ''}${fragment}`;
}

/**
 * `url` with `key` set to `value` (replacing every previous value).
 *
 * @example
 * ```ts
 * replaceQueryParam('http://h/api/?ordering=email', 'page', 2); // 'http://h/api/?ordering=email&page=2'
 * ```
 */
export function replaceQueryParam(url: string, key: string, value: string | number): string {
  // No query and no fragment (a list's first page): the one parameter is the whole query, so
  // there is nothing to parse, sort or re-encode (the same bytes as below, without the passes).
  if (url.indexOf('?') === -1 && url.indexOf('#') === -1)
    return `${url}?${quotePlus(key)}=${quotePlus(String(value))}`;
  const { base, query, fragment } = splitUrl(url);
  const params = parseQuery(query);
  params.set(key, [String(value)]);
  return build(base, params, fragment);
}

/** `url` without `key`. */
export function removeQueryParam(url: string, key: string): string {
  const { base, query, fragment } = splitUrl(url);
  const params = parseQuery(query);
  params.delete(key);
  return build(base, params, fragment);
}
