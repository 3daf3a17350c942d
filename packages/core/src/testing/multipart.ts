/**
 * Multipart bodies for tests, byte for byte what a browser form sends.
 *
 * @example
 * ```ts
 * import { multipartBody } from '@restframework/core/testing';
 *
 * const res = await app.inject({
 *   method: 'POST',
 *   url: '/api/upload/',
 *   ...multipartBody([
 *     { name: 'username', value: 'golden' },
 *     { name: 'resume', filename: 'resume.txt', content: 'a'.repeat(1024) },
 *   ]),
 * });
 * ```
 * @module
 */

/** A text part. */
export interface MultipartValuePart {
  /** The field's name (`username`, `stock.price`). */
  readonly name: string;
  /** Its text, sent as UTF-8. */
  readonly value: string;
}

/** A file part; `content` as bytes, text, or a size to fill with `a`. */
export interface MultipartFilePart {
  /** The file field's name (`resume`). */
  readonly name: string;
  /** The client's file name (`cv.pdf`), written as given (hostile names included). */
  readonly filename: string;
  /** The bytes, text (as UTF-8), or a number of bytes to fill with `a`. */
  readonly content: Buffer | string | number;
  /** Default `text/plain`. */
  readonly contentType?: string;
}

/**
 * A part of a {@link multipartBody}: a text field, or a file.
 *
 * @example
 * ```ts
 * import type { MultipartPart } from '@restframework/core/testing';
 *
 * const parts: MultipartPart[] = [
 *   { name: 'username', value: 'golden' },
 *   { name: 'resume', filename: 'cv.txt', content: 'hello' },
 * ];
 * ```
 */
export type MultipartPart = MultipartValuePart | MultipartFilePart;

/** The boundary of {@link multipartBody}'s bodies (the one of the reference recordings). */
export const MULTIPART_BOUNDARY = '----refboundary7MA4YWxkTrZu0gW';

/**
 * A `multipart/form-data` body and its `Content-Type`, ready to spread into `inject()`
 * options. Names and file names are written as given (UTF-8, quotes escaped as `%22`),
 * so tests can send hostile ones. A form of text fields only can be given as an object of
 * names and values: `multipartBody({ username: 'golden', 'stock.price': '9.99' })`.
 */
export function multipartBody(
  parts: readonly MultipartPart[] | Readonly<Record<string, string>>,
  boundary: string = MULTIPART_BOUNDARY,
): {
  /** The body's bytes. */
  payload: Buffer;
  /** Its `Content-Type`, with the boundary. */
  headers: Record<string, string>;
} {
  const list: readonly MultipartPart[] = isPartList(parts)
    ? parts
    : Object.entries(parts).map(([name, value]) => ({ name, value }));
  const chunks: Buffer[] = [];
  for (const part of list) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${quote(part.name)}"`;
    if ('filename' in part) {
      head += `; filename="${quote(part.filename)}"\r\nContent-Type: ${part.contentType ?? 'text/plain'}`;
    }
    chunks.push(Buffer.from(`${head}\r\n\r\n`));
    if ('filename' in part) {
      const { content } = part;
      chunks.push(
        typeof content === 'number'
          ? Buffer.alloc(content, 'a')
          : typeof content === 'string'
            ? Buffer.from(content)
            : content,
      );
    } else {
      chunks.push(Buffer.from(part.value));
    }
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

function isPartList(
  parts: readonly MultipartPart[] | Readonly<Record<string, string>>,
): parts is readonly MultipartPart[] {
  return Array.isArray(parts);
}

function quote(value: string): string {
  return value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
