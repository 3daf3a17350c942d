/**
 * A file received in a multipart request, kept in a temporary file while the request runs.
 * @module
 */
import { createReadStream, type ReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';

/**
 * An uploaded file. The multipart parser streams each file part into a temporary file and
 * hands the field one of these; storage moves or copies it when the record is saved, and the
 * request removes the temporary file when it ends, whatever happened.
 *
 * It is the subset of an upload that fields and storage need, on purpose independent of the
 * multipart library.
 */
export class UploadedFile {
  /** The client's file name, as sent (storage makes it safe before use). */
  readonly filename: string;
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

  /** Reads the file. */
  open(): ReadStream {
    return createReadStream(this.path);
  }

  /** Removes the temporary file (done for you when the request ends). */
  async discard(): Promise<void> {
    await rm(this.path, { force: true });
  }
}
