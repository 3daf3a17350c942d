/**
 * `APIView`: a class whose methods (`get`, `post`, ...) handle one route, with content
 * negotiation, authentication, permissions, body parsing, one transaction per write and
 * errors turned into DRF's bodies.
 *
 * @example
 * ```ts
 * class HealthView extends APIView {
 *   static override description = 'Says the service is up.';
 *   async get(_request: Request) {
 *     return new Response({ status: 'ok' });
 *   }
 * }
 * ```
 * @module
 */
import type {
  Authentication,
  AuthenticationClass,
} from '../accounts/authentication/authentication.ts';
import { forcedAuthenticationOf } from '../accounts/authentication/forced-authentication.ts';
import type { Database, TransactionOptions } from '../db/database.ts';
import {
  AuthenticationFailed,
  MethodNotAllowed,
  NotAuthenticated,
  PermissionDenied,
  Throttled,
  UnsupportedMediaType,
} from '../errors/api-exception.ts';
import type { JsonSchema } from '../fields/field.ts';
import { DefaultContentNegotiation, requestMediaType } from '../http/content-negotiation.ts';
import type { Request } from '../http/request.ts';
import { Response } from '../http/response.ts';
import type { Metadata, MetadataClass } from '../metadata/simple-metadata.ts';
import type { Parser, ParserClass, ParserContext } from '../parsers/parser.ts';
import type { Permission, PermissionClass } from '../permissions/permissions.ts';
import type { Renderer, RendererClass } from '../renderers/renderer.ts';
import type { Kwargs } from '../routers/path-kwargs.ts';
import type { RoutePlan } from '../routers/route-plan.ts';
import type { APISettings } from '../settings/api-settings.ts';
import type { Throttle, ThrottleClass } from '../throttling/throttles.ts';
import {
  catchMaybe,
  eachMaybe,
  firstMaybe,
  type MaybePromise,
  thenMaybe,
} from '../utils/maybe-promise.ts';
import { splitCamelCase } from '../utils/text.ts';
import type { VersioningClass } from '../versioning/versioning.ts';
import { type CachePolicy, cachedDispatch } from './cache-page.ts';
import {
  type ExceptionContext,
  type ExceptionHandler,
  exceptionHandler,
} from './exception-handler.ts';
import { respondToException } from './exception-response.ts';
import { httpMethodName } from './http-method-name.ts';
import { instancesOf as instances } from './instances-of.ts';

/** HTTP methods in the order DRF lists them in `Allow`. */
export const HTTP_METHOD_NAMES = [
  'get',
  'post',
  'put',
  'patch',
  'delete',
  'head',
  'options',
  'trace',
] as const;

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
/** A write's transaction: its handler may run again (see `TransactionOptions.rerun`). */
const RERUN_WRITES: TransactionOptions = { rerun: true };

type Handler = (request: Request) => Promise<Response> | Response;

const NO_THROTTLES: Throttle[] = [];
/** What a DELETE's handler finds in `request.data`: the request's own default, left alone. */
const NO_BODY: unique symbol = Symbol('no body');

function toResponse(body: unknown): Response {
  return new Response(body);
}

/** The per-request instances of a view's classes (see {@link APIView.getRenderers}). */
interface Made {
  renderers?: Renderer[];
  parsers?: Parser[];
  authenticators?: Authentication[];
  permissions?: Permission[];
  throttles?: Throttle[];
}

/** The 429 of refused throttles: the longest of their waits (DRF's `throttled`). */
function throttledAfter(waits: readonly (number | null)[]): Throttled {
  const known = waits.filter((wait): wait is number => wait !== null);
  return Throttled.withWait(known.length ? Math.max(...known) : null);
}

/**
 * 415 for a body in a `Content-Encoding` (gzip, br, ...): parsers read bytes as they came, so
 * a compressed body would be parsed as garbage, and a body labelled as compressed but sent as
 * it is would be taken on a label the server ignored. `identity` is the only coding accepted;
 * the answer says so in `Accept-Encoding` (RFC 9110, 15.5.16).
 */
