/**
 * The parts of a multipart body, one at a time, read straight from the request stream. The
 * body is split at its boundary by busboy's splitter (`Dicer`, exported by `@fastify/busboy`);
 * each part's header is read by the toolkit ({@link readPartHeader}), strictly, so that a part
 * whose name or kind is in doubt is refused rather than skipped or guessed. The toolkit does
 * not go through `@fastify/multipart`, whose two async hooks ran on every request of the
 * router, multipart or not.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import { Dicer } from '@fastify/busboy';
import { MultipartError } from './multipart-error.ts';
import {
  type PartHeaderLimits,
  type RawPartHeader,
  readPartHeader,
} from './multipart-part-header.ts';

export { MultipartError, type MultipartFailure } from './multipart-error.ts';

/** A text part. */
export interface MultipartField {
  readonly type: 'field';
  readonly fieldname: string;
  readonly value: string;
}

/** A file part: its bytes arrive on `file`, which must be read (or destroyed) to go on. */
export interface MultipartFile {
  readonly type: 'file';
  readonly fieldname: string;
  /** The file name as sent ('' when the part gave an empty one). */
  readonly filename: string;
  readonly mimetype: string;
  readonly file: Readable;
}

/** One part of a multipart body. */
export type MultipartPart = MultipartField | MultipartFile;

/** Limits of a multipart body: a part over one of them fails the whole body. */
export interface MultipartLimits extends PartHeaderLimits {
  /** The most parts (413 above). */
  readonly parts: number;
  /** The most bytes of a text part's value (413 above). */
  readonly fieldSize: number;
}

/**
 * Decodes text of the body: a part's value in the `charset` its own `Content-Type` names, or,
 * when `charset` is undefined, in the form's charset (a value without one, and every name).
 * Throws (an `APIException`) for bytes that are not valid text.
 */
export type MultipartTextDecoder = (bytes: Uint8Array, charset: string | undefined) => string;

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const decodeUtf8: MultipartTextDecoder = (bytes) => UTF8.decode(bytes);

// RFC 2046, 5.1.1: 1 to 70 characters, none a control, not ending with a space.
const BOUNDARY = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i;
const VALID_BOUNDARY = /^[\x20-\x7e]{0,69}[\x21-\x7e]$/;

/** The boundary of a multipart `Content-Type`, or undefined when it has none that is valid. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  const match = contentType === undefined ? null : BOUNDARY.exec(contentType);
  const boundary = match ? (match[1] ?? match[2]) : undefined;
  return boundary !== undefined && VALID_BOUNDARY.test(boundary) ? boundary : undefined;
}

/**
 * Reads `raw` as a multipart body and yields its parts in order. A file part's stream must be
 * consumed before the next part comes (the splitter waits for it, so a body is never buffered
 * whole). Stopping early (`break`, a throw) unpipes the request and leaves the rest unread.
 * Throws a {@link MultipartError} for a body it cannot read, and what `decode` throws for text
 * that is not valid.
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
  decode: MultipartTextDecoder = decodeUtf8,
): AsyncGenerator<MultipartPart, void, undefined> {
  const boundary = multipartBoundary(raw.headers['content-type']);
  if (boundary === undefined) {
    throw new MultipartError('no-boundary', 'Invalid boundary in multipart: None');
  }
  // The splitter silently drops what is past its own limits. Its limits are set past ours (a
  // line more, a KiB more), so that readPartHeader sees a header that is over either of ours
  // and refuses it, and a header within ours is never cut.
  const config: Dicer.Config & { readonly maxHeaderSize: number } = {
    boundary,
    maxHeaderPairs: limits.headerPairs + 1,
    maxHeaderSize: limits.headerSize + 1024,
  };
  const splitter = new Dicer(config);
  const decodeName = (bytes: Uint8Array) => decode(bytes, undefined);

  // Parts in body order. A text part takes its place when its header is read and gets its
  // value when it ends: the splitter reads the next part's header before the stream of the
  // one before has said 'end' (streams end on a later tick).
  const queue: { part: MultipartPart | undefined }[] = [];
  let ended = false;
  let failure: unknown;
  let failed = false;
  let current: Readable | undefined;
  let sawData = false;
  let parts = 0;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  /**
   * Records the first failure. A broken body also fails the file being read, so that a
   * consumer waiting on its bytes hears of it; a limit leaves that file alone, to be read
   * to its end first (the limit is raised between parts).
   */
  const fail = (error: unknown, breaksCurrentFile: boolean) => {
    if (!failed) {
      failed = true;
      failure = error;
    }
    if (breaksCurrentFile && current && !current.readableEnded) {
      current.destroy(error instanceof Error ? error : undefined);
    }
    notify();
  };
  const readText = (part: Readable, name: string, charset: string | undefined) => {
    const slot: { part: MultipartPart | undefined } = { part: undefined };
    queue.push(slot);
    const chunks: Buffer[] = [];
    let size = 0;
    part.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limits.fieldSize) chunks.push(chunk);
      else if (!failed) {
        const message = `A form value is larger than ${limits.fieldSize} bytes.`;
        fail(new MultipartError('field-too-large', message), false);
      }
    });
    part.on('end', () => {
      if (failed) return;
      let value: string;
      try {
        value = decode(Buffer.concat(chunks, size), charset);
      } catch (error) {
        fail(error, false);
        return;
      }
      slot.part = { type: 'field', fieldname: name, value };
      notify();
    });
  };

  splitter.on('part', (part: Dicer.PartStream) => {
    // A part cut short fails its stream; a listener keeps that from being an uncaught error.
    part.on('error', (error: Error) => fail(new MultipartError('malformed', error.message), false));
    if (++parts > limits.parts) {
      fail(new MultipartError('too-many-parts', 'The multipart body has too many parts.'), false);
      part.resume();
      return;
    }
    part.once('header', (header: object) => {
      if (failed) {
        part.resume();
        return;
      }
      let head: ReturnType<typeof readPartHeader>;
      try {
        head = readPartHeader(header as RawPartHeader, limits, decodeName);
      } catch (error) {
        fail(error, false);
        part.resume();
        return;
      }
      if (head.filename === undefined) {
        readText(part, head.name, head.charset);
        return;
      }
      current = part;
      const file: MultipartFile = {
        type: 'file',
        fieldname: head.name,
        filename: head.filename,
        mimetype: head.contentType,
        file: part,
      };
      queue.push({ part: file });
      notify();
    });
  });
  splitter.on('finish', () => {
    ended = true;
    notify();
  });
  splitter.on('error', (error: Error) => {
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
  raw.pipe(splitter);

  try {
    while (true) {
      if (failed) throw failure;
      const part = queue[0]?.part;
      if (part) {
        queue.shift();
        yield part;
        continue;
      }
      if (ended && queue.length === 0) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    raw.unpipe(splitter);
    if (current && !current.readableEnded) current.destroy();
  }
}
