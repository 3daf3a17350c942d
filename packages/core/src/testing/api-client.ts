/**
 * DRF's test client and request factory over Fastify's `inject()`: no port is opened.
 * `APIRequestFactory` builds `inject()` options (a JSON or multipart body, query data, the
 * headers); `APIClient` sends them to an app, keeps cookies as a browser does, and adds
 * `forceAuthenticate`, `credentials`, `login` (the session flow with its CSRF token) and
 * `logout`.
 *
 * @example
 * ```ts
 * const client = new APIClient(app);
 * client.credentials({ authorization: 'Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b' });
 * const response = await client.post('/api/books/', { title: 'Dune' });
 * response.statusCode; // 201
 * client.forceAuthenticate({ isAuthenticated: true, username: 'ada' }); // no credentials needed
 * ```
 * @module
 */
import { IncomingMessage } from 'node:http';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { defaultAuth, type UserRow } from '../accounts/auth.ts';
import {
  FORCED_AUTH,
  type ForcedAuthentication,
} from '../accounts/authentication/forced-authentication.ts';
import type { RequestUser } from '../http/request.ts';
import { type MultipartPart, multipartBody } from './multipart.ts';

/** How a body is sent: JSON, or `multipart/form-data` (an object of text values or a part list). */
export type RequestFormat = 'json' | 'multipart';

/** Options of one request. */
export interface RequestOptions {
  /** The body's format; default the factory's (`json`). */
  readonly format?: RequestFormat;
  /** More headers (lower-case names). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Options of a factory or client. */
export interface APIRequestFactoryOptions {
  /** The default body format (DRF's `TEST_REQUEST_DEFAULT_FORMAT`); default `json`. */
  readonly defaultFormat?: RequestFormat;
  /** The `Host` header; default `testserver`, as Django's. */
  readonly host?: string;
}

type Query = Readonly<Record<string, string | number | boolean | readonly (string | number)[]>>;

/**
 * Builds `inject()` options as DRF's `APIRequestFactory` builds requests.
 *
 * @example
 * ```ts
 * const factory = new APIRequestFactory();
 * const options = factory.post('/api/books/', { title: 'Dune' }); // JSON body
 * await app.inject(options);
 * ```
 */
export class APIRequestFactory {
  /** The body format when a request names none (`json`, or `multipart` for forms). */
  readonly defaultFormat: RequestFormat;
  /** The `Host` header of every request (`testserver`, as Django's test client). */
  readonly host: string;

  constructor(options: APIRequestFactoryOptions = {}) {
    this.defaultFormat = options.defaultFormat ?? 'json';
    this.host = options.host ?? 'testserver';
  }

  /** GET; `data` becomes the query string. */
  get(path: string, data?: Query, options: RequestOptions = {}): InjectOptions {
    return this.generic('GET', withQuery(path, data), undefined, options);
  }

  /** POST; `data` is the body, in `options.format` (default the factory's). */
  post(path: string, data?: unknown, options: RequestOptions = {}): InjectOptions {
    return this.generic('POST', path, data, options);
  }

  /** PUT; `data` is the body, in `options.format`. */
  put(path: string, data?: unknown, options: RequestOptions = {}): InjectOptions {
    return this.generic('PUT', path, data, options);
  }

  /** PATCH; `data` is the body, in `options.format`. */
  patch(path: string, data?: unknown, options: RequestOptions = {}): InjectOptions {
    return this.generic('PATCH', path, data, options);
  }

  /** DELETE; `data`, if any, is the body. */
  delete(path: string, data?: unknown, options: RequestOptions = {}): InjectOptions {
    return this.generic('DELETE', path, data, options);
  }

  /** OPTIONS; `data`, if any, is the body. */
  options(path: string, data?: unknown, options: RequestOptions = {}): InjectOptions {
    return this.generic('OPTIONS', path, data, options);
  }

  /** HEAD; `data` becomes the query string. */
  head(path: string, data?: Query, options: RequestOptions = {}): InjectOptions {
    return this.generic('HEAD', withQuery(path, data), undefined, options);
  }

  /** A request of any method, its body in `options.format`. */
  generic(
    method: string,
    path: string,
    data: unknown,
    options: RequestOptions = {},
  ): InjectOptions {
    const headers: Record<string, string> = { host: this.host, ...options.headers };
    const request: { method: string; url: string; headers: Record<string, string> } & {
      payload?: string | Buffer;
    } = { method, url: path, headers };
    if (data !== undefined) {
      const format = options.format ?? this.defaultFormat;
      if (format === 'multipart') {
        const body = multipartBody(data as readonly MultipartPart[] | Record<string, string>);
        request.payload = body.payload;
        Object.assign(headers, body.headers);
      } else {
        request.payload = JSON.stringify(data);
        headers['content-type'] = 'application/json';
      }
    }
    return request as InjectOptions;
  }
}

/**
 * DRF's `APIClient`: sends the factory's requests to `app`, with its cookies, credentials
 * and forced user.
 *
 * @example
 * ```ts
 * const client = new APIClient(app);
 * await client.login({ username: 'ada', password: 'secret' }); // session + CSRF, as a browser
 * const response = await client.delete('/api/books/1/');
 * client.logout();
 * ```
 */
export class APIClient {
  /** The app the requests go to, through `inject()`. */
  readonly app: FastifyInstance;
  /** What builds the requests (their host and default format). */
  readonly factory: APIRequestFactory;
  readonly #cookies = new Map<string, string>();
  #credentials: Readonly<Record<string, string>> = {};
  #forced: ForcedAuthentication | undefined;

