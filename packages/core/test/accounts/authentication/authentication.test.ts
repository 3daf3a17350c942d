/**
 * Basic and token authentication and the obtain-token endpoint, through `inject()` and over
 * real HTTP: DRF's answers (401 with `WWW-Authenticate`, or 403), generated malformed headers
 * each answered 401 with one of DRF's messages and never 5xx, the same answer (and comparable
 * time) for an unknown user and a wrong password, throttled logins, and no secret in the logs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  BasicAuthentication,
  createAuth,
  Database,
  DefaultRouter,
  IsAuthenticated,
  issueToken,
  ObtainAuthToken,
  PasswordHashers,
  type Request,
  Response,
  restFramework,
  ScryptPasswordHasher,
  TokenAuthentication,
  ViewSet,
} from '@restframework/core';
import fc from 'fast-check';
import Fastify, { type FastifyInstance } from 'fastify';

/** Scrypt that records the cost parameters (`n$r$p`) of every hash it checks against. */
class RecordingHasher extends ScryptPasswordHasher {
  readonly checked: string[] = [];
  override verify(password: string, encoded: string): Promise<boolean> {
    this.checked.push(encoded.split('$').slice(2, 5).join('$'));
    return super.verify(password, encoded);
  }
}
const hasher = new RecordingHasher({ workFactor: 2 ** 12 });
const auth = createAuth({ hashers: new PasswordHashers([hasher]) });
const PASSWORD = 'difference engine no. 2';

class WhoAmIViewSet extends ViewSet {
  override authenticationClasses = [TokenAuthentication, BasicAuthentication];
  override permissionClasses = [IsAuthenticated];
  list(request: Request) {
    return new Response({ username: request.user.username, staff: request.user.isStaff });
  }
}

class BasicFirstViewSet extends WhoAmIViewSet {
  override authenticationClasses = [BasicAuthentication, TokenAuthentication];
}

const TOKEN_MESSAGES = new Set([
  'Invalid token header. No credentials provided.',
  'Invalid token header. Token string should not contain spaces.',
  'Invalid token header. Token string should not contain invalid characters.',
  'Invalid token.',
]);
const BASIC_MESSAGES = new Set([
  'Invalid basic header. No credentials provided.',
  'Invalid basic header. Credentials string should not contain spaces.',
  'Invalid basic header. Credentials not correctly base64 encoded.',
  'Invalid username/password.',
]);

