/**
 * Serving stored files (`MEDIA_URL`) from a {@link FileSystemStorage} or an {@link S3Storage},
 * safely: uploaded files are a client's bytes, so a browser must never run them as a page of
 * this site.
 *
 * @example
 * ```ts
 * await app.register(restFramework, { database: db });
 * await serveMedia(app); // GET/HEAD /media/<name> from the app's STORAGE
 * ```
 * @module
 */
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFound } from '../errors/api-exception.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { FileSystemStorage } from './file-system-storage.ts';
import { S3Storage } from './s3-storage.ts';

/** Options of {@link serveMedia}. */
export interface ServeMediaOptions {
  /** The storage to serve; default the `STORAGE` of the app's restFramework settings. */
  readonly storage?: FileSystemStorage | S3Storage;
  /** The URL prefix; default the storage's `baseUrl` (`MEDIA_URL`). */
  readonly prefix?: string;
}

/**
 * Types a browser shows without running anything; every other file is
 * `application/octet-stream`. HTML, SVG, XML and scripts are never served as themselves.
 */
const SAFE_TYPES: Readonly<Record<string, string>> = Object.freeze({
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.bmp': 'image/bmp',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain; charset=utf-8',
});

/** Types shown in the browser; the rest (PDF included, whose viewers run scripts) are downloads. */
const INLINE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/x-icon',
  'text/plain; charset=utf-8',
]);

/** Headers of every media response: no sniffing, and no script, style or frame of its own. */
export const MEDIA_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
});

/**
 * Adds `GET` and `HEAD` routes under `MEDIA_URL` that stream stored files.
 *
 * - Only files inside the storage's folder: `..`, `.`, empty and hidden parts, backslashes and
 *   control characters are refused, and the real path (symbolic links resolved) must still
 *   be inside the folder.
 * - `Content-Type` from a short safe list (images, PDF, plain text), else
 *   `application/octet-stream`; `Content-Disposition: attachment` for everything but images
 *   and plain text; `X-Content-Type-Options: nosniff`; `Content-Security-Policy` with
 *   `sandbox` and `default-src 'none'`.
 * - `NotFound` for anything else, answered by the app's exception handler (the
 *   `EXCEPTION_HANDLER` setting; by default 404 `{"detail":"Not found."}`), as every other error.
 *
 * From an {@link S3Storage}, the same headers: the object is streamed through the app, or,
 * with its `presignedUrls` option, answered with a redirect (302, `Cache-Control: no-store`)
 * to a presigned URL that makes S3 answer with the same `Content-Type` and
 * `Content-Disposition` (S3 cannot add the other two headers: serve such a bucket from a
 * domain of its own, never the app's).
 *
 * Call it on the app after registering the `restFramework` plugin, whose error handler answers
 * the refusals; without it, it fails at once (`REST_ERR_MEDIA`).
 */
export async function serveMedia(
  app: FastifyInstance,
  options: ServeMediaOptions = {},
): Promise<void> {
  if (!app.hasDecorator('restFramework')) {
    throw new ImproperlyConfigured(
      'REST_ERR_MEDIA',
      'serveMedia: register the restFramework plugin first (await app.register(restFramework, ...)): ' +
        'its exception handler answers the files it refuses.',
    );
  }
  const storage = options.storage ?? defaultStorage(app);
  const prefix = options.prefix ?? storage.baseUrl;
  if (!prefix.startsWith('/') || !prefix.endsWith('/')) {
    throw new ImproperlyConfigured(
      'REST_ERR_MEDIA',
      `serveMedia: the prefix must start and end with "/", got "${prefix}".`,
    );
  }
  app.route({
    method: ['GET', 'HEAD'],
    url: `${prefix}*`,
    exposeHeadRoute: false,
    handler: (request, reply) => sendMedia(storage, prefix, request, reply),
  });
}

