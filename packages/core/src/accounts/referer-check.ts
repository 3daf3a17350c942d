/**
 * Django's strict Referer check (`CsrfViewMiddleware._check_referer`): an unsafe request of a
 * session over HTTPS that sends no `Origin` must send a `Referer` of the same origin (or of a
 * trusted one). Over HTTPS a man in the middle cannot forge the Referer of the victim's
 * browser, and a cross-site form post from an HTTP page is refused even with a stolen token.
 * @module
 */
import type { Request } from '../http/request.ts';
import type { Auth } from './auth.ts';

/**
 * Why the request's `Referer` fails the check (Django's reasons, without the "CSRF Failed: "
 * prefix), or null when it passes. Only for an HTTPS request without an `Origin` header.
 *
 * @example
 * ```ts
 * declare const auth: Auth;
 * declare const request: Request; // an HTTPS POST of a session, with neither Origin nor Referer
 *
 * refererFailure(auth, request); // 'Referer checking failed - no Referer.'
 * ```
 */
export function refererFailure(auth: Auth, request: Request): string | null {
  const referer = request.raw.headers.referer;
  if (typeof referer !== 'string' || referer === '') return 'Referer checking failed - no Referer.';
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return 'Referer checking failed - Referer is malformed.';
  }
  if (url.host === '' || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    return 'Referer checking failed - Referer is malformed.';
  if (url.protocol !== 'https:')
    return 'Referer checking failed - Referer is insecure while host is secure.';
  // `URL` lower-cases the host and drops the default port: the request's own origin goes
  // through it too, so that `Example.org:443` matches `https://example.org/`.
  if (url.origin === sameOrigin(request) || auth.session.trustedOrigins.includes(url.origin))
    return null;
  return `Referer checking failed - ${referer.slice(0, 200)} does not match any trusted origins.`;
}

function sameOrigin(request: Request): string | undefined {
  try {
    return new URL(request.origin).origin;
  } catch {
    return undefined;
  }
}