function refuseContentEncoding(request: Request): void {
  const coding = request.raw.headers['content-encoding'];
  if (coding === undefined || /^\s*(?:identity\s*)?$/i.test(coding)) return;
  const error = new UnsupportedMediaType(
    '',
    'Unsupported Content-Encoding in request: send the body uncompressed.',
  );
  error.headers['Accept-Encoding'] = 'identity';
  throw error;
}

/**
 * The base view. Configure it with the fields below; override the `get*` seams.
 *
 * @example
 * ```ts
 * class HealthView extends APIView {
 *   override permissionClasses = [AllowAny];
 *   async get(_request: Request) {
 *     return new Response({ status: 'ok' });
 *   }
 * }
 * // GET → 200 {"status": "ok"}; DELETE, which it has no method for → 405
 * // (routers route view sets: for a route, make it a ViewSet whose `list` answers)
 * ```
 */
export class APIView {
  /** The description shown by OPTIONS and the browsable API. */
  static description = '';
  /**
   * The name shown by OPTIONS; defaults to the class name without `View`/`ViewSet`, split into
   * words.
   */
  static viewName: string | undefined = undefined;
  /**
   * Whether the view name carries its route's suffix (`Book List`, `Book Instance`), as DRF's
   * `get_view_name` gives it to view sets only. The toolkit's login, logout and token views,
   * which are plain views in DRF routed here as view sets, set it `false`: "Session Logout".
   */
  static viewNameSuffix = true;
  /**
   * The 200 answer of an action, for OpenAPI, when it is not what the generator infers from
   * the serializer (a GET of a collection route that answers one object, not a list).
   * Keyed by action: `{ list: { type: 'object', properties: { ... } } }`.
   */
  static schemaResponses: Readonly<Record<string, JsonSchema>> | undefined = undefined;
  /**
   * Per-view caching of GET and HEAD answers (`cachePage(seconds)`, see
   * `views/cache-page.ts`); undefined for none.
   */
  static cachePolicy: CachePolicy | undefined = undefined;

  // The configuration has its defaults on the prototype (below the class), and what the
  // router and `dispatch` set is `declare`d: a view is made per request, and each field
  // defined here was one more store per request, megamorphic (every view class passes here).
  /**
   * The renderers this view offers, best first (DRF's `renderer_classes`); undefined:
   * `DEFAULT_RENDERER_CLASSES`.
   */
  declare rendererClasses: readonly RendererClass[] | undefined;
  /** The body parsers (DRF's `parser_classes`); undefined: `DEFAULT_PARSER_CLASSES`. */
  declare parserClasses: readonly ParserClass[] | undefined;
  /**
   * Who the caller is (DRF's `authentication_classes`); undefined:
   * `DEFAULT_AUTHENTICATION_CLASSES`.
   */
  declare authenticationClasses: readonly AuthenticationClass[] | undefined;
  /**
   * What the caller may do; all must allow (DRF's `permission_classes`); undefined:
   * `DEFAULT_PERMISSION_CLASSES`.
   */
  declare permissionClasses: readonly PermissionClass[] | undefined;
  /**
   * How often the caller may ask (DRF's `throttle_classes`); undefined: `DEFAULT_THROTTLE_CLASSES`.
   */
  declare throttleClasses: readonly ThrottleClass[] | undefined;
  /** The rate of `ScopedRateThrottle` for this view, by name in `DEFAULT_THROTTLE_RATES`. */
  declare throttleScope: string | undefined;
  /** What OPTIONS answers (DRF's `metadata_class`); undefined: `DEFAULT_METADATA_CLASS`. */
  declare metadataClass: MetadataClass | undefined;
  /** This view's versioning scheme; null for none, undefined for `DEFAULT_VERSIONING_CLASS`. */
  declare versioningClass: VersioningClass | null | undefined;
  /** Picks the renderer and the parser of a request (DRF's `content_negotiation_class`). */
  declare contentNegotiationClass: typeof DefaultContentNegotiation;

