/**
 * A many-to-many in the browsable API's HTML forms, as a person uses it in a real browser
 * (playwright-core driving the system Chromium, /usr/bin/chromium): the tags of an article are
 * a `<select multiple>` of the tags there are; the person picks two, saves, sees them in the
 * response, finds them preselected in the edit form, and empties the selection with PUT.
 *
 * The app is the test's own (articles and tags on a temporary SQLite file, the toolkit's
 * defaults with the browsable API): the bookstore has no many-to-many.
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
  restFramework,
} from '@restframework/core';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, launchChromium, SKIP } from './fixtures/chromium.ts';

const Tag = defineModel({
  name: 'Tag',
  table: 'ms_tag',
  fields: { name: models.CharField({ maxLength: 30, unique: true }) },
  ordering: ['name'],
  str: (tag) => tag.name,
});

const Article = defineModel({
  name: 'Article',
  table: 'ms_article',
  fields: {
    title: models.CharField({ maxLength: 80 }),
    tags: models.ManyToManyField(Tag, { relatedName: 'articles', blank: true }),
  },
  ordering: ['id'],
});

class ArticleSerializer extends ModelSerializer.with({
  model: Article,
  fields: ['id', 'title', 'tags'],
}) {}

class ArticleViewSet extends ModelViewSet {
  override queryset = Article.objects.all();
  override serializerClass = ArticleSerializer;
}

describe('a many-to-many in the browsable API, in Chromium', { skip: SKIP }, () => {
  let dir: string;
  let db: Database;
  let app: FastifyInstance;
  let base: string;
  let browser: Browser;
  const tags = new Map<string, number>();
  const problems: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'many-select-'));
    mkdirSync(ARTIFACTS, { recursive: true });
    db = Database.connect(`sqlite:${join(dir, 'articles.sqlite3')}`);
    await db.migrate([Tag, Article]);
    for (const name of ['fiction', 'history', 'poetry', 'science'])
      tags.set(name, (await Tag.objects.using(db).create({ name })).id);
    app = Fastify();
    await app.register(restFramework, {
      database: db,
      settings: { DEFAULT_RENDERER_CLASSES: [JSONRenderer, BrowsableAPIRenderer] },
    });
    await app.register(new DefaultRouter().register('articles', ArticleViewSet).plugin, {
      prefix: '/api',
    });
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
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    await page.goto(`${base}${path}`);
    return page;
  }

  async function shot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: join(ARTIFACTS, name), fullPage: true });
  }

  async function shown(page: Page): Promise<Record<string, unknown>> {
    return JSON.parse((await page.locator('[data-body]').textContent()) ?? '{}');
  }

  /** The selected options' texts of a select. */
  async function selected(page: Page, selector: string): Promise<string[]> {
    return page
      .locator(`${selector} option:checked`)
      .evaluateAll((options) => options.map((o) => o.textContent ?? ''));
  }

  const ids = (...names: string[]) => names.map((n) => tags.get(n) as number).sort((a, b) => a - b);

  it('picks two tags, saves, and finds them in the response and preselected on the edit form', async () => {
    const page = await open('/api/articles/');
    const select = page.locator('#post-tags');
    assert.equal(
      await select.evaluate((s) => (s as unknown as { multiple: boolean }).multiple),
      true,
    );
    // The tags there are, by their names, none chosen yet.
    assert.deepEqual(
      await select.locator('option').evaluateAll((os) => os.map((o) => o.textContent)),
      ['fiction', 'history', 'poetry', 'science'],
    );
    assert.deepEqual(await selected(page, '#post-tags'), []);

    await page.fill('#post-title', 'Picked in a browser');
    // A person's pick: a click on one, a Ctrl+click on another.
    await select.locator('option', { hasText: 'history' }).click();
    await select.locator('option', { hasText: 'science' }).click({ modifiers: ['Control'] });
    assert.deepEqual(await selected(page, '#post-tags'), ['history', 'science']);
    await shot(page, 'many-select-create.png');
    await page.click('#post-form button[data-method="POST"]');
    await page.locator('[data-status]', { hasText: 'HTTP 201 Created' }).waitFor();
    const created = await shown(page);
    assert.equal(created.title, 'Picked in a browser');
    assert.deepEqual(
      [...(created.tags as number[])].sort((a, b) => a - b),
      ids('history', 'science'),
    );

    // The record's page: its edit form has the two tags selected.
    const detail = await open(`/api/articles/${created.id}/`);
    assert.deepEqual(await selected(detail, '#edit-tags'), ['history', 'science']);
    await shot(detail, 'many-select-edit.png');
    const stored = (await (
      await fetch(`${base}/api/articles/${created.id}/`, {
        headers: { accept: 'application/json' },
      })
    ).json()) as { tags: number[] };
    assert.deepEqual(
      [...stored.tags].sort((a, b) => a - b),
      ids('history', 'science'),
    );

    // Another pick saved with PUT: the response and the new edit form show it.
    await detail.locator('#edit-tags').selectOption([{ label: 'fiction' }]);
    await detail.click('#edit-form button[data-method="PUT"]');
    await detail.locator('[data-status]', { hasText: 'HTTP 200 OK' }).waitFor();
    assert.deepEqual((await shown(detail)).tags, ids('fiction'));
    assert.deepEqual(await selected(detail, '#edit-tags'), ['fiction']);

    // Nothing selected sends nothing: PUT empties the relation (DRF's rule for HTML input).
    await detail.locator('#edit-tags').selectOption([]);
    await detail.click('#edit-form button[data-method="PUT"]');
    await detail.locator('[data-status]', { hasText: 'HTTP 200 OK' }).waitFor();
    assert.deepEqual((await shown(detail)).tags, []);
    assert.deepEqual(await selected(detail, '#edit-tags'), []);
    await shot(detail, 'many-select-emptied.png');
    await detail.close();
    await page.close();
    assert.deepEqual(problems, []);
  });
});
