/**
 * API versioning, as DRF's `versioning.py`: a scheme finds the version a request asks for (in
 * the URL path, a URL namespace, the `Accept` header, the host name or a query parameter),
 * refuses one that `ALLOWED_VERSIONS` does not list with DRF's error and message, and keeps
 * the version in the URLs `reverse()` builds. Set it as `DEFAULT_VERSIONING_CLASS` or a
 * view's `versioningClass`; a view reads `request.version` and `request.versioningScheme`.
 *
 * @example
 * ```ts
 * await app.register(restFramework, {
 *   database: db,
 *   settings: {
 *     DEFAULT_VERSIONING_CLASS: URLPathVersioning,
 *     ALLOWED_VERSIONS: ['v1', 'v2'],
 *     DEFAULT_VERSION: 'v1',
 *   },
 * });
 * await app.register(router.plugin, { prefix: '/api/:version' }); // /api/v1/books/
 * ```
 * @module
 */
import { NotAcceptable, NotFound } from '../errors/api-exception.ts';
import type { Request } from '../http/request.ts';
import type { Kwargs } from '../routers/path-kwargs.ts';

/** What `dispatch` asks of a versioning scheme. */
export interface Versioning {
  /** The version the request asks for (the default when it names none); throws when not allowed. */
  determineVersion(request: Request, kwargs: Kwargs): string | null;
  /** The absolute URL of a named route, keeping the request's version. */
  reverse(name: string, params: Readonly<Record<string, unknown>>, request: Request): string;
}

/** A versioning class, as settings and views name it. */
export type VersioningClass = new () => Versioning;

/**
 * The base of the schemes: `ALLOWED_VERSIONS`, `DEFAULT_VERSION` and `VERSION_PARAM` from
 * the settings, unless a subclass sets its own.
 *
 * @example
 * ```ts
 * class V2Only extends QueryParameterVersioning {
 *   override allowedVersions = ['2'];
 *   override defaultVersion = '2';
 * }
 * ```
 */
export abstract class BaseVersioning implements Versioning {
  /** Overrides `DEFAULT_VERSION` for this scheme. */
  declare defaultVersion: string | null | undefined;
  /** Overrides `ALLOWED_VERSIONS` for this scheme (null: any version). */
  declare allowedVersions: readonly string[] | null | undefined;
  /** Overrides `VERSION_PARAM` for this scheme. */
  declare versionParam: string | undefined;

  abstract determineVersion(request: Request, kwargs: Kwargs): string | null;

  /** The URL as any request builds it; the schemes that carry the version override it. */
  reverse(name: string, params: Readonly<Record<string, unknown>>, request: Request): string {
    return request.reverseUnversioned(name, params);
  }

  /**
   * The name of the parameter that carries the version: {@link versionParam}, else the
   * `VERSION_PARAM` setting (`version`).
   */
  protected param(request: Request): string {
    return this.versionParam ?? request.settings.VERSION_PARAM;
  }

  /**
   * The version of a request that names none: {@link defaultVersion}, else the `DEFAULT_VERSION`
   * setting.
   */
  protected defaultFor(request: Request): string | null {
    return this.defaultVersion === undefined
      ? request.settings.DEFAULT_VERSION
      : this.defaultVersion;
  }

  /** DRF's `is_allowed_version`: any when no list; the default, or one of the list. */
  isAllowedVersion(version: string | null, request: Request): boolean {
    const allowed =
      this.allowedVersions === undefined ? request.settings.ALLOWED_VERSIONS : this.allowedVersions;
    if (allowed === null || allowed.length === 0) return true;
    return (
      (version !== null && version === this.defaultFor(request)) ||
      (version !== null && allowed.includes(version))
    );
  }
}

Object.assign(BaseVersioning.prototype, {
  defaultVersion: undefined,
  allowedVersions: undefined,
  versionParam: undefined,
});

/**
 * The version in the `Accept` header: `Accept: application/json; version=1.0`. An unknown
 * version is 406 `Invalid version in "Accept" header.`
 *
 * @example
 * ```ts
 * // GET /books/  Accept: application/json; version=1.0  → request.version === '1.0'
 * ```
 */
export class AcceptHeaderVersioning extends BaseVersioning {
  /** The detail of the 406 for a version not allowed (DRF's `invalid_version_message`). */
  static readonly invalidVersionMessage = 'Invalid version in "Accept" header.';

  determineVersion(request: Request): string | null {
    const sent = acceptParam(
      request.raw.headers.accept,
      request.acceptedMediaType,
      this.param(request),
    );
    const version = sent ?? this.defaultFor(request);
    if (!this.isAllowedVersion(version, request))
      throw new NotAcceptable(AcceptHeaderVersioning.invalidVersionMessage);
    return version;
  }
}

/**
 * The version in the URL path, a route parameter named `VERSION_PARAM`: mount the router with
 * `{ prefix: '/api/:version' }`. An unknown version is 404 `Invalid version in URL path.`;
 * `reverse()` fills the parameter with the request's version.
 *
 * @example
 * ```ts
 * // GET /api/v2/books/1/ → request.version === 'v2'; its links are /api/v2/...
 * ```
 */
export class URLPathVersioning extends BaseVersioning {
  /** The detail of the 404 for a version not allowed (DRF's `invalid_version_message`). */
  static readonly invalidVersionMessage = 'Invalid version in URL path.';

