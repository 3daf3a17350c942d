/**
 * What a URL parameter must look like: a view set's `lookupValueRegex`, a named converter
 * (Django's `int`, `slug`, `uuid`, `str`), and route templates in Django's spelling
 * (`articles/<slug:slug>/`) turned into Fastify's (`articles/:slug/`) with their patterns.
 * A value that does not match is a 404 (the route does not match), checked before the view.
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';

/** Django's path converters, by name; the value stays a string in `this.kwargs`. */
export const LOOKUP_CONVERTERS = Object.freeze({
  /** Digits (`<int:pk>`). */
  int: '[0-9]+',
  /** Letters, digits, `-` and `_`. */
  slug: '[-a-zA-Z0-9_]+',
  /** A UUID in lower case, with its dashes. */
  uuid: '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
  /** Anything but `/` (Django's default). */
  str: '[^/]+',
});

/** A converter name of {@link LOOKUP_CONVERTERS}. */
export type LookupConverter = keyof typeof LOOKUP_CONVERTERS;

/**
 * The whole-value pattern of a lookup: a regex source (DRF's `lookup_value_regex`) or a
 * converter name (DRF's `lookup_value_converter`); undefined when neither is given.
 *
 * @example
 * ```ts
 * lookupPattern('[0-9]+', undefined, 'ArticleViewSet')?.test('12'); // true
 * lookupPattern(undefined, 'slug', 'ArticleViewSet')?.test('a b'); // false
 * ```
 */
export function lookupPattern(
  regex: string | undefined,
  converter: string | undefined,
  where: string,
): RegExp | undefined {
  if (converter !== undefined) {
    if (!Object.hasOwn(LOOKUP_CONVERTERS, converter)) {
      throw new ImproperlyConfigured(
        'REST_ERR_ROUTER',
        `${where}: the lookup converter ${JSON.stringify(converter)} is unknown; use one of ${Object.keys(LOOKUP_CONVERTERS).join(', ')}.`,
      );
    }
    return new RegExp(`^(?:${LOOKUP_CONVERTERS[converter as LookupConverter]})$`);
  }
  if (regex === undefined) return undefined;
  try {
    return new RegExp(`^(?:${regex})$`, 'u');
  } catch (error) {
    throw new ImproperlyConfigured(
      'REST_ERR_ROUTER',
      `${where}: lookupValueRegex ${JSON.stringify(regex)} is not a regular expression (${(error as Error).message}).`,
    );
  }
}

/** A route template in Fastify's spelling, with the patterns of its parameters. */
export interface ParsedRoute {
  readonly url: string;
  readonly patterns: Readonly<Record<string, RegExp>>;
}

/**
 * `articles/<slug:slug>/comments/<int:pk>/` → `/articles/:slug/comments/:pk/` with the
 * converters' patterns; `:name` parameters (Fastify's spelling) and `<name>` match any
 * segment.
 *
 * @example
 * ```ts
 * parseRoute('books/<int:pk>/', 'path()').url; // '/books/:pk/'
 * ```
 */
export function parseRoute(route: string, where: string): ParsedRoute {
  const patterns: Record<string, RegExp> = {};
  const url = `/${route.replace(/^\/+/, '')}`.replace(
    /<(?:(\w+):)?(\w+)>/g,
    (_match, converter: string | undefined, name: string) => {
      if (converter !== undefined)
        patterns[name] = lookupPattern(undefined, converter, where) as RegExp;
      return `:${name}`;
    },
  );
  if (!/^\/([\w.~-]+\/|:\w+\/)*([\w.~-]+|:\w+)?\/?$/.test(url) || /[<>]/.test(url)) {
    throw new ImproperlyConfigured(
      'REST_ERR_ROUTER',
      `${where}: ${JSON.stringify(route)} is not a route; write segments, :name or <converter:name> parameters (books/<int:pk>/).`,
    );
  }
  return { url, patterns };
}
