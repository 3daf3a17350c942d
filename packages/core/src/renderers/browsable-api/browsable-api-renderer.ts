/**
 * The browsable API: `text/html` (also `?format=api`) pages showing the request, the response
 * (status, headers, body with clickable URLs), pagination, the view's filters (ordering names)
 * and forms built from the serializer to create, replace, update and delete.
 *
 * Safe by construction: every value is HTML-escaped, and the page's Content-Security-Policy
 * allows only the toolkit's own script and stylesheet (served by the restFramework plugin
 * under `/__restframework/static/`), no inline script or style.
 *
 * @example
 * ```ts
 * await app.register(restFramework, {
 *   database,
 *   settings: { DEFAULT_RENDERER_CLASSES: [JSONRenderer, BrowsableAPIRenderer] },
 * });
 * // A browser (Accept: text/html) now gets the page; clients asking for JSON get JSON.
 * ```
 * @module
 */

import { STATUS_CODES } from 'node:http';
import { defaultAuth } from '../../auth/auth.ts';
import { DoesNotExist } from '../../db/database-errors.ts';
import { APIException, type ErrorTree, NotFound } from '../../errors/api-exception.ts';
import type { AnyField } from '../../fields/field.ts';
import { FileField } from '../../fields/file-field.ts';
import { isFormInput } from '../../fields/form-input.ts';
import type { Request } from '../../http/request.ts';
import type { Response } from '../../http/response.ts';
import type { Endpoint } from '../../routers/endpoint.ts';
import { ListSerializer, Serializer } from '../../serializers/serializer.ts';
import { replaceQueryParam } from '../../utils/urls.ts';
import { APIView } from '../../views/api-view.ts';
import { GenericAPIView } from '../../views/generic-api-view.ts';
import { BaseRenderer, type RenderContext } from '../renderer.ts';
import { type FormBlock, formsSection } from './forms-section.ts';
import { hasFileField, type ValueLookup, valueLookup } from './html-form.ts';
import { jsonToHtml } from './json-html.ts';
import { type Crumb, type FilterControl, type PageContext, renderPage } from './page.ts';

const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';

/** What the renderer reads of a view set (every member optional: any `APIView` renders). */
type PageView = APIView & {
  detail?: boolean;
  action?: string | undefined;
  actionMap?: Readonly<Record<string, string>>;
};

const viewNames = new WeakMap<Endpoint, string>();
const templates = new WeakMap<Endpoint, RegExp>();

/** See the module documentation. */
export class BrowsableAPIRenderer extends BaseRenderer {
  readonly mediaType = 'text/html';
  readonly format = 'api';

  /** Only the toolkit's own files; no inline script or style, no frames, forms to this site only. */
  static contentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

  getHeaders(_context: RenderContext): Readonly<Record<string, string>> {
    return {
      'Content-Security-Policy': (this.constructor as typeof BrowsableAPIRenderer)
        .contentSecurityPolicy,
    };
  }

  async render(data: unknown, context: RenderContext): Promise<string> {
    // Forms ask the view for its object: queries run on the view's database, as in a handler.
    const database = context.view instanceof APIView ? context.view.database : undefined;
    const build = () => this.getContext(data, context);
    const page = await (database ? database.run(build) : build());
    return renderPage(page).toString();
  }

