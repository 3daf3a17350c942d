/**
 * The header of one part of a multipart body, read strictly: the `Content-Disposition` that
 * says which field the part fills (`name`) and whether it is a file (`filename`), and the
 * charset its `Content-Type` names for its text.
 *
 * What two readers could understand differently is refused, not guessed (RFC 7578): a part
 * without exactly one `form-data` disposition, a disposition that does not parse, a parameter
 * given twice, a part without a name, a name not valid in the form's charset, a header with too
 * many lines or bytes, a transfer encoding the parser does not apply. Each is a
 * {@link MultipartError} whose message the client reads in the 400's detail. Parameters the
 * toolkit does not use (`size=`, `creation-date=`) are ignored.
 * @module
 */
import type { TextDecoder } from 'node:util';
import { decodeWith, strictDecoder } from './body-text.ts';
import { MultipartError } from './multipart-error.ts';

/**
 * A part's header lines as the multipart splitter hands them: lower-cased names, each with its
 * values as Latin-1 text (one character per byte, so nothing is decoded yet).
 */
export type RawPartHeader = Readonly<Record<string, readonly string[]>>;

/** What a part's header says about it. */
export interface PartHeader {
  /** The `name` parameter (or `name*`), as text. */
  readonly name: string;
  /**
   * The `filename*` or `filename` parameter as text (`filename*` wins, RFC 6266); undefined when
   * the part has neither, which makes it a text part (Django's rule).
   */
  readonly filename: string | undefined;
  /** The media type of its `Content-Type`, lower-cased; `text/plain` when it has none. */
  readonly contentType: string;
  /** The `charset` of its `Content-Type`, lower-cased; undefined when it names none. */
  readonly charset: string | undefined;
}

/** The bounds {@link readPartHeader} keeps. */
export interface PartHeaderLimits {
  /** The most header lines a part may have. */
  readonly headerPairs: number;
  /** The most bytes a part's header may have. */
  readonly headerSize: number;
  /** The most bytes a part's name may have. */
  readonly nameSize: number;
}

/** Decodes the bytes of a plain `name` or `filename` in the form's charset (throws when invalid). */
export type NameDecoder = (bytes: Uint8Array) => string;

// The charsets RFC 8187 (and RFC 5987 before it) lets an extended parameter name.
const EXT_CHARSETS = new Set(['utf-8', 'iso-8859-1']);
// Transfer encodings that leave the bytes as they are; RFC 7578 deprecates the others.
const IDENTITY_ENCODINGS = new Set(['7bit', '8bit', 'binary']);

const HEX_PAIR = /^[0-9a-f]{2}$/i;

const malformed = (message: string) => new MultipartError('malformed', message);

/**
 * Reads a part's header. Throws a {@link MultipartError} (`malformed`) for a header the parser
 * does not take, and whatever `decodeName` throws for a name that is not valid text.
 *
 * @example
 * ```ts
 * const head = readPartHeader(
 *   { 'content-disposition': ['form-data; name="resume"; filename="cv.txt"'] },
 *   { headerPairs: 100, headerSize: 16 * 1024, nameSize: 1000 },
 *   (bytes) => new TextDecoder('utf-8', { fatal: true }).decode(bytes),
 * );
 * head.name; // 'resume'
 * head.filename; // 'cv.txt'
 * head.contentType; // 'text/plain'
 * ```
 */