  constructor(app: FastifyInstance, options: APIRequestFactoryOptions = {}) {
    this.factory = new APIRequestFactory(options);
    this.app = app;
  }

  /**
   * Headers sent with every request from now on (DRF's `credentials(HTTP_AUTHORIZATION=...)`):
   * `{ authorization: 'Token abc' }`. Replaces those given before; none clears them.
   */
  credentials(headers: Readonly<Record<string, string>> = {}): void {
    this.#credentials = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
    );
  }

  /**
   * Every request is made as `user` (with `token` as `request.auth`), whatever the views'
   * authentication classes; permissions still apply. A user row is made the request user of
   * the app's `Auth`. `forceAuthenticate()` without a user stops it.
   */
  forceAuthenticate(user?: RequestUser | UserRow | null, token: unknown = null): void {
    if (user === undefined || user === null) {
      this.#forced = undefined;
      return;
    }
    const requestUser =
      'isAuthenticated' in user
        ? (user as RequestUser)
        : (this.app.restFramework.settings.AUTH ?? defaultAuth).requestUser(user as UserRow);
    this.#forced = Object.freeze({ user: requestUser, token });
  }

  /**
   * Logs in through the session login view at `url` (default the route named `login-list`):
   * GET for the CSRF cookie, then POST the credentials with it, as a browser's page does.
   * True when the view answered 200; the session and CSRF cookies are kept for the next
   * requests, which send `X-CSRFToken` as the browsable API's script does.
   */
  async login(credentials: Readonly<Record<string, string>>, url?: string): Promise<boolean> {
    const path = url ?? this.app.restFramework.urls.reverse('login-list');
    await this.get(path);
    const response = await this.post(path, credentials);
    return response.statusCode === 200;
  }

  /** Forgets the cookies (the session), the credentials and the forced user. */
  logout(): void {
    this.#cookies.clear();
    this.#credentials = {};
    this.#forced = undefined;
  }

  /** GET through the app; `data` becomes the query string. */
  get(path: string, data?: Query, options: RequestOptions = {}): Promise<LightMyRequestResponse> {
    return this.#send(this.factory.get(path, data, options));
  }

  /** POST through the app; `data` is the body, in `options.format`. */
  post(
    path: string,
    data?: unknown,
    options: RequestOptions = {},
  ): Promise<LightMyRequestResponse> {
    return this.#send(this.factory.post(path, data, options));
  }

  /** PUT through the app; `data` is the body. */
  put(path: string, data?: unknown, options: RequestOptions = {}): Promise<LightMyRequestResponse> {
    return this.#send(this.factory.put(path, data, options));
  }

  /** PATCH through the app; `data` is the body. */
  patch(
    path: string,
    data?: unknown,
    options: RequestOptions = {},
  ): Promise<LightMyRequestResponse> {
    return this.#send(this.factory.patch(path, data, options));
  }

  /** DELETE through the app. */
  delete(
    path: string,
    data?: unknown,
    options: RequestOptions = {},
  ): Promise<LightMyRequestResponse> {
    return this.#send(this.factory.delete(path, data, options));
  }

  /** OPTIONS through the app. */
  options(
    path: string,
    data?: unknown,
    options: RequestOptions = {},
  ): Promise<LightMyRequestResponse> {
    return this.#send(this.factory.options(path, data, options));
  }

  /** HEAD through the app; `data` becomes the query string. */
  head(path: string, data?: Query, options: RequestOptions = {}): Promise<LightMyRequestResponse> {
    return this.#send(this.factory.head(path, data, options));
  }

  async #send(options: InjectOptions): Promise<LightMyRequestResponse> {
    const headers = { ...(options.headers as Record<string, string>) };
    for (const [name, value] of Object.entries(this.#credentials)) headers[name] ??= value;
    if (this.#cookies.size) {
      headers.cookie = [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      const csrf = this.#cookies.get(this.#csrfCookieName());
      if (csrf && !['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(String(options.method)))
        headers['x-csrftoken'] ??= csrf;
    }
    const request: InjectOptions = { ...options, headers };
    const forced = this.#forced;
    if (forced) {
      // light-my-request makes its request object from this constructor's prototype: the
      // forced user rides on it, where no HTTP client can put anything.
      class ForcedRequest extends IncomingMessage {}
      (ForcedRequest.prototype as unknown as Record<symbol, unknown>)[FORCED_AUTH] = forced;
      (request as { Request?: unknown }).Request = ForcedRequest;
    }
    const response = await this.app.inject(request);
    for (const cookie of response.cookies as {
      name: string;
      value: string;
      maxAge?: number;
      expires?: Date;
    }[]) {
      const expired =
        cookie.value === '' ||
        (cookie.maxAge !== undefined && cookie.maxAge <= 0) ||
        (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      if (expired) this.#cookies.delete(cookie.name);
      else this.#cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  #csrfCookieName(): string {
    return (this.app.restFramework.settings.AUTH ?? defaultAuth).session.csrfCookieName;
  }
}

function withQuery(path: string, data: Query | undefined): string {
  if (!data) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(data)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, String(item));
  }
  const query = params.toString();
  if (!query) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}
