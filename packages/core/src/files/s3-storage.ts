/**
 * Files in an S3 bucket (Amazon S3 or any server of the S3 protocol: MinIO, Ceph, R2, ...),
 * as django-storages' `S3Storage`: uploads streamed as multipart uploads, deletes after the
 * commit like every storage, files served by presigned URL or streamed through the app.
 *
 * The AWS SDK packages are optional peer dependencies, loaded when a storage is made:
 * `npm install @aws-sdk/client-s3 @aws-sdk/lib-storage` (and `@aws-sdk/s3-request-presigner`
 * for presigned URLs).
 *
 * @example
 * ```ts
 * const storage = new S3Storage(s3StorageOptionsFromEnv());
 * await app.register(restFramework, { database: db, settings: { STORAGE: storage } });
 * await serveMedia(app); // GET /media/<name>: streamed, or a redirect to a presigned URL
 * ```
 * @module
 */
import { randomUUID } from 'node:crypto';
import { PassThrough, type Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StorageUnavailable } from '../errors/api-exception.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { requireOptional } from '../utils/optional-dependency.ts';
import { FileTooLarge, limitBytes } from './file-too-large.ts';
import { StagedUpload } from './staged-upload.ts';
import type { SaveOptions, Storage } from './storage.ts';
import {
  getValidFileName,
  MAX_NAME_ATTEMPTS,
  SuspiciousFileOperation,
  storedNameCandidates,
} from './stored-name.ts';
import { UploadedFile } from './uploaded-file.ts';

type ClientS3 = typeof import('@aws-sdk/client-s3');
type LibStorage = typeof import('@aws-sdk/lib-storage');
type Presigner = typeof import('@aws-sdk/s3-request-presigner');
type GetObjectOutput = import('@aws-sdk/client-s3').GetObjectCommandOutput;

/** Options of {@link S3Storage}; {@link s3StorageOptionsFromEnv} reads them from the environment. */
export interface S3StorageOptions {
  /** The bucket (`AWS_STORAGE_BUCKET_NAME`). */
  readonly bucket: string;
  /**
   * The bucket's region (`AWS_S3_REGION_NAME`, else `AWS_REGION`); default `us-east-1` when an
   * `endpoint` is given, required otherwise.
   */
  readonly region?: string;
  /**
   * The URL of an S3-protocol server other than Amazon's (`AWS_S3_ENDPOINT_URL`): MinIO, R2,
   * a test server on loopback. Buckets are then addressed by path (`endpoint/bucket/key`).
   */
  readonly endpoint?: string;
  /** Address the bucket by path rather than by host name; default true with an `endpoint`. */
  readonly forcePathStyle?: boolean;
  /**
   * Access keys. Default: the SDK's own chain (`AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`,
   * a profile, a container or instance role), which keeps them out of the app's settings.
   * They are handed to the SDK's client and never kept, shown or logged by the storage.
   */
  readonly credentials?: {
    /** The access key's id. */
    readonly accessKeyId: string;
    /** The secret access key. */
    readonly secretAccessKey: string;
    /** The session token of temporary credentials. */
    readonly sessionToken?: string;
  };
  /** A folder of the bucket every key goes under (`AWS_LOCATION`), e.g. `media/`; default none. */
  readonly keyPrefix?: string;
  /**
   * The URL prefix of {@link S3Storage.url}: `/media/` (default) for the app's own
   * {@link serveMedia} route, or the absolute URL of a public bucket or CDN.
   */
  readonly baseUrl?: string;
  /**
   * {@link serveMedia} answers a file with a redirect (302) to a presigned URL of the object
   * (`AWS_QUERYSTRING_AUTH`) rather than streaming it through the app. Default false.
   */
  readonly presignedUrls?: boolean;
  /** How long a presigned URL is valid, in seconds (`AWS_QUERYSTRING_EXPIRE`); default 3600. */
  readonly presignedUrlExpires?: number;
  /** Bytes of each part of a multipart upload (at least 5 MiB, S3's minimum); default 5 MiB. */
  readonly partSize?: number;
  /** Parts of one upload sent at once; default 4. An upload holds at most `queueSize + 1` parts in memory. */
  readonly queueSize?: number;
  /** More options of the SDK's `S3Client` (retries, a request handler, checksums). */
  readonly clientOptions?: Readonly<Record<string, unknown>>;
}

