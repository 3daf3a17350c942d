/**
 * DRF's `force_authenticate`, for tests: the test client's requests carry the user (and
 * token) under a symbol on the raw request, which no HTTP client can set; views take it in
 * place of their authenticators, and permissions still run.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import type { RequestUser } from '../../http/request.ts';

/** Where a test request carries its forced user: `{ user, token }`. */
export const FORCED_AUTH: unique symbol = Symbol('restframework.forcedAuthentication');

/** The user and credentials a test forced on a request. */
export interface ForcedAuthentication {
  readonly user: RequestUser;
  readonly token: unknown;
}

/**
 * The forced user of a raw request, or undefined (every request but a test client's).
 *
 * @example
 * ```ts
 * declare const raw: import('node:http').IncomingMessage;
 * forcedAuthenticationOf(raw); // undefined outside the test client
 * ```
 */
export function forcedAuthenticationOf(raw: IncomingMessage): ForcedAuthentication | undefined {
  return (raw as IncomingMessage & { [FORCED_AUTH]?: ForcedAuthentication })[FORCED_AUTH];
}
