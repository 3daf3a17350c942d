/**
 * The browsable API as a person uses it, in a real browser (playwright-core driving the system
 * Chromium, /usr/bin/chromium), against the bookstore on a temporary SQLite file: logging in
 * from the header's link and being sent back to the page (never to another site), the user's
 * name and a logout button in the header, errors on the login page, logging out from the
 * logout page's button, forms that leave untouched nulls null, the filter panel that opens on
 * demand with inputs of each filter's type, DRF's numbered page links, links of records under
 * the router they were listed by, and view names as DRF's `get_view_name` gives them.
 *
 * Screenshots are kept in /test-artifacts/ at the repository root (ignored by git).
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

const PASSWORD = 'a person passphrase';

describe('the browsable API for a person, in Chromium', { skip: SKIP }, () => {
  let dir: string;
  let db: Database;
  let app: FastifyInstance;
  let base: string;
  let context: BrowserContext;
  const problems: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bookstore-person-'));
    mkdirSync(ARTIFACTS, { recursive: true });
    db = Database.connect(`sqlite:${join(dir, 'bookstore.sqlite3')}`);
    await db.migrate(ALL_MODELS);
    await seed(db);
    await db.run(async () => {
      await auth.createPermissions([Book]);
      const editor = await auth.createUser({ username: 'person', password: PASSWORD });
      await auth.grant(editor, 'books.change_book');
      await auth.grant(editor, 'books.view_book');
    });
    app = await buildApp({ database: db, mediaRoot: join(dir, 'media') });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    context = await launchChromiumProfile(join(dir, 'profile'));
    context.on('page', (page) => {
      page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content.Security.Policy|Refused/i.test(message.text()))
          problems.push(message.text());
      });
    });
  });

  after(async () => {
    await context?.close();
    await app?.close();
    await db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(path: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${base}${path}`);
    return page;
  }

  async function shot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: join(ARTIFACTS, name), fullPage: true });
  }

  async function json(path: string): Promise<any> {
    return (await fetch(`${base}${path}`, { headers: { accept: 'application/json' } })).json();
  }

  async function logIn(page: Page, password = PASSWORD): Promise<void> {
    await page.fill('#post-username', 'person');
    await page.fill('#post-password', password);
    await page.click('#post-form button[data-method="POST"]');
  }

  it('logs in from the header, back to the page, with the name and a logout button', async () => {
    await context.clearCookies();
    const page = await open('/manage/api/books/?page=2');
    // Not logged in: the managed books refuse, the header offers to log in.
    assert.match((await page.locator('[data-status]').textContent()) ?? '', /HTTP 40[13]/);
    const login = page.locator('nav.account a.login');
    assert.equal(await login.textContent(), 'Log in');
    assert.equal(
      await login.getAttribute('href'),
      `/manage/api/login/?next=${encodeURIComponent('/manage/api/books/?page=2')}`,
    );
    await login.click();
    await page.waitForURL(/\/manage\/api\/login\//);
    // The login page is a page: DRF's title, a form, no JSON-only answer.
    assert.equal(await page.locator('h1').textContent(), 'Session Login');
    assert.equal(await page.locator('[data-status]').textContent(), 'HTTP 200 OK');
    assert.equal(await page.locator('#post-password').getAttribute('type'), 'password');
    await shot(page, 'person-login-page.png');
    await logIn(page);
    await page.waitForURL(`${base}/manage/api/books/?page=2`);
    assert.equal(await page.locator('[data-status]').textContent(), 'HTTP 200 OK');
    assert.equal(await page.locator('nav.account .user').textContent(), 'person');
    assert.equal(await page.locator('nav.account button').textContent(), 'Log out');
    await shot(page, 'person-logged-in.png');

    // The records listed under /manage/api/books/ link to /manage/api/books/N/.
    const links = await page
      .locator('[data-body] a')
      .evaluateAll((as) =>
        as
          .map((a) => (a as unknown as { href: string }).href)
          .filter((href) => /\/books\/\d+\/$/.test(href)),
      );
    assert.ok(links.length > 0);
    for (const href of links) assert.match(href, /\/manage\/api\/books\/\d+\/$/);

    // Log out from the header: back on the page, logged out.
    await page.click('nav.account button');
    await page.locator('nav.account a.login').waitFor();
    assert.match((await page.locator('[data-status]').textContent()) ?? '', /HTTP 40[13]/);
    assert.equal(page.url(), `${base}/manage/api/books/?page=2`);
    const cookies = await context.cookies(base);
    assert.equal(cookies.find((c) => c.name === 'sessionid')?.value ?? '', '');
    await shot(page, 'person-logged-out.png');
    await page.close();
  });

  it('never sends the browser to another site after a login (no open redirect)', async () => {
    for (const next of [
      'https://evil.example/',
      '//evil.example/',
      '/\\evil.example/',
      'javascript:alert(1)',
    ]) {
      await context.clearCookies();
      const page = await open(`/manage/api/login/?next=${encodeURIComponent(next)}`);
      assert.equal(await page.locator('input[name="next"]').count(), 0, next);
      await logIn(page);
      await page.waitForURL(`${base}/manage/api/`);
      assert.equal(await page.locator('h1').textContent(), 'Api Root', next);
      await page.close();
    }
  });

  it('shows wrong credentials on the login page, and logs in and out without script', async () => {
    await context.clearCookies();
    const page = await open('/manage/api/login/?next=/books/api/books/');
    await logIn(page, 'not the password');
    await page.locator('[data-status]', { hasText: 'HTTP 400' }).waitFor();
    assert.match(
      (await page.locator('#post-form .form-errors').textContent()) ?? '',
      /Unable to log in with provided credentials/,
    );
    await shot(page, 'person-login-error.png');
    await page.close();

    // Without JavaScript the form posts itself, with the CSRF token as a hidden field.
    const plain = await context.browser()?.newContext({ javaScriptEnabled: false });
    const noScript = plain ?? (await context.browser()!.newContext());
    const bare = await noScript.newPage();
    await bare.goto(`${base}/manage/api/login/?next=/manage/api/books/1/`);
    await bare.fill('#post-username', 'person');
    await bare.fill('#post-password', PASSWORD);
    await bare.click('#post-form button[data-method="POST"]');
    await bare.waitForURL(`${base}/manage/api/books/1/`);
    assert.equal(await bare.locator('[data-status]').textContent(), 'HTTP 200 OK');
    // And logs out from the header's button: the form posts the session's CSRF token as
    // csrfmiddlewaretoken (no script to send X-CSRFToken), and comes back to the page.
    const logout = bare.locator('nav.account form.logout-form');
    assert.equal(
      await logout.locator('input[name="csrfmiddlewaretoken"]').getAttribute('value'),
      (await noScript.cookies(base)).find((c) => c.name === 'csrftoken')?.value,
    );
    await logout.locator('button').click();
    await bare.waitForURL(`${base}/manage/api/books/1/`);
    await bare.locator('nav.account a.login').waitFor();
    assert.match((await bare.locator('[data-status]').textContent()) ?? '', /HTTP 40[13]/);
    const session = (await noScript.cookies(base)).find((c) => c.name === 'sessionid');
    assert.equal(session?.value ?? '', '', 'the session cookie is gone');
    await shot(bare, 'person-logged-out-without-script.png');
    await noScript.close();
  });

  it('logs out from the logout page’s button', async () => {
    await context.clearCookies();
    const page = await open('/manage/api/login/');
    await logIn(page);
    await page.waitForURL(`${base}/manage/api/`);
    await page.goto(`${base}/manage/api/logout/`);
    assert.equal(await page.locator('h1').textContent(), 'Session Logout');
    const button = page.locator('#post-form button[data-method="POST"]');
    await shot(page, 'person-logout-page.png');
    await button.click();
    await page.locator('[data-request-line]', { hasText: 'POST' }).waitFor();
    assert.equal(await page.locator('[data-status]').textContent(), 'HTTP 200 OK');
    assert.match((await page.locator('[data-body]').textContent()) ?? '', /Logged out/);
    const session = (await context.cookies(base)).find((c) => c.name === 'sessionid');
    assert.equal(session?.value ?? '', '');
    await page.close();
  });

  it('leaves untouched nulls null when a form PATCHes', async () => {
    const before = await json('/books/api/books/7/');
    assert.equal(before.description, null);
    assert.equal(before.summary, null);
    const page = await open('/books/api/books/7/');
    assert.equal(await page.inputValue('#edit-description'), '');
    await page.fill('#edit-title', 'Patched, nulls kept');
    await page.click('#edit-form button[data-method="PATCH"]');
    await page.locator('[data-request-line]', { hasText: 'PATCH' }).waitFor();
    assert.equal(await page.locator('[data-status]').textContent(), 'HTTP 200 OK');
    const after = await json('/books/api/books/7/');
    assert.equal(after.title, 'Patched, nulls kept');
    assert.equal(after.description, null);
    assert.equal(after.summary, null);
    // A value typed into a null field is sent.
    await page.fill('#edit-summary', 'Now a summary');
    await page.click('#edit-form button[data-method="PATCH"]');
    await page.locator('[data-body]', { hasText: 'Now a summary' }).waitFor();
    assert.equal((await json('/books/api/books/7/')).summary, 'Now a summary');
    assert.equal((await json('/books/api/books/7/')).description, null);
    await page.close();
  });

  it('opens the filter panel on demand, with inputs of each filter’s type', async () => {
    const page = await open('/books/api/books/');
    const panel = page.locator('details.filter-panel');
    assert.equal(await panel.getAttribute('open'), null, 'closed until asked for');
    const first = await page.locator('[data-response]').boundingBox();
    assert.ok(first && first.y < 450, `the response is on the first screen (at ${first?.y})`);
    await shot(page, 'person-filters-closed.png');
    await panel.locator('summary').click();
    assert.equal(await page.getAttribute('#filterset-publication_date__gte', 'type'), 'date');
    assert.equal(await page.getAttribute('#filterset-pages__gte', 'type'), 'number');
    assert.equal(await page.getAttribute('#filterset-price__lte', 'type'), 'number');
    assert.match(
      (await page.locator('#filterset-price__range-hint').textContent()) ?? '',
      /comma-separated/,
    );
    assert.equal(await page.getAttribute('#filterset-state__in', 'multiple'), '');
    await page.fill('#filterset-publication_date__gte', '2000-01-01');
    await page.selectOption('#filterset-state__in', ['published', 'in_progress']);
    await shot(page, 'person-filters-open.png');
    await page.click('form.filterset button[type="submit"]');
    await page.waitForURL(/state__in=/);
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('state__in'), 'published,in_progress');
    assert.equal(url.searchParams.get('publication_date__gte'), '2000-01-01');
    assert.equal(url.searchParams.has('title'), false, 'empty inputs are left out');
    const body = JSON.parse((await page.locator('[data-body]').textContent()) ?? '{}');
    const expected = await json(`/books/api/books/${url.search}`);
    assert.equal(body.count, expected.count);
    for (const book of body.results) {
      assert.ok(['published', 'in_progress'].includes(book.stock_information.state));
      assert.ok(book.publishing_information.publication_date >= '2000-01-01');
    }
    // With filters on, the panel is open and says how many.
    assert.equal(await page.locator('details.filter-panel').getAttribute('open'), '');
    assert.equal(await page.locator('details.filter-panel summary .badge').textContent(), '2');
    await page.close();
  });

  it('numbers the pages as DRF does', async () => {
    const page = await open('/books/api/books/');
    const numbers = async () =>
      page.locator('nav.pagination li').evaluateAll((lis) => lis.map((li) => li.textContent));
    assert.deepEqual(await numbers(), ['«', '1', '2', '3', '…', '10', '»']);
    assert.equal(await page.locator('nav.pagination [aria-current="page"]').textContent(), '1');
    await page.click('nav.pagination a:text-is("3")');
    await page.waitForURL(/page=3/);
    assert.deepEqual(await numbers(), ['«', '1', '2', '3', '4', '…', '10', '»']);
    await page.click('nav.pagination a:text-is("10")');
    await page.waitForURL(/page=10/);
    assert.deepEqual(await numbers(), ['«', '1', '…', '8', '9', '10', '»']);
    assert.equal(await page.locator('nav.pagination a[rel="next"]').count(), 0);
    await shot(page, 'person-pagination.png');
    await page.click('nav.pagination a:text-is("1")');
    await page.waitForURL(`${base}/books/api/books/`);
    await page.close();
  });

  it('met no Content-Security-Policy violation and no script error', () => {
    assert.deepEqual(problems, []);
  });
});