/** An object read by {@link S3Storage.getObject}. */
export interface StoredObject {
  /** Its bytes. */
  readonly body: Readable;
  /** Its size, in bytes. */
  readonly size: number;
  /** When it was written, when the server says. */
  readonly lastModified: Date | undefined;
}

/** S3's smallest part of a multipart upload (but the last). */
const MIN_PART_SIZE = 5 * 1024 * 1024;
/** The largest object S3 copies in one request (CopyObject); larger ones are streamed again. */
const MAX_COPY_SIZE = 5 * 1024 * 1024 * 1024;
/**
 * The folder of staged uploads, under the key prefix. Its leading dot keeps it apart from
 * stored names (a client's file name never starts with a dot) and from {@link serveMedia},
 * which serves no hidden part.
 */
export const STAGING_FOLDER = '.uploads/';

/**
 * Files in an S3 bucket, as the {@link Storage} of an app.
 *
 * - `save` streams the content as a multipart upload (parts of `partSize`, at most
 *   `queueSize + 1` of them in memory at once, whatever the file's size); with a `maxSize`,
 *   the bytes are counted as they stream and the upload is aborted (`AbortMultipartUpload`)
 *   as soon as there are more: nothing stays in the bucket. Names never overwrite: a name
 *   already there gets a random suffix, as on disk, and the write is conditional
 *   (`If-None-Match: *`) where the server supports it.
 * - Uploads of a request go straight to the bucket ({@link S3Storage.receiveUpload}), no local
 *   temporary file: the multipart parser enforces the field's size limit on the way, and a
 *   part over it aborts its multipart upload before the 400 is answered. The record's file is
 *   then a server-side copy (CopyObject) of the staged object, which the request removes when
 *   it ends; give `.uploads/` a lifecycle rule that expires objects after a day, for uploads
 *   of a process that died mid-request.
 * - Keys are `keyPrefix + name`; names are made safe as on disk ({@link getValidFileName}).
 * - No ACLs are sent: buckets with Object Ownership "bucket owner enforced" (S3's default)
 *   refuse them; what is public is decided by the bucket's policy.
 *
 * @example
 * ```ts
 * import { Readable } from 'node:stream';
 * const storage = new S3Storage({ bucket: 'media', region: 'eu-west-1', keyPrefix: 'uploads/' });
 * const name = await storage.save('resumes/cv.pdf', Readable.from(['...']), { maxSize: 1 << 20 });
 * storage.url(name); // '/media/resumes/cv.pdf'
 * await storage.presignedUrl(name); // 'https://media.s3.eu-west-1.amazonaws.com/uploads/resumes/cv.pdf?X-Amz-...'
 * ```
 */
export class S3Storage implements Storage {
  /** The bucket. */
  readonly bucket: string;
  /** The folder of the bucket the keys go under: `''` or ending in `/`. */
  readonly keyPrefix: string;
  /** The URL prefix of the files, ending in `/`. */
  readonly baseUrl: string;
  /** {@link serveMedia} redirects to presigned URLs rather than streaming. */
  readonly presignedUrls: boolean;
  /** Seconds a presigned URL is valid. */
  readonly presignedUrlExpires: number;
  readonly #sdk: ClientS3;
  readonly #lib: LibStorage;
  readonly #client: InstanceType<ClientS3['S3Client']>;
  readonly #partSize: number;
  readonly #queueSize: number;

