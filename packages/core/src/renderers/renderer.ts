/**
 * Renderers turn a view's response data into bytes of one media type, chosen by content
 * negotiation among the view's `rendererClasses`.
 * @module
 */
import type { Request } from '../http/request.ts';
import type { Response } from '../http/response.ts';

/** What a renderer may look at besides the data. */
export interface RenderContext {
  /** The request being answered: its `Accept`, its query (`?indent=`), its user. */
  readonly request: Request;
  /** The response whose data is rendered: its status and headers. */
  readonly response: Response;
  /** The view (an `APIView`); typed loosely so renderers do not depend on views. */
  readonly view: unknown;
}

/** A renderer. */
export interface Renderer {
  /** The media type it produces (`application/json`). */
  readonly mediaType: string;
  /** Its name for `?format=` (`json`). */
  readonly format: string;
  /** The charset added to `Content-Type`, or null for none. */
  readonly charset: string | null;
  /**
   * The body. `context` holds the request, the response and the view (DRF's
   * `renderer_context`); a renderer that does not need it may leave the parameter out. A
   * renderer that needs to ask the view or the database something first (the browsable API
   * checks permissions for its forms) returns a promise.
   */
  render(data: unknown, context: RenderContext): string | Buffer | Promise<string | Buffer>;
  /** Headers this renderer's output needs (a `Content-Security-Policy` for HTML, say). */
  getHeaders?(context: RenderContext): Readonly<Record<string, string>>;
}

/** A renderer class. */
export type RendererClass = new () => Renderer;

/**
 * Defaults for {@link Renderer}.
 *
 * @example
 * ```ts
 * class PlainTextRenderer extends BaseRenderer {
 *   readonly mediaType = 'text/plain';
 *   readonly format = 'txt';
 *   render(data: unknown) { return String(data); }
 * }
 * ```
 */
export abstract class BaseRenderer implements Renderer {
  abstract readonly mediaType: string;
  abstract readonly format: string;
  readonly charset: string | null = 'utf-8';
  abstract render(
    data: unknown,
    context: RenderContext,
  ): string | Buffer | Promise<string | Buffer>;
}
