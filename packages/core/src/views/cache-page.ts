/**
 * Per-view caching, as Django's `cache_page`: a view (or view set) that declares
 * `static cachePolicy = cachePage(60)` answers a GET or HEAD from the app's cache when the
 * same URL (host, path and query), the same negotiated media type and the same values of the
 * headers it varies on were answered within the last 60 seconds; otherwise it runs as usual
 * and its 200 answer is stored, rendered.
 *
 * What is never cached: a method other than GET and HEAD, a status other than 200, an
 * error, and an answer to an authenticated request, unless the policy varies on every
 * credential the request carries (`varyOnHeaders: ['Authorization']` for a token,
 * `varyOnCookie: true` for a session), so that one user's answer never reaches another.
 * Authentication, permissions and throttles still run before the cache is read: a cached
 * answer is only given to a caller the view would have answered.
 *
 * Invalidation: each model a cached view reads (its `queryset`'s model, plus `dependsOn`) has
 * a version in the cache; a write to its table through the toolkit's query sets (`save`,
 * `update`, `delete`, `bulkCreate`: what the view sets' create, update and destroy do) gives it
 * a new version, now and again when the transaction commits, so the next GET misses. Writes
 * made with raw SQL are not seen: the entry then lives until its timeout.
 *
 * @example
 * ```ts
 * import { cachePage, ModelViewSet } from '@restframework/core';
 *
 * class BookViewSet extends ModelViewSet {
 *   static override cachePolicy = cachePage(60, { varyOnHeaders: ['Accept-Language'] });
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 * ```
 * @module
 */
import { hash, randomBytes } from 'node:crypto';
import { channel } from 'node:diagnostics_channel';
import type { Cache, CacheValue } from '../cache/cache.ts';
import type { Database } from '../db/database.ts';
import { onTableWrite } from '../db/plan/table-writes.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { Request } from '../http/request.ts';
import { Response } from '../http/response.ts';
import type { AnyModel } from '../models/model.ts';
import type { APISettings } from '../settings/api-settings.ts';
import { catchMaybe, type MaybePromise, thenMaybe } from '../utils/maybe-promise.ts';

/** Options of {@link cachePage}. */
export interface CachePageOptions {
  /** Request headers whose values key the entry (Django's `vary_on_headers`). */
  readonly varyOnHeaders?: readonly string[];
  /** Key the entry on the `Cookie` header (Django's `vary_on_cookie`). */
  readonly varyOnCookie?: boolean;
  /** The name of the cache in `CACHES` (default `default`). */
  readonly cache?: string;
  /** More models whose writes invalidate the entries (nested or related data the view shows). */
  readonly dependsOn?: readonly AnyModel[];
}

/** A view's caching, as {@link cachePage} makes it (frozen). */
export interface CachePolicy {
  /** How long an answer is kept, in seconds. */
  readonly seconds: number;
  /** Lower-case header names, `cookie` last when `varyOnCookie`. */
  readonly varyOn: readonly string[];
  /** The name of the cache in `CACHES`. */
  readonly cache: string;
  /** Models whose writes invalidate the entries, besides the view's own. */
  readonly dependsOn: readonly AnyModel[];
  /** The `Vary` header the answers carry. */
  readonly vary: string;
}

/** What the `restframework:cache` diagnostics channel publishes (metrics count it). */
export interface CacheEvent {
  /** The name of the cache in `CACHES`. */
  readonly cache: string;
  /** Whether the answer came from the cache. */
  readonly result: 'hit' | 'miss';
}

const cacheEvents = channel('restframework:cache');

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * A view's cache policy: `seconds` of life for each stored answer (see the module).
 *
 * @example
 * ```ts
 * class BookList extends ListAPIView {
 *   static override cachePolicy = cachePage(300, { varyOnCookie: true });
 * }
 * ```
 */
