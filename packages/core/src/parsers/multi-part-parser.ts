/**
 * Multipart bodies, streamed: each file part goes to a temporary file (or straight to an
 * object store) as it arrives, never whole into memory, and a part larger than its field's `maxUploadSize` stops being stored
 * at `maxUploadSize + 1` bytes.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import {
  type ErrorTree,
  ParseError,
  PayloadTooLarge,
  StorageUnavailable,
  ValidationError,
} from '../errors/api-exception.ts';
import { FileField } from '../fields/file-field.ts';
import { appendFormInput, createFormInput } from '../fields/form-input.ts';
import { FileTooLarge } from '../files/file-too-large.ts';
import type { Storage } from '../files/storage.ts';
import { OversizedUpload, UploadedFile } from '../files/uploaded-file.ts';
import type { Request } from '../http/request.ts';
import { processCaches } from '../utils/bounded-cache.ts';
import { decodeStrictly, decodeWith, formKeyTooDeep, strictDecoder, tooDeep } from './body-text.ts';
import { MultipartError } from './multipart-error.ts';
import { type MultipartTextDecoder, multipartParts } from './multipart-parts.ts';
import { BaseParser, type ParserContext, UNPARSED_BODY } from './parser.ts';

/**
 * Where the private folder of temporary upload files is made when `FILE_UPLOAD_TEMP_DIR` is
 * not set: the system's temporary folder.
 */
export const DEFAULT_UPLOAD_TEMP_DIR: string = tmpdir();

// One private folder per process and base folder, made when the first file part arrives
// (a base evicted gets a new one: the old one's files are each removed after their request).
const privateDirs = processCaches.cache<string, Promise<string>>('private upload folders', 16);

/**
 * A folder of this process's own under `base`, made with `mkdtemp` (mode 0700, a new name no
 * other user can have made beforehand): a fixed, shared name could be a folder another local
 * user made, or a link to one, and would let others read the uploads.
 */
function privateUploadDir(base: string): Promise<string> {
  let dir = privateDirs.get(base);
  if (!dir) {
    dir = mkdir(base, { recursive: true }).then(() =>
      mkdtemp(join(base, 'restframework-uploads-')),
    );
    // A failure (a base that cannot be written) is not kept: the next upload tries again.
    dir.catch(() => privateDirs.delete(base));
    privateDirs.set(base, dir);
  }
  return dir;
}

/** What became of one file part. */
interface Received {
  /** Bytes counted (all of them when `complete`). */
  readonly size: number;
  /** More bytes than the field accepts: nothing was kept. */
  readonly tooLarge: boolean;
  /** The part was read to its end (false when reading stopped early). */
  readonly complete: boolean;
  /** What the fields get, unless `tooLarge`. */
  readonly file: UploadedFile | undefined;
}

/** Where a file part's bytes go while it streams in. */
interface PartSink {
  /** Takes a chunk; resolves when more may come (back-pressure). */
  write(chunk: Buffer): Promise<void> | void;
  /** The part is refused (`reason`): nothing of it may stay. Never fails; may run twice. */
  drop(reason: unknown): Promise<void>;
  /** The part ended after `size` bytes: the upload the fields get. */
  end(size: number): Promise<UploadedFile>;
}

/** A temporary file (0600) in this process's private folder under `base`. */
async function temporaryFileSink(
  base: string,
  filename: string,
  contentType: string,
): Promise<PartSink> {
  const dir = await privateUploadDir(base);
  const path = join(dir, randomUUID());
  // Made again if something removed it meanwhile (a cleaner of old temporary files).
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // Readable by this user only; 'wx' never opens a file that is already there.
  const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
  // Recorded here so that a write error never goes unhandled; it is rethrown by write.
  let writeError: Error | undefined;
  out.on('error', (error) => {
    writeError ??= error;
  });
  return {
    async write(chunk) {
      if (writeError) throw writeError;
      if (!out.write(chunk)) await drained(out);
    },
    drop: () => closeAndRemove(out, path),
    async end(size) {
      out.end();
      await finished(out);
      return new UploadedFile(filename, contentType, size, path);
    },
  };
}

