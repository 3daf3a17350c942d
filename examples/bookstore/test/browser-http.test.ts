/**
 * HTTP features of issue 41 in the browsable API, in a real browser (playwright-core driving
 * the system Chromium, /usr/bin/chromium): a versioned API (NamespaceVersioning, two routers
 * in the namespaces v1 and v2) whose API root and pages stay in their version, and a view that
 * requires preconditions (428 without `If-Match`), usable from the page's forms because they
 * send the `ETag` the page was rendered with; a change made meanwhile is a 412 on the page.
 * CORS has no HTML side and is not tested here.
 *
 * Screenshots are kept in /test-artifacts/ at the repository root (ignored by git).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  BrowsableAPIRenderer,
  Database,
  DefaultRouter,
  defineModel,
  JSONRenderer,
  ModelSerializer,
  ModelViewSet,
  models,
  NamespaceVersioning,
  restFramework,
} from '@restframework/core';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, launchChromium, SKIP } from './fixtures/chromium.ts';

const Note = defineModel({
  name: 'Note',
  table: 'browser_note',
  fields: {
    text: models.CharField({ maxLength: 100 }),
    remark: models.TextField({ null: true, blank: true }),
    version: models.IntegerField({ default: 0 }),
  },
  ordering: ['id'],
});

class NoteSerializer extends ModelSerializer.with({
  model: Note,
  fields: ['id', 'text', 'remark', 'version'],
  readOnlyFields: ['version'],
}) {}

/** Writes need `If-Match` (428 without): the version column gives the `ETag`. */
class StrictNoteViewSet extends ModelViewSet {
  override queryset = Note.objects.all();
  override serializerClass = NoteSerializer;
  override versionField = 'version';
  override requirePrecondition = true;
}

describe('versions and preconditions in the browsable API, in Chromium', { skip: SKIP }, () => {
  let dir: string;
  let db: Database;
  let app: FastifyInstance;
  let base: string;
  let browser: Browser;
  const problems: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'browser-http-'));
    mkdirSync(ARTIFACTS, { recursive: true });
    db = Database.connect(`sqlite:${join(dir, 'db.sqlite3')}`);
    await db.migrate([Note]);
    await db.run(async () => {
      for (let i = 1; i <= 3; i++) await Note.objects.create({ text: `Note ${i}` });
    });
    app = Fastify();
    await app.register(restFramework, {
      database: db,
      settings: {
        DEFAULT_RENDERER_CLASSES: [JSONRenderer, BrowsableAPIRenderer],
        DEFAULT_VERSIONING_CLASS: NamespaceVersioning,
        ALLOWED_VERSIONS: ['v1', 'v2'],
      },
    });
    for (const version of ['v1', 'v2']) {
      const router = new DefaultRouter().register('notes', StrictNoteViewSet, { basename: 'note' });
      await app.register(router.plugin, { prefix: `/${version}`, namespace: version } as {
        prefix: string;
      });
    }
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await app?.close();
    await db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(path: string): Promise<Page> {
    const page = await browser.newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content.Security.Policy|Refused/i.test(message.text()))
        problems.push(message.text());
    });
    await page.goto(`${base}${path}`);
    return page;
  }

  const bodyOf = async (page: Page) =>
    JSON.parse((await page.locator('[data-body]').textContent()) ?? 'null');

  it('keeps a versioned page in its version: the API root, its links and the breadcrumbs', async () => {
    const page = await open('/v2/');
    assert.equal(await page.locator('[data-status]').textContent(), 'HTTP 200 OK');
    assert.equal(await page.locator('h1').textContent(), 'Api Root');
    assert.deepEqual(await bodyOf(page), { notes: `${base}/v2/notes/` });
    await page.screenshot({ path: join(ARTIFACTS, 'versioned-api-root.png'), fullPage: true });
    await page.locator('[data-body] a').first().click();
    await page.waitForURL(`${base}/v2/notes/`);
    assert.equal(await page.locator('h1').textContent(), 'Strict Note List');
    assert.deepEqual(
      await page
        .locator('nav.breadcrumbs a')
        .evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
      ['/v2/', '/v2/notes/'],
    );
    await page.screenshot({ path: join(ARTIFACTS, 'versioned-list.png'), fullPage: true });
    // The other version's root is its own; a version not allowed is the versioning's 404.
    await page.goto(`${base}/v1/`);
    assert.deepEqual(await bodyOf(page), { notes: `${base}/v1/notes/` });
    await page.close();
  });

  it('sends If-Match from the forms, so a view requiring preconditions is usable', async () => {
    const [note] = await Note.objects.using(db).orderBy('id').slice(0, 1).execute();
    const url = `/v2/notes/${note?.id}/`;
    // Without If-Match, a client is told to send one.
    const bare = await fetch(`${base}${url}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ text: 'no precondition' }),
    });
    assert.equal(bare.status, 428);

    const page = await open(url);
    // The page carries no validators (it is no cacheable copy of the row); its script holds
    // the row's ETag for the forms.
    assert.equal(await page.locator('body').getAttribute('data-etag'), '"0.api"');
    await page.fill('#edit-text', 'Changed from the page');
    await page.click('#edit-form button[data-method="PATCH"]');
    await page.locator('[data-request-line]', { hasText: 'PATCH' }).waitFor();
    assert.equal(await page.locator('[data-status]').textContent(), 'HTTP 200 OK');
    const patched = await bodyOf(page);
    assert.equal(patched.text, 'Changed from the page');
    assert.equal(patched.version, 1);
    assert.equal(patched.remark, null, 'the untouched null stayed null');
    await page.screenshot({ path: join(ARTIFACTS, 'precondition-patched.png'), fullPage: true });

    // The page now holds the new ETag: a PUT from it passes too.
    await page.fill('#edit-text', 'Replaced from the page');
    await page.click('#edit-form button[data-method="PUT"]');
    await page.locator('[data-body]', { hasText: 'Replaced from the page' }).waitFor();
    assert.equal((await bodyOf(page)).version, 2);

    // Someone else changes the note: the page's PATCH is a 412, and the note is theirs.
    const current = await (
      await fetch(`${base}${url}`, { headers: { accept: 'application/json' } })
    ).headers.get('etag');
    const other = await fetch(`${base}${url}`, {
      method: 'PATCH',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'if-match': current ?? '',
      },
      body: JSON.stringify({ text: 'Changed elsewhere' }),
    });
    assert.equal(other.status, 200);
    await page.fill('#edit-text', 'Stale change');
    await page.click('#edit-form button[data-method="PATCH"]');
    await page.locator('[data-status]', { hasText: 'HTTP 412' }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'precondition-failed.png'), fullPage: true });
    const stored = (await (
      await fetch(`${base}${url}`, { headers: { accept: 'application/json' } })
    ).json()) as { text: string };
    assert.equal(stored.text, 'Changed elsewhere');

    // Reloaded, the page deletes with the current ETag.
    await page.goto(`${base}${url}`);
    await page.locator('#delete summary').click();
    await page.click('#delete button[data-method="DELETE"]');
    await page.locator('[data-status]', { hasText: 'HTTP 204' }).waitFor();
    const gone = await fetch(`${base}${url}`, { headers: { accept: 'application/json' } });
    assert.equal(gone.status, 404);
    await page.close();
  });

  it('met no Content-Security-Policy violation and no script error', () => {
    assert.deepEqual(problems, []);
  });
});
