/**
 * JSON output.
 * @module
 */
import { isDeepFrozen } from '../utils/immutable.ts';
import { BaseRenderer } from './renderer.ts';

/** The JSON of deeply frozen data: it cannot change, so it is stringified (and encoded) once. */
const frozenJson = new WeakMap<object, Buffer>();

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

  render(data: unknown): string | Buffer {
    if (data === null || data === undefined) return '';
    if (typeof data === 'object' && isDeepFrozen(data)) {
      let bytes = frozenJson.get(data);
      if (bytes === undefined) frozenJson.set(data, (bytes = Buffer.from(JSON.stringify(data))));
      return bytes;
    }
    return JSON.stringify(data);
  }
}
