/**
 * The bookstore as a Fastify app: the toolkit's plugin, two routers at the spec's prefixes,
 * page-number pagination of 100 on every list.
 *
 * @example
 * ```ts
 * const db = Database.connect('sqlite::memory:');
 * await db.migrate(ALL_MODELS);
 * const app = await buildApp({ database: db });
 * const response = await app.inject({ url: '/books/api/books/' });
 * ```
 * @module
 */

import {
  BrowsableAPIRenderer,
  type Database,
  type DatabaseRouter,
  DefaultRouter,
  JSONRenderer,
  ObtainAuthToken,
  openApi,
  PageNumberPagination,
  restFramework,
  SessionLoginView,
  SessionLogoutView,
  type SettingsInput,
  serveMedia,
  serverOptions,
} from '@restframework/core';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { auth } from './auth.ts';
import { type BookstoreRedis, redisStores } from './redis.ts';
import { AuthorViewSet } from './viewsets/author-viewset.ts';
import { BookNullableViewSet, BookProxyViewSet, BookViewSet } from './viewsets/book-viewsets.ts';
import { ManagedBookViewSet } from './viewsets/managed-book-viewset.ts';
import { ProfileViewSet } from './viewsets/profile-viewset.ts';
import { UploadViewSet } from './viewsets/upload-viewset.ts';

/** Options of {@link buildApp}. */
export interface BookstoreOptions {
  /** The database; or give `databases` (a primary and replicas). */
  readonly database?: Database;
  /** Named databases (`default` the primary) with `databaseRouters`, in place of `database`. */
  readonly databases?: Readonly<Record<string, Database>>;
  /** Where each query of `databases` goes (a `PrimaryReplicaRouter`). */
  readonly databaseRouters?: readonly DatabaseRouter[];
  /** Where uploads are stored (default `media`). */
  readonly mediaRoot?: string;
  /** Hosts the service answers for (default 127.0.0.1, localhost, [::1]). */
  readonly allowedHosts?: readonly string[];
  /** Fastify's logger option (default off). */
  readonly logger?: FastifyServerOptions['logger'];
  /**
   * How long a client may take to send a whole request, in ms (default 30 000): a client that
   * stops sending gets a 408 and its connection is closed, so it cannot hold a socket forever.
   */
  readonly requestTimeout?: number;
  /** Core settings on top of the bookstore's own (tests use short limits). */
  readonly settings?: SettingsInput;
  /**
   * Redis for the throttle counts and the sessions, shared by every process (`REDIS_URL`);
   * default none: each process counts its own limits, sessions live in the database.
   */
  readonly redis?: BookstoreRedis;
}

/** The books router (`/books/api/`): books, proxy-books, authors, books-nullable. */
export function booksRouter(): DefaultRouter {
  return new DefaultRouter()
    .register('books', BookViewSet, { basename: 'book' })
    .register('proxy-books', BookProxyViewSet, { basename: 'proxy-book' })
    .register('authors', AuthorViewSet, { basename: 'author' })
    .register('books-nullable', BookNullableViewSet, { basename: 'book-nullable' });
}

/** The API router (`/api/`): profile, upload. */
export function apiRouter(): DefaultRouter {
  return new DefaultRouter()
    .register('profile', ProfileViewSet, { basename: 'profile' })
    .register('upload', UploadViewSet, { basename: 'upload' });
}

/**
 * The management router (`/manage/api/`, not in the spec): an API token for a username and
 * password, session login and logout, and books that need the book permissions.
 */
export function manageRouter(): DefaultRouter {
  return new DefaultRouter()
    .register('token', ObtainAuthToken, { basename: 'token' })
    .register('login', SessionLoginView, { basename: 'login' })
    .register('logout', SessionLogoutView, { basename: 'logout' })
    .register('books', ManagedBookViewSet, { basename: 'managed-book' });
}

/** Builds the service (not listening). */
export async function buildApp(options: BookstoreOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    // A client that stops sending (headers or body) gets a 408 instead of holding the
    // connection; what fails before a route runs is answered in the API's shape.
    ...serverOptions({ requestTimeout: options.requestTimeout ?? 30_000 }),
    // Fastify's own limit for bodies no router reads; the toolkit sets its own per body type.
    bodyLimit: 1024 * 1024,
  });
  const redis = options.redis ? redisStores(options.redis) : undefined;
  // The throttle store is closed with the app by the plugin; the session store here.
  if (redis) app.addHook('onClose', () => redis.sessions.close());
  await app.register(restFramework, {
    ...(options.database ? { database: options.database } : {}),
    ...(options.databases ? { databases: options.databases } : {}),
    ...(options.databaseRouters ? { databaseRouters: options.databaseRouters } : {}),
    settings: {
      DEFAULT_RENDERER_CLASSES: [JSONRenderer, BrowsableAPIRenderer],
      DEFAULT_PAGINATION_CLASS: PageNumberPagination,
      PAGE_SIZE: 100,
      MEDIA_ROOT: options.mediaRoot ?? 'media',
      MEDIA_URL: '/media/',
      ...(options.allowedHosts ? { ALLOWED_HOSTS: options.allowedHosts } : {}),
      AUTH: redis?.auth ?? auth,
      ...(redis ? { THROTTLE_STORE: redis.throttles } : {}),
      // Per user on the management routes; logins (token, session) 10 a minute per address.
      DEFAULT_THROTTLE_RATES: { user: '1000/hour', login: '10/min' },
      ...options.settings,
    },
  });
  // Uploaded files under MEDIA_URL, served so that a browser never runs them as a page here.
  await serveMedia(app);
  await app.register(booksRouter().plugin, { prefix: '/books/api' });
  await app.register(apiRouter().plugin, { prefix: '/api' });
  await app.register(manageRouter().plugin, { prefix: '/manage/api' });
  // The OpenAPI document at /schema/ and its documentation page at /schema/docs/.
  await app.register(openApi, {
    title: 'Bookstore',
    license: { name: 'MIT', identifier: 'MIT' },
    version: '0.1.0',
    description: 'The bookstore service of the specification: books, authors, profiles, uploads.',
  });
  return app;
}