  determineVersion(request: Request, kwargs: Kwargs): string | null {
    const given = kwargs[this.param(request)];
    // A version behind `<int:version>` is a number in the kwargs; versions are compared as text.
    const version = given === undefined ? this.defaultFor(request) : String(given);
    if (!this.isAllowedVersion(version, request))
      throw new NotFound(URLPathVersioning.invalidVersionMessage);
    return version;
  }

  override reverse(
    name: string,
    params: Readonly<Record<string, unknown>>,
    request: Request,
  ): string {
    if (request.version === null) return request.reverseUnversioned(name, params);
    const withVersion: Record<string, unknown> = { ...params };
    withVersion[this.param(request)] = request.version;
    return request.reverseUnversioned(name, withVersion);
  }
}

/**
 * The version is the URL namespace the router was mounted under: `router.plugin` registered
 * with `{ prefix: '/v1', namespace: 'v1' }` names its routes `v1:book-list`. An unknown one is
 * 404 `Invalid version in URL path. Does not match any version namespace.`; `reverse('book-list')`
 * finds the route of the request's namespace.
 *
 * @example
 * ```ts
 * await app.register(router.plugin, { prefix: '/v1', namespace: 'v1' });
 * await app.register(router.plugin, { prefix: '/v2', namespace: 'v2' });
 * ```
 */
export class NamespaceVersioning extends BaseVersioning {
  /** The detail of the 404 for a version not allowed (DRF's `invalid_version_message`). */
  static readonly invalidVersionMessage =
    'Invalid version in URL path. Does not match any version namespace.';

  determineVersion(request: Request): string | null {
    const version = request.urlNamespace ?? this.defaultFor(request);
    if (!this.isAllowedVersion(version, request))
      throw new NotFound(NamespaceVersioning.invalidVersionMessage);
    return version;
  }

  override reverse(
    name: string,
    params: Readonly<Record<string, unknown>>,
    request: Request,
  ): string {
    const version = request.version;
    if (version === null || name.includes(':')) return request.reverseUnversioned(name, params);
    return request.reverseUnversioned(`${version}:${name}`, params);
  }
}

/**
 * The version is the first label of the host name: `v1.example.org` (DRF's pattern, three
 * labels of letters and digits). An unknown version is 404 `Invalid version in hostname.`
 *
 * @example
 * ```ts
 * // GET http://v1.example.org/books/ → request.version === 'v1'
 * ```
 */
export class HostNameVersioning extends BaseVersioning {
  /** The detail of the 404 for a version not allowed (DRF's `invalid_version_message`). */
  static readonly invalidVersionMessage = 'Invalid version in hostname.';
  /** DRF's `hostname_regex`: the version is its first group. */
  hostnameRegex: RegExp = /^([a-zA-Z0-9]+)\.[a-zA-Z0-9]+\.[a-zA-Z0-9]+$/;

  determineVersion(request: Request): string | null {
    const host = request.host.replace(/:\d+$/, '');
    const match = this.hostnameRegex.exec(host);
    const version = match?.[1] ?? this.defaultFor(request);
    if (!this.isAllowedVersion(version, request))
      throw new NotFound(HostNameVersioning.invalidVersionMessage);
    return version;
  }
}

/**
 * The version in a query parameter: `/books/?version=0.1`. An unknown version is 404
 * `Invalid version in query parameter.`; `reverse()` adds the parameter to the URLs it builds.
 *
 * @example
 * ```ts
 * // GET /books/?version=0.1 → request.version === '0.1'; links end in ?version=0.1
 * ```
 */
export class QueryParameterVersioning extends BaseVersioning {
  /** The detail of the 404 for a version not allowed (DRF's `invalid_version_message`). */
  static readonly invalidVersionMessage = 'Invalid version in query parameter.';

  determineVersion(request: Request): string | null {
    const version = request.queryParam(this.param(request)) ?? this.defaultFor(request);
    if (!this.isAllowedVersion(version, request))
      throw new NotFound(QueryParameterVersioning.invalidVersionMessage);
    return version;
  }

  override reverse(
    name: string,
    params: Readonly<Record<string, unknown>>,
    request: Request,
  ): string {
    const url = request.reverseUnversioned(name, params);
    if (request.version === null) return url;
    const hash = url.indexOf('#');
    const base = hash === -1 ? url : url.slice(0, hash);
    const joint = base.includes('?') ? '&' : '?';
    const query = `${encodeURIComponent(this.param(request))}=${encodeURIComponent(request.version)}`;
    return base + joint + query + (hash === -1 ? '' : url.slice(hash));
  }
}

/**
 * The `name` parameter of the first `Accept` range (in the client's order of preference)
 * that takes `mediaType`, or undefined.
 */
function acceptParam(
  header: string | string[] | undefined,
  mediaType: string,
  name: string,
): string | undefined {
  if (header === undefined) return undefined;
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text.includes(name)) return undefined;
  const wanted = mediaType.toLowerCase();
  const [type] = wanted.split('/');
  let best: { q: number; value: string | undefined } | undefined;
  for (const item of text.split(',').slice(0, 64)) {
    const [range = '', ...params] = item.split(';').map((s) => s.trim());
    const lower = range.toLowerCase();
    if (lower !== wanted && lower !== `${type}/*` && lower !== '*/*') continue;
    let q = 1;
    let value: string | undefined;
    for (const param of params) {
      const eq = param.indexOf('=');
      if (eq === -1) continue;
      const key = param.slice(0, eq).trim().toLowerCase();
      const raw = param
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
      if (key === 'q') q = Number(raw);
      else if (key === name.toLowerCase()) value = raw;
    }
    if (!(q > 0)) continue;
    if (best === undefined || q > best.q) best = { q, value };
  }
  return best?.value;
}
