/**
 * URL-encoded form bodies.
 * @module
 */
import { createFormInput } from '../fields/form-input.ts';
import type { Request } from '../http/request.ts';
import { decodeStrictly, formKeyTooDeep, tooDeep } from './body-text.ts';
import { BaseParser } from './parser.ts';

const LABEL = 'Form parse error';

/**
 * `application/x-www-form-urlencoded`, split as the WHATWG `URLSearchParams` splits it. Nested
 * fields are addressed with dotted keys (`stock_information.price=9.99`), at most
 * `MAX_BODY_DEPTH` levels. A repeated key (`tags=1&tags=2`, what a `<select multiple>` sends)
 * reads as its last value for a field of one value, as Django's `QueryDict.get`, and as all of
 * them for a field of a list (`ManyRelatedField`, `MultipleChoiceField`, `ListField`), as
 * `QueryDict.getlist` (see `formInputList`); the body's size bounds how many (`MAX_BODY_SIZE`).
 * Each key and value, once its percent-escapes are undone, must be valid text in the body's
 * charset (UTF-8 unless the `Content-Type` names another): 400 otherwise, rather than a U+FFFD
 * stored in place of what was sent. A `%` not followed by two hex digits stays as it is.
 *
 * @example
 * ```ts
 * class BookViewSet extends ModelViewSet {
 *   override queryset = Book.objects.all();
 *   override serializerClass = BookSerializer;
 *   override parserClasses = [FormParser, JSONParser];
 * }
 * // POST /books/ with `title=Dune&stock_information.price=9.99`: the dotted key fills
 * // `price` of the nested `stock_information`; an error there is reported as
 * // {"stock_information": {"price": [...]}}
 * ```
 */
export class FormParser extends BaseParser {
  readonly mediaType = 'application/x-www-form-urlencoded';

  // At once: nothing here waits, and a promise would cost every request a job.
  parse(request: Request): unknown {
    const body = request.raw.body;
    // Latin-1 maps each byte to one character: the escapes are undone byte for byte, and the
    // bytes are decoded in the body's charset afterwards.
    const bytes = Buffer.isBuffer(body)
      ? body.toString('latin1')
      : typeof body === 'string'
        ? Buffer.from(body).toString('latin1')
        : '';
    const maxDepth = request.settings.MAX_BODY_DEPTH;
    const entries: [string, string][] = [];
    for (const pair of bytes.split('&')) {
      if (pair === '') continue;
      const equals = pair.indexOf('=');
      const key = decodeStrictly(
        request,
        percentDecode(equals === -1 ? pair : pair.slice(0, equals)),
        LABEL,
      );
      if (formKeyTooDeep(key, maxDepth)) throw tooDeep(LABEL, maxDepth);
      const value =
        equals === -1 ? '' : decodeStrictly(request, percentDecode(pair.slice(equals + 1)), LABEL);
      entries.push([key, value]);
    }
    return createFormInput(entries);
  }
}

/** The value of a hex digit's character code, or -1. */
function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/**
 * The bytes of a form component given as Latin-1 text (one character per byte): `+` is a
 * space, `%XX` the byte XX, and a `%` without two hex digits stays as it is.
 */
function percentDecode(component: string): Buffer {
  const out = Buffer.allocUnsafe(component.length);
  let n = 0;
  for (let i = 0; i < component.length; i++) {
    const c = component.charCodeAt(i);
    if (c === 0x2b) {
      out[n++] = 0x20;
    } else if (c === 0x25 && i + 2 < component.length) {
      const high = hexDigit(component.charCodeAt(i + 1));
      const low = hexDigit(component.charCodeAt(i + 2));
      if (high === -1 || low === -1) out[n++] = c;
      else {
        out[n++] = high * 16 + low;
        i += 2;
      }
    } else {
      out[n++] = c;
    }
  }
  return out.subarray(0, n);
}
