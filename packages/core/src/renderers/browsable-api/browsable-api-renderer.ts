/**
 * The browsable API: `text/html` (also `?format=api`) pages showing the request, the response
 * (status, headers, body with clickable URLs), pagination, the view's filters (ordering names)
 * and forms built from the serializer to create, replace, update and delete.
 *
 * Safe by construction: every value is HTML-escaped, and the page's Content-Security-Policy
 * allows only the toolkit's own script and stylesheet (served by the `browsableApi` plugin
 * under `/__restframework/static/`), no inline script or style.
 *
 * This module is the renderer class alone, loaded with the package: what a page needs
 * (templates, forms, the static files) is imported on the first page rendered, so a service
 * that never lists this renderer never loads it (see `browsable-api-plugin.ts`). The class
 * gathers the page's context (`getContext` and the methods it calls, each overridable);
 * `forms-context.ts` builds the forms as data, `page.ts` renders them.
 *
 * @example
 * ```ts
 * await app.register(restFramework, {
 *   database: db,
 *   settings: { DEFAULT_RENDERER_CLASSES: [JSONRenderer, BrowsableAPIRenderer] },
 * });
 * // A browser (Accept: text/html) now gets the page; clients asking for JSON get JSON.
 * ```
 * @module
 */

import { STATUS_CODES } from 'node:http';
import { defaultAuth } from '../../accounts/auth.ts';
import { sessionCsrfToken } from '../../accounts/sessions.ts';
import { SessionLoginView, SessionLogoutView } from '../../accounts/views/session-views.ts';
import { APIException } from '../../errors/api-exception.ts';
import type { Request } from '../../http/request.ts';
import type { Response } from '../../http/response.ts';
import type { Endpoint } from '../../routers/endpoint.ts';
import type { Serializer } from '../../serializers/serializer.ts';
import { ownPlan } from '../../utils/bounded-cache.ts';
import { replaceQueryParam } from '../../utils/urls.ts';
import { APIView } from '../../views/api-view.ts';
import { extraActionsOf } from '../../views/extra-actions.ts';
import { GenericAPIView } from '../../views/generic-api-view.ts';
import type { SafeHtml } from '../html.ts';
import { BaseRenderer, type RenderContext } from '../renderer.ts';
import { type FilterControl, filterControls } from './filter-controls.ts';
import type { FormsView } from './forms-context.ts';
import type { FormsSpec } from './forms-section.ts';
import type { AccountLinks, Crumb, PageContext } from './page.ts';

/** What the renderer reads of a view set (every member optional: any `APIView` renders). */
type PageView = APIView & {
  detail?: boolean;
  action?: string | undefined;
  actionMap?: Readonly<Record<string, string>>;
};

/** The code of a page, imported on the first page rendered (see the module documentation). */
interface PageCode {
  readonly renderPage: (page: PageContext) => SafeHtml;
  readonly jsonToHtml: (data: unknown) => SafeHtml;
  readonly formsContext: typeof import('./forms-context.ts').formsContext;
}

/** Loaded once per process; a failed load (a broken install) is tried again on the next page. */
let pageCode: Promise<PageCode> | undefined;

function loadPageCode(): Promise<PageCode> {
  pageCode ??= Promise.all([
    import('./page.ts'),
    import('./json-html.ts'),
    import('./forms-context.ts'),
  ]).then(
    ([page, json, forms]) => ({
      renderPage: page.renderPage,
      jsonToHtml: json.jsonToHtml,
      formsContext: forms.formsContext,
    }),
    (error: unknown) => {
      pageCode = undefined;
      throw error;
    },
  );
  return pageCode;
}

/** Breadcrumbs: each endpoint's path as a pattern and its view's name, made once per endpoint. */
const VIEW_NAME = Symbol('view name');
const TEMPLATE = Symbol('path template');
/** The session login and logout routes of an app, found once in its endpoints. */
const SESSION_ROUTES = Symbol('session routes');

/**
 * See the module documentation.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override rendererClasses = [JSONRenderer, BrowsableAPIRenderer];
 * }
 * await app.register(browsableApi); // serves the page's script and styles
 * ```
 */
export class BrowsableAPIRenderer extends BaseRenderer {
  readonly mediaType = 'text/html';
  readonly format = 'api';

  /** Only the toolkit's own files; no inline script or style, no frames, forms to this site only. */
  static contentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

  /** The headers every page gets: its {@link contentSecurityPolicy}. */
  getHeaders(_context: RenderContext): Readonly<Record<string, string>> {
    return {
      'Content-Security-Policy': (this.constructor as typeof BrowsableAPIRenderer)
        .contentSecurityPolicy,
    };
  }

  async render(data: unknown, context: RenderContext): Promise<string> {
    const code = await loadPageCode();
    // Forms ask the view for its object: queries run on the view's database, as in a handler.
    const database = context.view instanceof APIView ? context.view.database : undefined;
    const build = () => this.getContext(data, context);
    const page = await (database ? database.run(build) : build());
    return code.renderPage(page).toString();
  }

