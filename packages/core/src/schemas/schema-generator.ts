/**
 * An OpenAPI 3.1 document of an app's routers: a path per route, an operation per action
 * (list, create, retrieve, update, partialUpdate, destroy, and custom ones), the serializers'
 * schemas as components, built from the fields' own `jsonSchema()`, and the parameters the
 * filter backends and the paginator read.
 *
 * @example
 * ```ts
 * const generator = new SchemaGenerator({ title: 'Bookstore', version: '1.0.0' });
 * const document = generator.getSchema(app.restFramework);
 * // document.paths['/books/api/books/'].get.operationId === 'listBooks'
 * ```
 * @module
 */

import { isDeepStrictEqual } from 'node:util';
import { SessionAuthentication } from '../accounts/authentication/session-authentication.ts';
import { SessionLoginView } from '../accounts/views/session-views.ts';
import {
  MethodNotAllowed,
  NotAcceptable,
  NotAuthenticated,
  NotFound,
  PayloadTooLarge,
  PermissionDenied,
  RequestHeaderFieldsTooLarge,
  RequestTimeout,
  ServiceUnavailable,
  UnsupportedMediaType,
} from '../errors/api-exception.ts';
import { DictField } from '../fields/dict-field.ts';
import type { AnyField, JsonSchema } from '../fields/field.ts';
import { isHiddenField } from '../fields/hidden-field.ts';
import { HyperlinkedIdentityField } from '../fields/hyperlinked-identity-field.ts';
import { JSONField } from '../fields/json-field.ts';
import { ListField } from '../fields/list-field.ts';
import { ANONYMOUS_USER, type Request } from '../http/request.ts';
import { AllowAny } from '../permissions/permissions.ts';
import type { Endpoint } from '../routers/endpoint.ts';
import type { ParamPattern } from '../routers/lookup-patterns.ts';
import { ListSerializer, Serializer } from '../serializers/serializer.ts';
import type { APISettings } from '../settings/api-settings.ts';
import { pascalCase } from '../utils/text.ts';
import { NamespaceVersioning, URLPathVersioning } from '../versioning/versioning.ts';
import type { APIView } from '../views/api-view.ts';
import { GenericAPIView, type SerializerClass } from '../views/generic-api-view.ts';
import { addConditionalHeaders, conditionalResponses } from './conditional-operation.ts';

/** An OpenAPI document (a plain JSON object). */
export type OpenAPIDocument = Record<string, unknown> & {
  /** The OpenAPI version (`3.1.0`). */
  openapi: string;
  /** Title, version and description of the API. */
  info: Record<string, unknown>;
  /** The operations, by path and lower-case method. */
  paths: Record<string, Record<string, unknown>>;
  /** What the operations refer to. */
  components: {
    /** The bodies: one per serializer and use (response, request, patched, form, errors). */
    schemas: Record<string, JsonSchema>;
    /** The error answers every view shares (400s aside). */
    responses: Record<string, unknown>;
    /** The authentication schemes of the views' authentication classes. */
    securitySchemes?: Record<string, unknown>;
  };
};

/** Options of {@link SchemaGenerator}. */
export interface SchemaGeneratorOptions {
  /** The document's `info.title`. */
  readonly title?: string;
  /** The document's `info.version` (the API's version, not OpenAPI's). */
  readonly version?: string;
  /** The document's `info.description` (Markdown). */
  readonly description?: string;
  /**
   * The API version the document describes (one document per version): views see it as
   * `request.version`; under `URLPathVersioning` the version parameter of paths is filled with
   * it, under `NamespaceVersioning` only the routes of its namespace are listed. It is also
   * `info.version` unless `version` is given.
   */
  readonly apiVersion?: string;
  /**
   * The document's `servers`; by default one, `/`: paths are relative to the host the document
   * is served from.
   */
  readonly servers?: readonly {
    /** The server's URL (`https://api.example.com/`, or a path). */
    readonly url: string;
    /** What the server is (`Production`). */
    readonly description?: string;
  }[];
  /**
   * Keep every component of each serializer described (its response, request, patched and form
   * bodies) even when no operation uses it; by default the unused ones are left out.
   */
  readonly keepUnusedComponents?: boolean;
  /** The API's license (`info.license`): `{ name: 'MIT', identifier: 'MIT' }`. */
  readonly license?: {
    /** The license's name (`MIT`). */
    readonly name: string;
    /** Its SPDX identifier (`MIT`); give this or `url`. */
    readonly identifier?: string;
    /** Where its text is. */
    readonly url?: string;
  };
}

