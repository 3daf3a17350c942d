/**
 * `ConstrainedFileField`: the size format of the original (humanize's `naturalsize(gnu=True)`),
 * definition-time checks, the field's own values, its OPTIONS description, and the Upload
 * resource of the spec (2.6, 4.3) through HTTP on SQLite and PostgreSQL, replaying the
 * reference's exchanges 132-150 (a 5 MiB limit) plus hostile names, failures after storing,
 * global limits and media serving. No temporary file survives any request.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  CharField,
  type Database,
  DefaultRouter,
  defineModel,
  EMPTY,
  FormParser,
  ImproperlyConfigured,
  JSONParser,
  ModelSerializer,
  ModelViewSet,
  MultiPartParser,
  models,
  OversizedUpload,
  restFramework,
  type Serializer,
  type SettingsInput,
  serveMedia,
  UploadedFile,
  ValidationError,
} from '@restframework/core';
import {
  fieldValues,
  type MultipartPart,
  multipartBody,
  testDialects,
} from '@restframework/core/testing';
import { ConstrainedFileField, naturalSize } from '@restframework/tricks';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';

const MiB = 1024 * 1024;
const LIMIT = 5 * MiB;
const HOST = '127.0.0.1:8001';
const NOT_A_FILE = 'The submitted data was not a file. Check the encoding type on the form.';

describe('naturalSize (humanize naturalsize, gnu=True)', () => {
  const cases: [number, string][] = [
    [0, '0B'],
    [1, '1B'],
    [512, '512B'],
    [1023, '1023B'],
    [1024, '1.0K'],
    // Python's %.1f rounds half to even on the exact value: 1.25 → 1.2, 1.75 → 1.8.
    [1280, '1.2K'],
    [1536, '1.5K'],
    [1792, '1.8K'],
    [3000, '2.9K'],
    [1_048_576, '1.0M'],
    [2_048_576, '2.0M'],
    [5_000_000, '4.8M'],
    [5_242_880, '5.0M'],
    [5_242_881, '5.0M'],
    [10_485_760, '10.0M'],
    [1_073_741_824, '1.0G'],
    [1_099_511_627_776, '1.0T'],
    // Just under a unit, rounding to 1024.0: the next unit, as humanize 4.10+ writes it.
    [1_048_575, '1.0M'],
    [1_073_741_823, '1.0G'],
  ];
  for (const [bytes, expected] of cases) {
    it(`${bytes} → ${expected}`, () => assert.equal(naturalSize(bytes), expected));
  }
});

describe('ConstrainedFileField definition', () => {
  it('takes a non-negative integer of bytes; 0 or nothing is no limit', () => {
    assert.equal(new ConstrainedFileField({ maxUploadSize: LIMIT }).maxUploadSize, LIMIT);
    assert.equal(new ConstrainedFileField({ maxUploadSize: 1 }).maxUploadSize, 1);
    assert.equal(new ConstrainedFileField({ maxUploadSize: 0 }).maxUploadSize, undefined);
    assert.equal(new ConstrainedFileField().maxUploadSize, undefined);
  });

  for (const bad of [
    -1,
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    2 ** 53,
    '5M',
    '5242880',
    null,
  ]) {
    it(`refuses maxUploadSize ${String(bad)} at definition, naming the fix`, () => {
      assert.throws(
        () => new ConstrainedFileField({ maxUploadSize: bad as number }),
        (error: unknown) => {
          assert.ok(error instanceof ImproperlyConfigured);
          assert.match(error.message, /ConstrainedFileField/);
          assert.match(error.message, /maxUploadSize must be a non-negative integer/);
          assert.match(error.message, /5 \* 1024 \* 1024/);
          return true;
        },
      );
    });
  }

  it('keeps its limit through clone() (each serializer binds its own copy)', () => {
    assert.equal(new ConstrainedFileField({ maxUploadSize: 10 }).clone().maxUploadSize, 10);
  });

  it('describes itself for OPTIONS: "file upload" and max_upload_size', () => {
    const field = new ConstrainedFileField({ maxUploadSize: LIMIT });
    field.bind('resume', 'UploadSerializer', null);
    assert.deepEqual(field.describe(), {
      type: 'file upload',
      required: true,
      read_only: false,
      label: 'Resume',
      max_upload_size: LIMIT,
    });
    const unlimited = new ConstrainedFileField();
    unlimited.bind('resume', 'UploadSerializer', null);
    assert.equal(unlimited.describe().max_upload_size, undefined);
  });
});

const file = (size: number, name = 'expl.doc') =>
  new UploadedFile(name, 'application/msword', size, `/tmp/${name}`);
const atLimit = file(1_048_576);

// The original's own table (drf-tricks tests/test_fields.py), plus the limit's edges.
fieldValues('ConstrainedFileField (1 MiB, maxLength 10)', {
  field: () => new ConstrainedFileField({ maxLength: 10, maxUploadSize: 1_048_576 }),
  validInputs: [[atLimit, atLimit]],
  invalidInputs: [
    [file(2_048_576), ['File size exceeds limit: 2.0M. Limit is 1.0M.']],
    [file(1_048_577), ['File size exceeds limit: 1.0M. Limit is 1.0M.']],
    // What the multipart parser hands over for a part it refused while streaming.
    [
      new OversizedUpload('expl.doc', 'text/plain', 3 * MiB, true),
      ['File size exceeds limit: 3.0M. Limit is 1.0M.'],
    ],
    // Core's checks come first, as in the original (super().to_internal_value).
    [file(0), ['The submitted file is empty.']],
    [
      file(2_048_576, 'a-long-name.doc'),
      ['Ensure this filename has at most 10 characters (it has 15).'],
    ],
    ['expl.doc', [NOT_A_FILE]],
    [EMPTY, ['No file was submitted.']],
  ],
  outputs: [
    ['example.doc', 'example.doc'],
    ['', null],
  ],
});

fieldValues('ConstrainedFileField without a limit', {
  field: () => new ConstrainedFileField(),
  validInputs: [[file(10 * 1024 * MiB), file(10 * 1024 * MiB)]],
});

// The spec's Upload resource (2.6): the model field has no size limit of its own.
const Upload = defineModel({
  name: 'Upload',
  table: 'tricks_upload',
  fields: {
    username: models.CharField({ maxLength: 255 }),
    resume: models.FileField(),
  },
});

/** A unique code, declared without its validator: the database finds duplicates after storing. */
const Application = defineModel({
  name: 'Application',
  table: 'tricks_application',
  fields: {
    code: models.CharField({ maxLength: 20, unique: true }),
    resume: models.FileField({ uploadTo: 'applications' }),
  },
});

