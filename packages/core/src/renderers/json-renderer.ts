/**
 * JSON output.
 * @module
 */
import { BaseRenderer } from './renderer.ts';

/**
 * Compact JSON, UTF-8, `Content-Type: application/json` (no charset parameter: JSON is UTF-8
 * by definition, and DRF sends none). No data renders as an empty body.
 */
export class JSONRenderer extends BaseRenderer {
  readonly mediaType = 'application/json';
  readonly format = 'json';
  override readonly charset = null;

  render(data: unknown): string {
    if (data === null || data === undefined) return '';
    return JSON.stringify(data);
  }
}
