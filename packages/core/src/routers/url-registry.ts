/**
 * Named routes and `reverse()`: the registry every router of an app adds its routes to.
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';

/** A named route: its path template (`/books/api/books/:pk/`) and parameter names. */
export interface NamedRoute {
  /** The route's name (`book-detail`). */
  readonly name: string;
  /** Its path with `{param}` placeholders (`/api/books/{pk}/`). */
  readonly template: string;
  /** The names of its path parameters, in order. */
  readonly params: readonly string[];
}

/** What {@link UrlRegistry.resolve} finds for a path: the route's name and its parameters. */
export interface ResolvedRoute {
  /** The route's name (`book-detail`, `v1:book-detail` under a namespace). */
  readonly name: string;
  /** The parameters, decoded (`{ pk: '1' }`). */
  readonly params: Readonly<Record<string, string>>;
}

/**
 * The named routes of an app.
 *
 * @example
 * ```ts
 * const registry = new UrlRegistry();
 * registry.add('book-detail', '/books/api/books/:pk/');
 * registry.reverse('book-detail', { pk: 1 }); // '/books/api/books/1/'
 * ```
 */
export class UrlRegistry {
  readonly #routes = new Map<string, NamedRoute>();
  /** Each template split around its parameters, so `reverse` only concatenates. */
  readonly #segments = new Map<string, readonly string[]>();

  /** Each template as a pattern of its whole path, for {@link resolve} (made on first use). */
  #patterns: { readonly route: NamedRoute; readonly pattern: RegExp }[] | undefined;

  /** Adds a route; a name used twice is a start-up error. */
  add(name: string, template: string): void {
    const existing = this.#routes.get(name);
    if (existing && existing.template !== template) {
      throw new ImproperlyConfigured(
        'REST_ERR_ROUTE_NAME',
        `The route name "${name}" is used for both ${existing.template} and ${template}. Give one router a different basename.`,
      );
    }
    const params = [...template.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
    this.#routes.set(name, { name, template, params });
    this.#segments.set(name, template.split(/:\w+/));
    this.#patterns = undefined;
  }

  /**
   * The named route a path is the URL of, with its parameters (Django's `resolve()`, which
   * hyperlinked fields use to read a link a client sent); null when no route matches, or a
   * parameter is not valid percent-encoding. Where several match, the route with the fewest
   * parameters wins, as the router prefers a fixed segment (`books/recent/`) to a parameter.
   *
   * @example
   * ```ts
   * const registry = new UrlRegistry();
   * registry.add('book-detail', '/books/api/books/:pk/');
   * registry.resolve('/books/api/books/7/'); // { name: 'book-detail', params: { pk: '7' } }
   * ```
   */
  resolve(path: string): ResolvedRoute | null {
    if (this.#patterns === undefined) {
      this.#patterns = [...this.#routes.values()]
        .sort((a, b) => a.params.length - b.params.length)
        .map((route) => ({
          route,
          pattern: new RegExp(
            `^${route.template
              .split(/:\w+/)
              .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
              .join('([^/]+)')}$`,
          ),
        }));
    }
    for (const { route, pattern } of this.#patterns) {
      const match = pattern.exec(path);
      if (match === null) continue;
      const params: Record<string, string> = {};
      try {
        route.params.forEach((key, i) => {
          params[key] = decodeURIComponent(match[i + 1] as string);
        });
      } catch {
        return null;
      }
      return { name: route.name, params };
    }
    return null;
  }

  /** True when a route has this name. */
  has(name: string): boolean {
    return this.#routes.has(name);
  }

  /** The route of this name, if any. */
  get(name: string): NamedRoute | undefined {
    return this.#routes.get(name);
  }

  /** Every named route, in registration order. */
  get routes(): NamedRoute[] {
    return [...this.#routes.values()];
  }

  /** The path of a named route, its parameters URL-encoded. */
  reverse(name: string, params: Readonly<Record<string, unknown>> = {}): string {
    const route = this.#routes.get(name);
    if (!route) {
      throw new ImproperlyConfigured(
        'REST_ERR_ROUTE_NAME',
        `No route is named "${name}". Known names: ${[...this.#routes.keys()].join(', ') || '(none)'}.`,
      );
    }
    // Called for every row of a hyperlinked list: concatenation, no regular expression.
    const segments = this.#segments.get(name) as readonly string[];
    let path = segments[0] as string;
    for (let i = 0; i < route.params.length; i++) {
      const key = route.params[i] as string;
      const value = params[key];
      if (value === undefined || value === null) {
        throw new ImproperlyConfigured(
          'REST_ERR_ROUTE_NAME',
          `reverse("${name}") needs the parameter "${key}".`,
        );
      }
      // A key is mostly an integer, whose text needs no encoding: encodeURIComponent is a call
      // into the runtime, the most of a detail link's cost.
      const text =
        typeof value === 'number' && Number.isSafeInteger(value)
          ? String(value)
          : encodeURIComponent(String(value));
      path += text + (segments[i + 1] as string);
    }
    return path;
  }
}
