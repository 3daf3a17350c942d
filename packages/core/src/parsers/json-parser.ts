/**
 * JSON bodies.
 * @module
 */
import { ParseError } from '../errors/api-exception.ts';
import type { Request } from '../http/request.ts';
import { resumeStackTraces, suspendStackTraces } from '../utils/stack-traces.ts';
import { decodeBody, jsonTooDeep, tooDeep } from './body-text.ts';
import { BaseParser } from './parser.ts';

const LABEL = 'JSON parse error';
// DRF says "Unexpected UTF-8 BOM (decode using utf-8-sig)"; the mark is refused in every
// charset here, so the message does not name one.
const BOM = `${LABEL} - Unexpected byte order mark (U+FEFF) at the start of the body.`;

/**
 * `application/json`: an empty body is `{}`; a body that is not JSON is 400
 * `{"detail": "JSON parse error - ..."}`, and so is one whose bytes are not valid in its
 * charset (UTF-8 unless the `Content-Type` names another; 415 for one the platform does not
 * know) or that nests arrays and objects deeper than `MAX_BODY_DEPTH`. Keys such as
 * `__proto__` stay plain keys (`JSON.parse` never touches prototypes), and serializers read
 * only declared fields. A body that starts with a byte order mark is 400 too, in every
 * charset, as DRF's parser answers it (the mark is not JSON; it is refused, not dropped).
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override parserClasses = [JSONParser]; // a form or multipart body is then 415
 * }
 * ```
 */
export class JSONParser extends BaseParser {
  readonly mediaType = 'application/json';

  // At once: nothing here waits, and a promise would cost every request a job.
  parse(request: Request): unknown {
    const text = decodeBody(request, LABEL);
    if (text.length === 0) return {};
    if (text.charCodeAt(0) === 0xfeff) throw new ParseError(BOM);
    const maxDepth = request.settings.MAX_BODY_DEPTH;
    // Checked before parsing, so that no deep structure is ever built: messages, renderers and
    // logs then only meet values they can walk.
    if (jsonTooDeep(text, maxDepth)) throw tooDeep(LABEL, maxDepth);
    // Text that is not JSON is the client's mistake: the SyntaxError is made without a stack
    // trace, which nobody reads and which cost more than the parse (see utils/stack-traces.ts).
    const limit = suspendStackTraces();
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new ParseError(`${LABEL} - ${(error as Error).message}`);
    } finally {
      resumeStackTraces(limit);
    }
  }
}
