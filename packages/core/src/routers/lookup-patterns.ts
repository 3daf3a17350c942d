/**
 * What a URL parameter must look like and what value it gives the view: a view set's
 * `lookupValueRegex`, a named converter (Django's `int`, `slug`, `uuid`, `str`), and route
 * templates in Django's spelling (`articles/<slug:slug>/`) turned into Fastify's
 * (`articles/:slug/`) with their patterns. A value that does not match is a 404 (the route
 * does not match), checked before the view; `int` gives `this.kwargs` a number.
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';

/**
 * Django's path converters, by name, with the pattern of each. In `this.kwargs`, `int` gives
 * a number (beyond `Number.MAX_SAFE_INTEGER` it names nothing: a 404, never a rounded
 * number); `uuid`, `slug` and `str` give the text they matched.
 */
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
 * What one URL parameter must match, and the converter that makes its value (none for a
 * `lookupValueRegex`: the value is the text).
 */
export interface ParamPattern {
  /** The whole-value pattern. */
  readonly pattern: RegExp;
  /** The converter the pattern is of; undefined for a `lookupValueRegex`. */
  readonly converter: LookupConverter | undefined;
}

/**
 * The whole-value pattern of a lookup: a regex source (DRF's `lookup_value_regex`) or a
 * converter name (DRF's `lookup_value_converter`); undefined when neither is given.
 *
 * @example
 * ```ts
 * lookupPattern('[0-9]+', undefined, 'ArticleViewSet')?.pattern.test('12'); // true
 * lookupPattern(undefined, 'slug', 'ArticleViewSet')?.pattern.test('a b'); // false
 * ```
 */
export function lookupPattern(
  regex: string | undefined,
  converter: string | undefined,
  where: string,
): ParamPattern | undefined {
  if (converter !== undefined) {
    if (!Object.hasOwn(LOOKUP_CONVERTERS, converter)) {
      throw new ImproperlyConfigured(
        'REST_ERR_ROUTER',
        `${where}: the lookup converter ${JSON.stringify(converter)} is unknown; use one of ${Object.keys(LOOKUP_CONVERTERS).join(', ')}.`,
      );
    }
    const name = converter as LookupConverter;
    return { pattern: new RegExp(`^(?:${LOOKUP_CONVERTERS[name]})$`), converter: name };
  }
  if (regex === undefined) return undefined;
  try {
    return { pattern: new RegExp(`^(?:${regex})$`, 'u'), converter: undefined };
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
  readonly patterns: Readonly<Record<string, ParamPattern>>;
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
  const patterns: Record<string, ParamPattern> = {};
  const url = `/${route.replace(/^\/+/, '')}`.replace(
    /<(?:(\w+):)?(\w+)>/g,
    (_match, converter: string | undefined, name: string) => {
      if (converter !== undefined)
        patterns[name] = lookupPattern(undefined, converter, where) as ParamPattern;
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

/**
 * The route's parameters as the view gets them in `this.kwargs`: each one with a pattern
 * checked and converted (`int` → a number), the others as they are; undefined when one does
 * not match or names no value (an `int` past `Number.MAX_SAFE_INTEGER`), which is a 404.
 *
 * @example
 * ```ts
 * const patterns = parseRoute('books/<int:pk>/', 'path()').patterns;
 * routeKwargs(patterns, { pk: '7' }); // { pk: 7 }
 * routeKwargs(patterns, { pk: '9007199254740992' }); // undefined
 * ```
 */
export function routeKwargs(
  patterns: Readonly<Record<string, ParamPattern>>,
  params: Readonly<Record<string, string>>,
): Readonly<Record<string, string | number>> | undefined {
  // A copy only when a value changes: most routes' parameters go to the view as they are.
  let converted: Record<string, string | number> | undefined;
  for (const name in patterns) {
    const { pattern, converter } = patterns[name] as ParamPattern;
    const text = params[name];
    if (text === undefined || !pattern.test(text)) return undefined;
    if (converter === 'int') {
      // Every text of digits past the safe range reads as an unsafe number, never as a
      // rounded safe one, so this keeps exactly the values a number holds.
      const value = Number(text);
      if (!Number.isSafeInteger(value)) return undefined;
      converted ??= { ...params };
      converted[name] = value;
    }
  }
  return converted ?? params;
}
