/**
 * The session login as Django's `LoginView` protects it: the `csrftoken` cookie (from a GET of
 * the login route) must come back as `X-CSRFToken` or the form field `csrfmiddlewaretoken`,
 * and a foreign `Origin` (or, over HTTPS, a foreign or missing `Referer`) is refused with 403
 * before the credentials are read: no password hash, no login attempt counted, no cookie. A
 * login also cycles the session key: the session the request carried stops working.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createAuth,
  Database,
  DefaultRouter,
  PasswordHashers,
  restFramework,
  ScryptPasswordHasher,
  SessionLoginView,
} from '@restframework/core';
import fc from 'fast-check';
import Fastify, { type FastifyInstance } from 'fastify';
import { countPasswordHashes } from '../../fixtures/hash-counter.ts';
import { assertLoginCyclesKey, sessionApp, sessionLogin } from '../../fixtures/session-app.ts';

const PASSWORD = 'analytical engine';

describe('login CSRF', () => {
  const auth = createAuth({
    hashers: new PasswordHashers([new ScryptPasswordHasher({ workFactor: 2 ** 10 })]),
    session: { trustedOrigins: ['https://app.example.org'] },
  });
  let db: Database;
  let app: FastifyInstance;
  let checks: () => number;
  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(auth.models);
    await db.run(() => auth.createUser({ username: 'ada', password: PASSWORD }));
    checks = countPasswordHashes(auth);
    app = await sessionApp(auth, db);
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  const form = `username=ada&password=${encodeURIComponent(PASSWORD)}`;
  const post = (headers: Record<string, string>, payload: string | object = form) =>
    app.inject({
      method: 'POST',
      url: '/api/login/',
      headers: {
        ...(typeof payload === 'string'
          ? { 'content-type': 'application/x-www-form-urlencoded' }
          : {}),
        ...headers,
      },
      payload,
    });

  it('GET sets the csrftoken cookie once and answers the token', async () => {
    const first = await app.inject({ url: '/api/login/' });
    assert.equal(first.statusCode, 200, first.body);
    const token = first.json().csrfToken as string;
    assert.match(token, /^[0-9a-f]{64}$/);
    assert.match(
      String(first.headers['set-cookie']),
      new RegExp(`^csrftoken=${token}; Max-Age=1209600; Path=/; Secure; SameSite=Lax$`),
    );
    const again = await app.inject({
      url: '/api/login/',
      headers: { cookie: `csrftoken=${token}` },
    });
    assert.deepEqual(again.json(), { csrfToken: token });
    assert.equal(again.headers['set-cookie'], undefined, 'a valid cookie is kept');
    const junk = await app.inject({ url: '/api/login/', headers: { cookie: 'csrftoken=junk' } });
    assert.notEqual(junk.json().csrfToken, 'junk');
  });

  it('refuses a cross-site or tokenless login with 403, before any hash or throttle', async () => {
    const token = (await app.inject({ url: '/api/login/' })).json().csrfToken as string;
    const cookie = `csrftoken=${token}`;
    const origin = (value: string) =>
      `CSRF Failed: Origin checking failed - ${value} does not match any trusted origins.`;
    const table: [Record<string, string>, string | object, string][] = [
      // The attack of the issue: a form posted from another site, with or without the token.
      [{ origin: 'http://evil.example' }, form, origin('http://evil.example')],
      [
        { origin: 'http://evil.example', cookie, 'x-csrftoken': token },
        form,
        origin('http://evil.example'),
      ],
      [{}, form, 'CSRF Failed: CSRF cookie not set.'],
      [{ cookie: 'csrftoken=short' }, form, 'CSRF Failed: CSRF cookie not set.'],
      [{ cookie }, form, 'CSRF Failed: CSRF token missing.'],
      [{ cookie }, { username: 'ada', password: PASSWORD }, 'CSRF Failed: CSRF token missing.'],
      [{ cookie, 'x-csrftoken': 'b'.repeat(64) }, form, 'CSRF Failed: CSRF token incorrect.'],
      [
        { cookie },
        `${form}&csrfmiddlewaretoken=${'c'.repeat(64)}`,
        'CSRF Failed: CSRF token incorrect.',
      ],
      [{ 'x-csrftoken': token }, form, 'CSRF Failed: CSRF cookie not set.'],
    ];
    const before = checks();
    // More refusals than the login rate (10 a minute) allows attempts: none of them counts.
    for (let round = 0; round < 2; round++) {
      for (const [headers, payload, detail] of table) {
        const response = await post({ host: 'localhost', ...headers }, payload);
        assert.equal(response.statusCode, 403, `${JSON.stringify(headers)}: ${response.body}`);
        assert.deepEqual(response.json(), { detail });
        assert.equal(response.headers['set-cookie'], undefined, 'no cookie for a refused login');
      }
    }
    assert.equal(checks(), before, 'no password was hashed for a refused login');
    assert.equal(await db.run(() => auth.Session.objects.count()), 0);
    // The form field works as the header does, and the throttle still has every attempt.
    const good = await post(
      { host: 'localhost', cookie, origin: 'http://localhost' },
      `${form}&csrfmiddlewaretoken=${token}`,
    );
    assert.equal(good.statusCode, 200, good.body);
    assert.equal(checks(), before + 1);
    const trusted = await post({ cookie, 'x-csrftoken': token, origin: 'https://app.example.org' });
    assert.equal(trusted.statusCode, 200, trusted.body);
  });

  it('over HTTPS without an Origin, refuses a missing or foreign Referer', async () => {
    // Behind a proxy that ends TLS: X-Forwarded-Proto makes the request HTTPS.
    const httpsApp = Fastify({ trustProxy: true });
    await httpsApp.register(restFramework, { database: db, settings: { AUTH: auth } });
    await httpsApp.register(
      new DefaultRouter().register('login', SessionLoginView, { basename: 'login' }).plugin,
      { prefix: '/api' },
    );
    try {
      const https = { host: 'localhost', 'x-forwarded-proto': 'https' };
      const page = await httpsApp.inject({ url: '/api/login/', headers: https });
      const token = page.json().csrfToken as string;
      const base = { ...https, cookie: `csrftoken=${token}`, 'x-csrftoken': token };
      const fail = (reason: string) => `CSRF Failed: Referer checking failed - ${reason}`;
      const before = checks();
      for (const [headers, detail] of [
        [{}, fail('no Referer.')],
        [
          { referer: 'https://evil.example/' },
          fail('https://evil.example/ does not match any trusted origins.'),
        ],
        [{ referer: 'http://localhost/' }, fail('Referer is insecure while host is secure.')],
      ] as const) {
        const response = await httpsApp.inject({
          method: 'POST',
          url: '/api/login/',
          headers: { ...base, ...headers },
          payload: { username: 'ada', password: PASSWORD },
        });
        assert.equal(response.statusCode, 403, JSON.stringify(headers));
        assert.deepEqual(response.json(), { detail }, JSON.stringify(headers));
      }
      assert.equal(checks(), before, 'no password was hashed');
      const good = await httpsApp.inject({
        method: 'POST',
        url: '/api/login/',
        headers: { ...base, referer: 'https://localhost/login/' },
        payload: { username: 'ada', password: PASSWORD },
      });
      assert.equal(good.statusCode, 200, good.body);
    } finally {
      await httpsApp.close();
    }
  });

  it('cycles the session key at every login: the previous session stops working', async () => {
    await assertLoginCyclesKey(app, { username: 'ada', password: PASSWORD });
  });

  it('answers generated forged logins 403 and never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.option(fc.webUrl().map((url) => new URL(url).origin)),
        fc.option(fc.string({ maxLength: 80 })),
        fc.option(fc.string({ maxLength: 80 })),
        async (origin, cookieToken, headerToken) => {
          const headers: Record<string, string> = { host: 'localhost' };
          if (origin !== null) headers.origin = origin;
          if (cookieToken !== null) headers.cookie = `csrftoken=${cookieToken}`;
          if (headerToken !== null) headers['x-csrftoken'] = headerToken;
          let response: Awaited<ReturnType<typeof post>>;
          try {
            response = await post(headers);
          } catch {
            return; // a header Node refuses to send
          }
          const valid =
            (origin === null ||
              origin === 'http://localhost' ||
              origin === 'https://app.example.org') &&
            cookieToken !== null &&
            /^[0-9a-f]{64}$/.test(cookieToken) &&
            headerToken === cookieToken;
          assert.equal(response.statusCode, valid ? 200 : 403, response.body);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('a login through the helper', () => {
  it('works end to end', async () => {
    const auth = createAuth({
      hashers: new PasswordHashers([new ScryptPasswordHasher({ workFactor: 2 ** 10 })]),
    });
    const db = Database.connect('sqlite::memory:');
    await db.migrate(auth.models);
    await db.run(() => auth.createUser({ username: 'ada', password: PASSWORD }));
    const app = await sessionApp(auth, db);
    try {
      const { session } = await sessionLogin(app, { username: 'ada', password: PASSWORD });
      const me = await app.inject({
        url: '/api/notes/',
        headers: { cookie: `sessionid=${session}` },
      });
      assert.deepEqual(me.json(), { username: 'ada' });
    } finally {
      await app.close();
      await db.close();
    }
  });
});
