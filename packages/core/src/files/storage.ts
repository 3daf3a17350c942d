/**
 * Where stored files live: an interface, so local disk (the default) and object storage are
 * interchangeable.
 * @module
 */
import type { Readable } from 'node:stream';
import type { UploadedFile } from './uploaded-file.ts';

/** Options of {@link Storage.save}. */
export interface SaveOptions {
  /**
   * The longest name the caller can keep (a model field's `maxLength`): a longer name is
   * shortened, its extension kept.
   */
  readonly maxLength?: number;
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
}