function defaultStorage(app: FastifyInstance): FileSystemStorage | S3Storage {
  const storage = app.restFramework.settings.STORAGE;
  if (storage instanceof FileSystemStorage || storage instanceof S3Storage) return storage;
  throw new ImproperlyConfigured(
    'REST_ERR_MEDIA',
    'serveMedia: pass { storage: new FileSystemStorage(...) } (or an S3Storage), or keep one as the ' +
      "restFramework plugin's STORAGE (a FileSystemStorage is the default). Other storages serve their own files.",
  );
}

async function sendMedia(
  storage: FileSystemStorage | S3Storage,
  prefix: string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  reply.headers(MEDIA_SECURITY_HEADERS);
  const parts = mediaPath(request.url, prefix);
  if (!parts) throw new NotFound();
  if (storage instanceof S3Storage) return sendObject(storage, parts, request, reply);
  let root: string;
  let path: string;
  try {
    root = await realpath(storage.location);
    path = await realpath(join(storage.location, ...parts));
  } catch {
    throw new NotFound();
  }
  // A symbolic link inside the folder must not lead out of it.
  if (!path.startsWith(root + sep)) throw new NotFound();
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    throw new NotFound();
  }
  let stats: Awaited<ReturnType<typeof handle.stat>>;
  try {
    stats = await handle.stat();
  } catch {
    await handle.close();
    throw new NotFound();
  }
  if (!stats.isFile()) {
    await handle.close();
    throw new NotFound();
  }
  const { type, disposition } = safeHeaders(parts);
  reply
    .code(200)
    .header('Content-Type', type)
    .header('Content-Length', String(stats.size))
    .header('Last-Modified', stats.mtime.toUTCString())
    .header('Content-Disposition', disposition);
  if (request.method === 'HEAD') {
    await handle.close();
    return reply.send();
  }
  return reply.send(handle.createReadStream());
}

/** A file of an {@link S3Storage}: a redirect to a presigned URL, or its bytes through the app. */
async function sendObject(
  storage: S3Storage,
  parts: string[],
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const name = parts.join('/');
  const { type, disposition } = safeHeaders(parts);
  if (storage.presignedUrls) {
    // A missing object is S3's 404; checking here would cost a request per download.
    const url = await storage.presignedUrl(name, {
      contentType: type,
      contentDisposition: disposition,
    });
    return reply.header('Cache-Control', 'no-store').redirect(url, 302);
  }
  const object = await storage.getObject(name);
  if (!object) throw new NotFound();
  reply
    .code(200)
    .header('Content-Type', type)
    .header('Content-Length', String(object.size))
    .header('Content-Disposition', disposition);
  if (object.lastModified) reply.header('Last-Modified', object.lastModified.toUTCString());
  if (request.method === 'HEAD') {
    // Only the headers were wanted: the download stops here.
    object.body.destroy();
    return reply.send();
  }
  return reply.send(object.body);
}

/** The `Content-Type` and `Content-Disposition` of a media file, from its name. */
function safeHeaders(parts: string[]): { type: string; disposition: string } {
  const name = parts[parts.length - 1] as string;
  const type = SAFE_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
  return { type, disposition: contentDisposition(INLINE_TYPES.has(type), name) };
}

/** The decoded parts of a media URL's path, or null when one is not a plain file or folder name. */
function mediaPath(url: string, prefix: string): string[] | null {
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  if (!path.startsWith(prefix)) return null;
  const parts: string[] = [];
  for (const raw of path.slice(prefix.length).split('/')) {
    let part: string;
    try {
      part = decodeURIComponent(raw);
    } catch {
      return null;
    }
    // No empty, hidden, `.` or `..` parts; no separators or control characters in a part.
    if (!part || part.startsWith('.') || /[/\\\p{Cc}]/u.test(part)) return null;
    parts.push(part);
  }
  return parts.length ? parts : null;
}

/** `inline` or `attachment`, with the name as ASCII and as UTF-8 (RFC 6266). */
function contentDisposition(inline: boolean, name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
