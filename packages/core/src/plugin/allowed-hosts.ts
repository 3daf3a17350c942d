/**
 * Host header validation, as Django's `ALLOWED_HOSTS`.
 * @module
 */

/** The host part of a `Host` header, lower-cased, without port (`[::1]` keeps its brackets). */
export function hostWithoutPort(header: string): string {
  const host = header.trim().toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? host : host.slice(0, end + 1);
  }
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

const VALID_HOST = /^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(:\d+)?$/;

/**
 * True when `header` names an allowed host: an exact name, a subdomain of a `.domain`
 * pattern, or anything with `*`. Malformed hosts are never allowed.
 */
export function isAllowedHost(header: string | undefined, allowed: readonly string[]): boolean {
  if (!header || !VALID_HOST.test(header.trim().toLowerCase())) return false;
  const host = hostWithoutPort(header).replace(/\.$/, '');
  return allowed.some((pattern) => {
    const p = pattern.toLowerCase();
    if (p === '*') return true;
    if (p.startsWith('.')) return host === p.slice(1) || host.endsWith(p);
    return host === p;
  });
}
