/**
 * The toolkit's settings, under DRF's names: defaults every view reads unless it sets its own.
 *
 * @example
 * ```ts
 * await app.register(restFramework, {
 *   database: db,
 *   settings: { PAGE_SIZE: 100, DEFAULT_PAGINATION_CLASS: PageNumberPagination, ALLOWED_HOSTS: ['api.example.org'] },
 * });
 * ```
 * @module
 */
import type { Auth } from '../accounts/auth.ts';
import type { AuthenticationClass } from '../accounts/authentication/authentication.ts';
import type { Cache } from '../cache/cache.ts';
import type { Storage } from '../files/storage.ts';
import type { FilterBackendClass } from '../filters/filter-backend.ts';
import type { MetadataClass } from '../metadata/simple-metadata.ts';
import type { PaginationClass } from '../pagination/pagination.ts';
import type { ParserClass } from '../parsers/parser.ts';
import type { PermissionClass } from '../permissions/permissions.ts';
import type { RendererClass } from '../renderers/renderer.ts';
import type { ThrottleStore } from '../throttling/throttle-store.ts';
import type { ThrottleClass } from '../throttling/throttles.ts';
import type { VersioningClass } from '../versioning/versioning.ts';
import type { ExceptionHandler } from '../views/exception-handler.ts';