class UploadSerializer extends ModelSerializer.with({
  model: Upload,
  fields: ['id', 'username', 'resume'],
  declaredFields: { resume: new ConstrainedFileField({ maxUploadSize: 5 * 1024 * 1024 }) },
}) {}

class UploadViewSet extends ModelViewSet {
  static override description = 'Upload ViewSet.';
  override queryset = Upload.objects.all();
  override serializerClass = UploadSerializer;
  override parserClasses = [MultiPartParser, FormParser, JSONParser];
}

class ApplicationSerializer extends ModelSerializer.with({
  model: Application,
  fields: ['id', 'code', 'resume'],
  declaredFields: {
    code: new CharField({ maxLength: 20 }),
    resume: new ConstrainedFileField({ maxUploadSize: 5 * 1024 * 1024 }),
  },
}) {}

class ApplicationViewSet extends ModelViewSet {
  override queryset = Application.objects.all();
  override serializerClass = ApplicationSerializer;
  override parserClasses = [MultiPartParser, FormParser, JSONParser];
  override async performCreate(serializer: Serializer<any, any>): Promise<void> {
    await serializer.save();
    if ((this.request.data as Record<string, unknown>).code === 'refuse') {
      throw new ValidationError({ code: ['Refused after the file was stored.'] });
    }
  }
}

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

const golden = { name: 'username', value: 'golden' };
const resume = (content: number | string, filename: string): MultipartPart => ({
  name: 'resume',
  filename,
  content,
});

