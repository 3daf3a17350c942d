/**
 * The obtain-token view answers the user's existing token (DRF's `get_or_create`) while only
 * digests are stored: the same key at every login, one row per user; another process with the
 * same `tokenSecret` answers the same key, one with another secret makes its own. With
 * `tokenLifetimeSeconds`, an older token is refused (also from the opt-in cache) and replaced
 * at the next login. On every dialect (each reads `created` its own way).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createAuth,
  type Database,
  ObtainAuthToken,
  obtainToken,
  PasswordHashers,
  type Request,
  ScryptPasswordHasher,
  TokenAuthentication,
} from '@restframework/core';
import { assertImproperlyConfigured, testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../fixtures/http-app.ts';

const hashers = new PasswordHashers([new ScryptPasswordHasher({ workFactor: 2 ** 4 })]);
const SECRET = 'a token secret of thirty-two characters, shared';
const PASSWORD = 'difference engine no. 2';

for (const dialect of testDialects()) {
  describe(`token login (${dialect.name})`, { skip: dialect.skip }, () => {
    const auth = createAuth({ hashers, tokenSecret: SECRET, tokenLifetimeSeconds: 3600 });
    let db: Database;
    let app: FastifyInstance;
    let user: { id: number };
    before(async () => {
      db = await dialect.create();
      await db.migrate(auth.models);
      user = await db.run(() => auth.createUser({ username: 'ada', password: PASSWORD }));
      app = await buildApp({
        database: db,
        settings: { AUTH: auth, DEFAULT_THROTTLE_RATES: { login: null } },
        viewsets: [['token', ObtainAuthToken, { basename: 'token' }]],
      });
    });
    after(async () => {
      await app.close();
      await dialect.drop(db);
    });

    const login = async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/token/',
        payload: { username: 'ada', password: PASSWORD },
      });
      assert.equal(response.statusCode, 200, response.body);
      return response.json().token as string;
    };
    const authenticate = (key: string, as = auth) =>
      db.run(async () =>
        new TokenAuthentication().authenticate({
          settings: { AUTH: as },
          raw: { headers: { authorization: `Token ${key}` } },
        } as unknown as Request),
      );
    const tokens = () => db.run(() => auth.Token.objects.filter({ user_id: user.id }).execute());

    it("answers the user's existing token at every login, one row per user", async () => {
      const first = await login();
      assert.match(first, /^[0-9a-f]{40}$/);
      assert.equal(await login(), first);
      assert.equal(await login(), first);
      const rows = await tokens();
      assert.equal(rows.length, 1);
      assert.notEqual(rows[0]?.digest, first, 'only the digest is stored');
      assert.ok(await authenticate(first));
    });

    it('another process: the same secret answers the same key, another makes its own', async () => {
      const key = await login();
      const twin = createAuth({ hashers, tokenSecret: SECRET });
      assert.equal(await db.run(() => obtainToken(twin, user)), key);
      const stranger = createAuth({ hashers });
      const other = await db.run(() => obtainToken(stranger, user));
      assert.notEqual(other, key);
      assert.ok(await authenticate(key), 'the first token still works');
      assert.ok(await authenticate(other));
      assert.equal(await db.run(() => obtainToken(stranger, user)), other);
    });

    it('refuses a token older than tokenLifetimeSeconds, and the next login replaces it', async () => {
      const key = await login();
      const cached = createAuth({
        hashers,
        tokenSecret: SECRET,
        tokenLifetimeSeconds: 3600,
        tokenCacheSeconds: 60,
      });
      const setCreated = (created: string) =>
        db.run(() => auth.Token.objects.filter({ user_id: user.id }).update({ created }));
      // 1.5 s of life left: the cache keeps the token longer than that, and must refuse it
      // once its life is over.
      await setCreated(new Date(Date.now() - 3600 * 1000 + 1500).toISOString());
      assert.ok(await authenticate(key, cached), 'fresh, and now in the cache');
      await new Promise((resolve) => setTimeout(resolve, 1600));
      await assert.rejects(authenticate(key, cached), { message: 'Invalid token.' });
      const old = new Date(Date.now() - 3601 * 1000).toISOString();
      await setCreated(old);
      await assert.rejects(authenticate(key), { message: 'Invalid token.' });
      const next = await login();
      assert.notEqual(next, key);
      assert.ok(await authenticate(next));
      const rows = await tokens();
      assert.equal(rows.length, 1, 'the expired tokens are deleted at the login');
      // Without a lifetime the same row would never expire.
      const forever = createAuth({ hashers, tokenSecret: SECRET });
      await setCreated(old);
      assert.ok(await authenticate(next, forever));
    });
  });
}

describe('token settings', () => {
  it('refuses a short tokenSecret and a negative lifetime at start-up', () => {
    assertImproperlyConfigured(
      () => createAuth({ tokenSecret: 'short' }),
      'REST_ERR_AUTH_CONFIG',
      /tokenSecret must have 32 characters or more/,
    );
    assertImproperlyConfigured(
      () => createAuth({ tokenLifetimeSeconds: -1 }),
      'REST_ERR_AUTH_CONFIG',
      /tokenLifetimeSeconds must be 0/,
    );
  });
});
