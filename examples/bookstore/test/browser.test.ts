/**
 * The browsable API and the API documentation in a real browser: playwright-core drives the
 * system Chromium (/usr/bin/chromium) against the bookstore, started in-process on a
 * temporary SQLite file and listening on a free port of 127.0.0.1.
 *
 * Screenshots are kept as test artifacts in /test-artifacts/ at the repository root (ignored
 * by git). Without /usr/bin/chromium the tests say they were skipped.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Database } from '@restframework/core';
import type { FastifyInstance } from 'fastify';
import type { BrowserContext, Page } from 'playwright-core';
import { buildApp } from '../src/app.ts';
import { auth } from '../src/auth.ts';
import { ALL_MODELS, Book } from '../src/models/index.ts';
import { seed } from '../src/seed.ts';
import { ARTIFACTS, launchChromiumProfile, SKIP } from './fixtures/chromium.ts';

const EDITOR_PASSWORD = 'a browser passphrase';

describe('the browsable API in Chromium', { skip: SKIP }, () => {
  let dir: string;
  let db: Database;
  let app: FastifyInstance;
  let base: string;
  let context: BrowserContext;
  /** Dialogs any page opened (an executed alert() would land here). */
  const dialogs: string[] = [];
  /** Content-Security-Policy violations and script errors reported by any page. */
  const problems: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bookstore-browser-'));
    mkdirSync(ARTIFACTS, { recursive: true });
    db = Database.connect(`sqlite:${join(dir, 'bookstore.sqlite3')}`);
    await db.migrate(ALL_MODELS);
    await seed(db);
    app = await buildApp({ database: db, mediaRoot: join(dir, 'media') });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    context = await launchChromiumProfile(join(dir, 'profile'));
    context.on('page', watch);
  });

  after(async () => {
    await context?.close();
    await app?.close();
    await db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function watch(page: Page): void {
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content.Security.Policy|Refused/i.test(message.text()))
        problems.push(message.text());
    });
  }

  async function open(path: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${base}${path}`);
    return page;
  }

  async function shot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: join(ARTIFACTS, name), fullPage: true });
  }

  /** The JSON body of a request to the service. */
  async function json(path: string): Promise<any> {
    return (await api(path)).json();
  }

  async function api(path: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`${base}${path}`, {
      ...init,
      headers: { accept: 'application/json', ...(init.headers ?? {}) },
    });
  }

  it('shows the book list: request, status, headers, body with links, pagination', async () => {
    const page = await open('/books/api/books/');
    assert.equal(await page.locator('h1').textContent(), 'Book List');
    assert.match(
      (await page.locator('[data-request-line]').textContent()) ?? '',
      /GET\s+\/books\/api\/books\//,
    );
    assert.equal(await page.locator('[data-status]').textContent(), 'HTTP 200 OK');
    const headers = (await page.locator('[data-headers]').textContent()) ?? '';
    assert.match(headers, /Allow: GET, POST, HEAD, OPTIONS/);
    assert.match(headers, /Content-Type: application\/json/);
    // URLs in the body are links, and following one opens that record's page.
    const link = page.locator('[data-body] a', { hasText: /\/books\/\d+\/$/ }).first();
    const href = (await link.getAttribute('href')) ?? '';
    assert.match(href, /^http:\/\/127\.0\.0\.1:\d+\/books\/api\/books\/\d+\/$/);
    assert.equal(await page.locator('nav.pagination a[rel="next"]').count(), 1);
    await shot(page, 'books-list.png');
    await link.click();
    await page.waitForURL(href);
    assert.equal(await page.locator('h1').textContent(), 'Book Instance');
    await page.close();
  });

  it('creates a book through the HTML form, nested groups included', async () => {
    const page = await open('/books/api/books/');
    await page.fill('#post-title', 'Made in a browser');
    await page.fill('#post-description', 'Typed into the HTML form.');
    await page.fill('#post-publishing_information--publication_date', '2024-05-17');
    await page.fill('#post-publishing_information--isbn', 'BROWSER-0001');
    await page.fill('#post-publishing_information--pages', '321');
    await page.fill('#post-stock_information--stock_count', '7');
    await page.fill('#post-stock_information--price', '12.50');
    await page.selectOption('#post-stock_information--state', 'in_progress');
    await shot(page, 'books-create-form.png');
    await page.click('#post-form button[data-method="POST"]');
    await page.locator('[data-status]', { hasText: 'HTTP 201 Created' }).waitFor();
    const body = JSON.parse((await page.locator('[data-body]').textContent()) ?? '{}');
    assert.equal(body.title, 'Made in a browser');
    assert.deepEqual(body.publishing_information, {
      publication_date: '2024-05-17',
      isbn: 'BROWSER-0001',
      pages: 321,
    });
    assert.deepEqual(body.stock_information, {
      stock_count: 7,
      price: '12.50',
      state: 'in_progress',
    });
    assert.match((await page.locator('[data-headers]').textContent()) ?? '', /Location: http:\/\//);
    await shot(page, 'books-created.png');
    // The record is in the API as the form sent it.
    const stored = await json(`/books/api/books/${body.id}/`);
    assert.equal(stored.stock_information.price, '12.50');
    await page.close();
  });

  it('shows the error for a missing price beside the price field', async () => {
    const page = await open('/books/api/books/');
    await page.fill('#post-title', 'No price');
    await page.fill('#post-publishing_information--publication_date', '2024-01-02');
    await page.fill('#post-publishing_information--isbn', 'BROWSER-NO-PRICE');
    await page.click('#post-form button[data-method="POST"]');
    await page.locator('[data-status]', { hasText: 'HTTP 400 Bad Request' }).waitFor();
    const price = page.locator('#post-stock_information--price');
    assert.equal(await price.getAttribute('aria-invalid'), 'true');
    assert.equal(
      await price.getAttribute('aria-describedby'),
      'post-stock_information--price-help post-stock_information--price-errors',
    );
    const errors = page.locator('#post-stock_information--price-errors');
    assert.match((await errors.textContent()) ?? '', /A valid number is required\./);
    // The error sits in the price field's own block, inside the stock information fieldset.
    const block = page.locator('fieldset#post-stock_information .field.has-error');
    assert.equal(await block.count(), 1);
    assert.equal(await block.locator('#post-stock_information--price-errors').count(), 1);
    // What was typed is still there; no other field has an error.
    assert.equal(await page.inputValue('#post-title'), 'No price');
    assert.equal(await page.locator('.field-errors').count(), 1);
    assert.equal(
      await page.evaluate(() => (globalThis as any).document.activeElement?.className),
      'form-errors',
    );
    await shot(page, 'books-price-error.png');
    assert.equal(
      (await json('/books/api/books/?format=json')).results.some(
        (b: { title: string }) => b.title === 'No price',
      ),
      false,
    );
    await page.close();
  });

  it('changes the ordering of /api/profile/ with the ordering control', async () => {
    const page = await open('/api/profile/');
    const select = page.locator('#filter-ordering');
    const labels = await select.locator('option').allTextContents();
    assert.ok(labels.includes('Username - descending'), labels.join(', '));
    assert.ok(labels.includes('Full name - ascending'), labels.join(', '));
    await select.selectOption('-username');
    await page.waitForURL(/[?&]ordering=-username/);
    assert.equal(await page.locator('#filter-ordering').inputValue(), '-username');
    const shown = JSON.parse((await page.locator('[data-body]').textContent()) ?? '{}');
    const expected = await json('/api/profile/?ordering=-username');
    assert.deepEqual(
      shown.results.map((p: { username: string }) => p.username),
      expected.results.map((p: { username: string }) => p.username),
    );
    const names = shown.results.map((p: { username: string }) => p.username);
    assert.deepEqual(names, [...names].sort().reverse());
    await shot(page, 'profile-ordering.png');
    await page.close();
  });

  it('filters and searches with the Filters form, keeping the ordering', async () => {
    const page = await open('/books/api/proxy-books/?ordering=-price');
    const form = page.locator('form.filterset');
    assert.equal(await form.locator('legend').textContent(), 'Filters');
    // One input per filter; a select (with its choices) for a choice field and a boolean.
    assert.deepEqual(await page.locator('#filterset-state option').allTextContents(), [
      '---------',
      'Published',
      'Not published',
      'In progress',
    ]);
    assert.deepEqual(await page.locator('#filterset-in_stock option').allTextContents(), [
      '---------',
      'Yes',
      'No',
    ]);
    // The panel opens on demand (DRF's "Filters" button).
    assert.equal(await form.isVisible(), false);
    await page.locator('details.filter-panel summary').click();
    await page.fill('#filterset-price__gte', '500');
    await page.selectOption('#filterset-state', 'published');
    await shot(page, 'books-filters-form.png');
    await form.locator('button[type="submit"]').click();
    await page.waitForURL(/[?&]price__gte=500/);
    const url = new URL(page.url());
    // The filled inputs and the kept ordering; the empty inputs are left out.
    assert.deepEqual([...url.searchParams].sort(), [
      ['ordering', '-price'],
      ['price__gte', '500'],
      ['state', 'published'],
    ]);
    assert.equal(await page.locator('#filterset-price__gte').inputValue(), '500');
    assert.equal(await page.locator('#filterset-state').inputValue(), 'published');
    const shown = JSON.parse((await page.locator('[data-body]').textContent()) ?? '{}');
    const expected = await json(
      '/books/api/proxy-books/?ordering=-price&price__gte=500&state=published',
    );
    assert.ok(expected.count > 0);
    assert.deepEqual(shown, expected);
    // A value that does not parse (the number input takes none, a URL can): the 400 names
    // the parameter, and the panel is open on it.
    assert.equal(await page.getAttribute('#filterset-pages', 'type'), 'number');
    await page.goto(`${base}/books/api/proxy-books/?pages=abc`);
    await page.locator('[data-status]', { hasText: 'HTTP 400 Bad Request' }).waitFor();
    assert.equal(await page.locator('#filterset-pages').inputValue(), '');
    assert.deepEqual(JSON.parse((await page.locator('[data-body]').textContent()) ?? '{}'), {
      pages: ['Enter a number.'],
    });
    await shot(page, 'books-filters-error.png');
    // The search box, beside the form.
    await page.goto(`${base}/books/api/books/`);
    const book = (await json('/books/api/books/')).results[0];
    await page.fill('#filter-search', book.title);
    await page
      .locator('form.filter', { has: page.locator('#filter-search') })
      .locator('button')
      .click();
    await page.waitForURL(/[?&]search=/);
    const found = JSON.parse((await page.locator('[data-body]').textContent()) ?? '{}');
    assert.ok(found.results.some((row: { id: number }) => row.id === book.id));
    assert.ok(
      found.results.every((row: { title: string }) =>
        row.title.toLowerCase().includes(book.title.toLowerCase()),
      ),
    );
    await page.close();
  });

  it('uploads a file through the form on /api/upload/', async () => {
    const page = await open('/api/upload/');
    assert.equal(await page.getAttribute('#post-form', 'enctype'), 'multipart/form-data');
    await page.fill('#post-username', 'browser-user');
    await page.setInputFiles('#post-resume', {
      name: 'resume.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('My resume, uploaded from Chromium.\n'),
    });
    await page.click('#post-form button[data-method="POST"]');
    await page.locator('[data-status]', { hasText: 'HTTP 201 Created' }).waitFor();
    const body = JSON.parse((await page.locator('[data-body]').textContent()) ?? '{}');
    assert.equal(body.username, 'browser-user');
    assert.match(body.resume, /^http:\/\/127\.0\.0\.1:\d+\/media\/.*resume.*\.txt$/);
    const stored = await fetch(body.resume);
    assert.equal(await stored.text(), 'My resume, uploaded from Chromium.\n');
    await shot(page, 'upload-created.png');
    await page.close();
  });

  it('shows an escaped <script> title and never runs it', async () => {
    const title = '<script>alert(1)</script>';
    const created = await api('/books/api/books/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        title,
        description: '"><img src=x onerror=alert(2)>',
        publishing_information: { publication_date: '2024-01-01', isbn: 'XSS-0001' },
        stock_information: { price: '1.00' },
      }),
    });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: number };
    const before = dialogs.length;
    const page = await open(`/books/api/books/${id}/`);
    assert.equal(await page.inputValue('#edit-title'), title);
    assert.equal(await page.inputValue('#edit-description'), '"><img src=x onerror=alert(2)>');
    assert.ok(
      ((await page.locator('[data-body]').textContent()) ?? '').includes(JSON.stringify(title)),
    );
    assert.equal(await page.locator('img').count(), 0);
    assert.equal(await page.locator('script').count(), 1, 'only the toolkit script');
    await page.waitForTimeout(300);
    assert.equal(dialogs.length, before, `a dialog opened: ${dialogs.join(', ')}`);
    const response = await fetch(`${base}/books/api/books/${id}/`, {
      headers: { accept: 'text/html' },
    });
    assert.match(response.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    await shot(page, 'xss-escaped.png');
    await page.close();
  });

  it('replaces, updates and deletes with the script (PUT, PATCH, DELETE)', async () => {
    const created = await api('/books/api/books/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'To edit',
        publishing_information: { publication_date: '2023-03-03', isbn: 'EDIT-0001' },
        stock_information: { price: '3.00' },
      }),
    });
    const { id } = (await created.json()) as { id: number };
    const page = await open(`/books/api/books/${id}/`);
    await page.fill('#edit-title', 'Edited with PATCH');
    await page.click('#edit-form button[data-method="PATCH"]');
    await page.locator('[data-request-line]', { hasText: 'PATCH' }).waitFor();
    assert.equal(await page.locator('[data-status]').textContent(), 'HTTP 200 OK');
    assert.equal((await json(`/books/api/books/${id}/`)).title, 'Edited with PATCH');

    await page.fill(
      '#raw-edit-content',
      JSON.stringify({ title: 'Replaced with PUT', stock_information: { price: '4.00' } }),
    );
    await page.click('#raw-edit-form button[data-method="PUT"]');
    await page.locator('[data-request-line]', { hasText: 'PUT' }).waitFor();
    assert.equal((await json(`/books/api/books/${id}/`)).title, 'Replaced with PUT');

    await page.click('#delete summary');
    await page.click('#delete button[data-method="DELETE"]');
    await page.locator('[data-status]', { hasText: 'HTTP 204 No Content' }).waitFor();
    assert.equal((await api(`/books/api/books/${id}/`)).status, 404);
    await shot(page, 'book-deleted.png');
    await page.close();
  });

  it('is readable and can create without JavaScript', async () => {
    const noScript = await launchChromiumProfile(join(dir, 'profile-no-js'), {
      javaScriptEnabled: false,
    });
    const page = await noScript.newPage();
    await page.goto(`${base}/books/api/books/`);
    assert.equal(await page.locator('h1').textContent(), 'Book List');
    assert.ok(await page.locator('.js-note').isVisible());
    assert.ok(await page.locator('#raw-post-form button[data-method="POST"]').isDisabled());
    await page.fill('#post-title', 'Sent without JavaScript');
    await page.fill('#post-publishing_information--publication_date', '2022-02-02');
    await page.fill('#post-publishing_information--isbn', 'NOJS-0001');
    await page.fill('#post-stock_information--price', '5.00');
    await page.click('#post-form button[data-method="POST"]');
    await page.locator('[data-status]', { hasText: 'HTTP 201 Created' }).waitFor();
    await shot(page, 'books-created-without-js.png');
    await noScript.close();
  });

  it('follows the system dark theme', async () => {
    const page = await context.newPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${base}/books/api/books/1/`);
    const background = await page.evaluate(() => {
      const { document, getComputedStyle } = globalThis as any;
      return getComputedStyle(document.body).backgroundColor;
    });
    assert.equal(background, 'rgb(14, 17, 22)');
    await shot(page, 'book-detail-dark.png');
    await page.close();
  });

  it('serves the API documentation at /schema/docs/, listing the operations', async () => {
    const page = await open('/schema/docs/');
    await page.locator('.opblock').first().waitFor();
    const schema = await json('/schema/');
    const operations = Object.values(schema.paths as Record<string, object>).reduce(
      (n: number, item) => n + Object.keys(item).filter((k) => k !== 'parameters').length,
      0,
    );
    assert.equal(await page.locator('.opblock').count(), operations);
    const paths = await page.locator('.opblock-summary-path').allTextContents();
    assert.ok(
      paths.some((p) => p.replace(/\u200b/g, '') === '/books/api/books/'),
      paths.join(' '),
    );
    assert.ok(paths.some((p) => p.replace(/\u200b/g, '') === '/api/profile/{pk}/'));
    // The management routes' security schemes give the page its Authorize button.
    await page.click('.auth-wrapper .authorize');
    const dialog = (await page.locator('.dialog-ux').textContent()) ?? '';
    assert.match(dialog, /tokenAuth/);
    assert.match(dialog, /cookieAuth/);
    await page.keyboard.press('Escape');
    await shot(page, 'schema-docs.png');
    await page.close();
  });

  it("logs in with the browsable API's form, then changes a managed book with the CSRF token", async () => {
    await db.run(async () => {
      await auth.createPermissions([Book]);
      const editor = await auth.createUser({
        username: 'browser-editor',
        password: EDITOR_PASSWORD,
      });
      await auth.grant(editor, 'books.change_book');
    });
    const page = await open('/manage/api/login/');
    assert.equal(await page.locator('#post-password').getAttribute('type'), 'password');
    await page.fill('#post-username', 'browser-editor');
    await page.fill('#post-password', EDITOR_PASSWORD);
    // The GET of the page set the csrftoken cookie; the form's script sends it back.
    await page.click('#post-form button[data-method="POST"]');
    // As Django's login page: the browser is sent on, here to the router's root (no next).
    await page.waitForURL(`${base}/manage/api/`);
    assert.equal(await page.locator('[data-status]').textContent(), 'HTTP 200 OK');
    assert.equal(await page.locator('h1').textContent(), 'Api Root');
    await shot(page, 'session-login.png');
    const cookies = await context.cookies(base);
    const session = cookies.find((cookie) => cookie.name === 'sessionid');
    assert.ok(session?.httpOnly, 'the session cookie is HttpOnly');
    assert.ok(cookies.some((cookie) => cookie.name === 'csrftoken'));

    const book = await open('/manage/api/books/1/');
    assert.equal(await book.locator('[data-status]').textContent(), 'HTTP 200 OK');
    await book.fill('#edit-title', 'Changed in a browser session');
    await book.click('#edit-form button[data-method="PATCH"]');
    await book.locator('[data-request-line]', { hasText: 'PATCH' }).waitFor();
    assert.equal(await book.locator('[data-status]').textContent(), 'HTTP 200 OK');
    assert.equal((await json('/books/api/books/1/')).title, 'Changed in a browser session');
    await shot(book, 'managed-book-patched-in-session.png');

    // The same PATCH from a page whose script does not send the token is refused.
    const forged = await api('/manage/api/books/1/', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', cookie: `sessionid=${session?.value}` },
      body: JSON.stringify({ title: 'Forged' }),
    });
    assert.equal(forged.status, 403);
    assert.deepEqual(await forged.json(), { detail: 'CSRF Failed: CSRF token missing.' });
    await page.close();
    await book.close();
  });

  it('met no Content-Security-Policy violation and no script error', () => {
    assert.deepEqual(problems, []);
    assert.deepEqual(dialogs, []);
  });
});
