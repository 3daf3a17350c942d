/**
 * `serveMedia`: stored files under MEDIA_URL, never as something a browser runs, never from
 * outside MEDIA_ROOT.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  Database,
  exceptionHandler,
  FileSystemStorage,
  ImproperlyConfigured,
  restFramework,
  serveMedia,
} from '@restframework/core';
import Fastify, { type FastifyInstance } from 'fastify';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

describe('serveMedia', () => {
  let root: string;
  let media: string;
  let app: FastifyInstance;
  let db: Database;

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'rf-media-'));
    media = join(root, 'media');
    mkdirSync(join(media, 'uploads'), { recursive: true });
    const files: Record<string, string> = {
      'photo.png': 'PNG bytes',
      'photo.JPG': 'JPG bytes',
      'notes.txt': 'plain text',
      'doc.pdf': '%PDF-1.7',
      'page.html': '<script>alert(1)</script>',
      'image.svg': '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      'feed.xml': '<?xml version="1.0"?><x/>',
      'app.js': 'alert(1)',
      'data.bin': 'binary',
      noextension: 'what am I',
      'uploads/résumé final.txt': 'nested',
      '.hidden': 'secret',
    };
    for (const [name, content] of Object.entries(files)) writeFileSync(join(media, name), content);
    writeFileSync(join(root, 'secret.txt'), 'outside');
    symlinkSync(join(root, 'secret.txt'), join(media, 'escape.txt'));
    symlinkSync(root, join(media, 'escape-dir'));
    symlinkSync(join(media, 'notes.txt'), join(media, 'inside-link.txt'));
    db = Database.connect('sqlite::memory:');
    app = Fastify();
    await app.register(restFramework, { database: db });
    await serveMedia(app, { storage: new FileSystemStorage({ location: media }) });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await db.close();
    rmSync(root, { recursive: true, force: true });
  });

  const get = (url: string, method: 'GET' | 'HEAD' = 'GET') => app.inject({ method, url });

  const served: [string, string, 'inline' | 'attachment', string][] = [
    ['/media/photo.png', 'image/png', 'inline', 'PNG bytes'],
    ['/media/photo.JPG', 'image/jpeg', 'inline', 'JPG bytes'],
    ['/media/notes.txt', 'text/plain; charset=utf-8', 'inline', 'plain text'],
    ['/media/doc.pdf', 'application/pdf', 'attachment', '%PDF-1.7'],
    ['/media/page.html', 'application/octet-stream', 'attachment', '<script>alert(1)</script>'],
    ['/media/image.svg', 'application/octet-stream', 'attachment', '<svg'],
    ['/media/feed.xml', 'application/octet-stream', 'attachment', '<?xml'],
    ['/media/app.js', 'application/octet-stream', 'attachment', 'alert(1)'],
    ['/media/data.bin', 'application/octet-stream', 'attachment', 'binary'],
    ['/media/noextension', 'application/octet-stream', 'attachment', 'what am I'],
    ['/media/inside-link.txt', 'text/plain; charset=utf-8', 'inline', 'plain text'],
  ];
  for (const [url, type, disposition, start] of served) {
    it(`GET ${url}: ${type}, ${disposition}, nosniff, sandboxed`, async () => {
      const res = await get(url);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], type);
      assert.match(String(res.headers['content-disposition']), new RegExp(`^${disposition}; `));
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['content-security-policy'], CSP);
      assert.ok(res.body.startsWith(start), res.body);
      assert.equal(res.headers['content-length'], String(res.rawPayload.length));
    });
  }

  it('names the file in Content-Disposition, as ASCII and UTF-8', async () => {
    const res = await get('/media/uploads/r%C3%A9sum%C3%A9%20final.txt');
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, 'nested');
    assert.equal(
      res.headers['content-disposition'],
      `inline; filename="r_sum_ final.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20final.txt`,
    );
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await get('/media/page.html', 'HEAD');
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, '');
    assert.equal(res.headers['content-length'], String('<script>alert(1)</script>'.length));
    assert.match(String(res.headers['content-disposition']), /^attachment; /);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  });

  const refused = [
    '/media/missing.txt',
    '/media/',
    '/media/uploads',
    '/media/uploads/',
    '/media/../secret.txt',
    '/media/%2e%2e/secret.txt',
    '/media/uploads/..%2f..%2fsecret.txt',
    '/media/..%5csecret.txt',
    '/media/uploads/%2e%2e/%2e%2e/secret.txt',
    '/media/.hidden',
    '/media/uploads//notes.txt',
    '/media/notes.txt%00.png',
    '/media/escape.txt',
    '/media/escape-dir/secret.txt',
  ];
  for (const url of refused) {
    it(`404 JSON for ${url}`, async () => {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await get(url, method);
        assert.equal(res.statusCode, 404, `${method} ${url}`);
        assert.ok(!res.body.includes('outside'));
        // A URL with a `..` part is resolved before routing: it is not a media URL at all.
        if (/\.\.|%2e%2e/i.test(url) && !url.includes('%2f') && !url.includes('%5c')) continue;
        assert.equal(res.headers['content-type'], 'application/json');
        if (method === 'GET') assert.deepEqual(res.json(), { detail: 'Not found.' });
      }
    });
  }

  it('never serves a malformed path', async () => {
    const res = await get('/media/%E0%A4%A.txt');
    assert.ok(res.statusCode === 400 || res.statusCode === 404, String(res.statusCode));
  });

  it("defaults to the restFramework plugin's STORAGE (MEDIA_ROOT, MEDIA_URL)", async () => {
    const db = Database.connect('sqlite::memory:');
    const withPlugin = Fastify();
    await withPlugin.register(restFramework, {
      database: db,
      settings: { MEDIA_ROOT: media, MEDIA_URL: '/files/' },
    });
    await serveMedia(withPlugin);
    try {
      const res = await withPlugin.inject({
        url: '/files/notes.txt',
        headers: { host: '127.0.0.1' },
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.body, 'plain text');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      const missing = await withPlugin.inject({
        url: '/files/nope',
        headers: { host: '127.0.0.1' },
      });
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.json(), { detail: 'Not found.' });
    } finally {
      await withPlugin.close();
      await db.close();
    }
  });

  it("answers a refusal through the app's EXCEPTION_HANDLER", async () => {
    const db = Database.connect('sqlite::memory:');
    const custom = Fastify();
    await custom.register(restFramework, {
      database: db,
      settings: {
        MEDIA_ROOT: media,
        EXCEPTION_HANDLER: (exc, context) => {
          const response = exceptionHandler(exc, context);
          if (response) response.data = { error: response.data };
          return response;
        },
      },
    });
    await serveMedia(custom);
    try {
      const missing = await custom.inject({ url: '/media/nope', headers: { host: '127.0.0.1' } });
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.json(), { error: { detail: 'Not found.' } });
      assert.equal(missing.headers['x-content-type-options'], 'nosniff');
    } finally {
      await custom.close();
      await db.close();
    }
  });

  it('needs the restFramework plugin and a file-system storage', async () => {
    const storage = new FileSystemStorage({ location: media });
    await assert.rejects(serveMedia(Fastify(), { storage }), (error: Error) => {
      assert.ok(error instanceof ImproperlyConfigured);
      assert.match(error.message, /register the restFramework plugin first/);
      return true;
    });
    const db = Database.connect('sqlite::memory:');
    const withPlugin = Fastify();
    await withPlugin.register(restFramework, { database: db });
    try {
      await assert.rejects(serveMedia(withPlugin, { storage, prefix: 'x' }), ImproperlyConfigured);
    } finally {
      await withPlugin.close();
      await db.close();
    }
  });
});