  /** Everything the page shows; override to add to it. */
  async getContext(
    data: unknown,
    { request, response, view }: RenderContext,
  ): Promise<PageContext> {
    const { jsonToHtml } = await loadPageCode();
    const apiView = view instanceof APIView ? (view as PageView) : undefined;
    const detail = apiView ? isDetail(apiView) : false;
    const url = request.raw.url;
    const forms =
      apiView instanceof GenericAPIView
        ? await this.getForms(apiView, request, response)
        : apiView
          ? await this.getPlainForms(apiView, request)
          : undefined;
    return {
      name: apiView?.getViewName() ?? 'API',
      description: apiView?.getViewDescription() ?? '',
      method: request.method,
      url,
      path: request.path,
      status: response.status,
      statusText: STATUS_CODES[response.status] ?? '',
      headers: this.getResponseHeaders(response, apiView),
      body: jsonToHtml(data),
      hasBody: data !== null && data !== undefined,
      allowedMethods: apiView?.allowedMethods ?? [],
      breadcrumbs: this.getBreadcrumbs(request),
      formats: (apiView?.getRenderers() ?? [])
        .filter((r) => r.format !== this.format)
        .map((r) => ({
          label: r.format.toUpperCase(),
          href: replaceQueryParam(url, request.settings.URL_FORMAT_OVERRIDE, r.format),
        })),
      links: apiView && !detail ? this.getPaginationLinks(apiView, response) : undefined,
      filters: apiView && !detail && request.isSafeMethod ? this.getFilters(apiView, request) : [],
      forms,
      options: apiView?.allowedMethods.includes('OPTIONS') ?? false,
      extraActions: apiView ? this.getExtraActions(apiView, request, detail) : [],
      csrfCookieName: (request.settings.AUTH ?? defaultAuth).session.csrfCookieName,
      account: this.getAccountLinks(request),
      etag:
        response.headers.ETag ??
        (forms && typeof forms === 'object' && 'etag' in forms ? forms.etag : undefined),
    };
  }

  /**
   * DRF's `optional_login` / `optional_logout`: the user's name and a logout button when the
   * request is authenticated, else a login link, each sent back here by `?next=`; none when
   * the app routes no `SessionLoginView` (and then the page shows the user's name alone).
   */
  getAccountLinks(request: Request): AccountLinks | undefined {
    const endpoints = request.raw.server.restFramework?.endpoints ?? [];
    const routes = ownPlan(endpoints, SESSION_ROUTES, () => ({
      login: endpoints.find((e) => !e.detail && isA(e.viewset, SessionLoginView))?.path,
      logout: endpoints.find((e) => !e.detail && isA(e.viewset, SessionLogoutView))?.path,
    }));
    const next = `?next=${encodeURIComponent(request.raw.url)}`;
    const user = request.user;
    if (user.isAuthenticated) {
      const field = (request.settings.AUTH ?? defaultAuth).usernameField;
      const name = user[field] ?? user.username;
      return {
        user: typeof name === 'string' || typeof name === 'number' ? String(name) : 'user',
        logout: routes.logout && routes.logout + next,
        csrfToken: sessionCsrfToken(request),
      };
    }
    if (routes.login === undefined || request.path === routes.login) return undefined;
    return { user: undefined, login: routes.login + next };
  }

  /**
   * The forms of a view without a serializer (an `APIView`, a `ViewSet`), as DRF's for an
   * `APIView`: when the view takes POST and the caller may use it, a POST button (the session
   * logout's) and a raw-data form for a body of any media type the view parses.
   */
  async getPlainForms(view: PageView, request: Request): Promise<FormsSpec | undefined> {
    if (!view.allowedMethods.includes('POST')) return undefined;
    if (!(await this.permits(view as unknown as FormsView, request, 'POST'))) return undefined;
    const url = request.raw.url;
    const mediaTypes = [
      ...new Set(
        view
          .getParsers()
          .map((p) => p.mediaType)
          .filter((t) => t !== 'multipart/form-data'),
      ),
    ].sort((a, b) => Number(b === 'application/json') - Number(a === 'application/json'));
    return {
      blocks: [
        {
          id: 'create',
          title: 'POST',
          html: {
            id: 'post',
            action: url,
            methods: ['POST'],
            fields: [],
            values: () => undefined,
            errors: undefined,
            needsScript: true,
            multipart: false,
          },
          raw: mediaTypes.length
            ? {
                id: 'raw-post',
                action: url,
                methods: ['POST'],
                mediaTypes,
                content: '',
                errors: undefined,
              }
            : undefined,
        },
      ],
      deleteAction: undefined,
      needsScript: true,
    };
  }

  /** The headers the API answers with, as a JSON client sees them (its `Content-Type`). */
  getResponseHeaders(response: Response, view: PageView | undefined): [string, string][] {
    const headers: Record<string, string> = { ...response.headers };
    delete headers.Connection;
    const raw = view?.getRenderers().find((r) => r.format !== this.format);
    if (raw)
      headers['Content-Type'] = raw.charset
        ? `${raw.mediaType}; charset=${raw.charset}`
        : raw.mediaType;
    return Object.entries(headers).sort(([a], [b]) => a.localeCompare(b));
  }

