/**
 * Where stored files live: an interface, so local disk (the default) and object storage are
 * interchangeable.
 * @module
 */
import type { Readable } from 'node:stream';
import type { FileTooLarge } from './file-too-large.ts';
import type { UploadedFile } from './uploaded-file.ts';

/** Options of {@link Storage.save}. */
export interface SaveOptions {
  /**
   * The longest name the caller can keep (a model field's `maxLength`): a longer name is
   * shortened, its extension kept.
   */
  readonly maxLength?: number;
  /**
   * The largest content accepted, in bytes: a storage counts the bytes while it streams them
   * and fails with {@link FileTooLarge} as soon as there are more, keeping nothing of the file
   * (an object store aborts its multipart upload). Default: no limit.
   */
  readonly maxSize?: number;
}

/** A file storage. */
export interface Storage {
  /**
   * Stores `content` under a safe, unused name derived from `name` and returns that name.
   * Never overwrites an existing file. `name` may start with folders chosen by the
   * developer (a model field's `uploadTo`); its last part is a client's file name and is
   * made safe.
   */
  save(name: string, content: UploadedFile | Readable, options?: SaveOptions): Promise<string>;
  /** Reads a stored file. */
  open(name: string): Readable;
  /** Removes a stored file; no error when it is already gone. */
  delete(name: string): Promise<void>;
  /** True when a file of this name is stored. */
  exists(name: string): Promise<boolean>;
  /** The URL path (or absolute URL) where the file is served. */
  url(name: string): string;
  /**
   * Optional: stores a file part of a request while it streams in, under a staging name, for
   * storages that gain nothing from a local temporary file (an object store). The multipart
   * parser calls it in place of writing a temporary file, and counts the bytes against the
   * field's size limit as they pass: a part it refuses (too large, client gone) makes `stream`
   * fail, and the storage must then keep nothing of it (an object store aborts its multipart
   * upload). Resolves, once `stream` ended, to the upload the fields see; storing it under
   * its final name (`save`) copies it, and the request removes the staged copy when it ends.
   */
  receiveUpload?(stream: Readable, filename: string, contentType: string): Promise<UploadedFile>;
}
