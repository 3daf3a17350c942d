/**
 * The browsable API's "Extra Actions" menu in a real browser (the system Chromium through
 * playwright-core): a view set of the bookstore's books with a detail and a list action,
 * mounted on an app of its own. The menu needs no script: a disclosure of links, each
 * opening the action's own page.
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
  type ExtraActions,
  JSONRenderer,
  ModelViewSet,
  type Request,
  Response,
  restFramework,
} from '@restframework/core';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { ALL_MODELS, Book } from '../src/models/index.ts';
import { seed } from '../src/seed.ts';
import { BookSerializer } from '../src/serializers/book-serializers.ts';
import { ARTIFACTS, launchChromium, SKIP } from './fixtures/chromium.ts';

/** Screenshots, kept as test artifacts at the repository root (ignored by git). */

class ShelfViewSet extends ModelViewSet {
  override queryset = Book.objects.all();
  override serializerClass = BookSerializer;
  static override extraActions: ExtraActions<ShelfViewSet> = {
    highlight: { detail: true, methods: ['get', 'post'] },
    bestsellers: { detail: false, name: 'Best sellers' },
  };
  async highlight(_request: Request) {
    const book = await this.getObject();
    return new Response({ highlighted: book.id });
  }
  async bestsellers(_request: Request) {
    return new Response({ count: await this.getQueryset().count() });
  }
}

describe('the Extra Actions menu in Chromium', { skip: SKIP }, () => {
  let dir: string;
  let db: Database;
  let app: FastifyInstance;
  let base: string;
  let browser: Browser;
  const problems: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bookstore-actions-'));
    mkdirSync(ARTIFACTS, { recursive: true });
    db = Database.connect(`sqlite:${join(dir, 'db.sqlite3')}`);
    await db.migrate(ALL_MODELS);
    await seed(db);
    app = Fastify();
    await app.register(restFramework, {
      database: db,
      settings: { DEFAULT_RENDERER_CLASSES: [JSONRenderer, BrowsableAPIRenderer] },
    });
    // The book serializer links to book-detail: the shelf is registered under that basename.
    await app.register(
      new DefaultRouter().register('shelf', ShelfViewSet, { basename: 'book' }).plugin,
      {
        prefix: '/api',
      },
    );
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

  it('lists the detail actions on a detail page and opens one', async () => {
    const page = await browser.newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    const [first] = await Book.objects.using(db).orderBy('id').slice(0, 1).execute();
    await page.goto(`${base}/api/shelf/${first?.id}/`);
    const menu = page.locator('details.extra-actions');
    assert.equal(await menu.locator('summary').textContent(), 'Extra Actions');
    const link = menu.locator('a', { hasText: 'Highlight' });
    assert.equal(await link.isVisible(), false, 'closed until opened');
    await menu.locator('summary').click();
    assert.equal(await link.isVisible(), true);
    await page.screenshot({
      path: join(ARTIFACTS, 'extra-actions-detail-menu.png'),
      fullPage: true,
    });
    assert.equal(await menu.locator('a').count(), 1, 'no list action on a detail page');
    await link.click();
    await page.waitForURL(`${base}/api/shelf/${first?.id}/highlight/`);
    assert.equal(await page.locator('h1').textContent(), 'Highlight');
    assert.match((await page.locator('[data-body]').textContent()) ?? '', /"highlighted": \d+/);
    await page.close();
  });

  it('lists the list actions on the list page', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/api/shelf/`);
    await page.locator('details.extra-actions summary').click();
    await page.screenshot({ path: join(ARTIFACTS, 'extra-actions-list-menu.png'), fullPage: true });
    await page.locator('details.extra-actions a', { hasText: 'Best sellers' }).click();
    await page.waitForURL(`${base}/api/shelf/bestsellers/`);
    assert.equal(await page.locator('h1').textContent(), 'Best sellers');
    await page.close();
    assert.deepEqual(problems, []);
  });
});
