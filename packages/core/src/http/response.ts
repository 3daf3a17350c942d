/**
 * What a view returns: data to render, a status and headers. The view renders it with the
 * renderer chosen by content negotiation.
 * @module
 */

/** A body rendered earlier (by per-view caching) and its `Content-Type`. */
export interface RenderedBody {
  /** The `Content-Type` header it was sent with. */
  readonly contentType: string;
  /** The rendered body: its text, or its bytes (what per-view caching sends). */
  readonly body: string | Buffer;
}

/**
 * A view's response.
 *
 * @example
 * ```ts
 * declare const serializer: BookSerializer;
 * declare const url: string;
 *
 * const created = new Response(serializer.data, 201, { Location: url });
 * const noContent = new Response(null, 204); // null with 204: no body
 * ```
 */
export class Response {
  /** The data to render; `null` with 204 means no body. */
  data: unknown;
  /** The HTTP status code (200 by default). */
  status: number;
  /** Headers to send, by name (`Location`, `Retry-After`). */
  readonly headers: Record<string, string>;
  /** An error response (the browsable API shows it differently). */
  readonly exception: boolean;
  /**
   * Give the rendered body a weak `ETag` (a hash of its bytes) and answer 304 when the
   * request's `If-None-Match` names it (set by views with `useETags`, for GET and HEAD).
   */
  declare hashETag: boolean;
  /**
   * The body already rendered (an answer of per-view caching, `views/cache-page.ts`): sent as
   * it is, with its `Content-Type`, without running a renderer.
   */
  declare rendered: RenderedBody | undefined;
  /** Called with the `Content-Type` and the text body once rendered (per-view caching stores it). */
  declare onRendered: ((contentType: string, body: string) => void) | undefined;

  constructor(
    data: unknown = null,
    status = 200,
    headers: Record<string, string> = {},
    exception = false,
  ) {
    this.data = data;
    this.status = status;
    this.headers = headers;
    this.exception = exception;
  }
}

Object.assign(Response.prototype, { hashETag: false, rendered: undefined, onRendered: undefined });
