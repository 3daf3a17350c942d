/**
 * The request as views see it: Fastify's request plus the parsed body, the user, the
 * negotiated renderer, and URL building from the request's own scheme and (allowed) host.
 * @module
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestLike } from '../fields/field.ts';
import type { UploadedFile } from '../files/uploaded-file.ts';
import type { Renderer } from '../renderers/renderer.ts';
import type { ResolvedRoute, UrlRegistry } from '../routers/url-registry.ts';
import type { APISettings } from '../settings/api-settings.ts';
import type { MaybePromise } from '../utils/maybe-promise.ts';
import type { Versioning } from '../versioning/versioning.ts';

/** The user of a request without credentials. */
export interface AnonymousUser {
  /** Never authenticated. */
  readonly isAuthenticated: false;
  /** Never staff. */
  readonly isStaff: false;
  readonly [key: string]: unknown;
}

/** What authentication classes attach; `isAuthenticated` and `isStaff` drive the permissions. */
export interface RequestUser {
  /** True for a caller the authentication classes recognised. */
  readonly isAuthenticated: boolean;
  /** True for staff (`IsAdminUser` allows them). */
  readonly isStaff?: boolean;
  readonly [key: string]: unknown;
}

/** The anonymous user. */
export const ANONYMOUS_USER: AnonymousUser = Object.freeze({
  isAuthenticated: false,
  isStaff: false,
});

/** Query parameters: a string, or a list when a key repeats. */
export type QueryParams = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * A request to a view.
 *
 * @example
 * ```ts
 * class HelloView extends APIView {
 *   async get(request: Request) {
 *     return new Response({ hello: request.query.name ?? 'world', user: request.user.isAuthenticated });
 *   }
 * }
 * ```
 */
export class Request implements RequestLike {
  /** Fastify's request underneath (headers, `ip`, the raw URL). */
  readonly raw: FastifyRequest;
  /** Fastify's reply underneath; views answer with a `Response` instead. */
  readonly reply: FastifyReply;
  /** The app's settings (`restFramework`'s, resolved once). */
  readonly settings: APISettings;
  readonly #urls: UrlRegistry;
  /** The parsed body (`{}` when there is none); set before the handler runs. */
  data: unknown = {};
  /** Files received in a multipart body, to remove when the request ends. */
  readonly uploadedFiles: UploadedFile[] = [];
  // The fields below have their defaults on the prototype (after the class): a request is
  // made per request, and each field defined here was one more store in its constructor.
  /**
   * The caller (DRF's `request.user`): the anonymous user, or what the authentication class
   * attached (core's classes: an `AuthenticatedUser`).
   */
  declare user: RequestUser;
  /** What the authentication class returned with the user (a token, say). */
  declare auth: unknown;
  /** Close the connection after the response (the body was not read to its end). */
  declare closeConnection: boolean;
  /** The renderer chosen by content negotiation, and the media type it answers with. */
  declare acceptedRenderer: Renderer | null;
  /** The media type of the response, from the negotiation (`application/json`). */
  declare acceptedMediaType: string;
  /** The API version the request asks for (null without a versioning scheme), DRF's `request.version`. */
  declare version: string | null;
  /** The versioning scheme that found it (DRF's `request.versioning_scheme`); `reverse()` keeps the version through it. */
  declare versioningScheme: Versioning | null;
  /** The namespace of the router serving the request (`router.plugin`'s `namespace`), if any. */
  declare urlNamespace: string | undefined;
  /**
   * Route names that `reverse()` gives as another while serving this request: a route of
   * another router serving this route's view set, or one it extends, named as this router's
   * route (`book-detail` → `managed-book-detail`), so that records link under the router they
   * were listed by. Set by the router.
   */
  declare urlAliases: Readonly<Record<string, string>> | undefined;

  constructor(raw: FastifyRequest, reply: FastifyReply, settings: APISettings, urls: UrlRegistry) {
    this.raw = raw;
    this.reply = reply;
    this.settings = settings;
    this.#urls = urls;
  }

  /** GET, POST, ... (upper case). */
  get method(): string {
    return this.methodOverride ?? this.raw.method;
  }

  /**
   * A method to answer as, instead of the request's own: OPTIONS asks permissions as if the
   * request were a POST or PUT (DRF's `clone_request`). Set it and restore it around the call.
   */
  declare methodOverride: string | undefined;

  /** The path, without the query string. */
  get path(): string {
    const url = this.raw.url;
    const q = url.indexOf('?');
    return q === -1 ? url : url.slice(0, q);
  }

  /** The raw query string, without `?`. */
  get queryString(): string {
    const url = this.raw.url;
    const q = url.indexOf('?');
    return q === -1 ? '' : url.slice(q + 1);
  }