  /** The request being handled (set by `dispatch`). */
  declare request: Request;
  /** The database of the app. */
  declare database: Database;
  /** Headers added to every response of this view (`Allow`, `Vary`). */
  headers: Record<string, string> = {};
  /**
   * The route's parameters, by name (DRF's `self.kwargs`), typed as Django's path converters
   * make them: `{ pk: 1 }` behind `<int:pk>` or `lookupValueConverter = 'int'` (a value that
   * does not match, or an `int` past `Number.MAX_SAFE_INTEGER`, is a 404 before the view
   * runs), the text for `uuid`, `slug`, `str`, `:name` and a `lookupValueRegex`: a nested
   * route's `{ article_slug: 'hello', pk: 2 }`. A view narrows the type with
   * `declare kwargs: PathKwargs<'articles/<slug:article_slug>/comments/<int:pk>/'>`, which
   * `router.path()` checks against its route.
   */
  declare kwargs: Kwargs;
  /** `List` or `Instance` for view set routes; added to the view name. */
  declare suffix: string | undefined;
  /** The plan of the route serving this view (set by the router, on the route's view class). */
  declare routePlan: RoutePlan | undefined;

  /** The settings of the app (set by `dispatch`). */
  get settings(): APISettings {
    return this.request.settings;
  }

  /**
   * Start-up check of what the view needs from the app's settings (keys, optional packages):
   * the router awaits it when it registers the view, so that a missing piece fails then, not
   * as a 500 on the first request. Nothing by default.
   */
  checkConfiguration(_settings: APISettings): void | Promise<void> {}

  /** The upper-case methods this view answers, in DRF's order. */
  get allowedMethods(): string[] {
    // The same for every request of a route: found once, in its plan.
    const plan = this.routePlan;
    if (plan !== undefined) return plan.allowedMethods as string[];
    return allowedMethodsOf(this);
  }

  /** The handler of a method, or undefined (405). */
  protected handlerFor(method: string): Handler | undefined {
    const name = httpMethodName(method);
    if (!(HTTP_METHOD_NAMES as readonly string[]).includes(name)) return undefined;
    const self = this as unknown as Record<string, unknown>;
    // HEAD runs GET's handler; the body is dropped when the response is sent.
    const handler = self[name] ?? (name === 'head' ? self.get : undefined);
    return typeof handler === 'function' ? (handler as Handler) : undefined;
  }

  /**
   * OPTIONS: the view's metadata. At once when the metadata class answered at once (`dispatch`
   * then needs no promise), else a promise.
   */
  options(request: Request): Response | Promise<Response> {
    const metadata = this.getMetadata();
    if (!metadata) throw new MethodNotAllowed(request.method);
    return thenMaybe(metadata.determineMetadata(request, this), toResponse);
  }

  /**
   * Runs the request: negotiation, authentication, permissions, throttles, body parsing, then
   * the handler (in one transaction for writes). Errors become responses, never exceptions.
   * Each stage goes on at once when the one before answered at once, so a read whose policies
   * and query answered at once is answered without a promise; a write always waits for its
   * transaction.
   */
  dispatch(request: Request, kwargs: Kwargs = {}): Response | Promise<Response> {
    this.request = request;
    this.kwargs = kwargs;
    request.bodyParser = this;
    return catchMaybe(
      () =>
        thenMaybe(
          thenMaybe(this.initial(request), () => this.#cachedOrHandle(request)),
          (response) => this.finalizeResponse(request, response),
        ),
      (error) => this.finalizeResponse(request, this.handleException(error)),
    );
  }

  /** The handler's response, or the cached one when the class has a `cachePolicy`. */
  #cachedOrHandle(request: Request): Response | Promise<Response> {
    const policy = (this.constructor as typeof APIView).cachePolicy;
    if (policy === undefined) return this.#handle(request);
    return cachedDispatch(this, request, policy, () => this.#handle(request));
  }

  /** The handler's response: a read as it is, a write on its parsed body in a transaction. */
  #handle(request: Request): Response | Promise<Response> {
    const handler = this.handlerFor(request.method);
    if (!handler) throw new MethodNotAllowed(request.method);
    if (request.isSafeMethod) return handler.call(this, request);
    // Parsed once: session authentication may have read it for a form's CSRF token.
    const body = WITH_BODY.has(request.method) ? request.readBody() : NO_BODY;
    return thenMaybe(body, (data) => {
      if (data !== NO_BODY) request.data = data;
      // The handler may run again after a deadlock or a lock wait: it builds a response and
      // sends nothing until the transaction is over.
      return this.database.transaction(
        () => Promise.resolve(handler.call(this, request)),
        RERUN_WRITES,
      );
    });
  }