/** What the generator reads of an app: `app.restFramework` has it. */
export interface SchemaSource {
  /** The resolved settings (the defaults of the views). */
  readonly settings: APISettings;
  /** Every route the routers registered. */
  readonly endpoints: readonly Endpoint[];
}

const JSON_TYPE = 'application/json';
const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';
const BODY_METHODS = new Set(['post', 'put', 'patch']);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** The verbs of the standard actions in summaries. */
const SUMMARIES: Readonly<Record<string, (one: string, many: string) => string>> = {
  list: (_one, many) => `List ${many}`,
  create: (one) => `Create a ${one}`,
  retrieve: (one) => `Retrieve a ${one}`,
  update: (one) => `Replace a ${one}`,
  partialUpdate: (one) => `Update part of a ${one}`,
  destroy: (one) => `Delete a ${one}`,
};

/**
 * See the module documentation. Override the `get*` methods to change one part.
 *
 * @example
 * ```ts
 * class TaggedSchemaGenerator extends SchemaGenerator {
 *   override getOperationId(action: string, basename: string): string {
 *     return `${basename}.${action}`; // 'book.list' instead of 'listBooks'
 *   }
 * }
 * const document = new TaggedSchemaGenerator({ title: 'Bookstore', version: '1.0.0' }).getSchema(
 *   app.restFramework,
 * );
 * ```
 */
export class SchemaGenerator {
  /** The options given to the constructor. */
  readonly options: SchemaGeneratorOptions;

  constructor(options: SchemaGeneratorOptions = {}) {
    this.options = options;
  }

  /**
   * The document for the endpoints of `source` (`app.restFramework`). With `request`, views
   * see that request (its settings, its user); otherwise a request without user or query.
   */
  getSchema(source: SchemaSource, request?: Request): OpenAPIDocument {
    const apiVersion = this.options.apiVersion;
    const schemaRequest = request ?? versionedRequest(source.settings, apiVersion);
    const build = new DocumentBuild(this, schemaRequest);
    for (const endpoint of source.endpoints) {
      if (!endpoint.inSchema) continue;
      const described =
        apiVersion === undefined
          ? endpoint
          : endpointOfVersion(endpoint, apiVersion, source.settings);
      if (described) build.addEndpoint(described);
    }
    const info: Record<string, unknown> = {
      title: this.options.title ?? 'API',
      version: this.options.version ?? apiVersion ?? '1.0.0',
    };
    if (this.options.description) info.description = this.options.description;
    if (this.options.license) info.license = { ...this.options.license };
    const document: OpenAPIDocument = {
      openapi: '3.1.0',
      info,
      servers: (this.options.servers ?? [{ url: '/', description: 'This service.' }]).map((s) => ({
        ...s,
      })),
      paths: build.paths,
      components: {
        schemas: build.schemas,
        responses: standardResponses(build.optionalUsed, build.otherMediaTypes),
      },
    };
    if (Object.keys(build.securitySchemes).length)
      document.components.securitySchemes = build.securitySchemes;
    if (build.tags.size)
      document.tags = [...build.tags].map(([name, description]) => ({ name, description }));
    if (!this.options.keepUnusedComponents) removeUnusedSchemas(document);
    return document;
  }

  /** `listBooks`, `createBook`, `partialUpdateProxyBook`: DRF's operation ids. */
  getOperationId(action: string, basename: string): string {
    const name = pascalCase(basename);
    return action === 'list' ? `${action}${pluralize(name)}` : `${action}${name}`;
  }

  /** The component name of a serializer class: its name without `Serializer`. */
  getComponentName(serializerClass: SerializerClass): string {
    return serializerClass.name.replace(/Serializer$/, '') || serializerClass.name;
  }
}

/** One run of the generator: the paths and components collected so far. */
class DocumentBuild {
  readonly paths: Record<string, Record<string, unknown>> = {};
  readonly schemas: Record<string, JsonSchema> = {
    ErrorDetail: errorDetailSchema(),
    FieldErrors: fieldErrorsSchema(),
  };
  readonly securitySchemes: Record<string, unknown> = {};
  /** The responses listed only when an operation refers to them (401, 429). */
  readonly optionalUsed = new Set<string>();
  /** Media types other than JSON some view renders (`text/html`): every answer may be one. */
  readonly otherMediaTypes = new Set<string>();
  /** Tag name → description; a tag names one router's registration. */
  readonly tags = new Map<string, string>();
  readonly #tagOwners = new Map<string, string>();
  readonly #summaries = new Set<string>();
  readonly #names = new Map<SerializerClass, string>();
  readonly #operationIds = new Set<string>();
  readonly #generator: SchemaGenerator;
  readonly #request: Request;