  constructor(options: S3StorageOptions) {
    this.bucket = checkBucket(options.bucket);
    this.keyPrefix = checkPrefix(options.keyPrefix ?? '');
    const baseUrl = options.baseUrl ?? '/media/';
    this.baseUrl = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
    this.presignedUrls = options.presignedUrls ?? false;
    this.presignedUrlExpires = checkInteger(
      'presignedUrlExpires',
      options.presignedUrlExpires ?? 3600,
      1,
      7 * 24 * 3600,
    );
    this.#partSize = checkInteger('partSize', options.partSize ?? MIN_PART_SIZE, MIN_PART_SIZE);
    this.#queueSize = checkInteger('queueSize', options.queueSize ?? 4, 1, 64);
    const endpoint = options.endpoint === undefined ? undefined : checkEndpoint(options.endpoint);
    const region = options.region || (endpoint ? 'us-east-1' : undefined);
    if (!region) {
      throw new ImproperlyConfigured(
        'REST_ERR_STORAGE',
        `S3Storage: no region for the bucket "${this.bucket}": pass { region } (AWS_S3_REGION_NAME or AWS_REGION), or an endpoint.`,
      );
    }
    this.#sdk = requireOptional<ClientS3>('@aws-sdk/client-s3', 'S3Storage');
    this.#lib = requireOptional<LibStorage>('@aws-sdk/lib-storage', 'S3Storage');
    // Loaded now so that a missing package fails at start-up, not at the first download.
    if (this.presignedUrls) presigner();
    this.#client = new this.#sdk.S3Client({
      ...options.clientOptions,
      region,
      ...(endpoint ? { endpoint, forcePathStyle: options.forcePathStyle ?? true } : {}),
      ...(options.forcePathStyle !== undefined ? { forcePathStyle: options.forcePathStyle } : {}),
      ...(options.credentials ? { credentials: { ...options.credentials } } : {}),
    });
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
    const { maxSize } = options;
    if (content instanceof UploadedFile && maxSize !== undefined && content.size > maxSize) {
      throw new FileTooLarge(maxSize, content.size);
    }
    for (const candidate of storedNameCandidates(
      name,
      (part) => this.getValidName(part),
      options.maxLength,
    )) {
      const key = this.key(candidate);
      if (await this.#headObject(key)) continue;
      try {
        if (
          content instanceof StagedUpload &&
          content.storage === this &&
          content.size <= MAX_COPY_SIZE
        ) {
          await this.#copy(this.key(content.stagedName), key);
        } else {
          const body = content instanceof UploadedFile ? content.open() : content;
          const type = content instanceof UploadedFile ? content.contentType : undefined;
          await this.#upload(key, body, type, maxSize);
        }
        return candidate;
      } catch (error) {
        // Taken between the check and the write: an upload's file can be read again.
        if (statusOf(error) === 412 && content instanceof UploadedFile) continue;
        throw error;
      }
    }
    throw new SuspiciousFileOperation(
      `No free name for "${name}" after ${MAX_NAME_ATTEMPTS} attempts in the bucket "${this.bucket}".`,
    );
  }

  /**
   * Stores a file part of a request as it streams in, under `.uploads/<random>` (see
   * {@link Storage.receiveUpload}): a multipart upload that `stream` failing aborts.
   */
  async receiveUpload(
    stream: Readable,
    filename: string,
    contentType: string,
  ): Promise<StagedUpload> {
    const name = STAGING_FOLDER + randomUUID();
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
        size += chunk.length;
        callback(null, chunk);
      },
    });
    // A failing `stream` fails the counter, which fails (and aborts) the upload.
    pipeline(stream, counter).catch(() => {});
    await this.#upload(this.key(name), counter, contentType, undefined);
    return new StagedUpload(filename, contentType, size, this, name);
  }

  /** Reads a stored file; the stream fails when the object cannot be read (a missing one included). */
  open(name: string): Readable {
    const out = new PassThrough();
    this.getObject(name).then(
      (object) => {
        if (!object)
          out.destroy(Object.assign(new Error(`No file "${name}".`), { code: 'ENOENT' }));
        else pipeline(object.body, out).catch(() => {});
      },
      (error: unknown) => out.destroy(error as Error),
    );
    return out;
  }

  /** The object of a stored name with its size and date, or null when there is none. */
  async getObject(name: string): Promise<StoredObject | null> {
    const key = this.key(name);
    try {
      const result = await this.#send<GetObjectOutput>(
        new this.#sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }),
      );
      return {
        body: result.Body as Readable,
        size: result.ContentLength ?? 0,
        lastModified: result.LastModified,
      };
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  async delete(name: string): Promise<void> {
    await this.#send(
      new this.#sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(name) }),
    );
  }

  /** Whether an object of that name is in the bucket (a HEAD request). */
  async exists(name: string): Promise<boolean> {
    return this.#headObject(this.key(name));
  }

  /** {@link baseUrl} plus the name, each part percent-encoded. */
  url(name: string): string {
    return this.baseUrl + name.split('/').map(encodeURIComponent).join('/');
  }

  /**
   * A URL that lets its holder GET the object for {@link presignedUrlExpires} seconds, without
   * credentials. `contentType` and `contentDisposition` are the headers S3 answers with
   * (`response-content-type`, `response-content-disposition`), whatever the object says.
   */
  async presignedUrl(
    name: string,
    options: { readonly contentType?: string; readonly contentDisposition?: string } = {},
  ): Promise<string> {
    const command = new this.#sdk.GetObjectCommand({
      Bucket: this.bucket,
      Key: this.key(name),
      ResponseContentType: options.contentType,
      ResponseContentDisposition: options.contentDisposition,
    });
    return presigner().getSignedUrl(this.#client, command, {
      expiresIn: this.presignedUrlExpires,
    });
  }

  /**
   * The key of a stored name: {@link keyPrefix} plus the name. Throws
   * {@link SuspiciousFileOperation} for a name with empty, `.` or `..` parts, a backslash or a
   * control character, which no name `save` gives can have.
   */
  key(name: string): string {
    const parts = name.split('/');
    if (
      parts.some((part) => part === '' || part === '.' || part === '..' || /[\\\p{Cc}]/u.test(part))
    ) {
      throw new SuspiciousFileOperation(`The name "${name}" is not a stored file name.`);
    }
    return this.keyPrefix + name;
  }

  /** Closes the client's connections (at shutdown). */
  close(): void {
    this.#client.destroy();
  }

  /**
   * Sends a command; a server that cannot be reached or fails (no answer, a timeout, a 5xx)
   * becomes {@link StorageUnavailable}, the SDK's error its `cause`. Other answers (404, 412)
   * stay the SDK's errors, for the callers that expect them.
   */
  async #send<Output>(command: {
    readonly input: unknown;
    resolveMiddleware: unknown;
  }): Promise<Output> {
    try {
      // One client, many command types: the SDK's overloads cannot name them all here.
      return (await this.#client.send(command as never)) as Output;
    } catch (error) {
      throw asUnavailable(error);
    }
  }

  /** A server-side copy of `source` to a new `target` (conditional: never overwrites). */
  async #copy(source: string, target: string): Promise<void> {
    await this.#send(
      new this.#sdk.CopyObjectCommand({
        Bucket: this.bucket,
        Key: target,
        CopySource: `${this.bucket}/${source.split('/').map(encodeURIComponent).join('/')}`,
        IfNoneMatch: '*',
      }),
    );
  }

  async #headObject(key: string): Promise<boolean> {
    try {
      await this.#send(new this.#sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (statusOf(error) === 404) return false;
      throw error;
    }
  }

  /**
   * Streams `body` to `key`: one PUT for a small file, a multipart upload for a larger one,
   * aborted by the SDK when the stream fails (past `maxSize` included).
   */
  async #upload(
    key: string,
    body: Readable,
    contentType: string | undefined,
    maxSize: number | undefined,
  ): Promise<void> {
    let source: Readable = body;
    if (maxSize !== undefined) {
      const limiter = limitBytes(maxSize);
      // The limiter fails the upload; the source is then stopped, not read to its end.
      pipeline(body, limiter).catch(() => {});
      source = limiter;
    }
    const upload = new this.#lib.Upload({
      client: this.#client,
      params: {
        Bucket: this.bucket,
        Key: key,
        Body: source,
        ...(contentType ? { ContentType: contentType } : {}),
        IfNoneMatch: '*',
      },
      partSize: this.#partSize,
      queueSize: this.#queueSize,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      throw asUnavailable(error);
    } finally {
      body.destroy();
    }
  }
}

