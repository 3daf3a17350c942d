/**
 * Multipart bodies, streamed: each file part goes to a temporary file as it arrives, never
 * whole into memory, and a part larger than its field's `maxUploadSize` stops being stored
 * at `maxUploadSize + 1` bytes.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import {
  type ErrorTree,
  ParseError,
  PayloadTooLarge,
  ValidationError,
} from '../errors/api-exception.ts';
import { FileField } from '../fields/file-field.ts';
import { createFormInput } from '../fields/form-input.ts';
import { UploadedFile } from '../files/uploaded-file.ts';
import type { Request } from '../http/request.ts';
import { BaseParser, type ParserContext } from './parser.ts';

type Part = MultipartFile | MultipartValue;
type MultipartRequest = {
  isMultipart(): boolean;
  parts(options: object): AsyncIterableIterator<Part>;
};

const UPLOAD_DIR = join(tmpdir(), 'restframework-uploads');

/** What became of one file part. */
interface Received {
  /** Bytes counted (all of them when `complete`). */
  readonly size: number;
  /** More bytes than the field accepts: nothing was kept. */
  readonly tooLarge: boolean;
  /** The part was read to its end (false when reading stopped early). */
  readonly complete: boolean;
}

/**
 * `multipart/form-data`, on `@fastify/multipart` (busboy). Text parts become values, file
 * parts {@link UploadedFile}s, keys may be dotted (`stock_information.price`). A part with an
 * empty file name is a text value, as in DRF ("not a file").
 *
 * Limits: `MAX_UPLOAD_PARTS` parts, `MAX_UPLOAD_FIELD_SIZE` bytes per text value and
 * `MAX_UPLOAD_BODY_SIZE` bytes in all give 413; a file field's own `maxUploadSize` gives that
 * field's 400. Reading stops early when an oversized part is far past its limit, and the
 * connection is then closed rather than drained.
 */
export class MultiPartParser extends BaseParser {
  readonly mediaType = 'multipart/form-data';

  async parse(request: Request, context: ParserContext): Promise<unknown> {
    const raw = request.raw as unknown as MultipartRequest;
    if (typeof raw.isMultipart !== 'function' || !raw.isMultipart()) {
      throw new ParseError('Multipart form parse error - Invalid boundary in multipart: None');
    }
    const { MAX_UPLOAD_PARTS, MAX_UPLOAD_FIELD_SIZE, MAX_UPLOAD_BODY_SIZE } = request.settings;
    const data = createFormInput();
    const errors: Record<string, ErrorTree> = {};
    let total = 0;
    const parts = raw.parts({
      limits: {
        parts: MAX_UPLOAD_PARTS,
        fieldSize: MAX_UPLOAD_FIELD_SIZE,
        fieldNameSize: 1000,
        headerPairs: 100,
        fileSize: MAX_UPLOAD_BODY_SIZE,
      },
      throwFileSizeLimit: true,
      defParamCharset: 'utf8',
    });
    try {
      for await (const part of parts) {
        if (part.type === 'field') {
          if (part.valueTruncated || part.fieldnameTruncated) {
            throw new PayloadTooLarge(
              `A form value is larger than ${MAX_UPLOAD_FIELD_SIZE} bytes.`,
            );
          }
          const value = typeof part.value === 'string' ? part.value : String(part.value);
          total += value.length;
          if (total > MAX_UPLOAD_BODY_SIZE) throw new PayloadTooLarge();
          data[part.fieldname] = value;
          continue;
        }
        if (!part.filename) {
          // DRF reads a part without a file name as a text value ("not a file").
          total += await this.#drain(part.file, MAX_UPLOAD_FIELD_SIZE);
          data[part.fieldname] = '';
          continue;
        }
        const field = context.fileField(part.fieldname);
        const limit = field instanceof FileField ? field.maxUploadSize : undefined;
        const path = join(UPLOAD_DIR, randomUUID());
        const received = await this.#receive(part.file, path, limit, MAX_UPLOAD_BODY_SIZE - total);
        total += received.size;
        if (!received.tooLarge) {
          const file = new UploadedFile(part.filename, part.mimetype, received.size, path);
          request.uploadedFiles.push(file);
          data[part.fieldname] = file;
          continue;
        }
        if (!(field instanceof FileField)) throw new PayloadTooLarge();
        const size = received.complete
          ? received.size
          : Math.max(received.size, contentLength(request));
        try {
          field.failTooLarge(size, received.complete);
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          errors[part.fieldname] = error.detail;
        }
        if (!received.complete) {
          // Stop reading: the rest of the body is not wanted, and the connection will close.
          request.closeConnection = true;
          break;
        }
      }
    } catch (error) {
      request.closeConnection = true;
      throw translateMultipartError(error);
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return data;
  }

  /**
   * Streams a file part to `path`, counting bytes. Past `limit` nothing more is written and
   * the temporary file is removed; counting goes on (so the message can give the real size)
   * until the part ends or passes four times the limit.
   */
  async #receive(
    stream: Readable,
    path: string,
    limit: number | undefined,
    budget: number,
  ): Promise<Received> {
    await mkdir(UPLOAD_DIR, { recursive: true });
    const out = createWriteStream(path, { flags: 'wx' });
    const measureUntil =
      limit === undefined ? Number.POSITIVE_INFINITY : Math.max(limit * 4, 1024 * 1024);
    let size = 0;
    let writing = true;
    let complete = true;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > budget) throw new PayloadTooLarge();
        if (writing && limit !== undefined && size > limit) {
          writing = false;
          out.destroy();
          await rm(path, { force: true });
        }
        if (writing) {
          if (!out.write(chunk))
            await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        } else if (size > measureUntil) {
          complete = false;
          break;
        }
      }
      if (!complete) stream.destroy();
      if (writing) {
        out.end();
        await finished(out);
      }
    } catch (error) {
      out.destroy();
      await rm(path, { force: true });
      throw error;
    }
    return { size, tooLarge: !writing, complete };
  }

  /** Reads and discards a part, refusing more than `max` bytes. */
  async #drain(stream: Readable, max: number): Promise<number> {
    let size = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > max) throw new PayloadTooLarge(`A form value is larger than ${max} bytes.`);
    }
    return size;
  }
}

function contentLength(request: Request): number {
  const value = Number(request.raw.headers['content-length']);
  return Number.isFinite(value) ? value : 0;
}

/** Maps @fastify/multipart and busboy errors to 413 and 400 answers. */
function translateMultipartError(error: unknown): unknown {
  if (
    error instanceof PayloadTooLarge ||
    error instanceof ValidationError ||
    error instanceof ParseError
  )
    return error;
  const code = (error as { code?: string })?.code;
  const message = (error as Error)?.message ?? String(error);
  switch (code) {
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new PayloadTooLarge('The multipart body has too many parts.');
    case 'FST_REQ_FILE_TOO_LARGE':
      return new PayloadTooLarge();
    case 'FST_PROTO_VIOLATION':
      return new ParseError(
        'Multipart form parse error - a part name is not allowed (such as __proto__ or constructor).',
      );
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return new ParseError('Multipart form parse error - a JSON part is not valid JSON.');
    default:
      return new ParseError(`Multipart form parse error - ${message}`);
  }
}