  constructor(generator: SchemaGenerator, request: Request) {
    this.#generator = generator;
    this.#request = request;
  }

  addEndpoint(endpoint: Endpoint): void {
    const path = endpoint.path.replace(/:(\w+)/g, '{$1}');
    const item: Record<string, unknown> = (this.paths[path] ??= {});
    for (const method of METHODS) {
      const action = endpoint.actionMap[method];
      if (!action) continue;
      const view = this.#view(endpoint, action);
      item[method] = this.#operation(endpoint, view, method, action);
    }
    const params = [...endpoint.path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
    if (params.length) {
      const view = this.#view(endpoint, Object.values(endpoint.actionMap)[0]);
      item.parameters = params.map((name) => pathParameter(view, name, endpoint.params?.[name]));
    }
  }

  #view(endpoint: Endpoint, action: string | undefined): APIView {
    const view = new endpoint.viewset() as APIView & Record<string, unknown>;
    // An extra action's own options (its serializer, permissions) as its route gives them.
    if (endpoint.initkwargs) Object.assign(view, endpoint.initkwargs);
    Object.assign(view, {
      actionMap: endpoint.actionMap,
      detail: endpoint.detail,
      suffix: endpoint.suffix,
      action,
    });
    view.request = this.#request;
    return view;
  }

