/**
 * What the JSON and url-encoded parsers share: the body's bytes decoded strictly in the
 * charset the `Content-Type` names (UTF-8 when it names none), and the nesting limit
 * (`MAX_BODY_DEPTH`) checked before anything builds a structure from the text.
 *
 * Bytes the charset does not allow are refused, not replaced with U+FFFD: a replacement would
 * store something the client never sent. A charset the platform does not know is 415.
 * @module
 */
import { TextDecoder } from 'node:util';
import { ParseError, UnsupportedMediaType } from '../errors/api-exception.ts';
import type { Request } from '../http/request.ts';

// One decoder per charset label, made when first asked for; a bounded set (the labels a
// client may name are only those the platform knows, and unknown ones are not kept).
const decoders = new Map<string, TextDecoder>();

/** The `charset` parameter of a `Content-Type` value, lower-cased, or undefined. */
export function contentTypeCharset(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const match = /;\s*charset\s*=\s*("?)([^";\s]*)\1/i.exec(contentType);
  return match ? (match[2] as string).toLowerCase() : undefined;
}

/**
 * The request's body as text: Fastify leaves JSON and url-encoded bodies as a `Buffer` (within
 * `MAX_BODY_SIZE`). `label` starts the parse error's message (`JSON parse error`).
 * Throws 415 for a charset the platform cannot decode and 400 for bytes that are not valid in
 * the charset.
 */
export function decodeBody(request: Request, label: string): string {
  const body = request.raw.body;
  if (typeof body === 'string') return body;
  if (!Buffer.isBuffer(body) || body.length === 0) return '';
  return decodeStrictly(request, body, label);
}

/**
 * `bytes` decoded in the charset of the request's `Content-Type` (UTF-8 when it names none):
 * 415 for a charset the platform cannot decode, 400 for bytes not valid in it.
 */
export function decodeStrictly(request: Request, bytes: Uint8Array, label: string): string {
  const contentType = request.raw.headers['content-type'];
  const charset = contentTypeCharset(contentType) ?? 'utf-8';
  let decoder = decoders.get(charset);
  if (!decoder) {
    try {
      decoder = new TextDecoder(charset, { fatal: true });
    } catch {
      throw new UnsupportedMediaType(String(contentType));
    }
    decoders.set(charset, decoder);
  }
  try {
    return decoder.decode(bytes);
  } catch {
    throw new ParseError(`${label} - the body is not valid ${charset}.`);
  }
}

/**
 * True when JSON `text` nests arrays and objects deeper than `max` (the top-level object is
 * depth 1). One pass over the characters, skipping strings; nothing is built, so a body of a
 * million `[` is refused without a deep structure ever existing. Text that is not JSON may
 * give either answer: `JSON.parse` refuses it afterwards.
 */
export function jsonTooDeep(text: string, max: number): boolean {
  let depth = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote, escapes included.
      for (i++; i < length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * True when a form key addresses a value deeper than `max` levels: `a.b.c` is depth 3, as
 * `{"a": {"b": {"c": ...}}}` would be in JSON.
 */
export function formKeyTooDeep(key: string, max: number): boolean {
  let depth = 1;
  for (let i = key.indexOf('.'); i !== -1; i = key.indexOf('.', i + 1)) {
    if (++depth > max) return true;
  }
  return false;
}

/** The 400 for a body nested past `MAX_BODY_DEPTH`. */
export function tooDeep(label: string, max: number): ParseError {
  return new ParseError(`${label} - the body is nested deeper than ${max} levels.`);
}
