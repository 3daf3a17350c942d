/**
 * Uploads through HTTP with an S3Storage as the app's STORAGE, against an S3-protocol server
 * on loopback: file parts stream straight to the bucket (no temporary file), a part over its
 * field's limit aborts its multipart upload before the usual 400, the record's file is a
 * server-side copy of the staged object (removed when the request ends), deletes wait for the
 * commit, and serveMedia streams the object or redirects to a presigned URL. A server gone at
 * any of those moments is a 503 (`StorageUnavailable`) and leaves no row naming a missing file.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  type Database,
  DefaultRouter,
  defineModel,
  FileField,
  FormParser,
  JSONParser,
  MEDIA_SECURITY_HEADERS,
  ModelSerializer,
  ModelViewSet,
  MultiPartParser,
  models,
  restFramework,
  type S3StorageOptions,
  serveMedia,
  ValidationError,
} from '@restframework/core';
import { type MultipartPart, multipartBody, testDialects } from '@restframework/core/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  BucketInspector,
  closedPortEndpoint,
  openGate,
  type RecordingHandler,
  type S3Gate,
  type S3TestServer,
  startS3Server,
  testStorage,
} from '../fixtures/s3-server.ts';

const MiB = 1024 * 1024;
/** Over one 5 MiB part, so that a refused file has started a multipart upload. */
const LIMIT = 8 * MiB;
const HOST = '127.0.0.1:8001';
const BUCKET = 'restframework-uploads';

class LimitedFileField extends FileField {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    too_large: 'Too large: {size} bytes{estimate}.',
  };
  override get maxUploadSize(): number {
    return LIMIT;
  }
  override failTooLarge(size: number, complete: boolean): never {
    return this.fail('too_large', { size, estimate: complete ? '' : ' (estimated)' });
  }
}

const Upload = defineModel({
  name: 'Upload',
  table: 's3_upload',
  fields: {
    username: models.CharField({ maxLength: 255 }),
    resume: models.FileField({ uploadTo: 'resumes' }),
  },
});

class UploadSerializer extends ModelSerializer.with({
  model: Upload,
  fields: ['id', 'username', 'resume'],
  declaredFields: { resume: new LimitedFileField() },
}) {}

class UploadViewSet extends ModelViewSet {
  override queryset = Upload.objects.all();
  override serializerClass = UploadSerializer;
  override parserClasses = [MultiPartParser, FormParser, JSONParser];
  override async performDestroy(instance: Record<string, unknown>): Promise<void> {
    await super.performDestroy(instance);
    if (instance.username === 'undeletable') throw new ValidationError(['Refused after deleting.']);
  }
}

const resume = (content: number | string, filename = 'cv.txt'): MultipartPart => ({
  name: 'resume',
  filename,
  content,
});

function inChunks(payload: Buffer): Readable {
  return Readable.from(
    (function* () {
      for (let at = 0; at < payload.length; at += 64 * 1024)
        yield payload.subarray(at, at + 64 * 1024);
    })(),
  );
}

const server: S3TestServer | null = await startS3Server([BUCKET]);
const sqlite = testDialects()[0];

