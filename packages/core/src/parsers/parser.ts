/**
 * Parsers turn a request body into data, chosen by the request's `Content-Type` among the
 * view's `parserClasses` (415 when none matches).
 * @module
 */
import type { AnyField } from '../fields/field.ts';
import type { Request } from '../http/request.ts';
import type { MaybePromise } from '../utils/maybe-promise.ts';

/** What a parser may know about the view: the fields that accept files, by dotted name. */
export interface ParserContext {
  /** The file field for a multipart part name (`resume`, `profile.avatar`), if any. */
  readonly fileField: (name: string) => AnyField | undefined;
}

/** A body parser. */
export interface Parser {
  /** The media type it handles (`application/json`). */
  readonly mediaType: string;
  /**
   * The parsed body, or a promise of it for a parser that waits (one that streams the body):
   * a parser that answers at once costs the request no promise. Throws (or rejects with) an
   * `APIException` (400, 408, 413) for a body it cannot take. The answer is a
   * {@link MaybePromise}: a caller tests it with `isPromiseLike` (both from
   * `@restframework/core`), or simply awaits it.
   *
   * @example
   * ```ts-fragment
   * const parsed = parser.parse(request, context);
   * const data = isPromiseLike(parsed) ? await parsed : parsed;
   * ```
   */
  parse(request: Request, context: ParserContext): MaybePromise<unknown>;
}

/** A parser class; its instances are made per view. */
export type ParserClass = new () => Parser;

/**
 * Defaults for {@link Parser}: subclasses set `mediaType` and implement `parse`.
 *
 * @example
 * ```ts
 * class PlainTextParser extends BaseParser {
 *   readonly mediaType = 'text/plain';
 *   async parse(request: Request) {
 *     // The router reads only JSON, url-encoded and multipart bodies; others stay unread.
 *     let text = '';
 *     for await (const chunk of request.raw.raw) text += chunk;
 *     return { text };
 *   }
 * }
 * ```
 */
export abstract class BaseParser implements Parser {
  abstract readonly mediaType: string;
  abstract parse(request: Request, context: ParserContext): MaybePromise<unknown>;
}

/** The value Fastify leaves as the body of a type no parser took (the view answers 415). */
export const UNPARSED_BODY: unique symbol = Symbol('unparsedBody');