/** The storage's {@link Storage.receiveUpload}: the part streams on to it, refused by failing. */
function storageSink(storage: Storage, filename: string, contentType: string): PartSink {
  const body = new PassThrough();
  const received = (storage.receiveUpload as NonNullable<Storage['receiveUpload']>).call(
    storage,
    body,
    filename,
    contentType,
  );
  // Awaited by end and drop; an early failure must not be an unhandled rejection meanwhile.
  received.catch(() => {});
  return {
    async write(chunk) {
      if (body.write(chunk)) return;
      try {
        await drained(body);
      } catch (error) {
        // The storage failed the stream: its own error says why.
        await received.catch((failure: unknown) => {
          throw storageUnavailable(failure);
        });
        throw error;
      }
    },
    async drop(reason) {
      if (!body.destroyed)
        body.destroy(reason instanceof Error ? reason : new Error(String(reason)));
      // The storage has removed what it had once its promise settles.
      await received.catch(() => {});
    },
    async end() {
      body.end();
      return received.catch((failure: unknown) => {
        throw storageUnavailable(failure);
      });
    },
  };
}

/**
 * 503 for a storage that failed to take a part (an object store down or refusing): no fault of
 * the client's, and worth a retry. The storage's error is the `cause`, for the log.
 */
function storageUnavailable(failure: unknown): StorageUnavailable {
  if (failure instanceof StorageUnavailable) return failure;
  return Object.assign(new StorageUnavailable(), { cause: failure });
}

const LABEL = 'Multipart form parse error';

/**
 * `multipart/form-data`, read part by part (`multipartParts`). Text parts become values,
 * file parts {@link UploadedFile}s, keys may be dotted (`stock_information.price`). A part is a
 * file when its `Content-Disposition` has a `filename` (as in Django); one with an empty file
 * name is a text value, as in DRF ("not a file"). A name given by several parts reads as the
 * last part's value for a field of one value, as Django's `QueryDict.get` does, and as all of
 * them for a field of a list (`ManyRelatedField`, `MultipleChoiceField`, `ListField`), as
 * `QueryDict.getlist` (see `formInputList`).
 *
 * Every part must say which field it fills: one `Content-Disposition: form-data` with a
 * non-empty `name`, valid text in the form's charset, at most 1000 bytes and `MAX_BODY_DEPTH`
 * levels (`a.b.c`), no parameter twice, at most 100 header lines and 16 KiB of header, no
 * `Content-Transfer-Encoding` but 7bit, 8bit or binary; any other part is a 400
 * (`Multipart form parse error - ...`), never skipped. Text is decoded strictly: values in the
 * charset their part names, or the form's (UTF-8 unless the request's `Content-Type` names
 * another); bytes not valid in it are 400.
 *
 * Limits: `MAX_UPLOAD_PARTS` parts, `MAX_UPLOAD_FIELD_SIZE` bytes per text value and
 * `MAX_UPLOAD_BODY_SIZE` bytes in all give 413; a file field's own `maxUploadSize` gives that
 * field's 400. A part over its field's limit is not kept: it becomes an
 * {@link OversizedUpload}, which the field reports with the other fields' errors. Reading stops
 * early when an oversized part is far past its limit (four times): the answer is then that
 * field's error alone, and the connection is closed rather than drained.
 *
 * When the app's `STORAGE` can take a part as it streams in ({@link Storage.receiveUpload}:
 * an object store such as `S3Storage`), file parts go straight to it, counted against the same
 * limits on the way; a part it refuses makes the storage drop what it had (its multipart
 * upload aborted) before the answer. Otherwise temporary files (mode 0600) go to a private folder the process makes with `mkdtemp` (0700)
 * in `FILE_UPLOAD_TEMP_DIR` (default: the system's temporary folder), and
 * are listed in `request.uploadedFiles`, which the router empties when the view is done;
 * a part that fails half-way is removed at once.
 *
 * @example
 * ```ts
 * class ResumeViewSet extends ModelViewSet {
 *   override queryset = Upload.objects.all();
 *   override serializerClass = ModelSerializer.with({ model: Upload, fields: ['id', 'username', 'resume'] });
 *   override parserClasses = [MultiPartParser, FormParser, JSONParser];
 * }
 * // POST /resumes/ as multipart/form-data: `username` a text part, `resume` a file part
 * ```
 */