  /**
   * Before the handler: content negotiation, authentication, permissions, throttles. A
   * promise only when a step had to wait; an override may always be `async`.
   */
  initial(request: Request): void | Promise<void> {
    this.performContentNegotiation(request);
    this.determineVersion(request);
    return thenMaybe(
      thenMaybe(this.performAuthentication(request), () => this.checkPermissions(request)),
      () => this.checkThrottles(request),
    );
  }

  /**
   * Asks every throttle (all of them, so that each counts the request, as DRF does); when one
   * or more refuse, 429 with the longest of their waits as `Retry-After`.
   */
  checkThrottles(request: Request): void | Promise<void> {
    const throttles = this.getThrottles();
    if (throttles.length === 0) return;
    const waits: (number | null)[] = [];
    const asked = eachMaybe(throttles, (throttle) =>
      thenMaybe(throttle.allowRequest(request, this), (allowed) => {
        if (!allowed) waits.push(throttle.wait());
      }),
    );
    return thenMaybe(asked, () => {
      if (waits.length) throw throttledAfter(waits);
    });
  }

  /**
   * Sets `request.version` and `request.versioningScheme` from the view's versioning class
   * (DRF's `determine_version`); 404 or 406 for a version it does not allow. Nothing without one.
   */
  determineVersion(request: Request): void {
    const Versioning =
      this.versioningClass === undefined
        ? request.settings.DEFAULT_VERSIONING_CLASS
        : this.versioningClass;
    if (Versioning === null) return;
    const namespace = this.routePlan?.extra.urlNamespace;
    if (typeof namespace === 'string') request.urlNamespace = namespace;
    const scheme = new Versioning();
    request.version = scheme.determineVersion(request, this.kwargs);
    request.versioningScheme = scheme;
  }

  /** Picks the renderer (406 when none fits the `Accept` header). */
  performContentNegotiation(request: Request): void {
    const negotiator = new this.contentNegotiationClass();
    // Indexed, not destructured: destructuring walks an iterator.
    const chosen = negotiator.selectRenderer(request, this.getRenderers());
    request.acceptedRenderer = chosen[0];
    request.acceptedMediaType = chosen[1];
  }

  /**
   * Sets `request.user` from the first authenticator that recognises the request. A promise
   * only when an authenticator had to wait.
   */
  performAuthentication(request: Request): void | Promise<void> {
    const forced = forcedAuthenticationOf(request.raw.raw);
    if (forced !== undefined) {
      // The test client's forceAuthenticate (DRF's ForcedAuthentication).
      request.user = forced.user;
      request.auth = forced.token;
      return;
    }
    const authenticators = this.getAuthenticators();
    if (authenticators.length === 0) return;
    const found = firstMaybe(authenticators, (authenticator) =>
      authenticator.authenticate(request),
    );
    return thenMaybe(found, (result) => {
      if (result) {
        // Indexed, not destructured: destructuring walks an iterator.
        request.user = result[0];
        request.auth = result[1];
      }
    });
  }

  /**
   * Throws 403 (or 401) when a permission refuses the request; a promise if one must be awaited.
   */
  checkPermissions(request: Request): void | Promise<void> {
    return eachMaybe(this.getPermissions(), (permission) =>
      thenMaybe(permission.hasPermission(request, this), (allowed) => {
        if (!allowed) this.permissionDenied(request, permission.message);
      }),
    );
  }

  /**
   * Throws 403 (or 401) when a permission refuses this object; a promise if one must be awaited.
   */
  checkObjectPermissions(request: Request, obj: unknown): void | Promise<void> {
    return eachMaybe(this.getPermissions(), (permission) =>
      thenMaybe(permission.hasObjectPermission(request, this, obj), (allowed) => {
        if (!allowed) this.permissionDenied(request, permission.message);
      }),
    );
  }