  /** Everything the page shows; override to add to it. */
  async getContext(
    data: unknown,
    { request, response, view }: RenderContext,
  ): Promise<PageContext> {
    const apiView = view instanceof APIView ? (view as PageView) : undefined;
    const detail = apiView ? isDetail(apiView) : false;
    const url = request.raw.url;
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
      forms:
        apiView instanceof GenericAPIView
          ? await this.getForms(apiView, request, response)
          : undefined,
      options: apiView?.allowedMethods.includes('OPTIONS') ?? false,
      csrfCookieName: (request.settings.AUTH ?? defaultAuth).session.csrfCookieName,
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

  getPaginationLinks(
    view: PageView,
    response: Response,
  ): { previous: string | null; next: string | null } | undefined {
    if (!(view instanceof GenericAPIView) || response.status !== 200) return undefined;
    return view.paginator?.getLinks?.();
  }

  /** A control per filter backend that describes itself (`describe(view)`), such as ordering. */
  getFilters(view: PageView, request: Request): FilterControl[] {
    if (!(view instanceof GenericAPIView)) return [];
    const paginator = view.paginator as Record<string, unknown> | null;
    const pageParams = ['pageQueryParam', 'offsetQueryParam', 'cursorQueryParam']
      .map((key) => paginator?.[key])
      .filter((p): p is string => typeof p === 'string');
    const controls: FilterControl[] = [];
    for (const backend of view.getFilterBackends()) {
      const description = backend.describe?.(view);
      if (!description) continue;
      if (Array.isArray(description.fields)) {
        // A form of several inputs (the filter set's), as DRF's "Filters" dialog.
        const fields = description.fields
          .filter(
            (f): f is Record<string, unknown> & { param: string } =>
              typeof (f as { param?: unknown })?.param === 'string',
          )
          .map((f) => {
            const options = choicesOf(f.options);
            const current = request.queryParam(f.param) ?? '';
            return {
              param: f.param,
              label: typeof f.label === 'string' ? f.label : f.param,
              ...(options ? { options } : {}),
              current: options && !options.some((o) => o.value === current) ? '' : current,
            };
          });
        if (fields.length === 0) continue;
        const names = new Set(fields.map((f) => f.param));
        controls.push({
          param: fields[0]?.param as string,
          title: typeof description.title === 'string' ? description.title : 'Filters',
          current: '',
          fields,
          keep: [...new URLSearchParams(request.queryString)].filter(
            ([name]) => !names.has(name) && !pageParams.includes(name),
          ),
        });
        continue;
      }
      if (typeof description.param !== 'string') continue;
      const param = description.param;
      const options = choicesOf(description.options);
      const current = request.queryParam(param) ?? '';
      controls.push({
        param,
        title: typeof description.title === 'string' ? description.title : param,
        ...(options ? { options } : {}),
        current: options && !options.some((o) => o.value === current) ? '' : current,
        keep: [...new URLSearchParams(request.queryString)].filter(
          ([name]) => name !== param && !pageParams.includes(name),
        ),
      });
    }
    return controls;
  }

  /**
   * The forms the caller may use: create on lists; replace, update and delete on details, each
   * shown only when the view allows the method and its permissions (and the object's) pass.
   * After a 400, the form of the method used shows what was sent and the errors.
   */
  async getForms(view: GenericAPIView & PageView, request: Request, response: Response) {
    const allowed = view.allowedMethods;
    const parsers = view.getParsers().map((p) => p.mediaType);
    const rawTypes = [...new Set(parsers.filter((t) => t !== MULTIPART))].sort(
      (a, b) => Number(b === 'application/json') - Number(a === 'application/json'),
    );
    const failed = (methods: readonly string[]) =>
      response.status === 400 && methods.includes(request.method)
        ? (response.data as ErrorTree)
        : undefined;
    const sentForm = isFormInput(request.data);
    const blocks: FormBlock[] = [];
    const url = request.raw.url;
    let deleteAction: string | undefined;

    if (!isDetail(view)) {
      if (!allowed.includes('POST') || !(await this.permits(view, request, 'POST')))
        return formsSection({ blocks, deleteAction, needsScript: false });
      const fields = this.serializerFor(view, 'POST').prepared.fields;
      const errors = failed(['POST']);
      const defaults = valueLookup(defaultsOf(fields));
      const values = errors && sentForm ? fallback(valueLookup(request.data), defaults) : defaults;
      blocks.push({
        id: 'create',
        title: 'POST: create',
        html: htmlSpec(
          'post',
          url,
          ['POST'],
          fields,
          values,
          sentForm ? errors : undefined,
          parsers,
          false,
        ),
        raw: rawTypes.length
          ? {
              id: 'raw-post',
              action: url,
              methods: ['POST'],
              mediaTypes: rawTypes,
              content: pretty(errors && !sentForm ? request.data : rawTemplate(fields)),
              errors: sentForm ? undefined : errors,
            }
          : undefined,
      });
      return formsSection({ blocks, deleteAction, needsScript: rawTypes.length > 0 });
    }

    const permitted: string[] = [];
    let instance: Record<string, unknown> | undefined;
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      if (!allowed.includes(method)) continue;
      try {
        await this.asMethod(view, request, method, async (probe) => {
          await view.checkPermissions(probe);
          if (instance) await view.checkObjectPermissions(probe, instance);
          else instance = await view.getObject();
        });
        permitted.push(method);
      } catch (error) {
        if (error instanceof NotFound || error instanceof DoesNotExist) break;
        if (!(error instanceof APIException)) throw error;
      }
    }
    if (permitted.includes('DELETE')) deleteAction = url;
    const editing = permitted.filter((m) => m !== 'DELETE');
    if (editing.length && instance) {
      const serializer = this.serializerFor(view, editing[0] as string, instance);
      const fields = serializer.prepared.fields;
      const current = serializer.data;
      const errors = failed(editing);
      const stored = valueLookup(current);
      const values = errors && sentForm ? fallback(valueLookup(request.data), stored) : stored;
      blocks.push({
        id: 'edit',
        title:
          editing.join(' and ') === 'PUT and PATCH'
            ? 'PUT: replace, PATCH: update'
            : `${editing.join(', ')}: edit`,
        html: htmlSpec(
          'edit',
          url,
          editing,
          fields,
          values,
          sentForm ? errors : undefined,
          parsers,
          true,
        ),
        raw: rawTypes.length
          ? {
              id: 'raw-edit',
              action: url,
              methods: editing,
              mediaTypes: rawTypes,
              content: pretty(errors && !sentForm ? request.data : writableData(current, fields)),
              errors: sentForm ? undefined : errors,
            }
          : undefined,
      });
    }
    return formsSection({ blocks, deleteAction, needsScript: true });
  }