export class MultiPartParser extends BaseParser {
  readonly mediaType = 'multipart/form-data';

  async parse(request: Request, context: ParserContext): Promise<unknown> {
    // The router leaves multipart bodies unread; anything else was read by another parser.
    if (request.raw.body !== UNPARSED_BODY) {
      throw new ParseError('Multipart form parse error - Invalid boundary in multipart: None');
    }
    const { MAX_UPLOAD_PARTS, MAX_UPLOAD_FIELD_SIZE, MAX_UPLOAD_BODY_SIZE, MAX_BODY_DEPTH } =
      request.settings;
    const tempBase = request.settings.FILE_UPLOAD_TEMP_DIR ?? DEFAULT_UPLOAD_TEMP_DIR;
    // An object store takes file parts as they stream in; other storages get a temporary file.
    const storage = request.settings.STORAGE;
    const data = createFormInput();
    let total = 0;
    // File names come as sent (folders included), made safe below as Django's parser does.
    const parts = multipartParts(
      request.raw.raw,
      {
        parts: MAX_UPLOAD_PARTS,
        fieldSize: MAX_UPLOAD_FIELD_SIZE,
        nameSize: 1000,
        headerPairs: 100,
        headerSize: 16 * 1024,
      },
      textDecoder(request),
    );
    try {
      for await (const part of parts) {
        if (formKeyTooDeep(part.fieldname, MAX_BODY_DEPTH)) {
          throw tooDeep(LABEL, MAX_BODY_DEPTH);
        }
        if (part.type === 'field') {
          total += part.value.length;
          if (total > MAX_UPLOAD_BODY_SIZE) throw new PayloadTooLarge();
          appendFormInput(data, part.fieldname, part.value);
          continue;
        }
        if (!part.filename) {
          // DRF reads a part without a file name as a text value ("not a file").
          total += await this.#drain(part.file, MAX_UPLOAD_FIELD_SIZE);
          appendFormInput(data, part.fieldname, '');
          continue;
        }
        const filename = clientFileName(part.filename);
        if (!filename) {
          // Nothing usable in the name ('.', '..', 'dir/'): Django skips the part.
          total += await this.#drain(
            part.file,
            MAX_UPLOAD_BODY_SIZE - total,
            PayloadTooLarge.defaultDetail,
          );
          continue;
        }
        const field = context.fileField(part.fieldname);
        const limit = field instanceof FileField ? field.maxUploadSize : undefined;
        const sink = storage?.receiveUpload
          ? storageSink(storage, filename, part.mimetype)
          : await temporaryFileSink(tempBase, filename, part.mimetype);
        const received = await this.#receive(part.file, sink, limit, MAX_UPLOAD_BODY_SIZE - total);
        total += received.size;
        if (received.file) {
          request.uploadedFiles.push(received.file);
          appendFormInput(data, part.fieldname, received.file);
          continue;
        }
        const size = received.complete
          ? received.size
          : Math.max(received.size, contentLength(request));
        const upload = new OversizedUpload(filename, part.mimetype, size, received.complete);
        if (received.complete) {
          // The field reports it, with the other fields' errors.
          appendFormInput(data, part.fieldname, upload);
          continue;
        }
        // The rest of the body is not read: answer with this field's error alone, and let
        // the connection close.
        request.closeConnection = true;
        throw new ValidationError(
          nestError(part.fieldname, await oversizedErrors(field as FileField, upload)),
        );
      }
    } catch (error) {
      request.closeConnection = true;
      throw translateMultipartError(error);
    }
    return data;
  }

  /**
   * Streams a file part into `sink` (a temporary file, or the storage), counting bytes. Past
   * `limit` the sink drops what it has (the file removed, the object store's upload aborted)
   * and nothing more is written; counting goes on (so the message can give the real size)
   * until the part ends or passes four times the limit. A part that fails (client gone, disk
   * full, body over `budget`) leaves nothing behind.
   */
  async #receive(
    stream: Readable,
    sink: PartSink,
    limit: number | undefined,
    budget: number,
  ): Promise<Received> {
    const measureUntil =
      limit === undefined ? Number.POSITIVE_INFINITY : Math.max(limit * 4, 1024 * 1024);
    let size = 0;
    let writing = true;
    let complete = true;
    let file: UploadedFile | undefined;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > budget) throw new PayloadTooLarge();
        if (writing && limit !== undefined && size > limit) {
          writing = false;
          await sink.drop(new FileTooLarge(limit, size));
        }
        if (writing) await sink.write(chunk);
        else if (size > measureUntil) {
          complete = false;
          break;
        }
      }
      if (!complete) stream.destroy();
      if (writing) file = await sink.end(size);
    } catch (error) {
      await sink.drop(error);
      throw error;
    }
    return { size, tooLarge: !writing, complete, file };
  }
  /** Reads and discards a part, refusing more than `max` bytes. */
  async #drain(
    stream: Readable,
    max: number,
    message = `A form value is larger than ${max} bytes.`,
  ): Promise<number> {
    let size = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > max) throw new PayloadTooLarge(message);
    }
    return size;
  }
}