for (const dialect of testDialects()) {
  describe(`Upload resource with ConstrainedFileField(5 MiB) on ${dialect.name}`, {
    skip: dialect.skip,
  }, () => {
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
      await serveMedia(instance);
      const router = new DefaultRouter();
      router.register('upload', UploadViewSet);
      router.register('applications', ApplicationViewSet);
      await instance.register(router.plugin, { prefix: '/api' });
      await instance.ready();
      return instance;
    }

    const send = (
      target: FastifyInstance,
      method: 'POST' | 'GET' | 'OPTIONS' | 'HEAD',
      url: string,
      body?: { payload: Buffer | string; headers: Record<string, string> },
    ): Promise<LightMyRequestResponse> =>
      target.inject({
        method,
        url,
        ...(body ? { payload: body.payload } : {}),
        headers: { host: HOST, accept: 'application/json', ...(body?.headers ?? {}) },
      });
    const upload = (parts: readonly MultipartPart[], target = app, url = '/api/upload/') =>
      send(target, 'POST', url, multipartBody(parts));

    /** A 201 with the reference's exact body shape: compact, id, username, absolute URL. */
    async function created(res: LightMyRequestResponse, name: string): Promise<void> {
      assert.equal(res.statusCode, 201, res.body);
      const { id } = res.json() as { id: number };
      assert.equal(
        res.body,
        JSON.stringify({ id, username: 'golden', resume: `http://${HOST}/media/${name}` }),
      );
      assert.equal(res.headers['content-type'], 'application/json');
    }

    function error(res: LightMyRequestResponse, expected: unknown): void {
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.body, JSON.stringify(expected));
    }

    before(async () => {
      root = mkdtempSync(join(tmpdir(), 'tricks-upload-'));
      media = join(root, 'media');
      temp = join(root, 'tmp');
      db = await dialect.create();
      await db.migrate([Upload, Application]);
      app = await buildApp();
    });
    afterEach(() => {
      assert.deepEqual(filesUnder(temp), [], 'temporary files left behind');
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
      rmSync(root, { recursive: true, force: true });
    });

    it('OPTIONS describes the field: "file upload" with max_upload_size (132)', async () => {
      const res = await send(app, 'OPTIONS', '/api/upload/');
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.equal(body.name, 'Upload List');
      assert.equal(body.description, 'Upload ViewSet.');
      assert.deepEqual(body.parses, [
        'multipart/form-data',
        'application/x-www-form-urlencoded',
        'application/json',
      ]);
      assert.deepEqual(body.actions.POST, {
        id: { type: 'integer', required: false, read_only: true, label: 'ID' },
        username: {
          type: 'string',
          required: true,
          read_only: false,
          label: 'Username',
          max_length: 255,
        },
        resume: {
          type: 'file upload',
          required: true,
          read_only: false,
          label: 'Resume',
          max_upload_size: 5_242_880,
        },
      });
    });

    it("sends the reference's request bodies, byte for byte (134, 136, 139)", () => {
      for (const [filename, size, length, sha256] of [
        [
          'upload-1kib.txt',
          1024,
          1292,
          'c308bb62f629fbc0f992eeecb082af5a3382ecf75b3bd8f511fd987b61d01f35',
        ],
        [
          'upload-5242881.txt',
          5_242_881,
          5_243_152,
          '18cbc85eae2b37329d329018aa8451fdb466497cb282b9334e0856253d708258',
        ],
        [
          'upload-empty-file.txt',
          0,
          274,
          'ac639f1c4c54ecb42a7ea0e920dfdb852106d5778043cd18aa205c6b838b99b6',
        ],
      ] as const) {
        const { payload } = multipartBody([golden, resume(size, filename)]);
        assert.equal(payload.length, length);
        assert.equal(createHash('sha256').update(payload).digest('hex'), sha256);
      }
    });

    it('accepts 1 KiB (134)', async () => {
      const res = await upload([golden, resume(1024, 'upload-1kib.txt')]);
      await created(res, 'upload-1kib.txt');
      assert.equal(readFileSync(join(media, 'upload-1kib.txt'), 'utf8'), 'a'.repeat(1024));
    });

    it('accepts exactly 5242880 bytes (135)', async () => {
      const res = await upload([golden, resume(5_242_880, 'upload-exactly-5242880.txt')]);
      await created(res, 'upload-exactly-5242880.txt');
      assert.equal(readFileSync(join(media, 'upload-exactly-5242880.txt')).length, 5_242_880);
    });

    it('accepts 5000000 bytes, decimal 5 MB being under 5 MiB (138)', async () => {
      await created(
        await upload([golden, resume(5_000_000, 'upload-5000000.txt')]),
        'upload-5000000.txt',
      );
    });

    it('refuses one byte over: "5.0M. Limit is 5.0M." (136), storing nothing', async () => {
      const before = filesUnder(media);
      error(await upload([golden, resume(5_242_881, 'upload-5242881.txt')]), {
        resume: ['File size exceeds limit: 5.0M. Limit is 5.0M.'],
      });
      assert.deepEqual(filesUnder(media), before);
    });

    it('refuses 10 MiB: "10.0M. Limit is 5.0M." (137)', async () => {
      error(await upload([golden, resume(10 * MiB, 'upload-10mib.txt')]), {
        resume: ['File size exceeds limit: 10.0M. Limit is 5.0M.'],
      });
      assert.ok(!filesUnder(media).includes('upload-10mib.txt'));
    });

    it('refuses an empty file (139)', async () => {
      error(await upload([golden, resume(0, 'upload-empty-file.txt')]), {
        resume: ['The submitted file is empty.'],
      });
    });

    it('answers "No file was submitted." without a file part, multipart (140) or JSON (143)', async () => {
      error(await upload([golden]), { resume: ['No file was submitted.'] });
      error(
        await send(app, 'POST', '/api/upload/', {
          payload: JSON.stringify({ username: 'golden' }),
          headers: { 'content-type': 'application/json' },
        }),
        { resume: ['No file was submitted.'] },
      );
    });

    it('answers "not a file" for text: a multipart value (141), JSON (142), a form (147), filename="" (146)', async () => {
      error(await upload([golden, { name: 'resume', value: 'not a file' }]), {
        resume: [NOT_A_FILE],
      });
      error(
        await send(app, 'POST', '/api/upload/', {
          payload: JSON.stringify({ username: 'golden', resume: 'abc' }),
          headers: { 'content-type': 'application/json' },
        }),
        { resume: [NOT_A_FILE] },
      );
      error(
        await send(app, 'POST', '/api/upload/', {
          payload: 'username=golden&resume=abc',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        { resume: [NOT_A_FILE] },
      );
      error(await upload([golden, resume('xxxxxxxxxx', '')]), { resume: [NOT_A_FILE] });
    });

    it('checks the username: 256 characters (144), missing (145)', async () => {
      error(await upload([{ name: 'username', value: 'u'.repeat(256) }, resume(10, 'r.txt')]), {
        username: ['Ensure this field has no more than 255 characters.'],
      });
      error(await upload([resume(10, 'r.txt')]), { username: ['This field is required.'] });
    });

    it('reports an oversized file together with the other errors', async () => {
      error(
        await upload([{ name: 'username', value: 'u'.repeat(256) }, resume(6 * MiB, 'big.txt')]),
        {
          username: ['Ensure this field has no more than 255 characters.'],
          resume: ['File size exceeds limit: 6.0M. Limit is 5.0M.'],
        },
      );
    });

    it('stores hostile file names under safe names inside MEDIA_ROOT', async () => {
      const cases: [string, RegExp][] = [
        ['../../etc/passwd', /^passwd$/],
        ['C:\\x\\y.txt', /^y\.txt$/],
        ['a\0b.txt', /^ab\.txt$/],
        ['evil\u202Etxt.exe', /^eviltxt\.exe$/],
        // Longer than the model field's 100 characters: shortened, extension kept.
        [`${'n'.repeat(300)}.txt`, /^n{96}\.txt$/],
      ];
      for (const [filename, expected] of cases) {
        const res = await upload([golden, resume('hostile', filename)]);
        assert.equal(res.statusCode, 201, `${JSON.stringify(filename)}: ${res.body}`);
        const url = new URL(res.json().resume as string);
        assert.equal(url.origin, `http://${HOST}`);
        assert.ok(url.pathname.startsWith('/media/'));
        const name = decodeURIComponent(url.pathname.slice('/media/'.length));
        assert.match(name, expected, JSON.stringify(filename));
        assert.equal(readFileSync(join(media, name), 'utf8'), 'hostile');
      }
      // Nothing was written outside MEDIA_ROOT (and the temporary folder).
      for (const entry of readdirSync(root)) assert.ok(['media', 'tmp'].includes(entry), entry);
      // '.' and '..' leave no usable name: the part is skipped, as Django does.
      for (const filename of ['.', '..']) {
        error(await upload([golden, resume('x', filename)]), {
          resume: ['No file was submitted.'],
        });
      }
    });

    it('keeps both files of two uploads with one name, under different names', async () => {
      const [first, second] = await Promise.all([
        upload([golden, resume('first', 'resume.txt')]),
        upload([golden, resume('second', 'resume.txt')]),
      ]);
      assert.equal(first?.statusCode, 201);
      assert.equal(second?.statusCode, 201);
      const names = [first, second].map((res) =>
        decodeURIComponent(new URL(res?.json().resume as string).pathname.slice(7)),
      );
      assert.notEqual(names[0], names[1]);
      assert.ok(names.includes('resume.txt'));
      assert.ok(
        names.some((n) => /^resume_[A-Za-z0-9]{7}\.txt$/.test(n)),
        names.join(),
      );
      const contents = names.map((n) => readFileSync(join(media, n), 'utf8')).sort();
      assert.deepEqual(contents, ['first', 'second']);
    });

    it('leaves no stored file when the request fails after storing it', async () => {
      const ok = await upload(
        [{ name: 'code', value: 'A1' }, resume('kept', 'cv.txt')],
        app,
        '/api/applications/',
      );
      assert.equal(ok.statusCode, 201, ok.body);
      // A unique violation found by the database, after the file was stored.
      const duplicate = await upload(
        [{ name: 'code', value: 'A1' }, resume('orphan?', 'cv.txt')],
        app,
        '/api/applications/',
      );
      assert.equal(duplicate.statusCode, 400, duplicate.body);
      assert.deepEqual(duplicate.json(), { code: ['application with this code already exists.'] });
      // A view that refuses after saving.
      const refused = await upload(
        [{ name: 'code', value: 'refuse' }, resume('orphan?', 'other.txt')],
        app,
        '/api/applications/',
      );
      assert.equal(refused.statusCode, 400, refused.body);
      assert.deepEqual(filesUnder(join(media, 'applications')), ['cv.txt']);
      assert.equal(await Application.objects.using(db).count(), 1);
    });

    describe('global limits', () => {
      let limited: FastifyInstance;
      before(async () => {
        limited = await buildApp({
          MAX_UPLOAD_PARTS: 10,
          MAX_UPLOAD_FIELD_SIZE: 1024,
          MAX_UPLOAD_BODY_SIZE: MiB,
        });
      });
      after(() => limited.close());

      const cases: [string, MultipartPart[], string][] = [
        [
          'too many parts',
          [golden, ...Array.from({ length: 20 }, (_, i) => ({ name: `p${i}`, value: 'x' }))],
          'The multipart body has too many parts.',
        ],
        [
          'an oversized text value',
          [{ name: 'username', value: 'u'.repeat(2048) }],
          'A form value is larger than 1024 bytes.',
        ],
        [
          'a body over MAX_UPLOAD_BODY_SIZE',
          [golden, resume(2 * MiB, 'big.txt')],
          'Request body is too large.',
        ],
      ];
      for (const [title, parts, detail] of cases) {
        it(`413 for ${title}`, async () => {
          const before = filesUnder(media);
          const res = await upload(parts, limited);
          assert.equal(res.statusCode, 413, res.body);
          assert.equal(res.body, JSON.stringify({ detail }));
          assert.equal(res.headers['content-type'], 'application/json');
          assert.deepEqual(filesUnder(media), before);
        });
      }
    });

    it('serves uploads under MEDIA_URL: HTML and SVG as attachments, with nosniff', async () => {
      const html = await upload([golden, resume('<script>alert(1)</script>', 'page.html')]);
      const svg = await upload([
        golden,
        {
          name: 'resume',
          filename: 'logo.svg',
          content: '<svg onload="alert(1)"/>',
          contentType: 'image/svg+xml',
        },
      ]);
      const text = await upload([golden, resume('plain', 'notes.txt')]);
      for (const [res, disposition, type] of [
        [html, 'attachment', 'application/octet-stream'],
        [svg, 'attachment', 'application/octet-stream'],
        [text, 'inline', 'text/plain; charset=utf-8'],
      ] as const) {
        assert.equal(res.statusCode, 201, res.body);
        const path = new URL(res.json().resume as string).pathname;
        for (const method of ['GET', 'HEAD'] as const) {
          const served = await send(app, method, path);
          assert.equal(served.statusCode, 200, `${method} ${path}`);
          assert.equal(served.headers['content-type'], type);
          assert.match(
            String(served.headers['content-disposition']),
            new RegExp(`^${disposition};`),
          );
          assert.equal(served.headers['x-content-type-options'], 'nosniff');
          assert.match(String(served.headers['content-security-policy']), /sandbox/);
        }
      }
      const missing = await send(app, 'GET', '/media/resume.txt.missing');
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.json(), { detail: 'Not found.' });
    });

    it('lists the uploads with absolute URLs (148, 149)', async () => {
      const res = await send(app, 'GET', '/api/upload/');
      assert.equal(res.statusCode, 200);
      const rows = res.json() as { id: number; resume: string }[];
      assert.ok(rows.some((r) => r.resume === `http://${HOST}/media/upload-1kib.txt`));
      const one = rows.find((r) => r.resume.endsWith('/upload-1kib.txt'));
      const detail = await send(app, 'GET', `/api/upload/${one?.id}/`);
      assert.equal(
        detail.body,
        JSON.stringify({
          id: one?.id,
          username: 'golden',
          resume: `http://${HOST}/media/upload-1kib.txt`,
        }),
      );
    });
  });
}
