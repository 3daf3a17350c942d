/**
 * The size limit a storage enforces while it streams a file in ({@link SaveOptions.maxSize}).
 * @module
 */
import { Transform, type TransformCallback } from 'node:stream';

/**
 * A file refused by a storage because it is larger than the `maxSize` its caller gave:
 * nothing of it stays stored.
 *
 * @example
 * ```ts
 * import type { Readable } from 'node:stream';
 * declare const storage: Storage;
 * declare const stream: Readable; // an export being written, say
 * try {
 *   await storage.save('exports/report.csv', stream, { maxSize: 10 * 1024 * 1024 });
 * } catch (error) {
 *   if (error instanceof FileTooLarge) console.warn(`over ${error.maxSize} bytes`);
 * }
 * ```
 */
export class FileTooLarge extends Error {
  /** `'FileTooLarge'`. */
  override readonly name = 'FileTooLarge';
  /** The limit, in bytes. */
  readonly maxSize: number;
  /** Bytes read when the storage stopped (more than `maxSize`; the rest was not read). */
  readonly receivedBytes: number;

  constructor(maxSize: number, receivedBytes: number) {
    super(`The file is larger than ${maxSize} bytes (${receivedBytes} bytes read).`);
    this.maxSize = maxSize;
    this.receivedBytes = receivedBytes;
  }
}

/**
 * A pass-through stream that fails with {@link FileTooLarge} as soon as more than `maxSize`
 * bytes went through it, before handing on the chunk that passed the limit.
 */
export function limitBytes(maxSize: number): Transform {
  let received = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      received += chunk.length;
      if (received > maxSize) callback(new FileTooLarge(maxSize, received));
      else callback(null, chunk);
    },
  });
}
