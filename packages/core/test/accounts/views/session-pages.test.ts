/**
 * The session login and logout as pages (the browsable API, `Accept: text/html`), as Django's
 * login and logout pages: the login form carries `next` and the CSRF token, a login sends the
 * browser on (303) to `next` when it is a path of this service and to the router's root
 * otherwise (never to another site), a logout with a safe `next` goes there; JSON clients get
 * the JSON answers as before. View names are DRF's: "Session Login", not "Session Login List".
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  BrowsableAPIRenderer,
  createAuth,
  Database,
  JSONRenderer,
  PasswordHashers,
  ScryptPasswordHasher,
  SessionLoginView,
  SessionLogoutView,
} from '@restframework/core';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../fixtures/http-app.ts';
import { NotesViewSet } from '../../fixtures/session-app.ts';

const PASSWORD = 'difference engine';

describe('session login and logout pages', () => {
  const auth = createAuth({
    hashers: new PasswordHashers([new ScryptPasswordHasher({ workFactor: 2 ** 10 })]),
  });
  let db: Database;
  let app: FastifyInstance;
  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(auth.models);
    await db.run(() => auth.createUser({ username: 'ada', password: PASSWORD }));
    app = await buildApp({
      database: db,
      settings: {
        AUTH: auth,
        DEFAULT_RENDERER_CLASSES: [JSONRenderer, BrowsableAPIRenderer],
        DEFAULT_THROTTLE_RATES: { login: '10000/min' },
      },
      viewsets: [
        ['login', SessionLoginView, { basename: 'login' }],
        ['logout', SessionLogoutView, { basename: 'logout' }],
        ['notes', NotesViewSet, { basename: 'notes' }],
      ],
    });
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  const TOKEN = 'a'.repeat(64);
  const html = { accept: 'text/html', cookie: `csrftoken=${TOKEN}` };
  const logIn = (query: string, headers: Record<string, string> = html, next?: string) =>
    app.inject({
      method: 'POST',
      url: `/api/login/${query}`,
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        username: 'ada',
        password: PASSWORD,
        csrfmiddlewaretoken: TOKEN,
        ...(next === undefined ? {} : { next }),
      }).toString(),
    });

  it('is a page: DRF’s title, a form with next and the CSRF token of the cookie', async () => {
    const page = await app.inject({ url: '/api/login/?next=%2Fapi%2Fnotes%2F', headers: html });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<h1>Session Login<\/h1>/);
    assert.match(page.body, /<input type="hidden" name="next" value="\/api\/notes\/">/);
    assert.match(
      page.body,
      new RegExp(`<input type="hidden" name="csrfmiddlewaretoken" value="${TOKEN}">`),
    );
    // A first visit: the token of the cookie set by this very answer, not another.
    const first = await app.inject({ url: '/api/login/', headers: { accept: 'text/html' } });
    const set = /csrftoken=([0-9a-f]{64})/.exec(String(first.headers['set-cookie']))?.[1];
    assert.ok(set);
    assert.match(first.body, new RegExp(`name="csrfmiddlewaretoken" value="${set}"`));
    assert.equal(
      (first.headers['set-cookie'] as string | string[]).toString().split('csrftoken=').length,
      2,
    );
    // An unsafe next is not carried.
    const evil = await app.inject({ url: '/api/login/?next=%2F%2Fevil.example%2F', headers: html });
    assert.doesNotMatch(evil.body, /name="next"/);
    const logout = await app.inject({ url: '/api/logout/', headers: html });
    assert.match(logout.body, /<h1>Session Logout<\/h1>/);
    assert.match(logout.body, /<button[^>]*data-method="POST"[^>]*>POST<\/button>/);
    // As DRF's page of an APIView: a raw-data form too, JSON first.
    assert.match(logout.body, /<form[^>]*id="raw-post-form"/);
    assert.match(logout.body, /<option value="application\/json" selected>/);
  });

  it('sends a browser on to next (query or form field), else to the router’s root', async () => {
    const query = await logIn('?next=%2Fapi%2Fnotes%2F%3Fa%3D1');
    assert.equal(query.statusCode, 303, query.body);
    assert.equal(query.headers.location, '/api/notes/?a=1');
    assert.match(String(query.headers['set-cookie']), /sessionid=/);
    const field = await logIn('', html, '/api/notes/');
    assert.equal(field.headers.location, '/api/notes/');
    const none = await logIn('');
    assert.equal(none.headers.location, '/api/');
  });

  it('never sends a browser to another site, whatever next says', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.webUrl(),
          fc.constantFrom('//evil.example/', '/\\evil.example', '/\t/evil.example', 'javascript:x'),
          fc.string(),
        ),
        async (next) => {
          const response = await logIn(`?next=${encodeURIComponent(next)}`);
          assert.equal(response.statusCode, 303);
          const location = String(response.headers.location);
          assert.equal(
            new URL(location, 'http://service.example/').origin,
            'http://service.example',
          );
          assert.ok(location === '/api/' || location === next, location);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('keeps the JSON answers for JSON clients', async () => {
    const response = await logIn('?next=%2Fapi%2Fnotes%2F', {
      accept: 'application/json',
      cookie: `csrftoken=${TOKEN}`,
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().username, 'ada');
  });

  it('logs out to a safe next in a browser; JSON otherwise', async () => {
    const login = await logIn('');
    const session = /sessionid=([0-9a-f]+)/.exec(String(login.headers['set-cookie']))?.[1];
    const csrf = /csrftoken=([0-9a-f]{64})/.exec(String(login.headers['set-cookie']))?.[1];
    const cookie = `sessionid=${session}; csrftoken=${csrf}`;
    const out = await app.inject({
      method: 'POST',
      url: '/api/logout/?next=%2Fapi%2Fnotes%2F',
      headers: { accept: 'text/html', cookie, 'x-csrftoken': csrf as string },
    });
    assert.equal(out.statusCode, 303, out.body);
    assert.equal(out.headers.location, '/api/notes/');
    const evil = await app.inject({
      method: 'POST',
      url: '/api/logout/?next=https%3A%2F%2Fevil.example%2F',
      headers: { accept: 'text/html', cookie, 'x-csrftoken': csrf as string },
    });
    assert.equal(evil.statusCode, 200);
    assert.equal(evil.headers.location, undefined);
    const json = await app.inject({
      method: 'POST',
      url: '/api/logout/?next=%2Fapi%2Fnotes%2F',
      headers: { accept: 'application/json', cookie, 'x-csrftoken': csrf as string },
    });
    assert.deepEqual(json.json(), { detail: 'Logged out.' });
  });

  it('shows the user in the header of a page, with a logout button back to it', async () => {
    const login = await logIn('');
    const session = /sessionid=([0-9a-f]+)/.exec(String(login.headers['set-cookie']))?.[1];
    const page = await app.inject({
      url: '/api/notes/',
      headers: { accept: 'text/html', cookie: `sessionid=${session}` },
    });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<span class="user">ada<\/span>/);
    assert.match(
      page.body,
      /<form class="logout-form" action="\/api\/logout\/\?next=%2Fapi%2Fnotes%2F"/,
    );
    const anonymous = await app.inject({ url: '/api/notes/', headers: { accept: 'text/html' } });
    assert.match(
      anonymous.body,
      /<a class="login" href="\/api\/login\/\?next=%2Fapi%2Fnotes%2F">Log in<\/a>/,
    );
  });
});