/** Every setting, with its default in `defaultSettings` (`plugin/default-settings.ts`). */
export interface APISettings {
  /** Renderers, in order of preference (the first is the default). */
  readonly DEFAULT_RENDERER_CLASSES: readonly RendererClass[];
  /** Parsers for request bodies. */
  readonly DEFAULT_PARSER_CLASSES: readonly ParserClass[];
  /**
   * Authentication of views that set none (`authenticationClasses`); default none: every caller
   * is anonymous (DRF's default is Session and Basic).
   */
  readonly DEFAULT_AUTHENTICATION_CLASSES: readonly AuthenticationClass[];
  /**
   * The users, groups, permissions and tokens the built-in authentication classes and
   * `DjangoModelPermissions` use (Django's `AUTH_USER_MODEL`); null for `defaultAuth`.
   */
  readonly AUTH: Auth | null;
  /** Default: allow any caller. */
  readonly DEFAULT_PERMISSION_CLASSES: readonly PermissionClass[];
  /** Filter backends of generic views that set none (`filterBackends`); default none. */
  readonly DEFAULT_FILTER_BACKENDS: readonly FilterBackendClass[];
  /** Throttles of views that set none (default: none). */
  readonly DEFAULT_THROTTLE_CLASSES: readonly ThrottleClass[];
  /**
   * Rates by throttle scope, in DRF's syntax (`{ anon: '100/min', user: '1000/day' }`); null
   * for no limit. A malformed rate fails at start-up.
   */
  readonly DEFAULT_THROTTLE_RATES: Readonly<Record<string, string | null>>;
  /**
   * Where throttles count: null for a {@link MemoryThrottleStore} of the app (one process);
   * a `RedisThrottleStore` to share limits between processes. Closed with the app.
   */
  readonly THROTTLE_STORE: ThrottleStore | null;
  /**
   * The app's caches by name (Django's `CACHES`): `default` is the one per-view caching
   * (`cachePage`) uses unless a view names another. Null for `{ default: new MemoryCache() }`.
   * When `default` is a `RedisCache` and `THROTTLE_STORE` is not set, throttles count in the
   * same Redis (its client, keys under the cache's prefix plus `:throttle:`). Closed with the app.
   */
  readonly CACHES: Readonly<Record<string, Cache>> | null;
  /** Pagination of list views; null for none. */
  readonly DEFAULT_PAGINATION_CLASS: PaginationClass | null;
  /** Items per page; null for no pagination. */
  readonly PAGE_SIZE: number | null;
  /** What OPTIONS answers with, for views that set no `metadataClass`; default `SimpleMetadata`. */
  readonly DEFAULT_METADATA_CLASS: MetadataClass;
  /**
   * The versioning scheme of views that set no `versioningClass` (`URLPathVersioning`,
   * `NamespaceVersioning`, `AcceptHeaderVersioning`, `HostNameVersioning`,
   * `QueryParameterVersioning`); null: no versioning, `request.version` is null.
   */
  readonly DEFAULT_VERSIONING_CLASS: VersioningClass | null;
  /** The version of a request that names none (null: none). */
  readonly DEFAULT_VERSION: string | null;
  /** The versions a request may name (null: any); the default is always allowed. */
  readonly ALLOWED_VERSIONS: readonly string[] | null;
  /** The name of the version's URL parameter, query parameter or media type parameter. */
  readonly VERSION_PARAM: string;
  /**
   * Give the GET and HEAD answers of generic views (retrieve, list) a weak `ETag`, a hash of
   * the rendered body, and answer `If-None-Match` with 304 (a view's `useETags` wins).
   */
  readonly USE_ETAGS: boolean;
  /**
   * How date-time fields write their values (DRF's `DATETIME_FORMAT`): `'iso-8601'` (default:
   * `2024-01-02T03:04:05.123000Z`, always with microseconds) or a `strftime` format string
   * (`'%d/%m/%Y %H:%M'`, in UTC). A field's `format` option wins. Input is always ISO 8601.
   * An unknown directive fails at start-up.
   */
  readonly DATETIME_FORMAT: string;
  /**
   * How date fields write their values (DRF's `DATE_FORMAT`): `'iso-8601'` (default,
   * `2024-01-02`) or a `strftime` format of date directives (`'%d/%m/%Y'`).
   */
  readonly DATE_FORMAT: string;
  /** Query parameter of ordering filters. */
  readonly ORDERING_PARAM: string;
  /** Query parameter of search filters (`?search=`). */
  readonly SEARCH_PARAM: string;
  /** Query parameter that picks a renderer (`?format=json`). */
  readonly URL_FORMAT_OVERRIDE: string;
  /**
   * Hosts the service answers for; a request with another `Host` gets 400. A leading dot
   * allows subdomains (`.example.org`); `*` allows any host (not for production).
   */
  readonly ALLOWED_HOSTS: readonly string[];
  /** The largest JSON or url-encoded body, in bytes (413 above). */
  readonly MAX_BODY_SIZE: number;
  /**
   * How deep a body may nest arrays and objects (a JSON body's top-level object is depth 1; a
   * form key `a.b.c` is depth 3); 400 above. Checked as the body is parsed, so that nothing
   * after the parser (messages, renderers, logs) ever walks a deeper value.
   */
  readonly MAX_BODY_DEPTH: number;
  /** The largest multipart body, in bytes (413 above). */
  readonly MAX_UPLOAD_BODY_SIZE: number;
  /** The most parts a multipart body may have (413 above). */
  readonly MAX_UPLOAD_PARTS: number;
  /** The largest text value of a multipart part, in bytes (413 above). */
  readonly MAX_UPLOAD_FIELD_SIZE: number;
  /**
   * How long an answer may wait for a client that does not read it, in ms (no byte of it
   * taken for that long); the connection is closed after that. 0 for no limit.
   */
  readonly RESPONSE_WRITE_TIMEOUT: number;
  /**
   * The most answers one connection may have pending at once (pipelined requests whose
   * answers are not yet written); one more closes the connection. 0 for no limit.
   */
  readonly MAX_PENDING_RESPONSES: number;
  /** Where uploaded files are stored (used by the default storage). */
  readonly MEDIA_ROOT: string;
  /** The URL prefix where stored files are served. */
  readonly MEDIA_URL: string;
  /** The file storage; by default files on disk under MEDIA_ROOT. */
  readonly STORAGE: Storage | null;
  /**
   * Where multipart file parts are written while a request runs; null for a folder in the
   * system's temporary folder. On the file system of MEDIA_ROOT, saving a file is a link,
   * not a copy.
   */
  readonly FILE_UPLOAD_TEMP_DIR: string | null;
  /**
   * Remove a stored file once the record that named it is deleted, or once an update replaces
   * or clears it, after the transaction commits (a rollback keeps it). `false` keeps every
   * file, as Django does.
   */
  readonly DELETE_ORPHANED_FILES: boolean;
  /**
   * The function that turns every error into the response a client gets (DRF's
   * `EXCEPTION_HANDLER`): errors of views, bodies Fastify refused, unknown routes, URLs that do
   * not parse. It answers a `Response`, or null for an error it does not handle (then 500,
   * logged). Default {@link exceptionHandler}, which a replacement may call. A value that is not
   * a synchronous function fails at start-up (`REST_ERR_SETTINGS`).
   *
   * @example
   * ```ts
   * const settings: SettingsInput = {
   *   EXCEPTION_HANDLER: (exc, context) => {
   *     const response = exceptionHandler(exc, context);
   *     if (response) response.data = { error: response.data };
   *     return response;
   *   },
   * };
   * ```
   */
  readonly EXCEPTION_HANDLER: ExceptionHandler;
}

/** User-provided settings: any subset. */
export type SettingsInput = Partial<APISettings>;
