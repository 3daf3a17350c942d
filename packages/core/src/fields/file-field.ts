/**
 * Uploaded files.
 * @module
 */
import type { Storage } from '../files/storage.ts';
import { OversizedUpload, UploadedFile } from '../files/uploaded-file.ts';
import {
  allowNullIn,
  Field,
  type FieldDescription,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  type RunContext,
} from './field.ts';
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
 * What a file field renders: its URL (or name), `null` when no file is stored, which only an
 * optional field (`required: false`, a default) can leave.
 */
export type FileRepresentation<O> = O extends
  | { readonly required: false }
  | { readonly default: unknown }
  | { readonly allowNull: true }
  ? string | null
  : string;

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
  FileRepresentation<O>,
  O
> {
  /** Type-level only: what a client sends, a file (a part of a multipart body). */
  declare readonly wireInput: Blob;
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

  /**
   * Fails for an upload larger than {@link maxUploadSize}: the parser's {@link OversizedUpload}
   * (`complete` false when the part was not read to its end and the size is an estimate).
   * Subclasses give their message.
   */
  failTooLarge(_receivedBytes: number, _complete: boolean): never {
    return this.fail('invalid');
  }

  toInternalValue(data: unknown, _ctx?: RunContext): UploadedFile {
    const oversized = data instanceof OversizedUpload;
    if (!(data instanceof UploadedFile) && !oversized) return this.fail('invalid');
    const file = data as UploadedFile | OversizedUpload;
    // DRF's order: no name, then empty, then the name's length (then a subclass's size check).
    if (!file.filename) this.fail('no_name');
    if (file.size === 0 && !this.options.allowEmptyFile) this.fail('empty');
    const maxLength = this.options.maxLength;
    if (maxLength !== undefined) {
      const length = codePointLength(file.filename);
      if (length > maxLength) this.fail('max_length', { max_length: maxLength, length });
    }
    if (oversized) this.failTooLarge(file.size, (file as OversizedUpload).complete);
    return file as UploadedFile;
  }

  toRepresentation(value: unknown, ctx: RunContext): FileRepresentation<O> {
    return this.#represent(value, ctx) as FileRepresentation<O>;
  }

  #represent(value: unknown, ctx: RunContext): string | null {
    if (!value) return null;
    const name = value instanceof UploadedFile ? value.filename : String(value);
    if (this.options.useUrl === false) return name;
    const storage = ctx.context.storage as Storage | undefined;
    const url = storage ? storage.url(name) : name;
    const request = ctx.context.request;
    return request && url.startsWith('/') ? request.buildAbsoluteUri(url) : url;
  }

  /**
   * Sent as a file (`format: binary`, multipart bodies); shown as its URL (or stored name), or
   * `null` when an optional field has no file.
   */
  protected override valueSchema(options: JsonSchemaOptions): JsonSchema {
    if (options.mode === 'request') return { type: 'string', format: 'binary' };
    const schema: JsonSchema =
      this.options.useUrl === false ? { type: 'string' } : { type: 'string', format: 'uri' };
    return this.required ? schema : allowNullIn(schema);
  }

  override describe(): FieldDescription {
    const description = super.describe();
    // DRF's metadata lists a file field's max_length like a char field's.
    if (this.options.maxLength !== undefined) description.max_length = this.options.maxLength;
    return description;
  }
}