export function cachePage(seconds: number, options: CachePageOptions = {}): CachePolicy {
  if (!Number.isInteger(seconds) || seconds < 1) {
    throw new ImproperlyConfigured(
      'REST_ERR_CACHE',
      `cachePage(seconds): seconds must be a whole number, 1 or more, got ${JSON.stringify(seconds)}.`,
    );
  }
  const names = (options.varyOnHeaders ?? []).map((name) => {
    if (typeof name !== 'string' || !HEADER_NAME.test(name)) {
      throw new ImproperlyConfigured(
        'REST_ERR_CACHE',
        `cachePage: varyOnHeaders must list header names such as "Accept-Language", got ${JSON.stringify(name)}.`,
      );
    }
    return name.toLowerCase();
  });
  const varyOn = [...new Set(names.filter((n) => n !== 'cookie'))];
  if (options.varyOnCookie || names.includes('cookie')) varyOn.push('cookie');
  const shown = (options.varyOnHeaders ?? []).filter((n) => n.toLowerCase() !== 'cookie');
  return Object.freeze({
    seconds,
    varyOn: Object.freeze(varyOn),
    cache: options.cache ?? 'default',
    dependsOn: Object.freeze([...(options.dependsOn ?? [])]),
    vary: ['Accept', ...shown, ...(varyOn.includes('cookie') ? ['Cookie'] : [])].join(', '),
  });
}

/** The key of a table's version in the cache. */
function versionKey(table: string): string {
  return `restframework.model_version.${table}`;
}

/**
 * This process's part of the versions it makes: random once, so that two processes sharing a
 * cache (or one restarted) never make the same version, while each write pays only a counter
 * (a write to a cached view's table makes two versions: 9 random bytes each cost 5 % of a PATCH).
 */
const PROCESS_TAG = randomBytes(9).toString('base64url');
let versionsMade = 0;

function newVersion(): string {
  versionsMade += 1;
  return PROCESS_TAG + versionsMade.toString(36);
}

/** May this request's answer be stored and read? (see the module) */
function cacheable(request: Request, policy: CachePolicy): boolean {
  const method = request.method;
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (!request.user.isAuthenticated && (request.auth === null || request.auth === undefined))
    return true;
  const headers = request.raw.headers;
  const authorization = headers.authorization !== undefined;
  const cookie = headers.cookie !== undefined;
  // Authenticated by something that is neither header: nothing keys the entry to the caller.
  if (!authorization && !cookie) return false;
  if (authorization && !policy.varyOn.includes('authorization')) return false;
  return !cookie || policy.varyOn.includes('cookie');
}

/** The versions of `tables`, a new one set for any that has none (never reused). */
function versionsOf(cache: Cache, tables: readonly string[]): MaybePromise<string> {
  return thenMaybe(cache.getMany(tables.map(versionKey)), (found) => {
    const missing = tables.filter((table) => found[versionKey(table)] === undefined);
    if (missing.length === 0) return tables.map((t) => found[versionKey(t)]).join('.');
    // Another process may set one at the same moment: each then stores under its own
    // version, which only costs a miss.
    const made = Object.fromEntries(missing.map((table) => [versionKey(table), newVersion()]));
    return thenMaybe(cache.setMany(made, null), () =>
      tables.map((t) => found[versionKey(t)] ?? made[versionKey(t)]).join('.'),
    );
  });
}

/** The tables whose writes invalidate the view's entries. */
export function cachedTables(view: object, policy: CachePolicy): string[] {
  const model = (view as { queryset?: { model?: AnyModel } }).queryset?.model;
  const tables = policy.dependsOn.map((m) => m.table);
  if (model) tables.unshift(model.table);
  return [...new Set(tables)];
}

/**
 * Answers from the cache, or runs `handle` and stores its answer once rendered. A failing
 * cache (Redis down) never fails the request: the view runs as if nothing were cached.
 */
