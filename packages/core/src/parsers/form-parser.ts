/**
 * URL-encoded form bodies.
 * @module
 */
import { createFormInput } from '../fields/form-input.ts';
import type { Request } from '../http/request.ts';
import { BaseParser } from './parser.ts';

/**
 * `application/x-www-form-urlencoded`, read with the WHATWG `URLSearchParams`. Nested fields
 * are addressed with dotted keys (`stock_information.price=9.99`); a repeated key keeps its
 * last value, as Django's `QueryDict.get`.
 */
export class FormParser extends BaseParser {
  readonly mediaType = 'application/x-www-form-urlencoded';

  async parse(request: Request): Promise<unknown> {
    const body = request.raw.body;
    return createFormInput(typeof body === 'string' ? new URLSearchParams(body) : []);
  }
}