  /**
   * Refuses the request, as DRF's `permission_denied`: when the view has authentication
   * schemes and none recognised the caller, "Authentication credentials were not provided."
   * (401 with `WWW-Authenticate`, or 403 when the first scheme names no challenge, see
   * {@link APIView.handleException}); otherwise 403 with the permission's message.
   */
  permissionDenied(request: Request, message?: string): never {
    if (!request.user.isAuthenticated && this.getAuthenticators().length > 0)
      throw new NotAuthenticated();
    throw new PermissionDenied(message);
  }

  /** The `WWW-Authenticate` value of the first authenticator, if any. */
  getAuthenticateHeader(request: Request): string | undefined {
    return this.getAuthenticators()[0]?.authenticateHeader(request);
  }

  /**
   * The body, parsed by the parser for its `Content-Type` (415 when none takes it): at once
   * when the parser answers at once (JSON, url-encoded), a promise when it waits (multipart),
   * so a {@link MaybePromise} (`@restframework/core` exports it, with `isPromiseLike`).
   * Throws or rejects with the parser's error. An override may be `async`.
   *
   * @example
   * ```ts-fragment
   * const data = await view.parseBody(request); // awaiting works for both answers
   * ```
   */
  parseBody(request: Request): MaybePromise<unknown> {
    const mediaType = requestMediaType(request);
    // DRF: a request without Content-Type has no data, whatever it sent.
    if (!mediaType) return {};
    const parser = new this.contentNegotiationClass().selectParser(request, this.getParsers());
    if (!parser) throw new UnsupportedMediaType(String(request.raw.headers['content-type']));
    refuseContentEncoding(request);
    return parser.parse(request, this.getParserContext());
  }

  /** What parsers may know about this view: no file fields here; generic views add theirs. */
  getParserContext(): ParserContext {
    return { fileField: () => undefined };
  }

  // One instance of each per request (a view serves one request), made when first asked for;
  // one private record rather than four private fields, each defined on every view made.
  #made: Made | undefined;