/** The presigner, loaded when first needed. */
function presigner(): Presigner {
  return requireOptional<Presigner>('@aws-sdk/s3-request-presigner', 'S3Storage presignedUrls');
}

/** The codes of Node's errors for a server that cannot be reached or went away. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * `error` as {@link StorageUnavailable} when it says the server cannot serve now: the
 * connection refused, reset or timed out (no HTTP answer), or a 5xx (S3's `InternalError`,
 * `SlowDown`, `ServiceUnavailable`). Anything else is returned as it is: a 404 or 412 the
 * callers handle, a refusal of the credentials or the bucket, missing credentials or a TLS
 * error (bugs of the deployment, answered 500 and logged), a {@link FileTooLarge} or a failing
 * source stream.
 */
function asUnavailable(error: unknown): unknown {
  if (error instanceof StorageUnavailable || error instanceof FileTooLarge) return error;
  const { name, code, $metadata } = (error ?? {}) as {
    name?: unknown;
    code?: unknown;
    $metadata?: { httpStatusCode?: number };
  };
  const status = $metadata?.httpStatusCode;
  const unavailable =
    (status !== undefined && status >= 500) ||
    (typeof code === 'string' && NETWORK_CODES.has(code)) ||
    name === 'TimeoutError';
  return unavailable ? Object.assign(new StorageUnavailable(), { cause: error }) : error;
}

