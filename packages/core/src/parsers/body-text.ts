/**
 * What the JSON, url-encoded and multipart parsers share: the body's bytes decoded strictly in
 * the charset the `Content-Type` names (UTF-8 when it names none), and the nesting limit
 * (`MAX_BODY_DEPTH`) checked before anything builds a structure from the text.
 *
 * Bytes the charset does not allow are refused, not replaced with U+FFFD: a replacement would
 * store something the client never sent. A charset the platform does not know is 415. A byte
 * order mark is kept as the character U+FEFF, never dropped without a word: the JSON parser
 * refuses it at the start of a body (as DRF's does), and in a form value it stays what was sent.
 * @module
 */
import { TextDecoder } from 'node:util';
import { ParseError, UnsupportedMediaType } from '../errors/api-exception.ts';
import type { Request } from '../http/request.ts';
import { processCaches } from '../utils/bounded-cache.ts';
import { resumeStackTraces, suspendStackTraces } from '../utils/stack-traces.ts';

// `fatal`: invalid bytes throw. `ignoreBOM`: a leading byte order mark is kept as U+FEFF
// (the platform's default drops it at the start of every decode, so a form value sent as
// `%EF%BB%BFabc` became `abc`).
const STRICT = { fatal: true, ignoreBOM: true } as const;
// One decoder per charset label, made when first asked for (the labels a client may name are
// only those the platform knows, about 220, and unknown ones are not kept).
const decoders = processCaches.cache<string, TextDecoder>('text decoders', 256);
// The decoder of a body that names no charset (nearly all of them), without a lookup.
const UTF8 = new TextDecoder('utf-8', STRICT);

/** The `charset` parameter of a `Content-Type` value, lower-cased, or undefined. */
export function contentTypeCharset(contentType: string | undefined): string | undefined {
  // No parameters at all (`application/json`, the usual header): nothing for the regex to find.
  if (!contentType?.includes(';')) return undefined;
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
  const named = contentTypeCharset(contentType);
  if (named === undefined) return decodeWith(UTF8, 'utf-8', bytes, label);
  const decoder = strictDecoder(named);
  if (!decoder) throw new UnsupportedMediaType(String(contentType));
  return decodeWith(decoder, named, bytes, label);
}

/**
 * A strict decoder (invalid bytes throw, a byte order mark is kept) for a charset label, or
 * undefined for a label the platform does not know.
 */
export function strictDecoder(charset: string): TextDecoder | undefined {
  let decoder = decoders.get(charset);
  if (!decoder) {
    try {
      decoder = new TextDecoder(charset, STRICT);
    } catch {
      return undefined;
    }
    decoders.set(charset, decoder);
  }
  return decoder;
}

/** `bytes` as text with a strict `decoder`: 400 (`label - ...`) for bytes not valid in `charset`. */
export function decodeWith(
  decoder: TextDecoder,
  charset: string,
  bytes: Uint8Array,
  label: string,
): string {
  // Bytes that are not valid text are the client's mistake: the platform's TypeError is
  // made without a stack trace, which nobody reads (see utils/stack-traces.ts).
  const limit = suspendStackTraces();
  try {
    return decoder.decode(bytes);
  } catch {
    throw new ParseError(`${label} - the body is not valid ${charset}.`);
  } finally {
    resumeStackTraces(limit);
  }
}

/**
 * True when JSON `text` nests arrays and objects deeper than `max` (the top-level object is
 * depth 1). Nothing is built, so a body of a million `[` is refused without a deep structure
 * ever existing. Text that is not JSON may give either answer: `JSON.parse` refuses it
 * afterwards.
 *
 * @example
 * ```ts
 * jsonTooDeep('{"a": [1, 2]}', 2); // false
 * jsonTooDeep('{"a": [[1]]}', 2); // true
 * jsonTooDeep('{"a": "[[["}', 2); // false: brackets in strings do not count
 * ```
 */
export function jsonTooDeep(text: string, max: number): boolean {
  // Nesting deeper than `max` needs more than `max` brackets that open: most bodies have a
  // handful, counted by the platform's string search far faster than the scan below.
  return openersExceed(text, max) && scanTooDeep(text, max);
}

/** True when `text` holds more than `max` of `[` and `{`, in strings or not. */
function openersExceed(text: string, max: number): boolean {
  // Fewer characters than that: fewer brackets too (a short body, nothing to search).
  if (text.length <= max) return false;
  let count = 0;
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) {
    if (++count > max) return true;
  }
  for (let i = text.indexOf('['); i !== -1; i = text.indexOf('[', i + 1)) {
    if (++count > max) return true;
  }
  return false;
}

/** The exact answer of {@link jsonTooDeep}: one pass over the characters, skipping strings. */
function scanTooDeep(text: string, max: number): boolean {
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