  /** A link per path prefix that is a route of the app (`Api Root › Book List › Book Instance`). */
  getBreadcrumbs(request: Request): Crumb[] {
    const endpoints = request.raw.server.restFramework?.endpoints ?? [];
    const crumbs: Crumb[] = [];
    let prefix = '';
    for (const segment of request.path.split('/').filter(Boolean)) {
      prefix += `/${segment}`;
      const href = `${prefix}/`;
      const endpoint = endpoints.find((e) => templateOf(e).test(href));
      if (endpoint) crumbs.push({ label: viewNameOf(endpoint), href });
    }
    return crumbs;
  }

  /**
   * DRF's `get_extra_action_url_map`: a link to each extra action of the view set of the same
   * kind as this route (detail actions on a detail page), reversed with this route's parameters.
   */
  getExtraActions(
    view: PageView,
    request: Request,
    detail: boolean,
  ): {
    /** The action's name (`Set Password`). */
    label: string;
    /** Its URL for this route. */
    href: string;
  }[] {
    const basename = (view as { basename?: string }).basename;
    const urls = request.raw.server.restFramework?.urls;
    if (basename === undefined || !view.actionMap || !urls) return [];
    const links: { label: string; href: string }[] = [];
    for (const action of extraActionsOf(view.constructor as new () => object)) {
      if (action.detail !== detail) continue;
      const name = `${basename}-${action.urlName}`;
      if (!urls.has(name)) continue;
      links.push({ label: action.viewName, href: request.reverse(name, view.kwargs) });
    }
    return links;
  }

  /** Previous and next, with DRF's numbered page links when the paginator numbers its pages. */
  getPaginationLinks(view: PageView, response: Response): PageContext['links'] {
    if (!(view instanceof GenericAPIView) || response.status !== 200) return undefined;
    const paginator = view.paginator;
    const numbered = paginator?.getHtmlContext?.();
    if (numbered)
      return { previous: numbered.previousUrl, next: numbered.nextUrl, pages: numbered.pageLinks };
    return paginator?.getLinks?.();
  }

  /** A control per filter backend that describes itself (`describe(view)`), such as ordering. */
  getFilters(view: PageView, request: Request): FilterControl[] {
    return filterControls(view, request);
  }

  /**
   * The forms the caller may use: create on lists; replace, update and delete on details, each
   * shown only when the view allows the method and its permissions (and the object's) pass.
   * After a 400, the form of the method used shows what was sent and the errors. Data
   * (`forms-context.ts`) that the page renders; an override may return markup of its own.
   */
  async getForms(
    view: FormsView,
    request: Request,
    response: Response,
  ): Promise<FormsSpec | SafeHtml | string> {
    const { formsContext } = await loadPageCode();
    return formsContext(this, view, request, response, isDetail(view));
  }

  /** True when the caller may use `method` on this view (its permissions say so). */
  async permits(view: FormsView, request: Request, method: string): Promise<boolean> {
    try {
      await this.asMethod(view, request, method, async (probe) => {
        await view.checkPermissions(probe);
      });
      return true;
    } catch (error) {
      if (error instanceof APIException) return false;
      throw error;
    }
  }

  /** Runs `fn` with the view set up as for a request with `method` (DRF's `override_method`). */
  async asMethod<T>(
    view: FormsView,
    request: Request,
    method: string,
    fn: (probe: Request) => Promise<T>,
  ): Promise<T> {
    const probe = Object.create(request, { method: { value: method } }) as Request;
    const { request: original, action } = view;
    view.request = probe;
    if (view.actionMap) view.action = view.actionMap[method.toLowerCase()];
    try {
      return await fn(probe);
    } finally {
      view.request = original;
      view.action = action;
    }
  }

  /** The view's serializer as the action of `method` gets it. */
  serializerFor(view: FormsView, method: string, instance?: unknown): Serializer<any, any> {
    const action = view.action;
    if (view.actionMap) view.action = view.actionMap[method.toLowerCase()];
    try {
      return view.getSerializer(instance === undefined ? {} : { instance });
    } finally {
      view.action = action;
    }
  }
}

function isA(viewset: Function, base: Function): boolean {
  return viewset === base || viewset.prototype instanceof base;
}

function isDetail(view: PageView): boolean {
  if (typeof view.detail === 'boolean' && view.actionMap) return view.detail;
  if (view instanceof GenericAPIView)
    return (view.lookupUrlKwarg ?? view.lookupField) in view.kwargs;
  return false;
}

function templateOf(endpoint: Endpoint): RegExp {
  return ownPlan(endpoint, TEMPLATE, () => {
    const source = endpoint.path
      .split(/(:\w+)/)
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    return new RegExp(`^${source}$`);
  });
}

function viewNameOf(endpoint: Endpoint): string {
  return ownPlan(endpoint, VIEW_NAME, () => {
    if (endpoint.viewName !== undefined) return endpoint.viewName;
    const view = new endpoint.viewset();
    view.suffix = endpoint.suffix;
    return view.getViewName();
  });
}
