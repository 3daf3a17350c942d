/**
 * A file received in a multipart request, kept in a temporary file while the request runs.
 * @module
 */
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';

/**
 * An uploaded file. The multipart parser streams each file part into a temporary file and
 * hands the field one of these; storage moves or copies it when the record is saved, and the
 * request removes the temporary file when it ends, whatever happened.
 *
 * It is the subset of an upload that fields and storage need, on purpose independent of the
 * multipart library.
 *
 * @example
 * ```ts
 * const file = new UploadedFile('C:\\Users\\me\\cv.pdf', 'application/pdf', 1024, '/tmp/upload-1');
 * file.basename; // 'cv.pdf'
 * ```
 */
export class UploadedFile {
  /** The client's file name, as sent (storage makes it safe before use). */
  readonly filename: string;
  /** The type the client sent for the part (never checked against the bytes). */
  readonly contentType: string;
  /** Bytes received. */
  readonly size: number;
  /** Where the bytes are, until the request ends. */
  readonly path: string;

  constructor(filename: string, contentType: string, size: number, path: string) {
    this.filename = filename;
    this.contentType = contentType;
    this.size = size;
    this.path = path;
  }

  /** The file name without the folders some clients send (after the last `/` or `\`). */
  get basename(): string {
    const name = this.filename;
    return name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  }

  /** Reads the file. */
  open(): Readable {
    return createReadStream(this.path);
  }

  /** Removes the temporary file (done for you when the request ends). */
  async discard(): Promise<void> {
    await rm(this.path, { force: true });
  }
}

/**
 * A file part the multipart parser refused while it streamed in, because it was larger than
 * its field's `maxUploadSize`: none of its bytes were kept. It stands in the parsed data in
 * place of the file so that the field reports the size (and the other fields their own
 * errors, as DRF does); it is never a valid value.
 *
 * @example
 * ```ts
 * // What the multipart parser leaves in place of a part larger than its field's maxUploadSize:
 * const refused = new OversizedUpload('cv.pdf', 'application/pdf', 6 * 1024 * 1024, false);
 * refused.size; // the bytes read before the parser stopped
 * ```
 */
export class OversizedUpload {
  /** The client's file name, as sent. */
  readonly filename: string;
  /** The type the client sent for the part (never checked against the bytes). */
  readonly contentType: string;
  /**
   * Bytes received, or, when the part was not read to its end (`complete` false), an
   * estimate from the request's `Content-Length`.
   */
  readonly size: number;
  /** The part was read to its end, so `size` is exact. */
  readonly complete: boolean;

  constructor(filename: string, contentType: string, size: number, complete: boolean) {
    this.filename = filename;
    this.contentType = contentType;
    this.size = size;
    this.complete = complete;
  }
}