export function cachedDispatch(
  view: object,
  request: Request,
  policy: CachePolicy,
  handle: () => Response | Promise<Response>,
): Response | Promise<Response> {
  if (!cacheable(request, policy)) return handle();
  const cache = request.settings.CACHES?.[policy.cache];
  if (cache === undefined) return handle();
  const lookup = catchMaybe(
    () =>
      thenMaybe(versionsOf(cache, cachedTables(view, policy)), (versions) => {
        const key = entryKey(request, policy, versions);
        return thenMaybe(cache.get<string>(key), (entry) => ({ key, entry }));
      }),
    () => null,
  );
  return thenMaybe(lookup, (found) => {
    if (found === null) return handle();
    if (typeof found.entry === 'string') {
      const hit = fromEntry(found.entry);
      if (hit) {
        if (cacheEvents.hasSubscribers) cacheEvents.publish({ cache: policy.cache, result: 'hit' });
        return hit;
      }
    }
    if (cacheEvents.hasSubscribers) cacheEvents.publish({ cache: policy.cache, result: 'miss' });
    return thenMaybe(handle(), (response) => {
      if (response.status !== 200 || response.exception) return response;
      response.headers.Vary ??= policy.vary;
      response.headers['Cache-Control'] ??= `max-age=${policy.seconds}`;
      response.onRendered = (contentType, body) => {
        const entry = `${JSON.stringify([contentType, response.headers])}\n${body}`;
        // A cache that fails to store only costs the next request a miss.
        catchMaybe(
          () => cache.set(found.key, entry as CacheValue, policy.seconds),
          () => undefined,
        );
      };
      return response;
    });
  });
}

function entryKey(request: Request, policy: CachePolicy, versions: string): string {
  const raw = request.raw;
  const headers = raw.headers;
  const parts: string[] = [
    raw.protocol,
    headers.host ?? '',
    raw.url,
    request.acceptedMediaType,
    versions,
  ];
  for (const name of policy.varyOn) {
    const value = headers[name];
    parts.push(value === undefined ? '' : String(value));
  }
  return `restframework.cache_page.${hash('sha256', JSON.stringify(parts), 'base64url')}`;
}

/** The stored answer as a response, or undefined for an entry that is not one. */
function fromEntry(entry: string): Response | undefined {
  const newline = entry.indexOf('\n');
  if (newline === -1) return undefined;
  let head: unknown;
  try {
    head = JSON.parse(entry.slice(0, newline));
  } catch {
    return undefined;
  }
  if (!Array.isArray(head) || typeof head[0] !== 'string' || typeof head[1] !== 'object')
    return undefined;
  const response = new Response(null, 200, { ...(head[1] as Record<string, string>) });
  response.rendered = { contentType: head[0], body: entry.slice(newline + 1) };
  return response;
}

/**
 * Makes writes to the tables of the app's cached views give them new versions (see the
 * module); returns the function that stops listening (when the app closes). Checks that each
 * policy names a cache of `CACHES`.
 */
export function watchCachedViews(
  views: Iterable<{ readonly viewClass: unknown; readonly where: string }>,
  settings: APISettings,
): () => void {
  const caches = settings.CACHES ?? {};
  const watched = new Set<string>();
  const stops: (() => void)[] = [];
  for (const { viewClass, where } of views) {
    const policy = (viewClass as { cachePolicy?: CachePolicy }).cachePolicy;
    if (policy === undefined) continue;
    const cache = caches[policy.cache];
    if (cache === undefined) {
      throw new ImproperlyConfigured(
        'REST_ERR_CACHE',
        `${where}: cachePolicy uses the cache "${policy.cache}", which CACHES does not name ` +
          `(it names ${Object.keys(caches).join(', ') || 'none'}).`,
      );
    }
    const probe = new (viewClass as new () => object)();
    for (const table of cachedTables(probe, policy)) {
      const id = `${policy.cache}\u0000${table}`;
      if (watched.has(id)) continue;
      watched.add(id);
      const bump = () =>
        catchMaybe(
          () => cache.set(versionKey(table), newVersion(), null),
          () => undefined,
        );
      stops.push(
        onTableWrite([table], (db: Database) => {
          bump();
          // Again once committed: a read between the write and the commit may have stored
          // the old rows under the new version.
          db.onCommit(async () => {
            await bump();
          }).catch(() => {});
        }),
      );
    }
  }
  return () => {
    for (const stop of stops) stop();
  };
}