  #operation(
    endpoint: Endpoint,
    view: APIView,
    method: string,
    action: string,
  ): Record<string, unknown> {
    // A namespaced name (`v1:book-list`) is one version's: its ids are the same in every document.
    const basename =
      endpoint.basename ?? endpoint.name.replace(/^[^:]*:/, '').replace(/-(list|detail)$/, '');
    const operation: Record<string, unknown> = {
      operationId: this.#uniqueId(this.#generator.getOperationId(action, basename)),
    };
    const generic = view instanceof GenericAPIView ? view : undefined;
    const model = generic?.queryset?.model;
    const one = model?.verboseName ?? basename.replaceAll('-', ' ');
    const many = model?.verboseNamePlural ?? `${one}s`;
    const summary = SUMMARIES[action];
    const tag = endpoint.prefix ? this.#tag(endpoint) : undefined;
    if (summary) operation.summary = this.#uniqueSummary(summary(one, many), tag);
    const description = view.getViewDescription();
    if (description) operation.description = description;
    if (tag) operation.tags = [tag];

    const responses: Record<string, unknown> = {};
    const serializerClass = generic ? safe(() => generic.getSerializerClass()) : undefined;
    const component = serializerClass ? this.#components(serializerClass) : undefined;
    // An answer the view declares is taken as it is: not a list, nor paginated or filtered.
    const declared = (view.constructor as typeof APIView).schemaResponses?.[action];
    // An extra action is not a list unless it says so (DRF: only the `list` action is).
    const list =
      !declared &&
      (action === 'list' ||
        (method === 'get' && !endpoint.detail && action !== 'retrieve' && !endpoint.extraAction));

    let filtered = false;
    if (method === 'get' && list && generic) {
      const filters = generic
        .getFilterBackends()
        .flatMap((b) => b.getSchemaOperationParameters?.(view) ?? []);
      filtered = filters.length > 0;
      const parameters = [
        ...filters,
        ...(generic.paginator?.getSchemaOperationParameters?.(view) ?? []),
      ];
      if (parameters.length) operation.parameters = parameters;
    }

    if (BODY_METHODS.has(method) && component && generic) {
      const body = method === 'patch' ? 'partial' : method === 'post' ? 'create' : 'update';
      operation.requestBody = this.#requestBody(generic, component, body);
    }

    const item = component ? ref(component.response) : {};
    if (declared) {
      responses['200'] = jsonResponse('', declared);
      // A declared answer is a view's own: its POST answers 200, not 201.
      if (BODY_METHODS.has(method) && !component)
        responses['400'] = jsonResponse('The data is not valid.', ref('ErrorDetail'));
    } else if (method === 'get') {
      let schema: JsonSchema = item;
      if (list) {
        const paginator = generic?.paginator;
        schema = paginator?.getPaginatedResponseSchema?.(item) ?? { type: 'array', items: item };
      }
      responses['200'] = jsonResponse('', schema);
      if (list && generic?.paginator) responses['404'] = responseRef('NotFound');
    } else if (method === 'post') {
      const created = jsonResponse('Created.', item);
      if (component?.hasUrl) {
        created.headers = {
          Location: {
            description: 'The URL of the new record.',
            schema: { type: 'string', format: 'uri' },
          },
        };
      }
      responses['201'] = created;
    } else if (method === 'put' || method === 'patch') {
      responses['200'] = jsonResponse('', item);
    } else if (method === 'delete') {
      responses['204'] = { description: 'Deleted; no content.' };
    }
    if (BODY_METHODS.has(method) && (component || !declared)) {
      responses['400'] = jsonResponse(
        'The data is not valid: messages by field (nested like the data), or a parse error.',
        component ? { anyOf: [ref(component.errors), ref('ErrorDetail')] } : ref('ErrorDetail'),
      );
    } else if (filtered) {
      responses['400'] = this.#optional('FilterErrors');
    }
    this.#security(view, method, operation, responses);
    if (this.#mayDeny(view, method)) responses['403'] = responseRef('PermissionDenied');
    if (safe(() => view.getThrottles().length)) responses['429'] = this.#optional('Throttled');
    if (endpoint.detail) responses['404'] = responseRef('NotFound');
    responses['405'] = responseRef('MethodNotAllowed');
    responses['406'] = responseRef('NotAcceptable');
    responses['408'] = responseRef('RequestTimeout');
    addConditionalHeaders(view, method, endpoint.detail, operation, responses, (name) =>
      this.#optional(name),
    );
    if (BODY_METHODS.has(method)) {
      responses['413'] = responseRef('PayloadTooLarge');
      responses['415'] = responseRef('UnsupportedMediaType');
    }
    responses['431'] = responseRef('RequestHeaderFieldsTooLarge');
    responses['503'] = responseRef('ServiceUnavailable');
    this.#otherMediaTypes(view, responses);
    operation.responses = responses;
    return operation;
  }

  /**
   * A tag per router registration: the registration prefix (`books`), or, when another router
   * already registered that prefix, the route's path (`manage/api/books`), so that two routers'
   * operations are never listed together.
   */
  #tag(endpoint: Endpoint): string {
    const base = endpoint.path.replace(/:\w+\/?$/, '').replace(/^\/|\/$/g, '');
    const owner = base.slice(0, base.lastIndexOf(endpoint.prefix) + endpoint.prefix.length);
    let tag = endpoint.prefix;
    const taken = this.#tagOwners.get(tag);
    if (taken !== undefined && taken !== owner) tag = owner;
    if (!this.#tagOwners.has(tag)) {
      this.#tagOwners.set(tag, owner);
      this.tags.set(tag, `The routes under /${owner}/.`);
    }
    return tag;
  }

  /** The summary, or with its tag when another operation has it (two routers' "List books"). */
  #uniqueSummary(summary: string, tag: string | undefined): string {
    let unique = summary;
    if (this.#summaries.has(unique) && tag) unique = `${summary} (${tag})`;
    for (let i = 2; this.#summaries.has(unique); i++) unique = `${summary} (${i})`;
    this.#summaries.add(unique);
    return unique;
  }

  /**
   * Whether the view can answer 403: a permission other than AllowAny, a session (CSRF on
   * unsafe methods), a login's CSRF check, or credentials refused by an authenticator that
   * names no `WWW-Authenticate` scheme.
   */
  #mayDeny(view: APIView, method: string): boolean {
    if (!safe(() => allowsAny(view))) return true;
    const authenticators = safe(() => view.getAuthenticators()) ?? [];
    const unsafe = method !== 'get';
    if (unsafe && view instanceof SessionLoginView) return true;
    if (unsafe && authenticators.some((a) => a instanceof SessionAuthentication)) return true;
    return authenticators.length > 0 && !safe(() => view.getAuthenticateHeader(this.#request));
  }

  /**
   * The media types other than JSON the view renders (the browsable API's `text/html`):
   * added to each of its answers that has a body; shared answers get them once for all.
   */
  #otherMediaTypes(view: APIView, responses: Record<string, unknown>): void {
    const types = (safe(() => view.getRenderers()) ?? [])
      .map((renderer) => renderer.mediaType)
      .filter((type) => type !== JSON_TYPE && !type.includes('*'));
    if (types.length === 0) return;
    for (const type of types) this.otherMediaTypes.add(type);
    for (const response of Object.values(responses)) {
      const content = (response as { content?: Record<string, unknown> }).content;
      if (!content) continue;
      for (const type of types) content[type] ??= { schema: { type: 'string' } };
    }
  }

  #optional(name: string): { $ref: string } {
    this.optionalUsed.add(name);
    return responseRef(name);
  }

  /**
   * `security` from the view's authentication classes that name a scheme (DRF's
   * `get_security_requirements`, as drf-spectacular does): one requirement per scheme, plus
   * `{}` when an anonymous caller is let through; 401 when one is not.
   */
  #security(
    view: APIView,
    method: string,
    operation: Record<string, unknown>,
    responses: Record<string, unknown>,
  ): void {
    const authenticators = safe(() => view.getAuthenticators()) ?? [];
    const schemes = authenticators
      .map((authenticator) => authenticator.securityScheme?.(this.#request.settings))
      .filter((scheme) => scheme !== undefined);
    // Credentials refused: 401 when the view names a `WWW-Authenticate` scheme (its first
    // authenticator's, or its own, as the JWT views), else 403 (see #mayDeny).
    if (safe(() => view.getAuthenticateHeader(this.#request)))
      responses['401'] = this.#optional('NotAuthenticated');
    if (schemes.length === 0) {
      // A public operation says so: no credentials are needed.
      operation.security = [];
      return;
    }
    const security: Record<string, string[]>[] = [];
    for (const { name, scheme } of schemes) {
      this.securitySchemes[name] = scheme;
      security.push({ [name]: [] });
    }
    if (anonymousAllowed(view, method, this.#request)) security.push({});
    else responses['401'] = this.#optional('NotAuthenticated');
    operation.security = security;
  }

  /** The request body in every media type the view parses that can carry it. */
  #requestBody(
    view: GenericAPIView,
    component: Components,
    body: 'create' | 'update' | 'partial',
  ): Record<string, unknown> {
    const partial = body === 'partial';
    const json = ref(
      partial
        ? component.patchedRequest
        : body === 'create'
          ? component.createRequest
          : component.request,
    );
    const form = ref(
      partial ? component.patchedForm : body === 'create' ? component.createForm : component.form,
    );
    const urlEncoded = ref(
      partial
        ? component.patchedUrlEncoded
        : body === 'create'
          ? component.createUrlEncoded
          : component.urlEncoded,
    );
    const content: Record<string, unknown> = {};
    // Url-encoded bodies and JSON carry no files: offered when a body without one can be valid
    // (no file required, or a PATCH), with the file fields left out of their shape.
    const fileless = component.files !== 'required' || partial;
    for (const parser of view.getParsers()) {
      const type = parser.mediaType;
      if (type === MULTIPART) content[type] = { schema: form };
      else if (type === FORM && fileless) content[type] = { schema: urlEncoded };
      else if (type === JSON_TYPE && fileless) content[type] = { schema: json };
      else if (type !== FORM && type !== JSON_TYPE && type !== MULTIPART)
        content[type] = { schema: json };
    }
    return { required: !partial, content };
  }

  /** The components of a serializer class, added once: response, requests, form bodies, errors. */
  #components(serializerClass: SerializerClass): Components {
    let base = this.#names.get(serializerClass);
    if (!base) {
      base = this.#generator.getComponentName(serializerClass);
      const taken = new Set(this.#names.values());
      for (let i = 2; taken.has(base); i++)
        base = `${this.#generator.getComponentName(serializerClass)}${i}`;
      this.#names.set(serializerClass, base);
      const serializer = new serializerClass();
      const fields = serializer.prepared.fields;
      this.schemas[base] = serializer.jsonSchema({ mode: 'response' });
      this.schemas[`${base}Request`] = withoutFiles(serializer.jsonSchema({ mode: 'request' }));
      // A create that must send more than a PUT (NOT NULL columns in optional groups) gets
      // bodies of its own.
      const create = withoutFiles(serializer.jsonSchema({ mode: 'request', create: true }));
      const files = fileUse(fields, true) !== 'none';
      // A form body in multipart, and its url-encoded twin without the files (its own
      // component only when the two differ).
      const forms = (name: string, schema: JsonSchema) => {
        this.schemas[`${name}FormRequest`] = schema;
        if (files) this.schemas[`${name}UrlEncodedRequest`] = withoutFiles(schema);
      };
      if (!isDeepStrictEqual(create, this.schemas[`${base}Request`])) {
        this.schemas[`${base}CreateRequest`] = create;
        forms(`${base}Create`, formSchema(serializer, false, true));
      }
      this.schemas[`Patched${base}Request`] = withoutFiles(
        serializer.jsonSchema({ mode: 'request', partial: true }),
      );
      forms(base, formSchema(serializer, false, false));
      forms(`Patched${base}`, formSchema(serializer, true, false));
      this.schemas[`${base}ValidationError`] = errorSchema(fields);
    }
    const fields = serializerClass.prepare().fields;
    const createRequest = `${base}CreateRequest` in this.schemas ? `${base}Create` : base;
    const urlEncoded =
      `${base}UrlEncodedRequest` in this.schemas ? 'UrlEncodedRequest' : 'FormRequest';
    return {
      response: base,
      createRequest: `${createRequest}Request`,
      createForm: `${createRequest}FormRequest`,
      request: `${base}Request`,
      patchedRequest: `Patched${base}Request`,
      form: `${base}FormRequest`,
      patchedForm: `Patched${base}FormRequest`,
      createUrlEncoded: `${createRequest}${urlEncoded}`,
      urlEncoded: `${base}${urlEncoded}`,
      patchedUrlEncoded: `Patched${base}${urlEncoded}`,
      errors: `${base}ValidationError`,
      files: fileUse(fields, true),
      hasUrl: fields.some((f) => f instanceof HyperlinkedIdentityField && f.fieldName === 'url'),
    };
  }

  #uniqueId(id: string): string {
    let unique = id;
    for (let i = 2; this.#operationIds.has(unique); i++) unique = `${id}${i}`;
    this.#operationIds.add(unique);
    return unique;
  }
}

interface Components {
  readonly response: string;
  /** The bodies of a create: the request's, or their own when a create must send more. */
  readonly createRequest: string;
  readonly createForm: string;
  readonly request: string;
  readonly patchedRequest: string;
  readonly form: string;
  readonly patchedForm: string;
  /** The url-encoded bodies: the form bodies without files (the same ones when no field takes one). */
  readonly createUrlEncoded: string;
  readonly urlEncoded: string;
  readonly patchedUrlEncoded: string;
  readonly errors: string;
  /** Whether the writable fields take files: none, optional ones, or a required one. */
  readonly files: 'none' | 'optional' | 'required';
  readonly hasUrl: boolean;
}

function safe<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

/** `Books` for `Book`, `Categories` for `Category`: DRF's plural of list operation ids. */
function pluralize(name: string): string {
  if (/[^aeiou]y$/i.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(name)) return `${name}es`;
  return `${name}s`;
}

function jsonResponse(description: string, schema: JsonSchema): Record<string, unknown> {
  return { description: description || 'OK.', content: { [JSON_TYPE]: { schema } } };
}

/**
 * A path parameter, typed by its converter when it has one (`<int:pk>`: the integers a
 * request may name), else by the model field the view looks rows up by.
 */
function pathParameter(
  view: APIView,
  name: string,
  param: ParamPattern | undefined,
): Record<string, unknown> {
  let schema: JsonSchema = { type: 'string' };
  let description = `The ${name} of the record.`;
  if (view instanceof GenericAPIView) {
    const model = view.queryset?.model;
    const field = model?.getField(view.lookupField);
    if (
      field &&
      [
        'auto',
        'integer',
        'positive_integer',
        'big_integer',
        'small_integer',
        'positive_small_integer',
      ].includes(field.kind)
    ) {
      schema = { type: 'integer' };
      description = `A unique integer value identifying this ${model?.verboseName}.`;
    } else if (field?.kind === 'uuid') {
      schema = { type: 'string', format: 'uuid' };
      description = `A UUID string identifying this ${model?.verboseName}.`;
    } else if (model) {
      description = `A unique value identifying this ${model.verboseName}.`;
    }
  }
  if (param !== undefined) schema = paramSchema(param);
  return { name, in: 'path', required: true, description, schema };
}

/** What a converter or a `lookupValueRegex` lets through, as JSON Schema. */
function paramSchema(param: ParamPattern): JsonSchema {
  switch (param.converter) {
    case 'int':
      return { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER };
    case 'uuid':
      return { type: 'string', format: 'uuid' };
    case 'str':
      return { type: 'string' };
    default:
      return { type: 'string', pattern: param.pattern.source };
  }
}

function allowsAny(view: APIView): boolean {
  return view.getPermissions().every((p) => p instanceof AllowAny);
}

/** True when every permission of the view lets an anonymous `method` through at once. */
function anonymousAllowed(view: APIView, method: string, request: Request): boolean {
  const upper = method.toUpperCase();
  const anonymous = Object.assign(Object.create(request) as Request, {
    method: upper,
    isSafeMethod: upper === 'GET' || upper === 'HEAD' || upper === 'OPTIONS',
    user: ANONYMOUS_USER,
  });
  const permissions = safe(() => view.getPermissions()) ?? [];
  return permissions.every(
    (permission) => safe(() => permission.hasPermission(anonymous, view)) === true,
  );
}

/** The schema request of one API version (see `SchemaGeneratorOptions.apiVersion`). */
function versionedRequest(settings: APISettings, apiVersion: string | undefined): Request {
  const request = schemaRequest(settings);
  if (apiVersion !== undefined) (request as { version: string | null }).version = apiVersion;
  return request;
}

/**
 * `endpoint` as the document of `apiVersion` lists it: its path with the version filled in
 * (URL path versioning), or undefined when it belongs to another namespace (namespace
 * versioning).
 */
function endpointOfVersion(
  endpoint: Endpoint,
  apiVersion: string,
  settings: APISettings,
): Endpoint | undefined {
  const own = (new endpoint.viewset() as APIView).versioningClass;
  const Versioning = own === undefined ? settings.DEFAULT_VERSIONING_CLASS : own;
  if (Versioning === null) return endpoint;
  if (Versioning === NamespaceVersioning || Versioning.prototype instanceof NamespaceVersioning) {
    const colon = endpoint.name.indexOf(':');
    return colon !== -1 && endpoint.name.slice(0, colon) === apiVersion ? endpoint : undefined;
  }
  if (Versioning === URLPathVersioning || Versioning.prototype instanceof URLPathVersioning) {
    const param = new RegExp(`:${settings.VERSION_PARAM}(?=/|$)`);
    return { ...endpoint, path: endpoint.path.replace(param, encodeURIComponent(apiVersion)) };
  }
  return endpoint;
}

/** A request without user, query or body: what views see while the document is built. */
function schemaRequest(settings: APISettings): Request {
  return {
    settings,
    method: 'GET',
    query: {},
    queryString: '',
    data: {},
    user: ANONYMOUS_USER,
    auth: null,
    version: null,
    versioningScheme: null,
    queryParam: () => undefined,
  } as unknown as Request;
}

/** Whether writable fields (at any depth) take files, and whether one is required. */
function fileUse(fields: readonly AnyField[], required: boolean): 'none' | 'optional' | 'required' {
  let use: 'none' | 'optional' | 'required' = 'none';
  for (const field of fields) {
    if (field.readOnly) continue;
    let found: 'none' | 'optional' | 'required' = 'none';
    if (isNested(field)) found = fileUse(field.prepared.fields, required && field.required);
    else if (isBinary(field.jsonSchema({ mode: 'request' })))
      found = required && field.required ? 'required' : 'optional';
    if (found === 'required') return 'required';
    if (found === 'optional') use = 'optional';
  }
  return use;
}

function isNested(field: AnyField): field is Serializer<any, any> {
  return field instanceof Serializer && !(field instanceof ListSerializer);
}

function isBinary(schema: JsonSchema): boolean {
  return (
    schema.format === 'binary' &&
    (schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string')))
  );
}

/** A request schema without file properties (JSON carries no files), at every depth. */
function withoutFiles(schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (!properties) return schema;
  const kept: Record<string, JsonSchema> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (!isBinary(property)) kept[name] = withoutFiles(property);
  }
  const out: JsonSchema = { ...schema, properties: kept };
  const required = (schema.required as string[] | undefined)?.filter((name) => name in kept);
  if (required?.length) out.required = required;
  else delete out.required;
  return out;
}

/**
 * A form body (url-encoded or multipart): flat, nested fields addressed with dotted keys
 * (`stock_information.price`), as the form parsers read them. A leaf is required when it and
 * every group above it are (never in a PATCH).
 */
function formSchema(
  serializer: Serializer<any, any>,
  partial: boolean,
  create: boolean,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const options = { mode: 'request', partial, create } as const;
  const walk = (owner: Serializer<any, any>, prefix: string, parentRequired: boolean) => {
    for (const field of owner.prepared.fields) {
      if (field.readOnly || field instanceof ListSerializer || isHiddenField(field)) continue;
      const name = `${prefix}${field.fieldName}`;
      const fieldRequired = parentRequired && owner.requiredIn(field, options);
      if (isNested(field)) {
        walk(field, `${name}.`, fieldRequired);
        continue;
      }
      properties[name] = field.jsonSchema(options);
      if (!partial && fieldRequired) required.push(name);
    }
  };
  walk(serializer, '', true);
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length) schema.required = required;
  return schema;
}

/** The 400 body of a serializer: messages by field, nested like the data. */
function errorSchema(fields: readonly AnyField[]): JsonSchema {
  const properties: Record<string, JsonSchema> = { non_field_errors: ref('FieldErrors') };
  for (const field of fields) {
    if (field.readOnly || isHiddenField(field)) continue;
    properties[field.fieldName] = fieldErrorSchema(field);
  }
  return {
    type: 'object',
    description: 'Validation errors: a list of messages per field, nested like the data.',
    properties,
  };
}

/**
 * The errors of one field: a list of messages; a group's messages by field, or a list of
 * messages when the group itself is wrong (`null`, not an object); a list's or a dict's
 * messages by item (`{"0": [...]}`, or one object per item of a list of groups).
 */
function fieldErrorSchema(field: AnyField): JsonSchema {
  if (isNested(field)) return { anyOf: [errorSchema(field.prepared.fields), ref('FieldErrors')] };
  if (field instanceof ListSerializer) {
    return {
      anyOf: [
        ref('FieldErrors'),
        { type: 'array', items: errorSchema(field.child.prepared.fields) },
        { type: 'object', additionalProperties: true },
      ],
    };
  }
  if (field instanceof ListField || field instanceof DictField || field instanceof JSONField)
    return { anyOf: [ref('FieldErrors'), { type: 'object', additionalProperties: true }] };
  return ref('FieldErrors');
}

function errorDetailSchema(): JsonSchema {
  return {
    type: 'object',
    properties: { detail: { type: 'string', description: 'What went wrong.' } },
    required: ['detail'],
  };
}

function fieldErrorsSchema(): JsonSchema {
  return { type: 'array', items: { type: 'string' }, description: 'Messages about one field.' };
}

/**
 * The error answers every view shares, as reusable responses; each also in the media types
 * other than JSON that some view renders (`text/html` of the browsable API).
 */
function standardResponses(
  optionalUsed: ReadonlySet<string>,
  otherMediaTypes: ReadonlySet<string>,
): Record<string, unknown> {
  const others = Object.fromEntries(
    [...otherMediaTypes].map((t) => [t, { schema: { type: 'string' } }]),
  );
  const detail = (description: string, example: string) => ({
    description,
    content: {
      [JSON_TYPE]: { schema: ref('ErrorDetail'), example: { detail: example } },
      ...others,
    },
  });
  const responses: Record<string, unknown> = {
    FilterErrors: {
      description:
        'A filter parameter has a value it cannot use: messages by parameter (or `detail`).',
      content: {
        [JSON_TYPE]: {
          schema: { type: 'object', additionalProperties: ref('FieldErrors') },
          example: { price__gte: ['Enter a number.'] },
        },
        ...others,
      },
    },
    NotFound: detail('No such record (or page).', new NotFound().message),
    NotAuthenticated: detail(
      'The request carries no (or wrong) credentials; `WWW-Authenticate` names the scheme.',
      new NotAuthenticated().message,
    ),
    Throttled: {
      ...detail(
        'Too many requests; `Retry-After` says in how many seconds to retry.',
        'Request was throttled. Expected available in 42 seconds.',
      ),
      headers: {
        'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
      },
    },
    PermissionDenied: detail('The caller may not do this.', new PermissionDenied().message),
    MethodNotAllowed: {
      ...detail(
        'The route does not answer this method; `Allow` lists those it does.',
        new MethodNotAllowed('DELETE').message,
      ),
      headers: {
        Allow: { description: 'The methods the route answers.', schema: { type: 'string' } },
      },
    },
    NotAcceptable: detail(
      'No renderer produces what `Accept` asks for.',
      new NotAcceptable().message,
    ),
    PayloadTooLarge: detail(
      'The body is larger than the service accepts.',
      new PayloadTooLarge().message,
    ),
    UnsupportedMediaType: detail(
      'No parser reads the `Content-Type` of the body.',
      new UnsupportedMediaType('text/plain').message,
    ),
    RequestTimeout: detail(
      'The request (its headers or body) did not arrive in time; the connection is closed.',
      new RequestTimeout().message,
    ),
    RequestHeaderFieldsTooLarge: detail(
      'The request headers are larger than the server accepts.',
      new RequestHeaderFieldsTooLarge().message,
    ),
    ServiceUnavailable: {
      ...detail(
        'The database (or another service the API needs, such as Redis) is unavailable right now; `Retry-After` says when to retry.',
        new ServiceUnavailable().message,
      ),
      headers: {
        'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
      },
    },
    ...conditionalResponses(detail),
  };
  for (const name of [
    'FilterErrors',
    'NotAuthenticated',
    'Throttled',
    'PreconditionFailed',
    'PreconditionRequired',
  ])
    if (!optionalUsed.has(name)) delete responses[name];
  return responses;
}

/**
 * Drops the schema components no operation reaches (a request body of a serializer whose
 * routes take none, say): a document lists what a client can meet, nothing more.
 */
function removeUnusedSchemas(document: OpenAPIDocument): void {
  const schemas = document.components.schemas;
  const reached = new Set<string>();
  const prefix = '#/components/schemas/';
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) walk(item);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith(prefix)) {
          const name = value.slice(prefix.length);
          if (!reached.has(name)) {
            reached.add(name);
            walk(schemas[name]);
          }
        } else walk(value);
      }
    }
  };
  walk(document.paths);
  walk(document.components.responses);
  for (const name of Object.keys(schemas)) if (!reached.has(name)) delete schemas[name];
}
