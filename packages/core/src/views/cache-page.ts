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
import { BoundedCache, ownPlan } from '../utils/bounded-cache.ts';
import { catchMaybe, thenMaybe } from '../utils/maybe-promise.ts';

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
 * This process's part of the versions (and entry ids) it makes: random once, so that two
 * processes sharing a cache (or one restarted) never make the same one, while each write pays
 * only a counter (a write to a cached view's table makes two versions: 9 random bytes each
 * cost 5 % of a PATCH).
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

/** The tables whose writes invalidate the view's entries. */
export function cachedTables(view: object, policy: CachePolicy): string[] {
  const model = (view as { queryset?: { model?: AnyModel } }).queryset?.model;
  const tables = policy.dependsOn.map((m) => m.table);
  if (model) tables.unshift(model.table);
  return [...new Set(tables)];
}

/** An entry as this process sends it: its bytes and headers, decoded once. */
interface DecodedEntry {
  readonly contentType: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/**
 * What a cached view class prepares once (kept on the route's class with `ownPlan`): the
 * version keys of the tables it reads (the same tables `watchCachedViews` watches, taken from
 * the class's `queryset` and the policy), and the entries this process decoded, by entry id.
 */
interface CachePlan {
  readonly versionKeys: readonly string[];
  readonly decoded: BoundedCache<string, DecodedEntry>;
}

const PLAN = Symbol('cache plan');

/**
 * How many decoded entries a cached view class keeps: the hot ones (a few URLs and media
 * types); an entry pushed out is decoded again from the cache's text when next read.
 */
const DECODED_ENTRIES = 32;

function planOf(view: object, policy: CachePolicy): CachePlan {
  return ownPlan(view.constructor, PLAN, () => ({
    versionKeys: cachedTables(view, policy).map(versionKey),
    decoded: new BoundedCache<string, DecodedEntry>('decoded cached answers', DECODED_ENTRIES),
  }));
}

/** What one read of the cache found: the entry's key, the current versions and the entry. */
interface Lookup {
  readonly key: string;
  readonly versions: string;
  readonly entry: CacheValue | undefined;
}

/**
 * One read of the cache for the versions of the view's tables and the entry (one `MGET` on
 * Redis): the entry carries the versions it was made under, and is only a hit when they are
 * the current ones. A table without a version gets a new one (never reused), and the read is
 * a miss.
 */
function lookUp(cache: Cache, plan: CachePlan, key: string): Lookup | Promise<Lookup> {
  const versionKeys = plan.versionKeys;
  return thenMaybe(cache.getMany([...versionKeys, key]), (found) => {
    let versions = '';
    let made: Record<string, string> | undefined;
    for (let i = 0; i < versionKeys.length; i++) {
      const name = versionKeys[i] as string;
      const stored = found[name];
      let version: string;
      if (stored === undefined) {
        version = newVersion();
        (made ??= {})[name] = version;
      } else version = String(stored);
      versions = i === 0 ? version : `${versions}.${version}`;
    }
    if (made === undefined) return { key, versions, entry: found[key] };
    // Another process may set one at the same moment: each then stores under its own
    // version, which only costs a miss.
    return thenMaybe(cache.setMany(made, null), () => ({ key, versions, entry: undefined }));
  });
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
  const plan = planOf(view, policy);
  const lookup = catchMaybe(
    () => lookUp(cache, plan, entryKey(request, policy)),
    () => null,
  );
  return thenMaybe(lookup, (found) => {
    if (found === null) return handle();
    if (typeof found.entry === 'string') {
      const hit = fromEntry(plan, found.entry, found.versions);
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
        const id = newVersion();
        const headers = { ...response.headers };
        plan.decoded.set(id, { contentType, headers, body: Buffer.from(body) });
        const head = JSON.stringify([contentType, headers]);
        const entry = `${found.versions}\n${id}\n${head}\n${body}`;
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

/** Keys longer than this are hashed (a long cookie or query string), shorter ones kept. */
const PLAIN_KEY_LENGTH = 200;

/**
 * The entry's key: scheme, host, URL (path and query), negotiated media type and the values of
 * the headers the policy varies on, joined with NUL (which none of them can hold: a part that
 * does is hashed with the rest). Short keys are kept as they are, which costs less than the
 * SHA-256 of a long one. The versions are not in the key but in the entry (see `lookUp`).
 */
function entryKey(request: Request, policy: CachePolicy): string {
  const raw = request.raw;
  const headers = raw.headers;
  let key = `${raw.protocol}\u0000${headers.host ?? ''}\u0000${raw.url}\u0000${request.acceptedMediaType}`;
  const varyOn = policy.varyOn;
  for (let i = 0; i < varyOn.length; i++) {
    const value = headers[varyOn[i] as string];
    key += value === undefined ? '\u0000' : `\u0000${value}`;
  }
  if (key.length <= PLAIN_KEY_LENGTH && count(key, '\u0000') === 3 + varyOn.length)
    return `restframework.cache_page.${key}`;
  return `restframework.cache_page#${hash('sha256', key, 'base64url')}`;
}

/** How many times `char` occurs in `text`. */
function count(text: string, char: string): number {
  let n = 0;
  for (let at = text.indexOf(char); at !== -1; at = text.indexOf(char, at + 1)) n++;
  return n;
}

/**
 * The stored answer as a response, or undefined for an entry made under other versions or not
 * one at all. An entry is `versions`, its id, `[contentType, headers]` as JSON and the body,
 * on lines of their own; it is decoded once per process and id, then sent as bytes.
 */
function fromEntry(plan: CachePlan, entry: string, versions: string): Response | undefined {
  const idStart = versions.length + 1;
  if (!entry.startsWith(versions) || entry.charCodeAt(versions.length) !== 10) return undefined;
  const idEnd = entry.indexOf('\n', idStart);
  if (idEnd === -1) return undefined;
  const id = entry.slice(idStart, idEnd);
  let decoded = plan.decoded.get(id);
  if (decoded === undefined) {
    decoded = decode(entry, idEnd + 1);
    if (decoded === undefined) return undefined;
    plan.decoded.set(id, decoded);
  }
  const response = new Response(null, 200, { ...decoded.headers });
  response.rendered = { contentType: decoded.contentType, body: decoded.body };
  return response;
}

/** The head and body of an entry from `start`, or undefined when they are not an answer. */
function decode(entry: string, start: number): DecodedEntry | undefined {
  const newline = entry.indexOf('\n', start);
  if (newline === -1) return undefined;
  let head: unknown;
  try {
    head = JSON.parse(entry.slice(start, newline));
  } catch {
    return undefined;
  }
  if (
    !Array.isArray(head) ||
    typeof head[0] !== 'string' ||
    typeof head[1] !== 'object' ||
    head[1] === null
  )
    return undefined;
  return {
    contentType: head[0],
    headers: head[1] as Record<string, string>,
    body: Buffer.from(entry.slice(newline + 1)),
  };
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
