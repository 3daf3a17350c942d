/**
 * JSON output.
 * @module
 */
import { BaseRenderer } from './renderer.ts';

/** The JSON of frozen data: it cannot change, so it is stringified (and encoded) once. */
const frozenJson = new WeakMap<object, Buffer>();

/**
 * Compact JSON, UTF-8, `Content-Type: application/json` (no charset parameter: JSON is UTF-8
 * by definition, and DRF sends none). No data renders as an empty body. Data that is frozen
 * (OPTIONS metadata, say) is stringified once and its text reused.
 */
export class JSONRenderer extends BaseRenderer {
  readonly mediaType = 'application/json';
  readonly format = 'json';
  override readonly charset = null;

  render(data: unknown): string | Buffer {
    if (data === null || data === undefined) return '';
    if (typeof data === 'object' && Object.isFrozen(data)) {
      let bytes = frozenJson.get(data);
      if (bytes === undefined) frozenJson.set(data, (bytes = Buffer.from(JSON.stringify(data))));
      return bytes;
    }
    return JSON.stringify(data);
  }
}