  /** True when the caller may use `method` on this view (its permissions say so). */
  async permits(
    view: GenericAPIView & PageView,
    request: Request,
    method: string,
  ): Promise<boolean> {
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
    view: GenericAPIView & PageView,
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
  serializerFor(
    view: GenericAPIView & PageView,
    method: string,
    instance?: unknown,
  ): Serializer<any, any> {
    const action = view.action;
    if (view.actionMap) view.action = view.actionMap[method.toLowerCase()];
    try {
      return view.getSerializer(instance === undefined ? {} : { instance });
    } finally {
      view.action = action;
    }
  }
}

function htmlSpec(
  id: string,
  action: string,
  methods: readonly string[],
  fields: readonly AnyField[],
  values: ValueLookup,
  errors: ErrorTree | undefined,
  parsers: readonly string[],
  needsScript: boolean,
) {
  const files = hasFileField(fields);
  const multipart = files || !parsers.includes(FORM);
  // A form the view cannot parse is no use: raw data only.
  if (multipart && !parsers.includes(MULTIPART)) return undefined;
  return { id, action, methods, fields, values, errors, needsScript, multipart };
}

function isDetail(view: PageView): boolean {
  if (typeof view.detail === 'boolean' && view.actionMap) return view.detail;
  if (view instanceof GenericAPIView)
    return (view.lookupUrlKwarg ?? view.lookupField) in view.kwargs;
  return false;
}

function fallback(primary: ValueLookup, secondary: ValueLookup): ValueLookup {
  return (path) => {
    const value = primary(path);
    return value === undefined ? secondary(path) : value;
  };
}

function pretty(data: unknown): string {
  return JSON.stringify(data ?? {}, null, 2);
}

/** The declared defaults (values, not functions), nested like the data. */
function defaultsOf(fields: readonly AnyField[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (field instanceof Serializer && !(field instanceof ListSerializer)) {
      out[field.fieldName] = defaultsOf(field.prepared.fields);
      continue;
    }
    const value = field.options.default;
    if (value !== undefined && typeof value !== 'function') out[field.fieldName] = value;
  }
  return out;
}

/**
 * The raw form's starting body for a create: every writable field except files, strings
 * empty, choices their first value, declared defaults; optional numbers and the like without a
 * default are left out, so an untouched template fails only where something is required.
 */
function rawTemplate(fields: readonly AnyField[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.readOnly || field instanceof FileField) continue;
    if (field instanceof ListSerializer) {
      out[field.fieldName] = [];
      continue;
    }
    if (field instanceof Serializer) {
      out[field.fieldName] = rawTemplate(field.prepared.fields);
      continue;
    }
    const declared = field.options.default;
    if (declared !== undefined && typeof declared !== 'function') {
      out[field.fieldName] = declared;
      continue;
    }
    const description = field.describe();
    const choices = description.choices as { value: unknown }[] | undefined;
    if (choices?.length) out[field.fieldName] = choices[0]?.value;
    else if (
      ['string', 'email', 'url', 'date', 'datetime', 'decimal', 'time'].includes(description.type)
    )
      out[field.fieldName] = '';
    else if (description.type === 'boolean') out[field.fieldName] = false;
    else if (field.required) out[field.fieldName] = null;
  }
  return out;
}

/** A representation without its read-only fields (and files): the body a PUT would send back. */
function writableData(data: unknown, fields: readonly AnyField[]): Record<string, unknown> {
  const source = (data ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.readOnly || field instanceof FileField || !Object.hasOwn(source, field.fieldName))
      continue;
    const value = source[field.fieldName];
    out[field.fieldName] =
      field instanceof Serializer &&
      !(field instanceof ListSerializer) &&
      value &&
      typeof value === 'object'
        ? writableData(value, field.prepared.fields)
        : value;
  }
  return out;
}

function templateOf(endpoint: Endpoint): RegExp {
  let regex = templates.get(endpoint);
  if (!regex) {
    const source = endpoint.path
      .split(/(:\w+)/)
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    regex = new RegExp(`^${source}$`);
    templates.set(endpoint, regex);
  }
  return regex;
}

function viewNameOf(endpoint: Endpoint): string {
  let name = viewNames.get(endpoint);
  if (name === undefined) {
    const view = new endpoint.viewset();
    view.suffix = endpoint.suffix;
    name = view.getViewName();
    viewNames.set(endpoint, name);
  }
  return name;
}

/** The `{ value, label }` choices of a filter's description, or undefined. */
function choicesOf(options: unknown): { value: string; label: string }[] | undefined {
  if (!Array.isArray(options)) return undefined;
  return options
    .filter(
      (o): o is { value: string; label: string } =>
        typeof (o as { value?: unknown })?.value === 'string' &&
        typeof (o as { label?: unknown })?.label === 'string',
    )
    .map((o) => ({ value: o.value, label: o.label }));
}