export function readPartHeader(
  header: RawPartHeader,
  limits: PartHeaderLimits,
  decodeName: NameDecoder,
): PartHeader {
  checkSize(header, limits);
  const disposition = single(header, 'content-disposition', 'Content-Disposition');
  if (disposition === undefined) throw malformed('A part has no Content-Disposition header.');
  for (const encoding of header['content-transfer-encoding'] ?? []) {
    if (!IDENTITY_ENCODINGS.has(encoding.trim().toLowerCase())) {
      throw malformed(
        `A part's Content-Transfer-Encoding is not supported; send its bytes as they are.`,
      );
    }
  }
  const { type, params } = parseDisposition(disposition);
  if (type.toLowerCase() !== 'form-data') {
    throw malformed(`A part's Content-Disposition is "${type}", not form-data.`);
  }
  if (params.has('name') && params.has('name*')) throw twice('name');
  const rawName = params.get('name') ?? params.get('name*');
  if (rawName === undefined || rawName === '') throw malformed('A part has no name.');
  if (rawName.length > limits.nameSize) {
    throw malformed(`A part's name is longer than ${limits.nameSize} bytes.`);
  }
  const name = params.has('name*') ? extendedValue(rawName) : decodeName(latin1Bytes(rawName));
  const rawFilename = params.get('filename*');
  const filename =
    rawFilename !== undefined
      ? extendedValue(rawFilename)
      : optional(params.get('filename'), decodeName);
  const contentType = single(header, 'content-type', 'Content-Type');
  return {
    name,
    filename,
    contentType: mediaType(contentType),
    charset:
      contentType === undefined ? undefined : parameterOf(contentType, 'charset')?.toLowerCase(),
  };
}

/**
 * Refuses a header with more lines or bytes than the limits (the bytes counted as
 * `Name: value` and a line break per line). The splitter reads a line and a KiB past them, so
 * that a header over a limit is seen here and refused, never read in part.
 */
function checkSize(header: RawPartHeader, limits: PartHeaderLimits): void {
  let lines = 0;
  let bytes = 0;
  for (const name in header) {
    for (const value of header[name] as readonly string[]) {
      lines++;
      // `Name: value` and its CRLF.
      bytes += name.length + value.length + 4;
    }
  }
  if (lines > limits.headerPairs) {
    throw malformed(`A part has more than ${limits.headerPairs} header lines.`);
  }
  if (bytes > limits.headerSize) {
    throw malformed(`A part's header is larger than ${limits.headerSize} bytes.`);
  }
}

/** The one value of a header line, undefined when absent; refuses a line given twice. */
function single(header: RawPartHeader, key: string, label: string): string | undefined {
  const values = header[key];
  if (values === undefined || values.length === 0) return undefined;
  if (values.length > 1) throw malformed(`A part has more than one ${label} header.`);
  return values[0];
}

function twice(parameter: string): MultipartError {
  return malformed(`A part's Content-Disposition gives its ${parameter} twice.`);
}

function optional(value: string | undefined, decode: NameDecoder): string | undefined {
  return value === undefined ? undefined : decode(latin1Bytes(value));
}

function latin1Bytes(text: string): Uint8Array {
  return Buffer.from(text, 'latin1');
}

/** `type/subtype` of a Content-Type value, lower-cased; `text/plain` when there is none. */
function mediaType(value: string | undefined): string {
  if (value === undefined) return 'text/plain';
  const semicolon = value.indexOf(';');
  const type = (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase();
  return type === '' ? 'text/plain' : type;
}

/** A parameter of a Content-Type value; an unreadable value has none (its type still counts). */
function parameterOf(value: string, key: string): string | undefined {
  const semicolon = value.indexOf(';');
  if (semicolon === -1) return undefined;
  try {
    return parseParameters(value, semicolon).get(key);
  } catch {
    return undefined;
  }
}

/** The disposition type and its parameters (keys lower-cased). */
function parseDisposition(value: string): { type: string; params: Map<string, string> } {
  let i = skipSpace(value, 0);
  const start = i;
  while (i < value.length && isTokenChar(value.charCodeAt(i))) i++;
  const type = value.slice(start, i);
  if (type === '') throw malformed("A part's Content-Disposition has no type.");
  return { type, params: parseParameters(value, skipSpace(value, i)) };
}

/**
 * `; key=value` pairs from `from` to the end of `value`: a value is a token or a quoted string
 * (`\"` and `\\` are escapes; any other backslash is itself, as browsers send Windows paths);
 * empty parameters (`;;`, a trailing `;`) are skipped. Throws for anything else, and for a key
 * given twice.
 */
function parseParameters(value: string, from: number): Map<string, string> {
  const params = new Map<string, string>();
  let i = from;
  while (i < value.length) {
    if (value.charCodeAt(i) !== 0x3b) throw unreadable();
    i = skipSpace(value, i + 1);
    if (i === value.length || value.charCodeAt(i) === 0x3b) continue;
    const keyStart = i;
    while (i < value.length && isTokenChar(value.charCodeAt(i))) i++;
    const key = value.slice(keyStart, i).toLowerCase();
    i = skipSpace(value, i);
    if (key === '' || value.charCodeAt(i) !== 0x3d) throw unreadable();
    i = skipSpace(value, i + 1);
    let text: string;
    if (value.charCodeAt(i) === 0x22) {
      [text, i] = quotedString(value, i + 1);
    } else {
      const valueStart = i;
      while (i < value.length && isBareChar(value.charCodeAt(i))) i++;
      text = value.slice(valueStart, i);
      if (text === '') throw unreadable();
    }
    if (params.has(key)) throw twice(key);
    params.set(key, text);
    i = skipSpace(value, i);
  }
  return params;
}

/** The text of a quoted string whose opening quote is before `from`, and the index after it. */
function quotedString(value: string, from: number): [string, number] {
  let text = '';
  for (let i = from; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x22) return [text, i + 1];
    const next = value.charCodeAt(i + 1);
    if (c === 0x5c && (next === 0x22 || next === 0x5c)) {
      text += value[i + 1];
      i++;
    } else {
      text += value[i];
    }
  }
  throw unreadable();
}

