/**
 * Uploaded files.
 * @module
 */
import type { Storage } from '../files/storage.ts';
import { UploadedFile } from '../files/uploaded-file.ts';
import { Field, type FieldDescription, type FieldOptions, type RunContext } from './field.ts';
import { codePointLength } from './validators.ts';

/** Options of {@link FileField}. */
export interface FileFieldOptions extends FieldOptions<UploadedFile> {
  /** The longest file name accepted. */
  readonly maxLength?: number;
  /** Accepts a file of zero bytes (default false). */
  readonly allowEmptyFile?: boolean;
  /** Renders the file's URL (default) or its stored name. */
  readonly useUrl?: boolean;
}

/**
 * A file sent in a multipart body. Anything else (a text value, a JSON string, a part with an
 * empty file name) is "not a file"; a missing part is "No file was submitted.".
 * Renders the absolute URL of the stored file.
 *
 * Subclasses may limit the size of an upload with {@link FileField.maxUploadSize}: the
 * multipart parser reads it and stops storing a part as soon as it is larger.
 *
 * @example
 * ```ts
 * const resume = new FileField();
 * ```
 */
export class FileField<const O extends FileFieldOptions = FileFieldOptions> extends Field<
  UploadedFile,
  string | null,
  O
> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    required: 'No file was submitted.',
    invalid: 'The submitted data was not a file. Check the encoding type on the form.',
    no_name: 'No filename could be determined.',
    empty: 'The submitted file is empty.',
    max_length: 'Ensure this filename has at most {max_length} characters (it has {length}).',
  };
  static override metadataType = 'file upload';

  /**
   * The largest upload this field accepts, in bytes, or undefined for no limit of its own.
   * The multipart parser honours it while the part streams in; {@link FileField.failTooLarge}
   * gives the message.
   */
  get maxUploadSize(): number | undefined {
    return undefined;
  }

  /** Called by the multipart parser when a part exceeded {@link maxUploadSize}. */
  failTooLarge(_receivedBytes: number, _complete: boolean): never {
    return this.fail('invalid');
  }

  toInternalValue(data: unknown, _ctx?: RunContext): UploadedFile {
    if (!(data instanceof UploadedFile)) return this.fail('invalid');
    // DRF's order: no name, then empty, then the name's length.
    if (!data.filename) this.fail('no_name');
    if (data.size === 0 && !this.options.allowEmptyFile) this.fail('empty');
    const maxLength = this.options.maxLength;
    if (maxLength !== undefined) {
      const length = codePointLength(data.filename);
      if (length > maxLength) this.fail('max_length', { max_length: maxLength, length });
    }
    return data;
  }

  toRepresentation(value: unknown, ctx: RunContext): string | null {
    if (!value) return null;
    const name = value instanceof UploadedFile ? value.filename : String(value);
    if (this.options.useUrl === false) return name;
    const storage = ctx.context.storage as Storage | undefined;
    const url = storage ? storage.url(name) : name;
    const request = ctx.context.request;
    return request && url.startsWith('/') ? request.buildAbsoluteUri(url) : url;
  }

  override describe(): FieldDescription {
    const description = super.describe();
    // DRF's metadata lists a file field's max_length like a char field's.
    if (this.options.maxLength !== undefined) description.max_length = this.options.maxLength;
    return description;
  }
}
