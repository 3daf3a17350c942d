/**
 * Files on local disk: the default {@link Storage}, rooted at `MEDIA_ROOT` and served under
 * `MEDIA_URL`.
 *
 * @example
 * ```ts
 * declare const upload: UploadedFile; // a file a request sent
 * const storage = new FileSystemStorage({ location: 'media', baseUrl: '/media/' });
 * const name = await storage.save('resumes/CV (final).pdf', upload); // 'resumes/CV_final_.pdf'
 * storage.url(name); // '/media/resumes/CV_final_.pdf'
 * ```
 * @module
 */
import { createReadStream, type ReadStream } from 'node:fs';
import { chmod, link, mkdir, open, rm, stat } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileTooLarge, limitBytes } from './file-too-large.ts';
import type { SaveOptions, Storage } from './storage.ts';
import {
  DEFAULT_FILE_NAME,
  getValidFileName,
  MAX_NAME_ATTEMPTS,
  SuspiciousFileOperation,
  storedNameCandidates,
} from './stored-name.ts';
import { UploadedFile } from './uploaded-file.ts';

// Where they were first defined: kept importable from here.
export { DEFAULT_FILE_NAME, getValidFileName, SuspiciousFileOperation };

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

/** Options of {@link FileSystemStorage}. */
export interface FileSystemStorageOptions {
  /** The folder files are stored in (`MEDIA_ROOT`), relative to the working directory or absolute. */
  readonly location: string;
  /** The URL prefix they are served under (`MEDIA_URL`); default `/media/`. */
  readonly baseUrl?: string;
}

/**
 * Files under a folder on local disk.
 *
 * `save` never overwrites: each name is created exclusively (a hard link of the uploaded
 * temporary file, or an `O_EXCL` create), and a name already taken gets a random 7-character
 * suffix, as Django does (`resume_CAsIHWw.txt`), so concurrent uploads of one name all keep
 * their file. Names are shortened to the caller's `maxLength` (code points) and to 255 UTF-8
 * bytes per file name, keeping the extension.
 *
 * @example
 * ```ts
 * const storage = new FileSystemStorage({ location: 'media', baseUrl: '/media/' });
 * storage.url('resumes/cv.pdf'); // '/media/resumes/cv.pdf'
 * storage.open('resumes/cv.pdf').pipe(process.stdout);
 * ```
 */
export class FileSystemStorage implements Storage {
  /** The absolute folder of the files. */
  readonly location: string;
  /** The URL prefix of the files, ending in `/`. */
  readonly baseUrl: string;

  constructor(options: FileSystemStorageOptions) {
    this.location = resolve(options.location);
    const baseUrl = options.baseUrl ?? '/media/';
    this.baseUrl = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  }

  /** The safe form of a client's file name (override to change the rules). */
  getValidName(name: string): string {
    return getValidFileName(name);
  }

  async save(
    name: string,
    content: UploadedFile | Readable,
    options: SaveOptions = {},
  ): Promise<string> {
    for (const candidate of storedNameCandidates(
      name,
      (part) => this.getValidName(part),
      options.maxLength,
    )) {
      const target = this.path(candidate);
      await mkdir(dirname(target), { recursive: true });
      if (await this.#create(target, content, options.maxSize)) return candidate;
    }
    throw new SuspiciousFileOperation(
      `No free name for "${name}" after ${MAX_NAME_ATTEMPTS} attempts in ${this.location}.`,
    );
  }

  open(name: string): ReadStream {
    return createReadStream(this.path(name));
  }

  async delete(name: string): Promise<void> {
    await rm(this.path(name), { force: true });
  }

  /** True when a file of this name is stored (a name outside the folder is an error). */
  async exists(name: string): Promise<boolean> {
    try {
      await stat(this.path(name));
      return true;
    } catch (error) {
      if (errno(error) === 'ENOENT' || errno(error) === 'ENOTDIR') return false;
      throw error;
    }
  }

  /** `MEDIA_URL` plus the name, each part percent-encoded. */
  url(name: string): string {
    return this.baseUrl + name.split('/').map(encodeURIComponent).join('/');
  }

  /** The absolute path of a stored name; throws for a name that would leave {@link location}. */
  path(name: string): string {
    const full = resolve(this.location, name);
    if (name.includes('\0') || !full.startsWith(this.location + sep)) {
      throw new SuspiciousFileOperation(`The name "${name}" is outside ${this.location}.`);
    }
    return full;
  }

  /** Links `source` to `target`; false when `target` exists (the caller then picks another name). */
  protected async linkFile(source: string, target: string): Promise<boolean> {
    try {
      await link(source, target);
    } catch (error) {
      if (errno(error) === 'EEXIST') return false;
      throw error;
    }
    // The temporary file is private (0600); a stored file is readable as a copied one would
    // be (Django's FILE_UPLOAD_PERMISSIONS default), so that a web server may serve MEDIA_ROOT.
    await chmod(target, 0o644);
    return true;
  }

  /** Creates `target`, which must not exist; false when it does. */
  async #create(
    target: string,
    content: UploadedFile | Readable,
    maxSize: number | undefined,
  ): Promise<boolean> {
    if (content instanceof UploadedFile) {
      if (maxSize !== undefined && content.size > maxSize) {
        throw new FileTooLarge(maxSize, content.size);
      }
      try {
        return await this.linkFile(content.path, target);
      } catch {
        // Another file system (EXDEV), or one without hard links: copy instead.
      }
      return this.#copyExclusive(target, () => content.open(), maxSize);
    }
    return this.#copyExclusive(target, () => content, maxSize);
  }

  /** Streams into a new `target` (`O_EXCL`): removed again if the copy fails or passes `maxSize`. */
  async #copyExclusive(
    target: string,
    source: () => Readable,
    maxSize: number | undefined,
  ): Promise<boolean> {
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(target, 'wx');
    } catch (error) {
      if (errno(error) === 'EEXIST') return false;
      throw error;
    }
    try {
      if (maxSize === undefined) await pipeline(source(), handle.createWriteStream());
      else await pipeline(source(), limitBytes(maxSize), handle.createWriteStream());
      return true;
    } catch (error) {
      await handle.close().catch(() => {});
      await rm(target, { force: true });
      throw error;
    }
  }
}
