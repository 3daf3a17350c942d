/**
 * JSON bodies.
 * @module
 */
import { ParseError } from '../errors/api-exception.ts';
import type { Request } from '../http/request.ts';
import { BaseParser } from './parser.ts';

/**
 * `application/json`: an empty body is `{}`; a body that is not JSON is 400
 * `{"detail": "JSON parse error - ..."}`. Keys such as `__proto__` stay plain keys
 * (`JSON.parse` never touches prototypes), and serializers read only declared fields.
 */
export class JSONParser extends BaseParser {
  readonly mediaType = 'application/json';

  async parse(request: Request): Promise<unknown> {
    const body = request.raw.body;
    if (typeof body !== 'string' || body.length === 0) return {};
    try {
      return JSON.parse(body);
    } catch (error) {
      throw new ParseError(`JSON parse error - ${(error as Error).message}`);
    }
  }
}