  /** Query parameters. */
  get query(): QueryParams {
    return this.raw.query as QueryParams;
  }

  /** One query parameter: the last value when the key repeats, as Django's `QueryDict.get`. */
  queryParam(name: string): string | undefined {
    const value = this.query[name];
    if (Array.isArray(value)) return value[value.length - 1];
    return value as string | undefined;
  }

  /**
   * Every value of a list-shaped query parameter, in order, whichever form the client used:
   * repeated keys (`?state__in=a&state__in=b`, the default of OpenAPI's `form` style and of
   * most generated clients) or one comma-separated value (`?state__in=a,b`), or both.
   *
   * @example
   * ```ts-fragment
   * // GET /books/?ordering=-price&ordering=title   and   GET /books/?ordering=-price,title
   * request.queryList('ordering'); // ['-price', 'title'] for both
   * ```
   */
  queryList(name: string): string[] {
    const value = this.query[name];
    if (value === undefined) return [];
    const texts = Array.isArray(value) ? value : [value];
    return texts.flatMap((text) => String(text ?? '').split(','));
  }

  /** The route's path parameters (`{ pk: '1' }`). */
  get params(): Readonly<Record<string, string>> {
    return this.raw.params as Record<string, string>;
  }

  /** `http` or `https`. */
  get scheme(): string {
    return this.raw.protocol;
  }

  /** The host the client asked for (checked against `ALLOWED_HOSTS` before any view runs). */
  get host(): string {
    return this.raw.host;
  }

  /** True for methods that change nothing. */
  get isSafeMethod(): boolean {
    const method = this.method;
    return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
  }

  /** `http://host/path` for a path on this service. */
  buildAbsoluteUri(path: string = this.raw.url): string {
    // Paths of this service start with '/' (every URL of a page of links does): no test needed.
    if (path.charCodeAt(0) === 47) return this.origin + path;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) return path;
    return `${this.origin}/${path}`;
  }

  /**
   * Who parses this request's body: the view serving it (its `parseBody`), set by `dispatch`
   * before authentication runs.
   */
  declare bodyParser:
    | {
        /** Parses the request's body (`APIView.parseBody`). */
        parseBody(request: Request): MaybePromise<unknown>;
      }
    | undefined;

  #body: MaybePromise<unknown> | undefined;

  /**
   * The body, parsed once by the view however many ask: a policy that must read it before the
   * handler (session authentication looking for the form field `csrfmiddlewaretoken`, as
   * Django's CSRF check reads `request.POST`) and the handler share one parse. `{}` when no
   * view parses this request.
   *
   * @example
   * ```ts-fragment
   * const data = await request.readBody(); // the view's parseBody, at most once
   * ```
   */
  readBody(): MaybePromise<unknown> {
    if (this.#body === undefined) this.#body = this.bodyParser?.parseBody(this) ?? {};
    return this.#body;
  }

  #origin: string | undefined;

  /** `http://host:port`, the start of every absolute URL of this request. */
  get origin(): string {
    if (this.#origin === undefined) this.#origin = `${this.scheme}://${this.host}`;
    return this.#origin;
  }

  /**
   * The absolute URL of a named route (`book-detail`) filled with `params`, keeping the
   * request's API version (through `versioningScheme`, as DRF's `reverse(..., request)`).
   */
  reverse(name: string, params: Readonly<Record<string, unknown>> = {}): string {
    const aliases = this.urlAliases;
    if (aliases !== undefined) name = aliases[name] ?? name;
    const scheme = this.versioningScheme;
    if (scheme !== null) return scheme.reverse(name, params, this);
    return this.buildAbsoluteUri(this.#urls.reverse(name, params));
  }

  /** The absolute URL of a named route as it is, without the versioning scheme's additions. */
  reverseUnversioned(name: string, params: Readonly<Record<string, unknown>> = {}): string {
    return this.buildAbsoluteUri(this.#urls.reverse(name, params));
  }

  /**
   * The named route a path of this service is the URL of, with its decoded parameters, or
   * null (Django's `resolve()`): what hyperlinked fields read a link a client sent with.
   */
  resolve(path: string): ResolvedRoute | null {
    return this.#urls.resolve(path);
  }

  /** The path of a named route, without scheme and host. */
  reversePath(name: string, params: Readonly<Record<string, unknown>> = {}): string {
    return this.#urls.reverse(name, params);
  }
}

Object.assign(Request.prototype, {
  user: ANONYMOUS_USER,
  auth: null,
  closeConnection: false,
  acceptedRenderer: null,
  acceptedMediaType: '',
  version: null,
  versioningScheme: null,
  urlNamespace: undefined,
  urlAliases: undefined,
  methodOverride: undefined,
  bodyParser: undefined,
});
