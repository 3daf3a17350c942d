/**
 * Where stored files live: an interface, so local disk (the default) and object storage are
 * interchangeable.
 * @module
 */
import type { Readable } from 'node:stream';
import type { UploadedFile } from './uploaded-file.ts';

/** A file storage. */
export interface Storage {
  /**
   * Stores `content` under a safe, unused name derived from `name` and returns that name.
   * Never overwrites an existing file.
   */
  save(name: string, content: UploadedFile | Readable): Promise<string>;
  /** Reads a stored file. */
  open(name: string): Readable;
  /** Removes a stored file; no error when it is already gone. */
  delete(name: string): Promise<void>;
  exists(name: string): Promise<boolean>;
  /** The URL path (or absolute URL) where the file is served. */
  url(name: string): string;
}
