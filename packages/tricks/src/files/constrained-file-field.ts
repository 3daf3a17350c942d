/**
 * `ConstrainedFileField`: a file field that rejects uploads larger than `maxUploadSize` bytes,
 * the port of django-rest-framework-tricks' field. Core's multipart parser reads the limit and
 * stops keeping a part as soon as it is larger, so an oversized upload is never stored and
 * never held in memory, whatever its size.
 *
 * @example
 * ```ts
 * import { ModelSerializer } from '@restframework/core';
 * import { ConstrainedFileField } from '@restframework/tricks';
 *
 * class UploadSerializer extends ModelSerializer.with({
 *   model: Upload,
 *   fields: ['id', 'username', 'resume'],
 *   declaredFields: { resume: new ConstrainedFileField({ maxUploadSize: 5 * 1024 * 1024 }) },
 * }) {}
 * // A 10 MiB upload: 400 {"resume": ["File size exceeds limit: 10.0M. Limit is 5.0M."]}
 * ```
 * @module
 */
import {
  type FieldDescription,
  FileField,
  type FileFieldOptions,
  ImproperlyConfigured,
  type RunContext,
  type UploadedFile,
} from '@restframework/core';
import { naturalSize } from './natural-size.ts';

/** Options of {@link ConstrainedFileField}. */
export interface ConstrainedFileFieldOptions extends FileFieldOptions {
  /**
   * The largest upload accepted, in bytes (`5 * 1024 * 1024`); 0 (the default) for no
   * limit. A non-negative integer.
   */
  readonly maxUploadSize?: number;
}

/**
 * A file field with a size limit: an upload of more than `maxUploadSize` bytes fails with
 * `File size exceeds limit: <size>. Limit is <limit>.`, sizes written as humanize's
 * `naturalsize(gnu=True)` does (`5.0M`). An upload of exactly `maxUploadSize` bytes is
 * accepted. OPTIONS shows the limit as `max_upload_size`.
 *
 * @example
 * ```ts
 * class UploadSerializer extends ModelSerializer.with({
 *   model: Upload,
 *   fields: ['id', 'username', 'resume'],
 *   declaredFields: { resume: new ConstrainedFileField({ maxUploadSize: 5 * 1024 * 1024 }) },
 * }) {}
 * ```
 */
export class ConstrainedFileField<
  const O extends ConstrainedFileFieldOptions = ConstrainedFileFieldOptions,
> extends FileField<O> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    max_upload_size: 'File size exceeds limit: {current_size}. Limit is {max_size}.',
  };

  readonly #maxUploadSize: number;

  constructor(options: O = {} as O) {
    super(options);
    const size: unknown = options.maxUploadSize === undefined ? 0 : options.maxUploadSize;
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_OPTIONS',
        `ConstrainedFileField: maxUploadSize must be a non-negative integer number of bytes ` +
          `(0 for no limit), got ${describeValue(size)}. Write the size as code, ` +
          'for example maxUploadSize: 5 * 1024 * 1024 for 5 MiB.',
      );
    }
    this.#maxUploadSize = size;
  }

  /** The limit in bytes, or undefined when there is none (0); the multipart parser honours it. */
  override get maxUploadSize(): number | undefined {
    return this.#maxUploadSize || undefined;
  }

  override failTooLarge(receivedBytes: number, _complete: boolean): never {
    return this.fail('max_upload_size', {
      current_size: naturalSize(receivedBytes),
      max_size: naturalSize(this.#maxUploadSize),
    });
  }

  /** Core's checks (a file, a name, not empty, the name's length), then the size. */
  override toInternalValue(data: unknown, ctx?: RunContext): UploadedFile {
    const file = super.toInternalValue(data, ctx);
    if (this.#maxUploadSize && file.size > this.#maxUploadSize) {
      this.failTooLarge(file.size, true);
    }
    return file;
  }

  override describe(): FieldDescription {
    const description = super.describe();
    if (this.#maxUploadSize) description.max_upload_size = this.#maxUploadSize;
    return description;
  }
}

function describeValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
