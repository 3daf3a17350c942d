/**
 * Session authentication: login sets an HttpOnly, Secure, SameSite session cookie and a CSRF
 * cookie; the session authenticates reads; unsafe requests need the CSRF token and a same
 * origin (DRF's "CSRF Failed: ..." 403s); logout ends the session; generated cookies and CSRF
 * headers never make a 5xx.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  BrowsableAPIRenderer,
  createAuth,
  Database,
  DefaultRouter,
  JSONRenderer,
  PasswordHashers,
  restFramework,
  ScryptPasswordHasher,
  SessionLoginView,
} from '@restframework/core';
import { multipartBody } from '@restframework/core/testing';
import fc from 'fast-check';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  NotesViewSet,
  type SessionLogin,
  sessionApp,
  sessionLogin,
} from '../../fixtures/session-app.ts';

const auth = createAuth({
  hashers: new PasswordHashers([new ScryptPasswordHasher({ workFactor: 2 ** 10 })]),
  session: { trustedOrigins: ['https://app.example.org'] },
});
const PASSWORD = 'analytical engine';

describe('session authentication', () => {
  let db: Database;
  let app: FastifyInstance;
  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(auth.models);
    await db.run(() => auth.createUser({ username: 'ada', password: PASSWORD }));
    app = await sessionApp(auth, db);
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  async function login(headers: Record<string, string> = {}): Promise<SessionLogin> {
    const done = await sessionLogin(app, { username: 'ada', password: PASSWORD }, headers);
    assert.match(done.csrf, /^[0-9a-f]{64}$/);
    return done;
  }

  const notes = (method: 'GET' | 'POST', headers: Record<string, string>) =>
    app.inject({
      method,
      url: '/api/notes/',
      headers,
      ...(method === 'POST' ? { payload: {} } : {}),
    });

  it('logs in with secure cookie flags and authenticates reads by the session', async () => {
    const { session, cookies } = await login();
    assert.match(
      cookies[0] as string,
      /^sessionid=[0-9a-f]{64}; Max-Age=1209600; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
    assert.match(
      cookies[1] as string,
      /^csrftoken=[0-9a-f]{64}; Max-Age=1209600; Path=\/; Secure; SameSite=Lax$/,
    );
    const me = await notes('GET', { cookie: `sessionid=${session}` });
    assert.equal(me.statusCode, 200);
    assert.deepEqual(me.json(), { username: 'ada' });
    const [row] = await db.run(() => auth.Session.objects.execute());
    assert.notEqual(row?.digest, session, 'the key itself is not stored');
    const user = await db.run(() => auth.User.objects.get({ username: 'ada' }));
    assert.ok(user.last_login, 'last_login is set');
  });

  it('refuses unsafe requests without the CSRF token, with a wrong one or from another origin', async () => {
    const { session, csrf } = await login();
    const cookie = `sessionid=${session}`;
    const table: [Record<string, string>, number, string | null][] = [
      [{ cookie }, 403, 'CSRF Failed: CSRF token missing.'],
      [{ cookie, 'x-csrftoken': 'a'.repeat(64) }, 403, 'CSRF Failed: CSRF token incorrect.'],
      [{ cookie, 'x-csrftoken': 'short' }, 403, 'CSRF Failed: CSRF token incorrect.'],
      [
        { cookie, 'x-csrftoken': csrf, origin: 'https://evil.example' },
        403,
        'CSRF Failed: Origin checking failed - https://evil.example does not match any trusted origins.',
      ],
      [{ cookie, 'x-csrftoken': csrf }, 201, null],
      [{ cookie, 'x-csrftoken': csrf, origin: 'https://app.example.org' }, 201, null],
      [{ cookie, 'x-csrftoken': csrf, origin: 'http://localhost' }, 201, null],
    ];
    for (const [headers, status, detail] of table) {
      const response = await notes('POST', { host: 'localhost', ...headers });
      assert.equal(response.statusCode, status, `${JSON.stringify(headers)}: ${response.body}`);
      if (detail) assert.deepEqual(response.json(), { detail });
    }
  });

  it('takes the token from the form field csrfmiddlewaretoken of a form body, as Django', async () => {
    const { session, csrf } = await login();
    const cookie = `sessionid=${session}`;
    const host = 'localhost';
    const form = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url: '/api/notes/',
        headers: { host, cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: new URLSearchParams(fields).toString(),
      });
    const multipart = (fields: Record<string, string>) => {
      const body = multipartBody(fields);
      return app.inject({
        method: 'POST',
        url: '/api/notes/',
        headers: { host, cookie, ...body.headers },
        payload: body.payload,
      });
    };
    assert.equal((await form({ csrfmiddlewaretoken: csrf })).statusCode, 201);
    assert.equal((await multipart({ csrfmiddlewaretoken: csrf, note: 'x' })).statusCode, 201);
    const table: [Promise<{ statusCode: number; json(): unknown }>, string][] = [
      [form({}), 'CSRF token missing.'],
      [form({ csrfmiddlewaretoken: '' }), 'CSRF token missing.'],
      [multipart({ note: 'x' }), 'CSRF token missing.'],
      [form({ csrfmiddlewaretoken: 'a'.repeat(64) }), 'CSRF token incorrect.'],
      // The header, when sent, is the token: a right field does not mend a wrong header.
      [
        form({ csrfmiddlewaretoken: csrf }, { 'x-csrftoken': 'b'.repeat(64) }),
        'CSRF token incorrect.',
      ],
      [
        form({ csrfmiddlewaretoken: csrf }, { origin: 'https://evil.example' }),
        'Origin checking failed - https://evil.example does not match any trusted origins.',
      ],
    ];
    for (const [answer, reason] of table) {
      const response = await answer;
      assert.equal(response.statusCode, 403);
      assert.deepEqual(response.json(), { detail: `CSRF Failed: ${reason}` });
    }
    // A JSON body is no form: its key is not a token (a script sends the header).
    const json = await app.inject({
      method: 'POST',
      url: '/api/notes/',
      headers: { host, cookie },
      payload: { csrfmiddlewaretoken: csrf },
    });
    assert.equal(json.statusCode, 403);
    assert.deepEqual(json.json(), { detail: 'CSRF Failed: CSRF token missing.' });
    // Generated wrong tokens (other lengths, near misses, after a right one): 403, never a 5xx.
    const nearMiss = fc
      .tuple(fc.nat({ max: 63 }), fc.constantFrom(...'0123456789abcdef'))
      .map(([at, c]) => csrf.slice(0, at) + c + csrf.slice(at + 1))
      .filter((t) => t !== csrf);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          nearMiss,
          fc.string({ maxLength: 100 }).filter((t) => t !== csrf),
        ),
        fc.boolean(),
        fc.boolean(),
        async (token, asMultipart, repeated) => {
          const response = asMultipart
            ? await multipart({ csrfmiddlewaretoken: token })
            : await app.inject({
                method: 'POST',
                url: '/api/notes/',
                headers: { host, cookie, 'content-type': 'application/x-www-form-urlencoded' },
                // Repeated, the last value counts (Django's QueryDict): the right one first.
                payload: `${repeated ? `csrfmiddlewaretoken=${csrf}&` : ''}csrfmiddlewaretoken=${encodeURIComponent(token)}`,
              });
          assert.equal(
            response.statusCode,
            403,
            `${JSON.stringify(token)}: ${response.statusCode}`,
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it('answers anonymous callers 403 (no challenge), as DRF', async () => {
    const response = await notes('GET', {});
    assert.equal(response.statusCode, 403);
    assert.equal(response.headers['www-authenticate'], undefined);
    assert.deepEqual(response.json(), { detail: 'Authentication credentials were not provided.' });
  });

  it('logs out (with the CSRF token) and the session no longer works', async () => {
    const { session, csrf } = await login();
    const cookie = `sessionid=${session}`;
    const refused = await app.inject({ method: 'POST', url: '/api/logout/', headers: { cookie } });
    assert.equal(refused.statusCode, 403);
    const out = await app.inject({
      method: 'POST',
      url: '/api/logout/',
      headers: { cookie, 'x-csrftoken': csrf },
    });
    assert.equal(out.statusCode, 200, out.body);
    assert.match((out.headers['set-cookie'] as string[])[0] as string, /^sessionid=; Max-Age=0/);
    assert.equal((await notes('GET', { cookie })).statusCode, 403);
  });

  it('never answers generated cookies and CSRF headers with a 5xx', async () => {
    const { session } = await login();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.constant(`sessionid=${session}`),
          fc.string().map((s) => `sessionid=${s}`),
        ),
        fc.option(fc.string({ maxLength: 100 })),
        fc.constantFrom<'GET' | 'POST'>('GET', 'POST'),
        async (cookie, token, method) => {
          const headers: Record<string, string> = { cookie };
          if (token !== null) headers['x-csrftoken'] = token;
          let response: Awaited<ReturnType<typeof notes>>;
          try {
            response = await notes(method, headers);
          } catch {
            return; // a header Node refuses to send
          }
          assert.ok(
            [200, 201, 403].includes(response.statusCode),
            `${response.statusCode} ${response.body}`,
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('the strict Referer check over HTTPS (no Origin header)', () => {
  let db: Database;
  let app: FastifyInstance;
  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(auth.models);
    await db.run(() => auth.createUser({ username: 'ada', password: PASSWORD }));
    // Behind a proxy that ends TLS: X-Forwarded-Proto makes the request HTTPS.
    app = Fastify({ trustProxy: true });
    await app.register(restFramework, { database: db, settings: { AUTH: auth } });
    const router = new DefaultRouter()
      .register('login', SessionLoginView, { basename: 'login' })
      .register('notes', NotesViewSet, { basename: 'notes' });
    await app.register(router.plugin, { prefix: '/api' });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  it("refuses a missing, malformed, insecure or foreign Referer with Django's reasons", async () => {
    const { session, csrf } = await sessionLogin(
      app,
      { username: 'ada', password: PASSWORD },
      { host: 'localhost', 'x-forwarded-proto': 'https', referer: 'https://localhost/login/' },
    );
    const base = {
      host: 'localhost',
      'x-forwarded-proto': 'https',
      cookie: `sessionid=${session}`,
      'x-csrftoken': csrf,
    };
    const fail = (reason: string) => `CSRF Failed: Referer checking failed - ${reason}`;
    const table: [Record<string, string>, number, string | null][] = [
      [{}, 403, fail('no Referer.')],
      [{ referer: 'not a url' }, 403, fail('Referer is malformed.')],
      [{ referer: 'https://' }, 403, fail('Referer is malformed.')],
      [
        { referer: 'http://localhost/page' },
        403,
        fail('Referer is insecure while host is secure.'),
      ],
      [
        { referer: 'https://evil.example/form' },
        403,
        fail('https://evil.example/form does not match any trusted origins.'),
      ],
      [
        { referer: 'https://localhost.evil.example/' },
        403,
        fail('https://localhost.evil.example/ does not match any trusted origins.'),
      ],
      [{ referer: 'https://localhost/books/?page=2' }, 201, null],
      [{ referer: 'https://LOCALHOST:443/' }, 201, null],
      [{ referer: 'https://app.example.org/edit' }, 201, null],
      // An Origin header is checked instead of the Referer, as Django does.
      [{ origin: 'https://localhost' }, 201, null],
    ];
    for (const [headers, status, detail] of table) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/notes/',
        headers: { ...base, ...headers },
      });
      assert.equal(response.statusCode, status, `${JSON.stringify(headers)}: ${response.body}`);
      if (detail) assert.deepEqual(response.json(), { detail });
    }
    // Plain HTTP (development) has no Referer check: Django's is for HTTPS only.
    const plain = await app.inject({
      method: 'POST',
      url: '/api/notes/',
      headers: { ...base, 'x-forwarded-proto': 'http' },
    });
    assert.equal(plain.statusCode, 201, plain.body);
    // Safe methods are never checked.
    const read = await app.inject({ method: 'GET', url: '/api/notes/', headers: base });
    assert.equal(read.statusCode, 200, read.body);
  });
});

describe('the browsable API and a custom CSRF cookie', () => {
  it('names the cookie its script sends as X-CSRFToken', async () => {
    const custom = createAuth({ session: { csrfCookieName: 'xsrf' } });
    const app = Fastify();
    await app.register(restFramework, {
      database: Database.connect('sqlite::memory:'),
      settings: { AUTH: custom, DEFAULT_RENDERER_CLASSES: [JSONRenderer, BrowsableAPIRenderer] },
    });
    await app.register(
      new DefaultRouter().register('login', SessionLoginView, { basename: 'login' }).plugin,
      { prefix: '/api' },
    );
    try {
      const page = await app.inject({ url: '/api/login/', headers: { accept: 'text/html' } });
      assert.match(page.body, /<body data-csrf-cookie="xsrf">/);
    } finally {
      await app.close();
    }
  });
});
