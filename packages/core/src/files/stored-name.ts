/**
 * The names files are stored under, the same for every storage: a client's file name made
 * safe, under the developer's folders, shortened to fit, with a random suffix when taken.
 *
 * @example
 * ```ts
 * for (const candidate of storedNameCandidates('resumes/CV (final).pdf', getValidFileName)) {
 *   console.log(candidate); // 'resumes/CV_final_.pdf', then 'resumes/CV_final__a1B2c3D.pdf', ...
 * }
 * ```
 * @module
 */
import { randomInt } from 'node:crypto';

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
export const MAX_NAME_ATTEMPTS = 100;
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
 * and never empty (`DEFAULT_FILE_NAME`). Length is bounded by {@link storedNameCandidates}.
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

/**
 * The names to try, in order, for storing `name` (`MAX_NAME_ATTEMPTS`, 100, of them): the
 * folder part checked (the developer's `uploadTo`), the last part made safe by `validName`,
 * then the same with a random 7-character suffix before the extension, as Django does
 * (`resume_CAsIHWw.txt`). Each fits `maxLength` code points and 255 UTF-8 bytes per file
 * name, keeping the extension. The storage takes the first one that is free.
 */
export function* storedNameCandidates(
  name: string,
  validName: (name: string) => string,
  maxLength = Number.POSITIVE_INFINITY,
): Generator<string, void, undefined> {
  const slash = name.lastIndexOf('/');
  const folder = checkFolder(name.slice(0, slash + 1));
  const [stem, extension] = splitExtension(validName(name.slice(slash + 1)));
  for (let attempt = 0; attempt < MAX_NAME_ATTEMPTS; attempt++) {
    const suffix = attempt === 0 ? '' : `_${randomSuffix()}`;
    yield fit(folder, stem, suffix, extension, maxLength, name);
  }
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

/** The folder part of a name (the developer's `uploadTo`): no `.`/`..`, no backslashes or controls. */
function checkFolder(folder: string): string {
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
function fit(
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
