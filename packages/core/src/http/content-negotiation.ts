/**
 * Content negotiation: which renderer answers (from `?format=` or `Accept`), and which parser
 * reads the body (from `Content-Type`).
 * @module
 */
import { NotAcceptable, NotFound } from '../errors/api-exception.ts';
import type { Parser } from '../parsers/parser.ts';
import type { Renderer } from '../renderers/renderer.ts';
import { processCaches } from '../utils/bounded-cache.ts';
import type { Request } from './request.ts';

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
  readonly specificity: number;
  readonly text: string;
}

// Clients send few distinct Accept headers: each is parsed once (a bounded cache).
const parsedAccept = processCaches.cache<string, MediaRange[]>('parsed Accept headers', 256);

/** Parses an `Accept` header into media ranges, best first (q, then specificity). */
export function parseAccept(header: string | undefined): MediaRange[] {
  // No header at all, or `*/*` (most API clients): anything goes, and nothing to look up.
  if (header === undefined || header === '*/*') return ANY_MEDIA;
  return parsedAccept.getOrCreate(header, parseAcceptHeader);
}

// Shared, as every parsed header is (see parsedAccept): never changed.
const ANY_MEDIA = Object.freeze([
  Object.freeze({ type: '*', subtype: '*', q: 1, specificity: 0, text: '*/*' }),
]) as unknown as MediaRange[];

function parseAcceptHeader(header: string): MediaRange[] {
  if (!header) return ANY_MEDIA;
  const ranges: MediaRange[] = [];
  for (const item of header.split(',').slice(0, 64)) {
    const [mediaType = '', ...params] = item.split(';').map((s) => s.trim());
    const slash = mediaType.indexOf('/');
    if (slash <= 0) continue;
    const type = mediaType.slice(0, slash).toLowerCase();
    const subtype = mediaType.slice(slash + 1).toLowerCase();
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=').map((s) => s.trim());
      if (key?.toLowerCase() === 'q') {
        const parsed = Number(value);
        q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 1;
      }
    }
    if (q === 0) continue;
    const specificity =
      (type === '*' ? 0 : 1) + (subtype === '*' ? 0 : 1) + (params.length > 0 ? 1 : 0);
    ranges.push({ type, subtype, q, specificity, text: `${type}/${subtype}` });
  }
  return ranges.sort((a, b) => b.q - a.q || b.specificity - a.specificity);
}

// Renderers' media types, split once: there are a handful, and each request checks some.
const splitMediaTypes = processCaches.cache<string, readonly [string, string]>(
  'split media types',
  256,
);

function splitMediaType(mediaType: string): readonly [string, string] {
  return mediaType.toLowerCase().split('/') as unknown as readonly [string, string];
}

/** True when `mediaType` (`application/json`) falls within `range`. */
function matches(mediaType: string, range: MediaRange): boolean {
  // `*/*` (most clients send it, or nothing) takes any renderer: nothing to split.
  if (range.type === '*' && range.subtype === '*') return true;
  const split = splitMediaTypes.getOrCreate(mediaType, splitMediaType);
  const type = split[0];
  const subtype = split[1];
  return (
    (range.type === '*' || range.type === type) &&
    (range.subtype === '*' || range.subtype === subtype)
  );
}

/**
 * DRF's default negotiation.
 *
 * @example
 * ```ts
 * declare const request: Request;
 * declare const renderers: readonly Renderer[];
 *
 * const [renderer, mediaType] = new DefaultContentNegotiation().selectRenderer(request, renderers);
 * ```
 */
export class DefaultContentNegotiation {
  /**
   * The renderer for a request: the one named by `?format=` (404 when none has that name),
   * else the first that matches the best `Accept` range (406 when none does).
   */
  selectRenderer(request: Request, renderers: readonly Renderer[]): [Renderer, string] {
    const format = request.queryParam(request.settings.URL_FORMAT_OVERRIDE);
    if (format !== undefined) {
      const renderer = renderers.find((r) => r.format === format);
      if (!renderer) throw new NotFound();
      return [renderer, renderer.mediaType];
    }
    const header = request.raw.headers.accept;
    const ranges = parseAccept(Array.isArray(header) ? header.join(',') : header);
    // Indexed loops: `for...of` walked an iterator per range on every request.
    for (let i = 0; i < ranges.length; i++) {
      const range = ranges[i] as MediaRange;
      for (let j = 0; j < renderers.length; j++) {
        const renderer = renderers[j] as Renderer;
        if (matches(renderer.mediaType, range)) return [renderer, renderer.mediaType];
      }
    }
    throw new NotAcceptable();
  }

  /** The parser for the request's `Content-Type`, or null when none accepts it. */
  selectParser(request: Request, parsers: readonly Parser[]): Parser | null {
    const contentType = requestMediaType(request);
    for (const parser of parsers) if (parser.mediaType === contentType) return parser;
    return null;
  }
}

/**
 * The request's media type without parameters (`multipart/form-data`), or '' when none.
 *
 * @example
 * ```ts
 * declare const request: Request; // Content-Type: Application/JSON; charset=utf-8
 *
 * requestMediaType(request); // 'application/json'
 * ```
 */
export function requestMediaType(request: Request): string {
  const header = request.raw.headers['content-type'];
  if (header === undefined) return '';
  // Asked twice per body (the view, then the negotiation): no array made for the split, and
  // the usual header (`application/json`) comes back as it is, nothing to trim or lower.
  const semicolon = header.indexOf(';');
  return (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
}