describe('uploads to S3Storage', {
  skip: !server && 'no S3 server (moto_server) could start: see above',
}, () => {
  let root: string;
  let temp: string;
  let db: Database;
  let handler: RecordingHandler;
  let inspector: BucketInspector;
  const apps: FastifyInstance[] = [];

  async function buildApp(options: Partial<S3StorageOptions> = {}): Promise<FastifyInstance> {
    const test = testStorage(server as S3TestServer, BUCKET, options);
    handler = test.handler;
    const storage = test.storage;
    const app = Fastify({ logger: false });
    app.addHook('onClose', async () => storage.close());
    await app.register(restFramework, {
      database: db,
      settings: { STORAGE: storage, FILE_UPLOAD_TEMP_DIR: temp },
    });
    const router = new DefaultRouter();
    router.register('upload', UploadViewSet);
    await app.register(router.plugin, { prefix: '/api' });
    await serveMedia(app);
    await app.ready();
    apps.push(app);
    return app;
  }

  /** A request; a multipart body arrives in 64 KiB chunks, as from a socket. */
  const send = (
    app: FastifyInstance,
    method: 'POST' | 'PATCH' | 'DELETE' | 'GET' | 'HEAD',
    url: string,
    parts: readonly MultipartPart[] = [],
  ) => {
    const body = parts.length ? multipartBody(parts) : undefined;
    return app.inject({
      method,
      url,
      ...(body ? { payload: inChunks(body.payload) } : {}),
      headers: {
        ...body?.headers,
        ...(body ? { 'content-length': String(body.payload.length) } : {}),
        host: HOST,
        accept: 'application/json',
      },
    });
  };

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'rf-s3-uploads-'));
    temp = join(root, 'tmp');
    db = await (sqlite as NonNullable<typeof sqlite>).create();
    await db.migrate([Upload]);
    inspector = new BucketInspector(server as S3TestServer, BUCKET);
  });
  afterEach(async () => {
    // No temporary file was ever written: parts went to the bucket.
    assert.deepEqual(readdirSync(root), []);
    await inspector.empty();
    await Upload.objects.using(db).delete();
  });
  after(async () => {
    for (const app of apps) await app.close();
    inspector?.close();
    await db?.close();
    rmSync(root, { recursive: true, force: true });
    await server?.close();
  });

  it('streams the part to the bucket and stores a server-side copy under its name', async () => {
    const app = await buildApp();
    const res = await send(app, 'POST', '/api/upload/', [
      { name: 'username', value: 'golden' },
      resume('hello'),
    ]);
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().resume, `http://${HOST}/media/resumes/cv.txt`);
    // The staged object was removed when the request ended; the record's file stays.
    assert.deepEqual(await inspector.contents(), { keys: ['media/resumes/cv.txt'], uploads: [] });
    assert.ok(
      handler.sent.some((line) => line.startsWith('PUT /restframework-uploads/media/.uploads/')),
    );
    assert.ok(
      handler.sent.includes('PUT /restframework-uploads/media/resumes/cv.txt?x-id +copy'),
      handler.sent.join('\n'),
    );
    assert.equal(
      (await Upload.objects.using(db).get({ username: 'golden' })).resume,
      'resumes/cv.txt',
    );
  });

  it('serves the file through the app, with the safety headers, GET and HEAD alike', async () => {
    const app = await buildApp();
    await send(app, 'POST', '/api/upload/', [
      { name: 'username', value: 'golden' },
      resume('<script>alert(1)</script>', 'page.html'),
    ]);
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await send(app, method, '/media/resumes/page.html');
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'application/octet-stream');
      assert.match(String(res.headers['content-disposition']), /^attachment; filename="page.html"/);
      assert.equal(res.headers['content-length'], '25');
      for (const [name, value] of Object.entries(MEDIA_SECURITY_HEADERS)) {
        assert.equal(res.headers[name.toLowerCase()], value);
      }
      assert.equal(res.body, method === 'GET' ? '<script>alert(1)</script>' : '');
    }
    assert.equal((await send(app, 'GET', '/media/resumes/none.txt')).statusCode, 404);
    // Staged uploads (a hidden folder) are never served.
    assert.equal((await send(app, 'GET', '/media/.uploads/x')).statusCode, 404);
  });

  it('redirects to a presigned URL with presignedUrls', async () => {
    const app = await buildApp({ presignedUrls: true, presignedUrlExpires: 120 });
    await send(app, 'POST', '/api/upload/', [{ name: 'username', value: 'g' }, resume('signed')]);
    const res = await send(app, 'GET', '/media/resumes/cv.txt');
    assert.equal(res.statusCode, 302);
    assert.equal(res.headers['cache-control'], 'no-store');
    const location = String(res.headers.location);
    assert.match(location, /X-Amz-Signature=.*&X-Amz-SignedHeaders|X-Amz-Expires=120/);
    assert.match(location, /response-content-type=text%2Fplain/);
    const object = await fetch(location);
    assert.equal(object.status, 200);
    assert.equal(await object.text(), 'signed');
  });

  it('aborts the multipart upload past the limit: the usual 400, nothing in the bucket', async () => {
    const app = await buildApp();
    const res = await send(app, 'POST', '/api/upload/', [
      { name: 'username', value: 'golden' },
      resume(LIMIT + 1),
    ]);
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(res.json(), { resume: [`Too large: ${LIMIT + 1} bytes.`] });
    // A multipart upload was started with the first 5 MiB part, then aborted.
    assert.ok(
      handler.sent.some((line) => line.endsWith('?uploads')),
      handler.sent.join('\n'),
    );
    assert.ok(
      handler.sent.some((line) => /^DELETE .*\?uploadId&x-id$/.test(line)),
      handler.sent.join('\n'),
    );
    assert.deepEqual(await inspector.contents(), { keys: [], uploads: [] });
    assert.equal(await Upload.objects.using(db).count(), 0);
  });

  it('far past the limit: stops reading, aborts, answers the estimate', async () => {
    const app = await buildApp();
    const res = await send(app, 'POST', '/api/upload/', [
      { name: 'username', value: 'golden' },
      resume(LIMIT * 5),
    ]);
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().resume[0], /\(estimated\)/);
    assert.deepEqual(await inspector.contents(), { keys: [], uploads: [] });
  });

  it('removes the object once the record is deleted, and keeps it when the delete rolls back', async () => {
    const app = await buildApp();
    const kept = await send(app, 'POST', '/api/upload/', [
      { name: 'username', value: 'undeletable' },
      resume('keep', 'keep.txt'),
    ]);
    const gone = await send(app, 'POST', '/api/upload/', [
      { name: 'username', value: 'golden' },
      resume('bye', 'bye.txt'),
    ]);
    assert.equal((await send(app, 'DELETE', `/api/upload/${gone.json().id}/`)).statusCode, 204);
    const refused = await send(app, 'DELETE', `/api/upload/${kept.json().id}/`);
    assert.equal(refused.statusCode, 400, refused.body);
    assert.deepEqual(await inspector.keys(), ['media/resumes/keep.txt']);
  });

  it('answers 503 when the storage cannot take the part (the bucket unreachable)', async () => {
    const app = await buildApp({
      endpoint: await closedPortEndpoint(),
      clientOptions: { maxAttempts: 1 },
    });
    for (const size of [10, LIMIT]) {
      const res = await send(app, 'POST', '/api/upload/', [
        { name: 'username', value: 'golden' },
        resume(size),
      ]);
      assert.equal(res.statusCode, 503, res.body);
      assert.deepEqual(res.json(), { detail: 'The file storage is unavailable, try again later.' });
      assert.equal(res.headers['retry-after'], '1');
    }
    assert.equal(await Upload.objects.using(db).count(), 0);
  });
  /** The 503 of an unreachable storage, as every client gets it. */
  const assertStorageUnavailable = (res: {
    statusCode: number;
    body: string;
    headers: Record<string, unknown>;
  }) => {
    assert.equal(res.statusCode, 503, res.body);
    assert.deepEqual(JSON.parse(res.body), {
      detail: 'The file storage is unavailable, try again later.',
    });
    assert.equal(res.headers['retry-after'], '1');
  };

  /** An app whose storage goes through a gate, which closes before the first request `at` matches. */
  async function appClosingAt(at: RegExp): Promise<{ app: FastifyInstance; gate: S3Gate }> {
    const gate = await openGate(server as S3TestServer);
    const app = await buildApp({ endpoint: gate.endpoint, clientOptions: { maxAttempts: 1 } });
    handler.beforeSend = (line) => (at.test(line) ? gate.close() : undefined);
    return { app, gate };
  }

  /** The keys of stored files (staged uploads a request could not remove left out). */
  const storedKeys = async () =>
    (await inspector.keys()).filter((key) => !key.startsWith('media/.uploads/'));

  it('the server gone at the final copy of a POST: 503, no row, no file under its name', async () => {
    const { app } = await appClosingAt(/ \+copy$/);
    const res = await send(app, 'POST', '/api/upload/', [
      { name: 'username', value: 'golden' },
      resume('hello'),
    ]);
    assertStorageUnavailable(res);
    assert.ok(
      handler.sent.some((line) => line.endsWith('+copy')),
      handler.sent.join('\n'),
    );
    assert.equal(await Upload.objects.using(db).count(), 0);
    assert.deepEqual(await storedKeys(), []);
  });

  it('the server gone at the final copy of a PATCH: 503, the row keeps its file', async () => {
    const app = await buildApp();
    const created = await send(app, 'POST', '/api/upload/', [
      { name: 'username', value: 'golden' },
      resume('old', 'old.txt'),
    ]);
    assert.equal(created.statusCode, 201, created.body);
    const { app: failing } = await appClosingAt(/ \+copy$/);
    const res = await send(failing, 'PATCH', `/api/upload/${created.json().id}/`, [
      { name: 'username', value: 'renamed' },
      resume('new', 'new.txt'),
    ]);
    assertStorageUnavailable(res);
    const row = await Upload.objects.using(db).get({ id: created.json().id });
    assert.equal(row.username, 'golden');
    assert.equal(row.resume, 'resumes/old.txt');
    assert.deepEqual(await storedKeys(), ['media/resumes/old.txt']);
  });

  it('the server gone at the delete after the commit: the write stands, the file stays', async () => {
    const app = await buildApp();
    const first = await send(app, 'POST', '/api/upload/', [
      { name: 'username', value: 'replaced' },
      resume('one', 'one.txt'),
    ]);
    const second = await send(app, 'POST', '/api/upload/', [
      { name: 'username', value: 'deleted' },
      resume('two', 'two.txt'),
    ]);
    // A PATCH that replaces the file: the server goes when the old file is deleted.
    const replacing = await appClosingAt(/^DELETE .*\/one\.txt/);
    const patched = await send(replacing.app, 'PATCH', `/api/upload/${first.json().id}/`, [
      resume('three', 'three.txt'),
    ]);
    // The row was committed before the delete: the answer is the write's, not an error.
    assert.equal(patched.statusCode, 200, patched.body);
    assert.ok(
      handler.sent.some((line) => /^DELETE .*\/one\.txt/.test(line)),
      handler.sent.join('\n'),
    );
    assert.equal(
      (await Upload.objects.using(db).get({ id: first.json().id })).resume,
      'resumes/three.txt',
    );
    // A DELETE: the server goes when the file is deleted, after the row was.
    const deleting = await appClosingAt(/^DELETE .*\/two\.txt/);
    const deleted = await send(deleting.app, 'DELETE', `/api/upload/${second.json().id}/`);
    assert.equal(deleted.statusCode, 204, deleted.body);
    assert.ok(
      handler.sent.some((line) => /^DELETE .*\/two\.txt/.test(line)),
      handler.sent.join('\n'),
    );
    assert.equal(await Upload.objects.using(db).filter({ id: second.json().id }).count(), 0);
    // The files the deletes could not remove stay in the bucket (no row names them).
    assert.deepEqual(await storedKeys(), [
      'media/resumes/one.txt',
      'media/resumes/three.txt',
      'media/resumes/two.txt',
    ]);
  });

  it('the server gone while serving a file: 503 to GET and HEAD', async () => {
    const app = await buildApp();
    await send(app, 'POST', '/api/upload/', [{ name: 'username', value: 'g' }, resume('served')]);
    const { app: failing, gate } = await appClosingAt(/^GET /);
    const res = await send(failing, 'GET', '/media/resumes/cv.txt');
    assertStorageUnavailable(res);
    assert.ok(
      handler.sent.includes('GET /restframework-uploads/media/resumes/cv.txt?x-id'),
      handler.sent.join('\n'),
    );
    await gate.close();
    const head = await send(failing, 'HEAD', '/media/resumes/cv.txt');
    assert.equal(head.statusCode, 503);
    assert.equal(head.headers['retry-after'], '1');
    assert.equal(head.body, '');
  });
});
