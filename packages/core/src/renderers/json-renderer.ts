/**
 * JSON output.
 * @module
 */
import { processCaches } from '../utils/bounded-cache.ts';
import { isDeepFrozen } from '../utils/immutable.ts';
import { BaseRenderer, type RenderContext } from './renderer.ts';

/**
 * The JSON of deeply frozen data (an OPTIONS body, say): it cannot change, so it is
 * stringified (and encoded) once. Bounded: a frozen value made per request costs an entry
 * until newer ones push it out.
 */
const frozenJson = processCaches.cache<object, Buffer>('JSON of frozen data', 256);

/**
 * Compact JSON, UTF-8, `Content-Type: application/json` (no charset parameter: JSON is UTF-8
 * by definition, and DRF sends none). No data renders as an empty body. Data made immutable
 * with `deepFreeze` (OPTIONS metadata, say) is stringified once and its bytes reused; data that
 * is only shallowly frozen (`Object.freeze`) is stringified every time, as a child may change.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override rendererClasses = [JSONRenderer]; // JSON only: no browsable API
 * }
 * ```
 */
export class JSONRenderer extends BaseRenderer {
  readonly mediaType = 'application/json';
  readonly format = 'json';
  override readonly charset = null;

  /**
   * The JSON of `data`. Takes the render context as every renderer does (a subclass's
   * `render(data, context)` may call `super.render(data, context)`), and needs nothing from it.
   */
  render(data: unknown, _context?: RenderContext): string | Buffer {
    if (data === null || data === undefined) return '';
    if (typeof data === 'object' && isDeepFrozen(data)) {
      return frozenJson.getOrCreate(data, stringifyToBuffer);
    }
    return JSON.stringify(data);
  }
}

function stringifyToBuffer(data: object): Buffer {
  return Buffer.from(JSON.stringify(data));
}
