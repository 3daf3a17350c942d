/**
 * `FileSystemStorage`: safe names from hostile client names, length bounds that keep the
 * extension, no overwrite (also under concurrency), links or copies, and the small API
 * (open, delete, exists, url, path).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, it } from 'node:test';
import {
  FileSystemStorage,
  getValidFileName,
  SuspiciousFileOperation,
  UploadedFile,
} from '@restframework/core';
import { DEFAULT_FILE_NAME } from '@restframework/core/internal';

const SUFFIXED = (stem: string, ext: string) =>
  new RegExp(`^${stem}_[A-Za-z0-9]{7}${ext.replace('.', '\\.')}$`);

const codePoints = (s: string) => Array.from(s).length;

describe('getValidFileName', () => {
  const cases: [string, string][] = [
    ['resume.txt', 'resume.txt'],
    ['upload-1kib.txt', 'upload-1kib.txt'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\x\\y.txt', 'y.txt'],
    ['a\0b.txt', 'ab.txt'],
    ['evil\u202Etxt.exe', 'eviltxt.exe'],
    ['zero\u200Bwidth\uFEFF.txt', 'zerowidth.txt'],
    ['line\nbreak\r.txt', 'linebreak.txt'],
    ['lone\uD800surrogate.txt', 'lonesurrogate.txt'],
    // NFC: "e" + combining acute becomes one "é".
    ['re\u0301sume\u0301.txt', 'résumé.txt'],
    ['my résumé (final).pdf', 'my_résumé_final_.pdf'],
    ['a:b*c?d"e<f>g|h.txt', 'a_b_c_d_e_f_g_h.txt'],
    ['  spaced  name .txt  ', 'spaced_name_.txt'],
    ['.htaccess', 'htaccess'],
    ['-rf.txt', 'rf.txt'],
    ['trailing.dots...', 'trailing.dots'],
    ['con.txt', '_con.txt'],
    ['NUL', '_NUL'],
    ['', DEFAULT_FILE_NAME],
    ['.', DEFAULT_FILE_NAME],
    ['..', DEFAULT_FILE_NAME],
    ['/', DEFAULT_FILE_NAME],
    ['\u202E', DEFAULT_FILE_NAME],
    ['Ünïcödé-文件.txt', 'Ünïcödé-文件.txt'],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(getValidFileName(input), expected);
    });
  }
});

describe('FileSystemStorage', () => {
  let root: string;
  let media: string;
  let storage: FileSystemStorage;
  let n = 0;

  /** A temporary file as the multipart parser leaves it. */
  const upload = (filename: string, content: string | Buffer) => {
    const path = join(root, `tmp-${n++}`);
    writeFileSync(path, content);
    return new UploadedFile(filename, 'text/plain', Buffer.byteLength(content), path);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'rf-storage-'));
    media = join(root, 'media');
    storage = new FileSystemStorage({ location: media, baseUrl: '/media/' });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('stores an upload under its name, leaving the temporary file to the request', async () => {
    const file = upload('resume.txt', 'hello');
    const name = await storage.save('resume.txt', file);
    assert.equal(name, 'resume.txt');
    assert.equal(readFileSync(join(media, 'resume.txt'), 'utf8'), 'hello');
    assert.equal(readFileSync(file.path, 'utf8'), 'hello');
    await file.discard();
    assert.equal(readFileSync(join(media, 'resume.txt'), 'utf8'), 'hello');
  });

  it('never overwrites: a taken name gets a random 7-character suffix', async () => {
    assert.equal(await storage.save('resume.txt', upload('resume.txt', 'first')), 'resume.txt');
    const second = await storage.save('resume.txt', upload('resume.txt', 'second'));
    assert.match(second, SUFFIXED('resume', '.txt'));
    assert.equal(readFileSync(join(media, 'resume.txt'), 'utf8'), 'first');
    assert.equal(readFileSync(join(media, second), 'utf8'), 'second');
  });

  it('keeps every file when many uploads of one name are saved at once', async () => {
    const contents = Array.from({ length: 25 }, (_, i) => `content ${i}`);
    const names = await Promise.all(
      contents.map((c) => storage.save('same.txt', upload('same.txt', c))),
    );
    assert.equal(new Set(names).size, contents.length);
    names.forEach((name, i) => {
      assert.equal(readFileSync(join(media, name), 'utf8'), contents[i]);
    });
    assert.equal(readdirSync(media).length, contents.length);
  });

  it('stores a stream, exclusively too', async () => {
    const first = await storage.save('notes.md', Readable.from(['a', 'b']));
    const second = await storage.save('notes.md', Readable.from(['c']));
    assert.equal(first, 'notes.md');
    assert.match(second, SUFFIXED('notes', '.md'));
    assert.equal(readFileSync(join(media, first), 'utf8'), 'ab');
    assert.equal(readFileSync(join(media, second), 'utf8'), 'c');
  });

  it('leaves nothing behind when a stream fails half-way', async () => {
    const failing = new Readable({
      read() {
        this.push('partial');
        this.destroy(new Error('client went away'));
      },
    });
    await assert.rejects(storage.save('broken.txt', failing), /client went away/);
    assert.deepEqual(readdirSync(media), []);
  });

  it('copies when the file cannot be linked (another file system), still exclusively', async () => {
    class CopyingStorage extends FileSystemStorage {
      protected override async linkFile(): Promise<boolean> {
        throw Object.assign(new Error('EXDEV: cross-device link not permitted'), {
          code: 'EXDEV',
        });
      }
    }
    const copying = new CopyingStorage({ location: media });
    assert.equal(await copying.save('a.txt', upload('a.txt', 'one')), 'a.txt');
    const second = await copying.save('a.txt', upload('a.txt', 'two'));
    assert.match(second, SUFFIXED('a', '.txt'));
    assert.equal(readFileSync(join(media, 'a.txt'), 'utf8'), 'one');
    assert.equal(readFileSync(join(media, second), 'utf8'), 'two');
  });

  it('makes hostile file names safe and never leaves its folder', async () => {
    const hostile: [string, string][] = [
      ['C:\\x\\y.txt', 'y.txt'],
      ['a\0b.txt', 'ab.txt'],
      ['evil\u202Etxt.exe', 'eviltxt.exe'],
      ['..', DEFAULT_FILE_NAME],
      ['', `${DEFAULT_FILE_NAME}_`],
    ];
    for (const [input, expected] of hostile) {
      const name = await storage.save(input, upload(input, 'x'));
      assert.ok(name.startsWith(expected), `${JSON.stringify(input)} → ${name}`);
    }
    // Folders come from the developer (uploadTo), never ".." ones: a client's path is refused.
    await assert.rejects(
      storage.save('../../etc/passwd', upload('p', 'x')),
      SuspiciousFileOperation,
    );
    assert.equal(readdirSync(media).length, hostile.length);
    assert.deepEqual(
      readdirSync(root).filter((f) => !f.startsWith('tmp-')),
      ['media'],
    );
  });

  it('puts files in the folders of the name, which must be plain folder names', async () => {
    assert.equal(
      await storage.save('uploads/2024/cv.pdf', upload('cv.pdf', 'pdf')),
      'uploads/2024/cv.pdf',
    );
    assert.equal(readFileSync(join(media, 'uploads', '2024', 'cv.pdf'), 'utf8'), 'pdf');
    assert.equal(await storage.save('uploads//x.txt', upload('x.txt', 'x')), 'uploads/x.txt');
    for (const bad of ['../x/a.txt', 'uploads/../../a.txt', './a.txt', 'up\\loads/a.txt']) {
      await assert.rejects(storage.save(bad, upload('a.txt', 'x')), SuspiciousFileOperation, bad);
    }
    assert.deepEqual(
      readdirSync(root).filter((f) => !f.startsWith('tmp-')),
      ['media'],
    );
  });

  it("shortens a long name to the caller's maxLength, keeping the extension and the folder", async () => {
    const long = `${'a'.repeat(300)}.txt`;
    const name = await storage.save(`uploads/${long}`, upload(long, 'x'), { maxLength: 100 });
    assert.equal(codePoints(name), 100);
    assert.match(name, /^uploads\/a+\.txt$/);
    // The suffix of a taken name fits too.
    const again = await storage.save(`uploads/${long}`, upload(long, 'y'), { maxLength: 100 });
    assert.equal(codePoints(again), 100);
    assert.match(again, /^uploads\/a+_[A-Za-z0-9]{7}\.txt$/);
    assert.equal(readFileSync(join(media, again), 'utf8'), 'y');
  });

  it('keeps a file name within 255 bytes of UTF-8 without a maxLength', async () => {
    const long = `${'é'.repeat(200)}.txt`;
    const name = await storage.save(long, upload(long, 'x'));
    assert.ok(Buffer.byteLength(name) <= 255, `${Buffer.byteLength(name)} bytes`);
    assert.match(name, /^é+\.txt$/);
  });

  it('refuses a maxLength that leaves no room for the name', async () => {
    await assert.rejects(
      storage.save('a-long-folder-name/resume.txt', upload('resume.txt', 'x'), { maxLength: 20 }),
      (error: Error) =>
        error instanceof SuspiciousFileOperation && /uploadTo|maxLength/.test(error.message),
    );
  });

  it('opens, tells whether a file exists, and deletes (no error when gone)', async () => {
    const name = await storage.save('read.txt', upload('read.txt', 'content'));
    assert.equal(await text(storage.open(name)), 'content');
    assert.equal(await storage.exists(name), true);
    await storage.delete(name);
    assert.equal(await storage.exists(name), false);
    await storage.delete(name);
    assert.equal(await storage.exists('never/was.txt'), false);
  });

  it('builds URLs under MEDIA_URL, each part percent-encoded', () => {
    assert.equal(storage.url('resume.txt'), '/media/resume.txt');
    assert.equal(storage.url('uploads/my cv#1?.txt'), '/media/uploads/my%20cv%231%3F.txt');
    assert.equal(storage.url('résumé.txt'), '/media/r%C3%A9sum%C3%A9.txt');
    assert.equal(
      new FileSystemStorage({ location: media, baseUrl: '/files' }).url('a'),
      '/files/a',
    );
  });

  it('resolves names inside its folder only', () => {
    assert.equal(storage.path('a/b.txt'), join(media, 'a', 'b.txt'));
    for (const bad of ['../outside.txt', '/etc/passwd', 'a/../../x', '', 'a\0b']) {
      assert.throws(() => storage.path(bad), SuspiciousFileOperation, bad);
    }
  });
});
