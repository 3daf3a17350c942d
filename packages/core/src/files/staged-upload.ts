/**
 * An uploaded file that a storage received straight from the request (an object store), in
 * place of a local temporary file.
 * @module
 */
import type { Readable } from 'node:stream';
import type { Storage } from './storage.ts';
import { UploadedFile } from './uploaded-file.ts';

/**
 * A file part that {@link Storage.receiveUpload} stored under a staging name while the request
 * streamed it in. Fields and serializers see an {@link UploadedFile}; storing it under its
 * final name copies it inside the storage, and the request removes the staged copy when it
 * ends, as it removes temporary files. It has no local `path` (`''`).
 *
 * @example
 * ```ts
 * import type { Readable } from 'node:stream';
 * declare const storage: S3Storage;
 * declare const partStream: Readable; // a file part of a multipart request
 * const staged = await storage.receiveUpload(partStream, 'cv.pdf', 'application/pdf');
 * staged.stagedName; // '.uploads/0b6c…'
 * await staged.discard(); // removes it
 * ```
 */
export class StagedUpload extends UploadedFile {
  /** The storage that holds it. */
  readonly storage: Storage;
  /** Its name in {@link storage}. */
  readonly stagedName: string;

  constructor(
    filename: string,
    contentType: string,
    size: number,
    storage: Storage,
    stagedName: string,
  ) {
    super(filename, contentType, size, '');
    this.storage = storage;
    this.stagedName = stagedName;
  }

  /** Reads it from its storage. */
  override open(): Readable {
    return this.storage.open(this.stagedName);
  }

  /**
   * Removes it from its storage. A failure is not the request's: the staged copy stays (a
   * bucket lifecycle rule on the staging folder removes such leftovers; docs/deploying.md).
   */
  override async discard(): Promise<void> {
    await this.storage.delete(this.stagedName).catch(() => {});
  }
}
