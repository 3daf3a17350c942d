/**
 * Uploads through HTTP: the multipart parser honours a file field's `maxUploadSize` while the
 * part streams, the global limits answer 413, stored files go to the default storage under
 * MEDIA_ROOT, and nothing is left behind: no temporary file after any request (success, 400,
 * 413, client gone), no stored file when the request fails after storing it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CharField,
  type Database,
  DatabaseUnavailableError,
  DefaultRouter,
  defineModel,
  FileField,
  FileSystemStorage,
  FormParser,
  JSONParser,
  ModelSerializer,
  ModelViewSet,
  MultiPartParser,
  models,
  type Response,
  restFramework,
  type Serializer,
  type SettingsInput,
  UploadedFile,
  ValidationError,
} from '@restframework/core';
import { type MultipartPart, multipartBody, testDialects } from '@restframework/core/testing';
import Fastify, { type FastifyInstance } from 'fastify';

const KiB = 1024;
const MiB = 1024 * KiB;
const LIMIT = MiB;
const HOST = '127.0.0.1:8001';

/** A file field with a limit of its own, as an add-on declares one. */
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
  table: 'files_upload',
  fields: {
    username: models.CharField({ maxLength: 255 }),
    resume: models.FileField(),
  },
});

const Document = defineModel({
  name: 'Document',
  table: 'files_document',
  fields: {
    code: models.CharField({ maxLength: 20, unique: true }),
    attachment: models.FileField({ uploadTo: 'docs' }),
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
  override async performCreate(serializer: Serializer<any, any>): Promise<void> {
    for (const file of this.request.uploadedFiles) tempModes.push(statSync(file.path).mode & 0o777);
    await serializer.save();
  }
}

/** `code` declared without its unique validator: the database finds the duplicate, after the file is stored. */
class DocumentSerializer extends ModelSerializer.with({
  model: Document,
  fields: ['id', 'code', 'attachment'],
  declaredFields: { code: new CharField({ maxLength: 20 }) },
}) {}

class DocumentViewSet extends ModelViewSet {
  override queryset = Document.objects.all();
  override serializerClass = DocumentSerializer;
  /** How many times this request's create ran. */
  creates = 0;
  override async performCreate(serializer: Serializer<any, any>): Promise<void> {
    this.creates++;
    await serializer.save();
    const code = (this.request.data as Record<string, unknown>).code;
    if (code === 'refuse') throw new ValidationError({ code: ['Refused after saving.'] });
    if (code === 'crash') throw new Error('crashed after saving');
    // What the database answers to the victim of a deadlock, after the file was stored and
    // the row written: the transaction is rolled back, and the handler runs again.
    if (code === 'deadlock' && this.creates === 1)
      throw new DatabaseUnavailableError(undefined, { kind: 'conflict' });
  }
  override async performUpdate(serializer: Serializer<any, any>): Promise<void> {
    await serializer.save();
    if ((this.request.data as Record<string, unknown>).code === 'refuse')
      throw new ValidationError({ code: ['Refused after saving.'] });
  }
  override async performDestroy(instance: Record<string, unknown>): Promise<void> {
    await super.performDestroy(instance);
    if (instance.code === 'undeletable') throw new ValidationError(['Refused after deleting.']);
  }
}

/** The modes of the temporary upload files seen while views ran (by UploadViewSet). */
const tempModes: number[] = [];

/** Files left under a folder, recursively (none when it does not exist). */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
      .sort();
  } catch {
    return [];
  }
}

const username = { name: 'username', value: 'golden' };
const resume = (content: number | string, filename = 'resume.txt'): MultipartPart => ({
  name: 'resume',
  filename,
  content,
});