  /** The renderers of this request, made once per view from `rendererClasses`. */
  getRenderers(): Renderer[] {
    const made = (this.#made ??= {});
    made.renderers ??= instances(this.rendererClasses ?? this.settings.DEFAULT_RENDERER_CLASSES);
    return made.renderers;
  }

  /** The parsers of this request, made once per view from `parserClasses`. */
  getParsers(): Parser[] {
    const made = (this.#made ??= {});
    made.parsers ??= instances(this.parserClasses ?? this.settings.DEFAULT_PARSER_CLASSES);
    return made.parsers;
  }

  /** The authenticators of this request, made once per view from `authenticationClasses`. */
  getAuthenticators(): Authentication[] {
    const made = (this.#made ??= {});
    made.authenticators ??= instances(
      this.authenticationClasses ?? this.settings.DEFAULT_AUTHENTICATION_CLASSES,
    );
    return made.authenticators;
  }

  /**
   * The permissions of this request: instances (DRF's `get_permissions()`), made once per view
   * from `permissionClasses`. Every one must allow the request (and, for a row, the object).
   * Override to choose per action.
   *
   * @example
   * ```ts
   * class BookViewSet extends ModelViewSet {
   *   override queryset = Book.objects.all();
   *   override serializerClass = BookSerializer;
   *   override getPermissions(): Permission[] {
   *     return this.action === 'destroy' ? [new IsAdminUser()] : super.getPermissions();
   *   }
   * }
   * ```
   */
  getPermissions(): Permission[] {
    const made = (this.#made ??= {});
    made.permissions ??= instances(
      this.permissionClasses ?? this.settings.DEFAULT_PERMISSION_CLASSES,
    );
    return made.permissions;
  }

  /** The throttles of this request, made once per view from `throttleClasses`. */
  getThrottles(): Throttle[] {
    const classes = this.throttleClasses ?? this.settings.DEFAULT_THROTTLE_CLASSES;
    // Most views have none: no record and no array made per request for them.
    if (classes.length === 0) return NO_THROTTLES;
    const made = (this.#made ??= {});
    made.throttles ??= instances(classes);
    return made.throttles;
  }

  /** What answers OPTIONS, from `metadataClass`; null: OPTIONS is a 405. */
  getMetadata(): Metadata | null {
    const Metadata = this.metadataClass ?? this.settings.DEFAULT_METADATA_CLASS;
    return Metadata ? new Metadata() : null;
  }

  /** "Book List": the view name plus the route's suffix. */
  getViewName(): string {
    const plan = this.routePlan;
    if (plan !== undefined && this.suffix === plan.suffix) return plan.viewName;
    return defaultViewName(this);
  }

  /** The description OPTIONS and the browsable API show: the class's `description`. */
  getViewDescription(): string {
    return (this.constructor as typeof APIView).description;
  }

  /**
   * Turns an error into a response with the app's exception handler (`EXCEPTION_HANDLER`, see
   * {@link exceptionHandler}); an error it does not handle is logged and answered 500 without
   * internals. First, as DRF does, an authentication error gets the challenge of the view's
   * first authenticator (`WWW-Authenticate`), or becomes 403 when there is none: a 401 must
   * carry one.
   */
  handleException(error: unknown): Response {
    if (error instanceof NotAuthenticated || error instanceof AuthenticationFailed) {
      const header = this.request ? this.getAuthenticateHeader(this.request) : undefined;
      if (header) error.headers['WWW-Authenticate'] = header;
      else error.statusCode = 403;
    }
    return respondToException(error, this.getExceptionHandlerContext(), this.getExceptionHandler());
  }

  /** The app's exception handler (DRF's `get_exception_handler`). */
  getExceptionHandler(): ExceptionHandler {
    return this.request?.settings.EXCEPTION_HANDLER ?? exceptionHandler;
  }

  /** What the exception handler is told of the error's whereabouts: this view and its request. */
  getExceptionHandlerContext(): ExceptionContext {
    const request = this.request ?? null;
    return { view: this, request, raw: request?.raw ?? null, kwargs: this.kwargs };
  }

  /** Adds the view's headers (`Allow`, `Vary`) to a response. */
  finalizeResponse(_request: Request, response: Response): Response {
    const headers = response.headers;
    headers.Allow ??= allowHeaderOf(this);
    headers.Vary ??= 'Accept';
    // The view's own headers win, as in DRF's finalize_response.
    for (const name in this.headers) headers[name] = this.headers[name] as string;
    return response;
  }
}

Object.assign(APIView.prototype, {
  rendererClasses: undefined,
  parserClasses: undefined,
  authenticationClasses: undefined,
  permissionClasses: undefined,
  throttleClasses: undefined,
  throttleScope: undefined,
  metadataClass: undefined,
  versioningClass: undefined,
  contentNegotiationClass: DefaultContentNegotiation,
  kwargs: Object.freeze({}),
  suffix: undefined,
  routePlan: undefined,
});

/** The upper-case methods `view` has a handler for, in DRF's order. */
export function allowedMethodsOf(view: APIView): string[] {
  const self = view as unknown as { handlerFor(method: string): Handler | undefined };
  return HTTP_METHOD_NAMES.filter((m) => self.handlerFor(m) !== undefined).map((m) =>
    m.toUpperCase(),
  );
}

/** The `Allow` header of `view`: joined once in its route's plan, an override's list here. */
export function allowHeaderOf(view: APIView): string {
  const methods = view.allowedMethods;
  const plan = view.routePlan;
  return plan !== undefined && methods === plan.allowedMethods ? plan.allow : methods.join(', ');
}

/** The view name from the class (`viewName`, else its name split into words) and suffix. */
export function defaultViewName(view: APIView): string {
  const ctor = view.constructor as typeof APIView;
  const base = ctor.viewName ?? splitCamelCase(ctor.name.replace(/(ViewSet|View)$/, '')).trim();
  return view.suffix && ctor.viewNameSuffix ? `${base} ${view.suffix}` : base;
}