/** The HTTP status an SDK error carries (404 for a missing object or key). */
function statusOf(error: unknown): number | undefined {
  const { name, $metadata } = (error ?? {}) as {
    name?: unknown;
    $metadata?: { httpStatusCode?: number };
  };
  if (name === 'NoSuchKey' || name === 'NotFound') return 404;
  return $metadata?.httpStatusCode;
}

function checkBucket(bucket: unknown): string {
  // S3's rules for names of new buckets (lower case, digits, dots, hyphens; 3 to 63).
  if (typeof bucket !== 'string' || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new ImproperlyConfigured(
      'REST_ERR_STORAGE',
      `S3Storage: the bucket must be an S3 bucket name (3-63 lower-case letters, digits, "." or "-"), got ${JSON.stringify(bucket)}: set AWS_STORAGE_BUCKET_NAME or pass { bucket }.`,
    );
  }
  return bucket;
}

function checkPrefix(prefix: string): string {
  const parts = prefix.split('/').filter((part) => part !== '');
  if (parts.some((part) => part === '.' || part === '..' || /[\\\p{Cc}]/u.test(part))) {
    throw new ImproperlyConfigured(
      'REST_ERR_STORAGE',
      `S3Storage: the key prefix "${prefix}" must be plain folder names (no ".", "..", "\\").`,
    );
  }
  return parts.length ? `${parts.join('/')}/` : '';
}

function checkEndpoint(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ImproperlyConfigured(
      'REST_ERR_STORAGE',
      // Not echoed: a URL may carry a password.
      'S3Storage: the endpoint must be an http(s) URL such as https://minio.example:9000 (AWS_S3_ENDPOINT_URL).',
    );
  }
  return endpoint;
}

function checkInteger(
  name: string,
  value: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ImproperlyConfigured(
      'REST_ERR_STORAGE',
      `S3Storage: ${name} must be an integer from ${min} to ${max}, got ${value}.`,
    );
  }
  return value;
}
