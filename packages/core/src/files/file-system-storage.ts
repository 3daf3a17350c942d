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
import { randomInt } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { chmod, link, mkdir, open, rm, stat } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SaveOptions, Storage } from './storage.ts';
import { UploadedFile } from './uploaded-file.ts';

/** Options of {@link FileSystemStorage}. */
export interface FileSystemStorageOptions {
  /** The folder files are stored in (`MEDIA_ROOT`), relative to the working directory or absolute. */
  readonly location: string;
  /** The URL prefix they are served under (`MEDIA_URL`); default `/media/`. */
  readonly baseUrl?: string;
}

/**
 * A name that would leave the storage's folder, or a folder name that is not allowed.
 *
 * @example
 * ```ts
 * const storage = new FileSystemStorage({ location: 'media' });
 * try {
 *   storage.path('../secrets.txt');
 * } catch (error) {
 *   if (error instanceof SuspiciousFileOperation) console.warn(error.message); // outside media
 * }
 * ```
 */
export class SuspiciousFileOperation extends Error {
  /** The class's name, as the error's `name`. */
  override readonly name = 'SuspiciousFileOperation';
}

/** The name of a file whose client name had nothing usable left. */
export const DEFAULT_FILE_NAME = 'file';
/** The longest file name (one path part) most file systems take, in UTF-8 bytes. */
const NAME_MAX_BYTES = 255;
/** An extension longer than this is part of the name. */
const MAX_EXTENSION = 16;
/** Names tried before giving up (each after the first has a random suffix). */
const MAX_ATTEMPTS = 100;
const SUFFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * Characters a file name must not keep: controls (NUL, newlines), format characters (bidi
 * overrides such as U+202E, zero-width characters, BOM), line and paragraph separators,
 * private-use and unassigned code points, and U+FFFD (what lone surrogates become).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\uFFFD]/gu;
/** Runs of anything but letters, marks, digits, `_`, `.` and `-` (spaces included). */
const UNSAFE = /[^\p{L}\p{M}\p{N}_.-]+/gu;
/** Device names Windows reserves, with or without an extension. */
const RESERVED = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\.|$)/i;

/**
 * A client's file name made safe to store: the part after the last `/` or `\`,
 * NFC-normalised, without invisible characters (see {@link INVISIBLE}), with each run of
 * other unsafe characters (spaces, `:`, `*`, `"`, `<`, `>`, `|`, `?`, ...) replaced by `_`,
 * without leading dots or dashes (no hidden files, no option-like names) and trailing dots,
 * and never empty (`DEFAULT_FILE_NAME`). Length is bounded by {@link FileSystemStorage.save}.
 *
 * @example
 * ```ts
 * getValidFileName('../../etc/passwd'); // 'passwd'
 * getValidFileName('C:\\x\\my resume.txt'); // 'my_resume.txt'
 * getValidFileName('evil\u202Etxt.exe'); // 'eviltxt.exe'
 * getValidFileName('..'); // 'file'
 * ```
 */
export function getValidFileName(name: string): string {
  let s = String(name).toWellFormed();
  s = s.slice(Math.max(s.lastIndexOf('/'), s.lastIndexOf('\\')) + 1);
  s = s.normalize('NFC').replace(INVISIBLE, '').trim();
  s = s.replace(UNSAFE, '_');
  s = s.replace(/^[.-]+/, '').replace(/\.+$/, '');
  if (!s) return DEFAULT_FILE_NAME;
  return RESERVED.test(s) ? `_${s}` : s;
}

/** `['report', '.pdf']`; a name without a short extension has `''`. */
function splitExtension(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || name.length - dot > MAX_EXTENSION) return [name, ''];
  return [name.slice(0, dot), name.slice(dot)];
}

/** Code points of `s`. */
function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function randomSuffix(): string {
  let suffix = '';
  for (let i = 0; i < 7; i++) suffix += SUFFIX_ALPHABET[randomInt(SUFFIX_ALPHABET.length)];
  return suffix;
}

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
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
    const slash = name.lastIndexOf('/');
    const folder = this.#checkFolder(name.slice(0, slash + 1));
    const [stem, extension] = splitExtension(this.getValidName(name.slice(slash + 1)));
    const maxLength = options.maxLength ?? Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const suffix = attempt === 0 ? '' : `_${randomSuffix()}`;
      const candidate = this.#fit(folder, stem, suffix, extension, maxLength, name);
      const target = this.path(candidate);
      await mkdir(dirname(target), { recursive: true });
      if (await this.#create(target, content)) return candidate;
    }
    throw new SuspiciousFileOperation(
      `No free name for "${name}" after ${MAX_ATTEMPTS} attempts in ${this.location}.`,
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
  async #create(target: string, content: UploadedFile | Readable): Promise<boolean> {
    if (content instanceof UploadedFile) {
      try {
        return await this.linkFile(content.path, target);
      } catch {
        // Another file system (EXDEV), or one without hard links: copy instead.
      }
      return this.#copyExclusive(target, () => content.open());
    }
    return this.#copyExclusive(target, () => content);
  }

  /** Streams into a new `target` (`O_EXCL`): removed again if the copy fails. */
  async #copyExclusive(target: string, source: () => Readable): Promise<boolean> {
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(target, 'wx');
    } catch (error) {
      if (errno(error) === 'EEXIST') return false;
      throw error;
    }
    try {
      await pipeline(source(), handle.createWriteStream());
      return true;
    } catch (error) {
      await handle.close().catch(() => {});
      await rm(target, { force: true });
      throw error;
    }
  }

  /** The folder part of a name (the developer's `uploadTo`): no `.`/`..`, no backslashes or controls. */
  #checkFolder(folder: string): string {
    const parts = folder.split('/').filter((part) => part !== '');
    for (const part of parts) {
      if (part === '.' || part === '..' || /[\\\p{Cc}]/u.test(part)) {
        throw new SuspiciousFileOperation(
          `The folder "${folder}" is not allowed in a stored name: use plain folder names (no ".", "..", "\\").`,
        );
      }
    }
    return parts.length ? `${parts.join('/')}/` : '';
  }

  /** `folder + stem + suffix + extension`, the stem shortened to fit both limits. */
  #fit(
    folder: string,
    stem: string,
    suffix: string,
    extension: string,
    maxLength: number,
    original: string,
  ): string {
    const fixed = codePoints(folder) + suffix.length + codePoints(extension);
    let chars = Array.from(stem);
    if (fixed + chars.length > maxLength) chars = chars.slice(0, Math.max(0, maxLength - fixed));
    const bytes = Buffer.byteLength(suffix + extension);
    while (chars.length && Buffer.byteLength(chars.join('')) + bytes > NAME_MAX_BYTES) chars.pop();
    if (chars.length === 0) {
      throw new SuspiciousFileOperation(
        `Storage can not find an available name for "${original}" within ${maxLength} characters: ` +
          "shorten the folder (the model field's uploadTo) or raise the field's maxLength.",
      );
    }
    return folder + chars.join('') + suffix + extension;
  }
}
