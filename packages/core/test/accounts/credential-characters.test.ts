/**
 * Unusable characters in credentials (NUL, lone surrogates, other control characters), on
 * every credential entry point and every dialect: the token login, the session login and the
 * JWT pair answer the usual field error (400 `{"username": [...]}` / `{"password": [...]}`),
 * Basic authentication its 401, `changePassword` a `ValidationError`; never a 500, and the
 * same answer and the same hashing work (none) for a known and an unknown user.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  BasicAuthentication,
  changePassword,
  createAuth,
  type Database,
  IsAuthenticated,
  ObtainAuthToken,
  PasswordHashers,
  type Request,
  Response,
  ScryptPasswordHasher,
  SessionLoginView,
  TokenObtainPairView,
  ValidationError,
  ViewSet,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { countPasswordHashes } from '../fixtures/hash-counter.ts';
import { buildApp } from '../fixtures/http-app.ts';

const PASSWORD = 'analytical engine';

class MeViewSet extends ViewSet {
  override authenticationClasses = [BasicAuthentication];
  override permissionClasses = [IsAuthenticated];
  list(request: Request) {
    return new Response({ username: request.user.username });
  }
}

/** What the test expects for a text: the message of its first kind of unusable character. */
function expectedMessage(text: string): string | null {
  if (text.includes('\0')) return 'Null characters are not allowed.';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const high = unit >= 0xd800 && unit <= 0xdbff;
    const low = unit >= 0xdc00 && unit <= 0xdfff;
    const next = text.charCodeAt(i + 1);
    if (high && next >= 0xdc00 && next <= 0xdfff) {
      i++;
      continue;
    }
    if (high || low)
      return `Surrogate characters are not allowed: U+${unit.toString(16).toUpperCase()}.`;
  }
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return 'Control characters are not allowed.';
  }
  return null;
}

/** Text with at least one unusable character somewhere in it. */
const unusable = fc
  .tuple(
    fc.string({ maxLength: 12 }),
    fc.constantFrom('\0', '\uD800', '\uDFFF', '\u0001', '\t', '\n', '\u001F', '\u007F', '\u0085'),
    fc.string({ maxLength: 12 }),
  )
  .map(([before, bad, after]) => `${before}${bad}${after}`);

for (const dialect of testDialects()) {
  describe(`unusable characters in credentials (${dialect.name})`, { skip: dialect.skip }, () => {
    const auth = createAuth({
      hashers: new PasswordHashers([new ScryptPasswordHasher({ workFactor: 2 ** 4 })]),
      jwt: { algorithm: 'HS256', signingKey: 'a test secret of thirty-two characters!' },
    });
    let hashes: () => number;
    let db: Database;
    let app: FastifyInstance;
    before(async () => {
      db = await dialect.create();
      await db.migrate(auth.models);
      await db.run(() => auth.createUser({ username: 'ada', password: PASSWORD }));
      hashes = countPasswordHashes(auth);
      app = await buildApp({
        database: db,
        // Generated runs are many logins: no login throttle here.
        settings: { AUTH: auth, DEFAULT_THROTTLE_RATES: { login: null } },
        viewsets: [
          ['token', ObtainAuthToken, { basename: 'token' }],
          ['login', SessionLoginView, { basename: 'login' }],
          ['jwt', TokenObtainPairView, { basename: 'jwt' }],
          ['me', MeViewSet, { basename: 'me' }],
        ],
      });
    });
    after(async () => {
      await app.close();
      await dialect.drop(db);
    });

    const csrf = 'a'.repeat(64);
    const login = (url: string, username: string, password: string) =>
      app.inject({
        method: 'POST',
        url,
        headers: { cookie: `csrftoken=${csrf}`, 'x-csrftoken': csrf },
        payload: { username, password },
      });
    const basic = (username: string, password: string) =>
      app.inject({
        url: '/api/me/',
        headers: {
          authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
        },
      });

    it('the issue: a NUL in the login username is a field error, not an internal message', async () => {
      const response = await login('/api/token/', 'ada\0', PASSWORD);
      assert.equal(response.statusCode, 400, response.body);
      assert.deepEqual(response.json(), { username: ['Null characters are not allowed.'] });
    });

    it('refuses generated unusable credentials on every entry point, alike for known and unknown users', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.record({ username: unusable, password: fc.constant(PASSWORD) }),
            fc.record({ username: fc.constantFrom('ada', 'nobody'), password: unusable }),
            fc.record({ username: unusable, password: unusable }),
          ),
          async ({ username, password }) => {
            const errors: Record<string, string[]> = {};
            const forName = expectedMessage(username);
            const forPassword = expectedMessage(password);
            if (forName) errors.username = [forName];
            if (forPassword) errors.password = [forPassword];
            assert.ok(forName || forPassword);
            const before = hashes();
            for (const url of ['/api/token/', '/api/login/', '/api/jwt/']) {
              const response = await login(url, username, password);
              assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
              assert.deepEqual(response.json(), errors, url);
              assert.equal(response.headers['set-cookie'], undefined);
            }
            assert.equal(hashes(), before, 'no password hashed for a refused login');
            // Basic: its contract is 401 for any wrong credentials; one dummy hash, as for
            // an unknown user.
            const refused = await basic(username, password);
            assert.equal(refused.statusCode, 401, refused.body);
            const detail = refused.json().detail;
            assert.ok(
              detail === 'Invalid username/password.' ||
                detail === 'Invalid basic header. Credentials not correctly base64 encoded.',
              detail,
            );
            assert.ok(hashes() - before <= 1);
            if (password !== PASSWORD) {
              await assert.rejects(
                changePassword(db, 'ada', password, {}, auth),
                (error) =>
                  error instanceof ValidationError &&
                  JSON.stringify(error.detail) === JSON.stringify({ password: [forPassword] }),
              );
            }
          },
        ),
        { numRuns: 40 },
      );
    });

    it('still logs in with usable credentials', async () => {
      assert.equal((await login('/api/token/', 'ada', PASSWORD)).statusCode, 200);
      assert.equal((await basic('ada', PASSWORD)).statusCode, 200);
      // Known and unknown users with a NUL: the same answer.
      const known = await basic('ada\0', PASSWORD);
      const unknown = await basic('nobody\0', PASSWORD);
      assert.deepEqual([known.statusCode, known.json()], [unknown.statusCode, unknown.json()]);
    });
  });
}
