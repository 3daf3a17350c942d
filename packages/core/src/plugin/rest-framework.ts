/**
 * The toolkit's Fastify plugin: settings, database and named routes shared by every router
 * of an app, the allowed-hosts check, security headers, JSON 404s and cleanup of uploads.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { Database, DefaultRouter, ModelViewSet, restFramework } from '@restframework/core';
 *
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 * }
 *
 * const app = Fastify();
 * await app.register(restFramework, { database: Database.connect('sqlite:db.sqlite3'), settings: { PAGE_SIZE: 100 } });
 * const router = new DefaultRouter();
 * router.register('books', BookViewSet);
 * await app.register(router.plugin, { prefix: '/api' });
 * ```
 * @module
 */

import type { Duplex } from 'node:stream';
import type {
  FastifyBaseLogger,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import fp from 'fastify-plugin';
import type { Cache } from '../cache/cache.ts';
import { MemoryCache } from '../cache/memory-cache.ts';
import { RedisCache } from '../cache/redis-cache.ts';
import { Database } from '../db/database.ts';
import type { DatabaseRouter } from '../db/routing/database-router.ts';
import { Databases } from '../db/routing/databases.ts';
import { DisallowedHost, MethodNotAllowed, NotFound } from '../errors/api-exception.ts';
import { fastifyErrorToApi } from '../errors/fastify-error-to-api.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { FileSystemStorage } from '../files/file-system-storage.ts';
import { SECURITY_HEADERS, writeRawAnswer } from '../http/raw-answer.ts';
import type { Request } from '../http/request.ts';
import { sendResponse } from '../http/send-response.ts';
import { mountBrowsableApi } from '../renderers/browsable-api/browsable-api-plugin.ts';
import type { Endpoint } from '../routers/endpoint.ts';
import { UrlRegistry } from '../routers/url-registry.ts';
import type { APISettings, SettingsInput } from '../settings/api-settings.ts';
import { RedisThrottleStore } from '../throttling/redis-throttle-store.ts';
import { MemoryThrottleStore, type ThrottleStore } from '../throttling/throttle-store.ts';
import { BoundedCache } from '../utils/bounded-cache.ts';
import { watchCachedViews } from '../views/cache-page.ts';
import { contextOutsideView, type ExceptionHandler } from '../views/exception-handler.ts';
import { respondToException } from '../views/exception-response.ts';
import { isAllowedHost } from './allowed-hosts.ts';
import { guardConnections } from './connection-guard.ts';
import { resolveSettings } from './default-settings.ts';

/** Options of {@link restFramework}. */
export interface RestFrameworkOptions {
  /**
   * The database every view and query of the app uses. It also becomes the process-wide
   * default (`Database.setDefault`) when none is set, as Django's `default` database: queries
   * outside requests (scripts, hooks, jobs of the same process) then use it too. Required
   * unless `databases` is given.
   */
  readonly database?: Database;
  /**
   * Several named databases (Django's `DATABASES`), in place of `database`: a `Databases`, or
   * its databases by alias (`default`, the primary, required) with `databaseRouters`. Queries
   * then go where the routers say; `database` (when given too) must be the `default` one.
   *
   * @example
   * ```ts
   * import { Database, PrimaryReplicaRouter, restFramework } from '@restframework/core';
   *
   * await app.register(restFramework, {
   *   databases: {
   *     default: Database.connect('postgres://app@primary:5432/shop'),
   *     replica1: Database.connect('postgres://app@replica1:5432/shop'),
   *   },
   *   databaseRouters: [new PrimaryReplicaRouter({ replicas: ['replica1'] })],
   * });
   * ```
   */
  readonly databases?: Databases | Readonly<Record<string, Database>>;
  /** The routers of `databases` given by alias (Django's `DATABASE_ROUTERS`), asked in order. */
  readonly databaseRouters?: readonly DatabaseRouter[];
  /**
   * The app's settings (DRF's `REST_FRAMEWORK`): only those that differ from the defaults; unknown
   * names fail at registration (`REST_ERR_SETTINGS`).
   */
  readonly settings?: SettingsInput;
}

/** What the plugin shares with routers (`app.restFramework`). */
export interface RestFrameworkState {
  /** The app's settings, every one resolved (defaults filled in). */
  readonly settings: APISettings;
  /** The app's database (the `default` one of several). */
  readonly database: Database;
  /** The named databases, when the app was given several (`database` is their `default`). */
  readonly databases: Databases | undefined;
  /** The named routes, for `reverse()` and hyperlinked fields. */
  readonly urls: UrlRegistry;
  /** Every route the routers serve, in registration order. */
  readonly endpoints: Endpoint[];
  /** The app's caches (`CACHES`, with its default): per-view caching and readiness read them. */
  readonly caches: Readonly<Record<string, Cache>>;
}

declare module 'fastify' {
  interface FastifyInstance {
    restFramework: RestFrameworkState;
  }
  interface FastifyRequest {
    /** The toolkit's request, once a view has started. */
    restRequest: Request | null;
  }
}

export { SECURITY_HEADERS } from '../http/raw-answer.ts';

// Lower-case, as Fastify keeps header names: its lookups then find them as they are.
const SECURITY_HEADER_NAMES = Object.keys(SECURITY_HEADERS).map((name) => name.toLowerCase());
const SECURITY_HEADER_VALUES = Object.values(SECURITY_HEADERS);

/**
 * `isAllowedHost` for one list of patterns, remembering its answers in a cache of the app: a
 * service sees few distinct `Host` headers, and the check runs on every request. Bounded at
 * 256 hosts (the oldest goes first), so that clients sending random hosts cannot make it grow.
 */
function hostChecker(allowed: readonly string[]): (host: string | undefined) => boolean {
  const known = new BoundedCache<string, boolean>('allowed hosts', 256);
  return (host) => {
    if (host === undefined) return false;
    let answer = known.get(host);
    if (answer === undefined) answer = known.set(host, isAllowedHost(host, allowed));
    return answer;
  };
}

/** `CACHES` checked: an object of caches with a `default`; null when not set. */
function checkCaches(
  caches: Readonly<Record<string, Cache>> | null,
): Readonly<Record<string, Cache>> | null {
  if (caches === null) return null;
  const entries = typeof caches === 'object' ? Object.entries(caches) : [];
  const bad = entries.find(
    ([, cache]) =>
      typeof (cache as Partial<Cache> | null)?.get !== 'function' ||
      typeof (cache as Partial<Cache>).set !== 'function',
  );
  if (!entries.length || !Object.hasOwn(caches, 'default') || bad) {
    throw new ImproperlyConfigured(
      'REST_ERR_CACHE',
      bad
        ? `CACHES.${bad[0]} must be a cache (new MemoryCache() or new RedisCache({ url })).`
        : 'CACHES must name a `default` cache: { default: new RedisCache({ url: process.env.REDIS_URL }) }.',
    );
  }
  return caches;
}

/**
 * The throttle store when none is set: the default cache's Redis when it is one (DRF counts
 * in the default cache, shared by every process), else the app's memory.
 */
function throttleStoreOf(cache: Cache | undefined): ThrottleStore {
  if (cache instanceof RedisCache) {
    return new RedisThrottleStore({
      client: cache.client,
      keyPrefix: `${cache.keyPrefix}:throttle:`,
    });
  }
  return new MemoryThrottleStore();
}

const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)([^#]*)/i;

/**
 * Turns an absolute-form request target into origin form: the authority becomes the `Host`
 * header and the URL keeps the path and query. False (nothing changed) for a target that is
 * neither (`*`, or a URL with user info), which is then refused as a bad host.
 */
function useAbsoluteTarget(raw: FastifyRequest['raw']): boolean {
  const match = ABSOLUTE_FORM.exec(raw.url as string);
  if (!match || (match[1] as string).includes('@')) {
    raw.headers.host = '';
    return false;
  }
  raw.headers.host = match[1] as string;
  const rest = match[2] as string;
  raw.url = rest.startsWith('/') ? rest : `/${rest}`;
  return true;
}

/**
 * Answers a CONNECT with 405 (the exception handler's body) and the security headers, on the
 * socket: Node hands it over before there is a request to answer.
 */
function connectRefuser(
  handler: ExceptionHandler,
  log: FastifyBaseLogger,
): (request: unknown, socket: Duplex) => void {
  return (_request, socket) => {
    socket.on('error', () => socket.destroy());
    const context = contextOutsideView(null);
    const response = respondToException(new MethodNotAllowed('CONNECT'), context, handler, log);
    writeRawAnswer(socket, response.status, response.data, { Allow: '', ...response.headers });
  };
}

/**
 * Sends the exception handler's answer to an error raised before any view ran: a refused
 * host, an unknown route, a body Fastify refused.
 */
function sendException(
  exc: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  handler: ExceptionHandler,
): FastifyReply | Promise<FastifyReply> {
  const context = contextOutsideView(request);
  return sendResponse(undefined, null, respondToException(exc, context, handler), reply);
}

/**
 * The app's `Databases` when it was given several databases, else undefined; throws
 * `REST_ERR_DATABASE_ROUTING` (or `REST_ERR_NO_DATABASE`) for options that do not fit.
 */
function namedDatabases(options: RestFrameworkOptions): Databases | undefined {
  const given = options.databases;
  const routers = options.databaseRouters;
  if (given === undefined) {
    if (!(options.database instanceof Database)) {
      throw new ImproperlyConfigured(
        'REST_ERR_NO_DATABASE',
        'restFramework needs a database: { database: Database.connect(url) }, or { databases: { default: ..., replica1: ... } }.',
      );
    }
    if (routers !== undefined) {
      throw new ImproperlyConfigured(
        'REST_ERR_DATABASE_ROUTING',
        'restFramework got databaseRouters without databases: name the databases they route to in `databases`.',
      );
    }
    return undefined;
  }
  let databases: Databases;
  if (given instanceof Databases) {
    if (routers !== undefined) {
      throw new ImproperlyConfigured(
        'REST_ERR_DATABASE_ROUTING',
        'restFramework got databaseRouters with a Databases, which has its routers already: give them to new Databases(...).',
      );
    }
    databases = given;
  } else {
    databases = new Databases(given, routers ?? []);
  }
  if (options.database !== undefined && options.database !== databases.default) {
    throw new ImproperlyConfigured(
      'REST_ERR_DATABASE_ROUTING',
      'restFramework got a `database` that is not the `default` of its `databases`: give only `databases`.',
    );
  }
  return databases;
}

async function plugin(app: FastifyInstance, options: RestFrameworkOptions): Promise<void> {
  const resolved = resolveSettings(options.settings);
  // Without a storage of its own, an app stores files on disk under MEDIA_ROOT; without a
  // throttle store, it counts in its own memory.
  const caches = checkCaches(resolved.CACHES) ?? { default: new MemoryCache() };
  const settings: APISettings = Object.freeze({
    ...resolved,
    STORAGE:
      resolved.STORAGE ??
      new FileSystemStorage({ location: resolved.MEDIA_ROOT, baseUrl: resolved.MEDIA_URL }),
    THROTTLE_STORE: resolved.THROTTLE_STORE ?? throttleStoreOf(caches.default),
    CACHES: caches,
  });
  // Each cache closed once, after the stores that may share its client.
  const closing = [...new Set(Object.values(caches))];
  app.addHook('onReady', async () => {
    await Promise.all(closing.map((cache) => cache.ready?.()));
  });
  app.addHook('onClose', async () => {
    await Promise.all(closing.map((cache) => cache.close?.()));
  });
  const throttleStore = settings.THROTTLE_STORE;
  if (throttleStore?.ready) app.addHook('onReady', () => throttleStore.ready?.());
  if (throttleStore?.close) app.addHook('onClose', () => throttleStore.close?.());
  const databases = namedDatabases(options);
  const database = databases?.default ?? (options.database as Database);
  // Closing the database clears the default again (Database.close).
  if (!Database.default) Database.setDefault(database);
  const state: RestFrameworkState = {
    settings,
    database,
    databases,
    urls: new UrlRegistry(),
    endpoints: [],
    caches,
  };
  app.decorate('restFramework', state);
  // A Databases made here from the options stops routing when the app closes, so that its
  // databases may serve another app (a test's); one the caller made is the caller's.
  if (databases !== undefined && !(options.databases instanceof Databases))
    app.addHook('onClose', () => databases.release());
  // Writes to the tables of cached views invalidate their entries (views/cache-page.ts).
  let stopWatching: (() => void) | undefined;
  app.addHook('onReady', (done) => {
    try {
      stopWatching = watchCachedViews(
        state.endpoints.map((e) => ({ viewClass: e.viewset, where: `${e.path} (${e.name})` })),
        settings,
      );
      done();
    } catch (error) {
      done(error as Error);
    }
  });
  app.addHook('onClose', (_instance, done) => {
    stopWatching?.();
    done();
  });
  app.decorateRequest('restRequest', null);
  // The browsable API's static files, when the app's renderers include it.
  mountBrowsableApi(app, settings);

  // One callback-style hook: it runs on every request of the app, and each hook costs a
  // step of Fastify's hook runner (an async one a promise and a microtask turn too). The
  // security headers are set here, first, so that any handler can still replace one and
  // every answer carries them, refusals of a host included; uploads' temporary files are
  // removed by the router when its view is done.
  const allowedHost = hostChecker(settings.ALLOWED_HOSTS);
  const handler = settings.EXCEPTION_HANDLER;
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done) => {
    for (let i = 0; i < SECURITY_HEADER_NAMES.length; i++) {
      reply.header(SECURITY_HEADER_NAMES[i] as string, SECURITY_HEADER_VALUES[i]);
    }
    // The request's id (Fastify's, from `genReqId`: see `server/request-id.ts`), so that a
    // client's report can be matched with the log lines of its request.
    reply.header('x-request-id', request.id);
    // RFC 9112, 3.2.2: with an absolute-form target (`GET http://host/path`) the target's
    // authority is the request's host, whatever `Host` says. It is the one checked, and it
    // becomes the request's `Host` and its URL the path, so that every URL built from the
    // request (redirects, pagination links, the browsable API's links) uses what was checked.
    const raw = request.raw;
    if (raw.url !== undefined && raw.url.charCodeAt(0) !== 47 && useAbsoluteTarget(raw)) {
      if (allowedHost(raw.headers.host)) return done();
    } else if (allowedHost(request.headers.host)) return done();
    void sendException(new DisallowedHost(), request, reply, handler);
  });

  // Node hands a CONNECT to 'connect' listeners and drops the socket when there is none: the
  // client got no answer at all. The toolkit serves no tunnels: 405, as for any other method
  // no route takes. An app that serves CONNECT itself (a listener of its own) keeps it.
  if (app.server.listenerCount('connect') === 0)
    app.server.on('connect', connectRefuser(handler, app.log));
  // Connections whose client does not read: a bound on how long an answer waits, and on how
  // many answers queue on one connection.
  const stopGuard = guardConnections(app.server, {
    writeTimeoutMs: settings.RESPONSE_WRITE_TIMEOUT,
    maxPendingResponses: settings.MAX_PENDING_RESPONSES,
  });
  app.addHook('onClose', (_instance, done) => {
    stopGuard();
    done();
  });

  app.setNotFoundHandler((request, reply) =>
    sendException(new NotFound(), request, reply, handler),
  );

  // Fastify's own errors (a body too large, a Content-Length that lies) as the toolkit's; any
  // other error is the handler's to handle, or the 500 path's.
  app.setErrorHandler((error: FastifyError, request, reply) =>
    sendException(fastifyErrorToApi(error) ?? error, request, reply, handler),
  );
}

/** The toolkit's plugin (shared with the whole app, as `fastify-plugin` does). */
export const restFramework = fp(plugin, { name: '@restframework/core', fastify: '5.x' });