function unreadable(): MultipartError {
  return malformed("A part's Content-Disposition does not parse.");
}

/**
 * An RFC 8187 extended value (`UTF-8''na%C3%AFve.txt`): the charset (UTF-8 or ISO-8859-1),
 * a language that is ignored, and percent-encoded bytes decoded strictly in the charset.
 */
function extendedValue(raw: string): string {
  const first = raw.indexOf("'");
  const second = first === -1 ? -1 : raw.indexOf("'", first + 1);
  if (second === -1)
    throw malformed("A part's Content-Disposition has an unreadable name* or filename*.");
  const charset = raw.slice(0, first).toLowerCase();
  if (!EXT_CHARSETS.has(charset)) {
    throw malformed("A part's name* or filename* names a charset other than UTF-8 or ISO-8859-1.");
  }
  const encoded = raw.slice(second + 1);
  const bytes = Buffer.allocUnsafe(encoded.length);
  let n = 0;
  for (let i = 0; i < encoded.length; i++) {
    const c = encoded.charCodeAt(i);
    if (c !== 0x25) {
      bytes[n++] = c;
      continue;
    }
    const hex = encoded.slice(i + 1, i + 3);
    if (!HEX_PAIR.test(hex)) {
      throw malformed("A part's Content-Disposition has an unreadable name* or filename*.");
    }
    bytes[n++] = Number.parseInt(hex, 16);
    i += 2;
  }
  // Both charsets are ones every platform knows.
  const decoder = strictDecoder(charset) as TextDecoder;
  return decodeWith(decoder, charset, bytes.subarray(0, n), 'Multipart form parse error');
}

function skipSpace(value: string, from: number): number {
  let i = from;
  while (i < value.length && (value.charCodeAt(i) === 0x20 || value.charCodeAt(i) === 0x09)) i++;
  return i;
}

/** RFC 9110 `tchar`: the characters of a token (a type, a parameter's name, a bare value). */
function isTokenChar(c: number): boolean {
  if (c >= 0x61 && c <= 0x7a) return true; // a-z
  if (c >= 0x41 && c <= 0x5a) return true; // A-Z
  if (c >= 0x30 && c <= 0x39) return true; // 0-9
  return c < 0x80 && "!#$%&'*+-.^_`|~".includes(String.fromCharCode(c));
}

/**
 * The characters of an unquoted value: a token's, and bytes past ASCII (clients send names
 * such as `name=résumé` unquoted); never a space, a control, a quote, a `;` or a `\`.
 */
function isBareChar(c: number): boolean {
  return isTokenChar(c) || (c >= 0x80 && c <= 0xff);
}
