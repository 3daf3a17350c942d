/**
 * CORS as django-cors-headers configures it, on `@fastify/cors`: the same settings in camelCase
 * (`CORS_ALLOWED_ORIGINS` → `allowedOrigins`, ...), checked at start-up. A preflight is
 * answered in an `onRequest` hook, so it never reaches authentication, throttles or a view.
 *
 * @example
 * ```ts
 * await app.register(restFramework, { database: db });
 * await app.register(corsHeaders, {
 *   allowedOrigins: ['https://app.example.org'],
 *   allowCredentials: true,
 *   exposeHeaders: ['ETag'],
 * });
 * ```
 * @module
 */
import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';

/** django-cors-headers' settings, in camelCase and without the `CORS_` prefix. */
export interface CorsHeadersOptions {
  /** `CORS_ALLOWED_ORIGINS`: origins allowed to read answers (`https://app.example.org`). */
  readonly allowedOrigins?: readonly string[];
  /** `CORS_ALLOWED_ORIGIN_REGEXES`: origins allowed by pattern (`/^https:\/\/\w+\.example\.org$/`). */
  readonly allowedOriginRegexes?: readonly (RegExp | string)[];
  /**
   * `CORS_ALLOW_ALL_ORIGINS`: any origin (`*`; the caller's own origin when credentials are
   * allowed, as `*` may not carry them). Not with credentials on a service with sessions.
   */
  readonly allowAllOrigins?: boolean;
  /** `CORS_URLS_REGEX`: the paths CORS applies to (default every path). */
  readonly urlsRegex?: RegExp | string;
  /** `CORS_ALLOW_METHODS` (default DELETE, GET, OPTIONS, PATCH, POST, PUT). */
  readonly allowMethods?: readonly string[];
  /**
   * `CORS_ALLOW_HEADERS` (default accept, authorization, content-type, user-agent,
   * x-csrftoken, x-requested-with); add `if-match` for conditional writes.
   */
  readonly allowHeaders?: readonly string[];
  /** `CORS_EXPOSE_HEADERS`: response headers a page may read (`ETag`, `Location`). */
  readonly exposeHeaders?: readonly string[];
  /** `CORS_PREFLIGHT_MAX_AGE`: seconds a browser may keep a preflight's answer (default 86400; 0: no header). */
  readonly preflightMaxAge?: number;
  /** `CORS_ALLOW_CREDENTIALS`: let pages send cookies and read the answers (default false). */
  readonly allowCredentials?: boolean;
}

/** django-cors-headers' default `CORS_ALLOW_METHODS`. */
export const DEFAULT_CORS_METHODS = Object.freeze([
  'DELETE',
  'GET',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
]);

/** django-cors-headers' default `CORS_ALLOW_HEADERS`. */
export const DEFAULT_CORS_HEADERS = Object.freeze([
  'accept',
  'authorization',
  'content-type',
  'user-agent',
  'x-csrftoken',
  'x-requested-with',
]);

const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+$/i;

function fail(message: string): never {
  throw new ImproperlyConfigured('REST_ERR_CORS', message);
}

function regex(value: RegExp | string, name: string): RegExp {
  if (value instanceof RegExp) return value;
  try {
    return new RegExp(value);
  } catch (error) {
    return fail(
      `corsHeaders ${name}: ${JSON.stringify(value)} is not a regular expression (${(error as Error).message}).`,
    );
  }
}

/**
 * The `@fastify/cors` options of django-cors-headers-style settings, checked: an origin with
 * a path or without a scheme, a pattern that does not compile, `allowAllOrigins` beside a
 * list, a negative max-age fail with `REST_ERR_CORS`.
 *
 * @example
 * ```ts
 * corsOptions({ allowedOrigins: ['https://app.example.org'] }).origin; // ['https://app.example.org']
 * ```
 */
export function corsOptions(options: CorsHeadersOptions): FastifyCorsOptions {
  const origins = options.allowedOrigins ?? [];
  for (const origin of origins) {
    if (origin !== 'null' && !ORIGIN.test(origin))
      fail(
        `corsHeaders allowedOrigins: ${JSON.stringify(origin)} is not an origin. Write scheme and host (and port), without a path: "https://app.example.org".`,
      );
  }
  const patterns = (options.allowedOriginRegexes ?? []).map((r) =>
    regex(r, 'allowedOriginRegexes'),
  );
  const all = options.allowAllOrigins === true;
  if (all && (origins.length > 0 || patterns.length > 0))
    fail(
      'corsHeaders: allowAllOrigins allows every origin; remove allowedOrigins and allowedOriginRegexes, or allowAllOrigins.',
    );
  const maxAge = options.preflightMaxAge ?? 86400;
  if (!Number.isInteger(maxAge) || maxAge < 0)
    fail(
      `corsHeaders preflightMaxAge must be a whole number of seconds, got ${JSON.stringify(maxAge)}.`,
    );
  const credentials = options.allowCredentials === true;
  return {
    // `*` may not carry credentials: then the caller's origin is sent back, as django-cors-headers does.
    origin: all
      ? credentials
        ? true
        : '*'
      : origins.length + patterns.length === 0
        ? false
        : [...origins, ...patterns],
    methods: [...(options.allowMethods ?? DEFAULT_CORS_METHODS)],
    allowedHeaders: [...(options.allowHeaders ?? DEFAULT_CORS_HEADERS)],
    exposedHeaders: [...(options.exposeHeaders ?? [])],
    credentials,
    // django-cors-headers sends no Access-Control-Max-Age for 0.
    ...(maxAge > 0 ? { maxAge } : {}),
    // A preflight without Origin is still answered (204), as django-cors-headers does.
    strictPreflight: false,
  };
}

async function plugin(app: FastifyInstance, options: CorsHeadersOptions): Promise<void> {
  const cors = corsOptions(options);
  const urls = options.urlsRegex === undefined ? null : regex(options.urlsRegex, 'urlsRegex');
  // An OPTIONS without Access-Control-Request-Method is no preflight (django-cors-headers'
  // test): it gets the CORS headers and goes on to the view's OPTIONS (its metadata).
  const notPreflight: FastifyCorsOptions = { ...cors, preflight: false };
  const off: FastifyCorsOptions = { origin: false };
  await app.register(fastifyCors, {
    hook: 'onRequest',
    delegator: (req: FastifyRequest, callback) => {
      if (urls !== null) {
        const url = req.raw.url ?? '/';
        const q = url.indexOf('?');
        if (!urls.test(q === -1 ? url : url.slice(0, q))) return callback(null, off);
      }
      const preflight =
        req.raw.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
      callback(null, preflight ? cors : notPreflight);
    },
  });
}

/**
 * The CORS plugin (django-cors-headers' `CorsMiddleware`): register it on the app, beside
 * `restFramework`. See the module documentation.
 */
export const corsHeaders = fp(plugin, { name: '@restframework/core/cors', fastify: '5.x' });
