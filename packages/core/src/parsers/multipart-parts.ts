/**
 * The parts of a multipart body, one at a time, read with busboy straight from the request
 * stream. The toolkit drives busboy itself rather than through `@fastify/multipart`, whose
 * two async hooks ran on every request of the router, multipart or not.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import {
  Busboy,
  type BusboyFileStream,
  type BusboyHeaders,
  type BusboyInstance,
} from '@fastify/busboy';

/** A text part. */
export interface MultipartField {
  readonly type: 'field';
  readonly fieldname: string;
  readonly value: string;
  /** The name was longer than `fieldNameSize` bytes and was cut. */
  readonly fieldnameTruncated: boolean;
  /** The value was longer than `fieldSize` bytes and was cut. */
  readonly valueTruncated: boolean;
}

/** A file part: its bytes arrive on `file`, which must be read (or destroyed) to go on. */
export interface MultipartFile {
  readonly type: 'file';
  readonly fieldname: string;
  /** The file name as sent ('' when the part has none). */
  readonly filename: string;
  readonly mimetype: string;
  readonly file: BusboyFileStream;
}

/** One part of a multipart body. */
export type MultipartPart = MultipartField | MultipartFile;

/** Limits passed to busboy; a part over one of them fails the whole body. */
export interface MultipartLimits {
  readonly parts: number;
  readonly fieldSize: number;
  readonly fieldNameSize: number;
  readonly headerPairs: number;
  readonly fileSize: number;
}

/** Why a multipart body could not be read. */
export type MultipartFailure =
  | 'no-boundary'
  | 'too-many-parts'
  | 'file-too-large'
  | 'premature-close'
  | 'malformed';

/** A multipart body that could not be read; `reason` says why. */
export class MultipartError extends Error {
  readonly reason: MultipartFailure;

  constructor(reason: MultipartFailure, message: string) {
    super(message);
    this.name = 'MultipartError';
    this.reason = reason;
  }
}

/**
 * Reads `raw` as a multipart body and yields its parts in order. A file part's stream must be
 * consumed before the next part comes (busboy waits for it, so a body is never buffered
 * whole). Stopping early (`break`, a throw) unpipes the request and leaves the rest unread.
 *
 * @example
 * ```ts
 * import { createWriteStream } from 'node:fs';
 * import type { IncomingMessage } from 'node:http';
 * import { pipeline } from 'node:stream/promises';
 *
 * declare const raw: IncomingMessage;
 * declare const limits: MultipartLimits;
 * declare function pathFor(file: MultipartFile): string;
 *
 * const values: Record<string, string> = {};
 * for await (const part of multipartParts(raw, limits)) {
 *   if (part.type === 'field') values[part.fieldname] = part.value;
 *   else await pipeline(part.file, createWriteStream(pathFor(part)));
 * }
 * ```
 */
export async function* multipartParts(
  raw: IncomingMessage,
  limits: MultipartLimits,
): AsyncGenerator<MultipartPart, void, undefined> {
  let busboy: BusboyInstance;
  try {
    // Text values without a charset of their own come as Latin-1, one character per byte:
    // the parser decodes those bytes strictly (busboy's own UTF-8 decoding would turn bytes
    // that are not UTF-8 into U+FFFD without a word).
    busboy = new Busboy({
      headers: raw.headers as BusboyHeaders,
      limits,
      preservePath: true,
      defCharset: 'latin1',
    });
  } catch (error) {
    const message = (error as Error).message;
    throw /boundary/i.test(message)
      ? new MultipartError('no-boundary', 'Invalid boundary in multipart: None')
      : new MultipartError('malformed', message);
  }

  const queue: MultipartPart[] = [];
  let ended = false;
  let failure: MultipartError | undefined;
  let current: BusboyFileStream | undefined;
  let sawData = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  /**
   * Records the first failure. A broken body also fails the file being read, so that a
   * consumer waiting on its bytes hears of it; a limit leaves that file alone, to be read
   * to its end first (busboy raises limits between parts).
   */
  const fail = (error: MultipartError, breaksCurrentFile: boolean) => {
    failure ??= error;
    if (breaksCurrentFile && current && !current.readableEnded) current.destroy(error);
    notify();
  };
  const tooManyParts = () =>
    fail(new MultipartError('too-many-parts', 'The multipart body has too many parts.'), false);

  busboy.on('field', (fieldname, value, fieldnameTruncated, valueTruncated) => {
    queue.push({ type: 'field', fieldname, value, fieldnameTruncated, valueTruncated });
    notify();
  });
  busboy.on('file', (fieldname, file, filename, _encoding, mimetype) => {
    current = file;
    file.on('limit', () =>
      fail(new MultipartError('file-too-large', 'A file part is over the size limit.'), false),
    );
    // A part cut short fails its stream; a listener keeps that from being an uncaught error.
    file.on('error', (error: Error) => fail(new MultipartError('malformed', error.message), false));
    queue.push({ type: 'file', fieldname, filename: filename ?? '', mimetype, file });
    notify();
  });
  busboy.on('partsLimit', tooManyParts);
  busboy.on('filesLimit', tooManyParts);
  busboy.on('fieldsLimit', tooManyParts);
  busboy.on('finish', () => {
    ended = true;
    notify();
  });
  busboy.on('error', (error: Error) => {
    // An empty body is an empty form, as in Django.
    if (!sawData && error.message === 'Unexpected end of multipart data') {
      ended = true;
      notify();
    } else fail(new MultipartError('malformed', error.message), true);
  });
  raw.on('close', () => {
    if (!raw.readableEnded) {
      fail(new MultipartError('premature-close', 'The request ended before its body did.'), true);
    }
  });
  raw.on('error', (error: Error) => fail(new MultipartError('malformed', error.message), true));
  raw.once('data', () => {
    sawData = true;
  });
  raw.pipe(busboy);

  try {
    while (true) {
      if (failure) throw failure;
      const part = queue.shift();
      if (part) {
        yield part;
        continue;
      }
      if (ended) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    raw.unpipe(busboy);
    if (current && !current.readableEnded) current.destroy();
  }
}