for (const dialect of testDialects()) {
  describe(`uploads on ${dialect.name}`, { skip: dialect.skip }, () => {
    let root: string;
    let media: string;
    let temp: string;
    let db: Database;
    let app: FastifyInstance;

    async function buildApp(settings: SettingsInput = {}): Promise<FastifyInstance> {
      const instance = Fastify({ logger: false });
      await instance.register(restFramework, {
        database: db,
        settings: { MEDIA_ROOT: media, FILE_UPLOAD_TEMP_DIR: temp, ...settings },
      });
      const router = new DefaultRouter();
      router.register('upload', UploadViewSet);
      router.register('documents', DocumentViewSet);
      await instance.register(router.plugin, { prefix: '/api' });
      await instance.ready();
      return instance;
    }

    const post = (target: FastifyInstance, path: string, parts: readonly MultipartPart[]) =>
      target.inject({
        method: 'POST',
        url: path,
        ...multipartBody(parts),
        headers: { ...multipartBody(parts).headers, host: HOST, accept: 'application/json' },
      });

    before(async () => {
      root = mkdtempSync(join(tmpdir(), 'rf-uploads-'));
      media = join(root, 'media');
      temp = join(root, 'tmp');
      db = await dialect.create();
      await db.migrate([Upload, Document]);
      app = await buildApp();
    });
    afterEach(async () => {
      // No request leaves a temporary file, whatever its outcome.
      assert.deepEqual(filesUnder(temp), [], 'temporary files left behind');
      rmSync(media, { recursive: true, force: true });
      await Upload.objects.using(db).delete();
      await Document.objects.using(db).delete();
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
      rmSync(root, { recursive: true, force: true });
    });

    it('stores through the default storage, a FileSystemStorage on MEDIA_ROOT and MEDIA_URL', async () => {
      const storage = app.restFramework.settings.STORAGE;
      assert.ok(storage instanceof FileSystemStorage);
      assert.equal(storage.location, media);
      assert.equal(storage.baseUrl, '/media/');
      const res = await post(app, '/api/upload/', [username, resume('hello')]);
      assert.equal(res.statusCode, 201, res.body);
      const body = res.json();
      assert.equal(body.resume, `http://${HOST}/media/resume.txt`);
      assert.deepEqual(filesUnder(media), ['resume.txt']);
      assert.equal(readFileSync(join(media, 'resume.txt'), 'utf8'), 'hello');
      const rows = await Upload.objects.using(db).all().execute();
      assert.deepEqual(
        rows.map((r) => r.resume),
        ['resume.txt'],
      );
    });

    it('accepts a file of exactly maxUploadSize bytes', async () => {
      const res = await post(app, '/api/upload/', [username, resume(LIMIT)]);
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(readFileSync(join(media, 'resume.txt')).length, LIMIT);
    });

    it('refuses one byte more, with the real size, storing nothing', async () => {
      const res = await post(app, '/api/upload/', [username, resume(LIMIT + 1)]);
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), { resume: [`Too large: ${LIMIT + 1} bytes.`] });
      assert.deepEqual(filesUnder(media), []);
      assert.equal(await Upload.objects.using(db).count(), 0);
    });

    it("reports an oversized file together with the other fields' errors, as DRF does", async () => {
      const res = await post(app, '/api/upload/', [
        { name: 'username', value: 'u'.repeat(256) },
        resume(2 * LIMIT),
      ]);
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), {
        username: ['Ensure this field has no more than 255 characters.'],
        resume: [`Too large: ${2 * LIMIT} bytes.`],
      });
    });

    it('stops reading far past the limit: the size is estimated, the connection closed', async () => {
      const parts = [username, resume(6 * LIMIT)];
      const res = await post(app, '/api/upload/', parts);
      assert.equal(res.statusCode, 400);
      const length = multipartBody(parts).payload.length;
      assert.deepEqual(res.json(), { resume: [`Too large: ${length} bytes (estimated).`] });
      assert.equal(res.headers.connection, 'close');
      assert.deepEqual(filesUnder(media), []);
    });

    it("uses the part's last name only, and a name with nothing usable is no file (as Django)", async () => {
      const res = await post(app, '/api/upload/', [username, resume('x', '../../etc/passwd')]);
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().resume, `http://${HOST}/media/passwd`);
      for (const filename of ['.', '..', 'dir/']) {
        const skipped = await post(app, '/api/upload/', [username, resume('x', filename)]);
        assert.equal(skipped.statusCode, 400, filename);
        assert.deepEqual(skipped.json(), { resume: ['No file was submitted.'] }, filename);
      }
      assert.deepEqual(filesUnder(media), ['passwd']);
    });

    it("stores under the model field's uploadTo", async () => {
      const res = await post(app, '/api/documents/', [
        { name: 'code', value: 'A1' },
        { name: 'attachment', filename: 'report.pdf', content: 'pdf' },
      ]);
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().attachment, `http://${HOST}/media/docs/report.pdf`);
      assert.deepEqual(filesUnder(media), ['docs/report.pdf']);
    });

    it('removes the stored file when the database refuses the row (unique violation)', async () => {
      const first = await post(app, '/api/documents/', [
        { name: 'code', value: 'DUP' },
        { name: 'attachment', filename: 'one.txt', content: 'one' },
      ]);
      assert.equal(first.statusCode, 201, first.body);
      const second = await post(app, '/api/documents/', [
        { name: 'code', value: 'DUP' },
        { name: 'attachment', filename: 'two.txt', content: 'two' },
      ]);
      assert.equal(second.statusCode, 400, second.body);
      assert.deepEqual(second.json(), { code: ['document with this code already exists.'] });
      assert.deepEqual(filesUnder(media), ['docs/one.txt']);
      assert.equal(await Document.objects.using(db).count(), 1);
    });

    it('removes the stored file when the request fails after saving (400 and 500)', async () => {
      for (const [code, status] of [
        ['refuse', 400],
        ['crash', 500],
      ] as const) {
        const res = await post(app, '/api/documents/', [
          { name: 'code', value: code },
          { name: 'attachment', filename: `${code}.txt`, content: code },
        ]);
        assert.equal(res.statusCode, status, res.body);
      }
      assert.deepEqual(filesUnder(media), []);
      assert.equal(await Document.objects.using(db).count(), 0);
    });

    it('runs the write again after a deadlock: one row, one stored file, no temporary file', async () => {
      const res = await post(app, '/api/documents/', [
        { name: 'code', value: 'deadlock' },
        { name: 'attachment', filename: 'again.txt', content: 'again' },
      ]);
      assert.equal(res.statusCode, 201, res.body);
      // The first attempt's file was removed with its transaction; the second stored its own.
      assert.deepEqual(filesUnder(media), ['docs/again.txt']);
      assert.equal(readFileSync(join(media, 'docs/again.txt'), 'utf8'), 'again');
      const rows = await Document.objects.using(db).all().execute();
      assert.deepEqual(
        rows.map((row) => [row.code, row.attachment]),
        [['deadlock', 'docs/again.txt']],
      );
      assert.equal(res.json().attachment, `http://${HOST}/media/docs/again.txt`);
    });

    it('keeps every file when uploads of one name run at once', async () => {
      const count = 8;
      const responses = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          post(app, '/api/upload/', [username, resume(`content ${i}`)]),
        ),
      );
      for (const res of responses) assert.equal(res.statusCode, 201, res.body);
      const names = (await Upload.objects.using(db).all().execute()).map((r) => r.resume);
      assert.equal(new Set(names).size, count);
      assert.deepEqual(filesUnder(media), [...names].sort());
      const contents = names.map((name) => readFileSync(join(media, name), 'utf8')).sort();
      assert.deepEqual(contents, Array.from({ length: count }, (_, i) => `content ${i}`).sort());
    });

    it('removes the stored file when a save outside any transaction fails', async () => {
      const storage = new FileSystemStorage({ location: media });
      const existing = await Document.objects.using(db).create({ code: 'TAKEN', attachment: 'x' });
      assert.ok(existing);
      const path = join(root, 'outside-upload.txt');
      writeFileSync(path, 'bytes');
      const serializer = new DocumentSerializer({
        data: { code: 'TAKEN', attachment: new UploadedFile('doc.txt', 'text/plain', 5, path) },
        context: { storage },
      });
      await db.run(async () => {
        assert.equal(await serializer.isValid(), true);
        await assert.rejects(serializer.save(), ValidationError);
      });
      assert.deepEqual(filesUnder(media), []);
      rmSync(path);
    });

    describe('global limits (413)', () => {
      let limited: FastifyInstance;
      before(async () => {
        limited = await buildApp({
          MAX_UPLOAD_PARTS: 5,
          MAX_UPLOAD_FIELD_SIZE: KiB,
          MAX_UPLOAD_BODY_SIZE: 256 * KiB,
        });
      });
      after(() => limited.close());

      const cases: [string, MultipartPart[], string][] = [
        [
          'too many parts',
          [
            username,
            ...Array.from({ length: 8 }, (_, i) => ({ name: `extra${i}`, value: 'x' })),
            resume(10),
          ],
          'The multipart body has too many parts.',
        ],
        [
          'a text value over MAX_UPLOAD_FIELD_SIZE',
          [{ name: 'username', value: 'u'.repeat(2 * KiB) }, resume(10)],
          `A form value is larger than ${KiB} bytes.`,
        ],
        [
          'a body over MAX_UPLOAD_BODY_SIZE (under the field limit)',
          [username, resume(300 * KiB)],
          'Request body is too large.',
        ],
        [
          'a skipped part (file name "..") over MAX_UPLOAD_BODY_SIZE',
          [username, resume(300 * KiB, '..')],
          'Request body is too large.',
        ],
        [
          'files over MAX_UPLOAD_BODY_SIZE together',
          [
            username,
            resume(200 * KiB, 'a.txt'),
            { name: 'other', filename: 'b.txt', content: 200 * KiB },
          ],
          'Request body is too large.',
        ],
      ];
      for (const [title, parts, detail] of cases) {
        it(title, async () => {
          const res = await post(limited, '/api/upload/', parts);
          assert.equal(res.statusCode, 413, res.body);
          assert.deepEqual(res.json(), { detail });
          assert.equal(res.headers.connection, 'close');
          assert.deepEqual(filesUnder(media), []);
          assert.equal(await Upload.objects.using(db).count(), 0);
        });
      }
    });

    describe('bodies that are not well-formed multipart (400)', () => {
      const { payload: whole, headers } = multipartBody([
        username,
        resume(64 * KiB),
        { name: 'other', value: 'x' },
      ]);
      const cases: [string, string | Buffer, Record<string, string>, string][] = [
        [
          'no boundary in the Content-Type (DRF: "Invalid boundary")',
          'username=golden',
          { 'content-type': 'multipart/form-data' },
          'Multipart form parse error - Invalid boundary in multipart: None',
        ],
        [
          'cut in the middle of a file part',
          whole.subarray(0, 40 * KiB),
          headers,
          'Multipart form parse error - Unexpected end of multipart data',
        ],
        [
          'cut after a complete file part, before the last boundary',
          whole.subarray(0, whole.length - 60),
          headers,
          'Multipart form parse error - Unexpected end of multipart data',
        ],
      ];
      for (const [title, payload, contentType, detail] of cases) {
        it(title, async () => {
          const res = await app.inject({
            method: 'POST',
            url: '/api/upload/',
            payload,
            headers: { ...contentType, host: HOST, accept: 'application/json' },
          });
          assert.equal(res.statusCode, 400, res.body);
          assert.deepEqual(res.json(), { detail });
          assert.deepEqual(filesUnder(media), []);
          assert.equal(await Upload.objects.using(db).count(), 0);
        });
      }

      it('reads an empty body as an empty form, as Django does', async () => {
        const res = await app.inject({
          method: 'POST',
          url: '/api/upload/',
          payload: '',
          headers: { ...headers, host: HOST, accept: 'application/json' },
        });
        assert.equal(res.statusCode, 400, res.body);
        assert.deepEqual(res.json(), {
          username: ['This field is required.'],
          resume: ['No file was submitted.'],
        });
      });
    });

    describe('parts without a usable name or header (400, nothing stored)', () => {
      const B = 'partHeaderBoundary';
      const raw = (...parts: string[]) =>
        Buffer.from(`${parts.map((p) => `--${B}\r\n${p}\r\n`).join('')}--${B}--\r\n`, 'latin1');
      const user = 'Content-Disposition: form-data; name="username"\r\n\r\ngolden';
      const cases: [string, 'POST' | 'PATCH', Buffer, string][] = [
        // Issue 37: both answered 500 (TypeError in formKeyTooDeep).
        [
          'a file part with no name',
          'POST',
          raw(user, 'Content-Disposition: form-data; filename="a.txt"\r\n\r\nhello'),
          'A part has no name.',
        ],
        [
          'a bare form-data part',
          'PATCH',
          raw(user, 'Content-Disposition: form-data\r\n\r\nhello'),
          'A part has no name.',
        ],
        [
          'a part with no Content-Disposition (busboy skipped it)',
          'POST',
          raw(user, 'Content-Type: text/plain\r\n\r\nhello'),
          'A part has no Content-Disposition header.',
        ],
        [
          'a name given twice (busboy kept the last)',
          'POST',
          raw(
            user,
            'Content-Disposition: form-data; name="a"; name="resume"; filename="a.txt"\r\n\r\nx',
          ),
          "A part's Content-Disposition gives its name twice.",
        ],
        [
          'a name that is not UTF-8 (busboy made it U+FFFD)',
          'POST',
          raw(
            user,
            'Content-Disposition: form-data; name="r\xe9sum\xe9"; filename="a.txt"\r\n\r\nx',
          ),
          'the body is not valid utf-8.',
        ],
        [
          'a value in a charset the platform does not know',
          'POST',
          raw(
            'Content-Disposition: form-data; name="username"\r\nContent-Type: text/plain; charset=x-none\r\n\r\ngold\xe9n',
          ),
          'a part names an unknown charset.',
        ],
      ];
      for (const [title, method, payload, detail] of cases) {
        it(title, async () => {
          const url = method === 'POST' ? '/api/upload/' : '/api/upload/1/';
          const res = await app.inject({
            method,
            url,
            payload,
            headers: {
              'content-type': `multipart/form-data; boundary=${B}`,
              host: HOST,
              accept: 'application/json',
            },
          });
          assert.equal(res.statusCode, 400, res.body);
          assert.deepEqual(res.json(), { detail: `Multipart form parse error - ${detail}` });
          assert.deepEqual(filesUnder(media), []);
          assert.equal(await Upload.objects.using(db).count(), 0);
        });
      }

      it("decodes a value in its own part's charset, strictly", async () => {
        const latin1 = await app.inject({
          method: 'POST',
          url: '/api/upload/',
          payload: raw(
            'Content-Disposition: form-data; name="username"\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\r\ngold\xe9n',
            'Content-Disposition: form-data; name="resume"; filename="a.txt"\r\n\r\nx',
          ),
          headers: { 'content-type': `multipart/form-data; boundary=${B}`, host: HOST },
        });
        assert.equal(latin1.statusCode, 201, latin1.body);
        assert.equal(latin1.json().username, 'goldén');
        // Labelled UTF-8 and written in UTF-8: read once, as sent (the value used to be read a
        // second time as UTF-8 and refused when its characters were all Latin-1 ones).
        const utf8 = await app.inject({
          method: 'POST',
          url: '/api/upload/',
          payload: raw(
            `Content-Disposition: form-data; name="username"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${Buffer.from('café').toString('latin1')}`,
            'Content-Disposition: form-data; name="resume"; filename="b.txt"\r\n\r\nx',
          ),
          headers: { 'content-type': `multipart/form-data; boundary=${B}`, host: HOST },
        });
        assert.equal(utf8.statusCode, 201, utf8.body);
        assert.equal(utf8.json().username, 'café');
        // Bytes that are all ASCII are not ASCII text in every charset.
        const utf16 = await app.inject({
          method: 'POST',
          url: '/api/upload/',
          payload: raw(
            `Content-Disposition: form-data; name="username"\r\nContent-Type: text/plain; charset=utf-16le\r\n\r\n${Buffer.from('gold', 'utf16le').toString('latin1')}`,
            'Content-Disposition: form-data; name="resume"; filename="c.txt"\r\n\r\nx',
          ),
          headers: { 'content-type': `multipart/form-data; boundary=${B}`, host: HOST },
        });
        assert.equal(utf16.statusCode, 201, utf16.body);
        assert.equal(utf16.json().username, 'gold');
      });
    });

    it('takes part names such as __proto__ and constructor as plain, unknown names', async () => {
      const res = await post(app, '/api/upload/', [
        { name: '__proto__', value: 'x' },
        { name: 'constructor', value: 'y' },
        { name: 'toString', filename: 'a.txt', content: 'z' },
        username,
        resume('hello'),
      ]);
      assert.equal(res.statusCode, 201, res.body);
      assert.deepEqual(filesUnder(media), ['resume.txt']);
    });

    it('leaves no temporary file when the client goes away mid-upload', async () => {
      // The view tells when it is done, so that the checks run after the server gave up.
      let viewDone!: () => void;
      const done = new Promise<void>((resolve) => {
        viewDone = resolve;
      });
      class SignallingViewSet extends UploadViewSet {
        override async dispatch(...args: Parameters<UploadViewSet['dispatch']>): Promise<Response> {
          try {
            return await super.dispatch(...args);
          } finally {
            viewDone();
          }
        }
      }
      const server = Fastify({ logger: false });
      await server.register(restFramework, {
        database: db,
        settings: { MEDIA_ROOT: media, FILE_UPLOAD_TEMP_DIR: temp },
      });
      const router = new DefaultRouter();
      router.register('upload', SignallingViewSet);
      await server.register(router.plugin, { prefix: '/api' });
      await server.listen({ host: '127.0.0.1', port: 0 });
      try {
        const { port } = server.server.address() as { port: number };
        // A complete file part (kept in a temporary file), then half of a second one.
        const { payload, headers } = multipartBody([
          username,
          { name: 'other', filename: 'first.txt', content: 64 * KiB },
          resume(4 * MiB),
        ]);
        await new Promise<void>((resolve) => {
          const req = httpRequest({
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/upload/',
            headers: { ...headers, host: HOST, 'content-length': payload.length },
          });
          req.on('error', () => resolve());
          req.on('close', () => resolve());
          // Half of the second file, then the client is gone.
          req.write(payload.subarray(0, 1024 * KiB), () => {
            setTimeout(() => req.destroy(), 50);
          });
        });
        await done;
        for (let i = 0; i < 100 && filesUnder(temp).length; i++) await sleep(20);
        assert.deepEqual(filesUnder(temp), []);
        assert.deepEqual(filesUnder(media), []);
        assert.equal(await Upload.objects.using(db).count(), 0);
      } finally {
        await server.close();
      }
    });

    const send = (method: 'PATCH' | 'DELETE', path: string, parts: readonly MultipartPart[] = []) =>
      app.inject({
        method,
        url: path,
        ...(parts.length ? multipartBody(parts) : {}),
        headers: {
          ...(parts.length ? multipartBody(parts).headers : {}),
          host: HOST,
          accept: 'application/json',
        },
      });

    it('removes the stored file once its record is deleted, and the file it replaced', async () => {
      const created = await post(app, '/api/upload/', [username, resume('first', 'a.txt')]);
      assert.equal(created.statusCode, 201, created.body);
      const id = created.json().id as number;
      const replaced = await send('PATCH', `/api/upload/${id}/`, [resume('second', 'b.txt')]);
      assert.equal(replaced.statusCode, 200, replaced.body);
      assert.deepEqual(filesUnder(media), ['b.txt']);
      const deleted = await send('DELETE', `/api/upload/${id}/`);
      assert.equal(deleted.statusCode, 204);
      assert.deepEqual(filesUnder(media), []);
    });

    it('keeps the files when the delete or the update rolls back', async () => {
      const code = { name: 'code', value: 'undeletable' };
      const created = await post(app, '/api/documents/', [
        code,
        { name: 'attachment', filename: 'd.txt', content: 'doc' },
      ]);
      assert.equal(created.statusCode, 201, created.body);
      const id = created.json().id as number;
      const deleted = await send('DELETE', `/api/documents/${id}/`);
      assert.equal(deleted.statusCode, 400, deleted.body);
      assert.deepEqual(filesUnder(media), ['docs/d.txt']);
      const refused = await send('PATCH', `/api/documents/${id}/`, [
        { name: 'code', value: 'refuse' },
        { name: 'attachment', filename: 'e.txt', content: 'new' },
      ]);
      assert.equal(refused.statusCode, 400, refused.body);
      assert.deepEqual(filesUnder(media), ['docs/d.txt']);
      assert.equal((await Document.objects.using(db).get({ pk: id })).attachment, 'docs/d.txt');
    });

    it('keeps every file with DELETE_ORPHANED_FILES: false, as Django does', async () => {
      const keeping = await buildApp({ DELETE_ORPHANED_FILES: false });
      try {
        const created = await post(keeping, '/api/upload/', [username, resume('first', 'a.txt')]);
        const id = created.json().id as number;
        const patch = multipartBody([resume('second', 'b.txt')]);
        await keeping.inject({
          method: 'PATCH',
          url: `/api/upload/${id}/`,
          ...patch,
          headers: { ...patch.headers, host: HOST },
        });
        const deleted = await keeping.inject({
          method: 'DELETE',
          url: `/api/upload/${id}/`,
          headers: { host: HOST },
        });
        assert.equal(deleted.statusCode, 204);
        assert.deepEqual(filesUnder(media), ['a.txt', 'b.txt']);
      } finally {
        await keeping.close();
      }
    });

    it('writes temporary files 0600 in a private folder made with mkdtemp (0700)', async () => {
      tempModes.length = 0;
      const created = await post(app, '/api/upload/', [username, resume('secret')]);
      assert.equal(created.statusCode, 201, created.body);
      assert.deepEqual(tempModes, [0o600]);
      const folders = readdirSync(temp).filter((name) => name.startsWith('restframework-uploads-'));
      assert.equal(folders.length, 1, `folders: ${readdirSync(temp).join(', ')}`);
      assert.equal(statSync(join(temp, folders[0] as string)).mode & 0o777, 0o700);
      // The stored file is readable as any stored file (a web server may serve MEDIA_ROOT).
      assert.equal(statSync(join(media, 'resume.txt')).mode & 0o777, 0o644);
    });
  });
}