/**
 * How the request's multipart text is decoded, strictly: a part's value in the charset its
 * own `Content-Type` names (400 for one the platform does not know), anything else (names, and
 * values of parts that name no charset) in the form's charset: the request's, UTF-8 by default.
 */
function textDecoder(request: Request): MultipartTextDecoder {
  return (bytes, charset) => {
    if (charset === undefined) return decodeStrictly(request, bytes, LABEL);
    const decoder = strictDecoder(charset);
    if (!decoder) throw new ParseError(`${LABEL} - a part names an unknown charset.`);
    return decodeWith(decoder, charset, bytes, LABEL);
  };
}

/**
 * A client's file name as Django's multipart parser keeps it: the part after the last `/` or
 * `\\`, without unprintable characters (controls, bidi overrides, separators but the space);
 * '' when nothing usable is left (`.`, `..`). Storage makes it safe to store.
 */
export function clientFileName(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const printable = base.replace(/[\p{C}\p{Z}]/gu, (c) => (c === ' ' ? c : ''));
  return printable === '.' || printable === '..' ? '' : printable;
}

/** Closes a temporary file's stream (waiting for its descriptor) and removes the file. */
async function closeAndRemove(out: WriteStream, path: string): Promise<void> {
  if (!out.closed) {
    // An open still in flight would otherwise create the file after it was removed.
    const closed = new Promise<void>((resolve) => out.once('close', () => resolve()));
    out.destroy();
    await closed;
  }
  await rm(path, { force: true });
}

/** Resolves on `drain`, rejects when the stream fails or closes first. */
function drained(out: Writable): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const settle = (error?: Error) => {
      out.off('drain', onDrain);
      out.off('error', onError);
      out.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onError = (error: Error) => settle(error);
    const onClose = () => settle(new Error('The temporary upload file was closed.'));
    out.on('drain', onDrain);
    out.on('error', onError);
    out.on('close', onClose);
  });
}

/** The field's errors for an upload it refused: the name checks, then the size message. */
async function oversizedErrors(field: FileField, upload: OversizedUpload): Promise<ErrorTree> {
  try {
    await field.toInternalValue(upload, { partial: false, context: {}, instance: undefined });
    field.failTooLarge(upload.size, upload.complete);
  } catch (error) {
    if (error instanceof ValidationError) return error.detail;
    throw error;
  }
}

/** `profile.avatar` → `{profile: {avatar: detail}}`, as the serializer nests its errors. */
function nestError(name: string, detail: ErrorTree): Record<string, ErrorTree> {
  const path = name.split('.');
  let tree: ErrorTree = detail;
  for (let i = path.length - 1; i > 0; i--) tree = { [path[i] as string]: tree };
  return { [path[0] as string]: tree };
}

function contentLength(request: Request): number {
  const value = Number(request.raw.headers['content-length']);
  return Number.isFinite(value) ? value : 0;
}

/** Maps the failures of reading a multipart body to 413 and 400 answers. */
function translateMultipartError(error: unknown): unknown {
  if (!(error instanceof MultipartError)) return error;
  switch (error.reason) {
    case 'too-many-parts':
    case 'field-too-large':
      return new PayloadTooLarge(error.message);
    default:
      return new ParseError(`${LABEL} - ${error.message}`);
  }
}