describe('basic and token authentication', () => {
  let db: Database;
  let app: FastifyInstance;
  const logs: string[] = [];

  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(auth.models);
    await db.run(async () => {
      await auth.createUser({ username: 'ada', password: PASSWORD, is_staff: true });
      await auth.createUser({ username: 'idle', password: PASSWORD, is_active: false });
    });
    app = Fastify({
      logger: { level: 'trace', stream: { write: (line: string) => logs.push(line) } },
    });
    await app.register(restFramework, {
      database: db,
      settings: { AUTH: auth, DEFAULT_THROTTLE_RATES: { login: '30/min' } },
    });
    const router = new DefaultRouter()
      .register('token-auth', ObtainAuthToken, { basename: 'token-auth' })
      .register('whoami', WhoAmIViewSet, { basename: 'whoami' })
      .register('basic-first', BasicFirstViewSet, { basename: 'basic-first' });
    await app.register(router.plugin, { prefix: '/api' });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await db.close();
    // Nothing logged holds a password or a token key.
    const all = logs.join('\n');
    assert.ok(!all.includes(PASSWORD), 'a password was logged');
    assert.ok(!/[0-9a-f]{40}/.test(all), 'a token key was logged');
  });

  const whoami = (authorization?: string, url = '/api/whoami/') =>
    app.inject({ url, headers: authorization === undefined ? {} : { authorization } });
  const obtain = (payload: unknown) =>
    app.inject({ method: 'POST', url: '/api/token-auth/', payload: payload as object });

  it('obtains a token for good credentials and authenticates with it', async () => {
    const response = await obtain({ username: 'ada', password: PASSWORD });
    assert.equal(response.statusCode, 200, response.body);
    const { token } = response.json();
    assert.match(token, /^[0-9a-f]{40}$/);
    const me = await whoami(`Token ${token}`);
    assert.equal(me.statusCode, 200, me.body);
    assert.deepEqual(me.json(), { username: 'ada', staff: true });
    // DRF splits at runs of whitespace: two spaces still carry the key.
    assert.equal((await whoami(`Token  ${token}`)).statusCode, 200);
    const stored = await db.run(() => auth.Token.objects.execute());
    assert.ok(
      stored.every((row) => row.digest !== token),
      'the key itself is not stored',
    );
  });

  it('answers an unknown user, a wrong password and an inactive user the same', async () => {
    const bodies = await Promise.all(
      [
        { username: 'ada', password: 'wrong' },
        { username: 'nobody', password: PASSWORD },
        { username: 'idle', password: PASSWORD },
      ].map(async (credentials) => {
        const response = await obtain(credentials);
        return `${response.statusCode} ${response.body}`;
      }),
    );
    assert.deepEqual(
      new Set(bodies),
      new Set(['400 {"non_field_errors":["Unable to log in with provided credentials."]}']),
    );
  });

  it('hashes once, at the same cost, for an unknown user and for a wrong password', async () => {
    // What the time of a login depends on, counted rather than timed: both answers hash the
    // password once with the same parameters; only the row lookup differs.
    const hashesFor = async (username: string) => {
      hasher.checked.length = 0;
      const user = await db.run(() => auth.authenticate(username, 'wrong one'));
      assert.equal(user, null);
      return [...hasher.checked];
    };
    const known = await hashesFor('ada');
    const unknown = await hashesFor('nobody-at-all');
    assert.equal(known.length, 1);
    assert.deepEqual(unknown, known);
  });

  it("refuses malformed login bodies with DRF's field errors", async () => {
    const table: [unknown, unknown][] = [
      [{}, { username: ['This field is required.'], password: ['This field is required.'] }],
      [{ username: '', password: 'x' }, { username: ['This field may not be blank.'] }],
      [{ username: 5, password: 'x' }, { username: ['Not a valid string.'] }],
      [
        { username: 'ada', password: 'x'.repeat(5000) },
        { password: ['Ensure this field has no more than 4096 characters.'] },
      ],
    ];
    for (const [payload, errors] of table) {
      const response = await obtain(payload);
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), errors);
    }
  });

  it('asks for credentials with the first scheme as challenge', async () => {
    const token = await whoami();
    assert.equal(token.statusCode, 401);
    assert.equal(token.headers['www-authenticate'], 'Token');
    assert.deepEqual(token.json(), { detail: 'Authentication credentials were not provided.' });
    const basic = await whoami(undefined, '/api/basic-first/');
    assert.equal(basic.headers['www-authenticate'], 'Basic realm="api"');
  });

  it('authenticates Basic credentials; refuses wrong ones alike', async () => {
    const encode = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
    assert.equal((await whoami(encode(`ada:${PASSWORD}`))).statusCode, 200);
    for (const credentials of ['ada:wrong', `nobody:${PASSWORD}`, `idle:${PASSWORD}`]) {
      const response = await whoami(encode(credentials), '/api/basic-first/');
      assert.equal(response.statusCode, 401);
      assert.deepEqual(response.json(), { detail: 'Invalid username/password.' });
      assert.equal(response.headers['www-authenticate'], 'Basic realm="api"');
    }
  });

  it('answers generated malformed Token headers 401 with a DRF message, never 5xx', async () => {
    const header = fc.oneof(
      fc.constant('Token'),
      fc.constant('Token '),
      fc.string({ maxLength: 80 }).map((rest) => `Token ${rest}`),
      fc
        .tuple(
          fc.string({ minLength: 1, maxLength: 20 }),
          fc.string({ minLength: 1, maxLength: 20 }),
        )
        .map(([a, b]) => `Token ${a.trim() || 'a'} ${b.trim() || 'b'}`),
      fc.string({ minLength: 1, maxLength: 8000, unit: 'grapheme-ascii' }).map((s) => `Token ${s}`),
      fc.string({ minLength: 1, maxLength: 30, unit: 'grapheme' }).map((s) => `Token é${s}`),
    );
    await fc.assert(
      fc.asyncProperty(header, async (value) => {
        let response: Awaited<ReturnType<typeof whoami>>;
        try {
          response = await whoami(value);
        } catch {
          return; // a header Node itself refuses to send (control characters)
        }
        assert.equal(response.statusCode, 401, `${response.body} for ${JSON.stringify(value)}`);
        assert.ok(TOKEN_MESSAGES.has(response.json().detail), response.body);
        assert.equal(response.headers['www-authenticate'], 'Token');
      }),
      { numRuns: 150 },
    );
  });

  it('answers generated malformed Basic headers 401 with a DRF message, never 5xx', async () => {
    const header = fc.oneof(
      fc.constant('Basic'),
      fc.string({ maxLength: 100 }).map((rest) => `Basic ${rest}`),
      fc.string({ maxLength: 100 }).map((rest) => `Basic ${Buffer.from(rest).toString('base64')}`),
      fc
        .uint8Array({ maxLength: 64 })
        .map((bytes) => `Basic ${Buffer.from(bytes).toString('base64')}`),
    );
    await fc.assert(
      fc.asyncProperty(header, async (value) => {
        let response: Awaited<ReturnType<typeof whoami>>;
        try {
          response = await whoami(value, '/api/basic-first/');
        } catch {
          return;
        }
        assert.equal(response.statusCode, 401, `${response.body} for ${JSON.stringify(value)}`);
        const detail = response.json().detail;
        assert.ok(
          BASIC_MESSAGES.has(detail) || detail === 'Authentication credentials were not provided.',
          detail,
        );
      }),
      { numRuns: 150 },
    );
  });

  it('works over real HTTP', async () => {
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const { token } = (await (
      await fetch(`${address}/api/token-auth/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'ada', password: PASSWORD }),
      })
    ).json()) as { token: string };
    const me = await fetch(`${address}/api/whoami/`, {
      headers: { authorization: `Token ${token}` },
    });
    assert.equal(me.status, 200);
    assert.deepEqual(await me.json(), { username: 'ada', staff: true });
    const refused = await fetch(`${address}/api/whoami/`, {
      headers: { authorization: 'Token nope' },
    });
    assert.equal(refused.status, 401);
    assert.deepEqual(await refused.json(), { detail: 'Invalid token.' });
  });

  it('refuses a deleted token at once without a cache; with one, once forgotten', async () => {
    const cached = createAuth({
      hashers: auth.hashers,
      tokenCacheSeconds: 60,
    });
    const { token } = (await obtain({ username: 'ada', password: PASSWORD })).json();
    assert.equal((await whoami(`Token ${token}`)).statusCode, 200);
    await db.run(() => auth.Token.objects.delete());
    assert.equal((await whoami(`Token ${token}`)).statusCode, 401);
    // The same tables through an Auth that caches for a minute.
    const key = await db.run(async () => {
      const ada = await cached.User.objects.get({ username: 'ada' });
      return issueToken(cached, ada as { id: number });
    });
    const request = {
      settings: { AUTH: cached },
      raw: { headers: { authorization: `Token ${key}` } },
    };
    const authenticate = () =>
      db.run(async () => new TokenAuthentication().authenticate(request as unknown as Request));
    assert.ok(await authenticate());
    // Deleted behind the toolkit's back (raw SQL, another process): kept for the cache's time.
    await db.query(`delete from ${cached.Token.table}`, []);
    assert.ok(await authenticate(), 'kept for tokenCacheSeconds');
    cached.forgetTokens();
    await assert.rejects(authenticate(), { message: 'Invalid token.' });
    assert.throws(() => createAuth({ tokenCacheSeconds: -1 }), { code: 'REST_ERR_AUTH_CONFIG' });
  });

  it('refuses the token of a user made inactive at once, and reads the token row as request.auth', async () => {
    const { token } = (await obtain({ username: 'ada', password: PASSWORD })).json();
    const request = {
      settings: { AUTH: auth },
      raw: { headers: { authorization: `Token ${token}` } },
    };
    const authenticate = () =>
      db.run(async () => new TokenAuthentication().authenticate(request as unknown as Request));
    const found = await authenticate();
    assert.ok(found);
    const [user, row] = found as readonly [Record<string, unknown>, Record<string, unknown>];
    assert.equal(user.username, 'ada');
    assert.equal(user.isAuthenticated, true);
    assert.equal('password' in user, false, 'the hash never reaches request.user');
    const stored = await db.run(() => auth.Token.objects.get({ digest: row.digest as string }));
    assert.deepEqual({ ...row }, { ...stored });
    await db.run(() => auth.User.objects.filter({ username: 'ada' }).update({ is_active: false }));
    try {
      assert.equal((await whoami(`Token ${token}`)).statusCode, 401);
      assert.deepEqual((await whoami(`Token ${token}`)).json(), {
        detail: 'User inactive or deleted.',
      });
    } finally {
      await db.run(() => auth.User.objects.filter({ username: 'ada' }).update({ is_active: true }));
    }
    assert.equal((await whoami(`Token ${token}`)).statusCode, 200);
  });

  it('throttles login attempts (429 with Retry-After)', async () => {
    let last = 0;
    let retryAfter: string | undefined;
    for (let i = 0; i < 40 && last !== 429; i++) {
      const response = await obtain({ username: 'ada', password: 'wrong' });
      last = response.statusCode;
      retryAfter = response.headers['retry-after'] as string | undefined;
    }
    assert.equal(last, 429);
    assert.ok(Number(retryAfter) > 0);
  });
});
