/**
 * JWT authentication (simplejwt's contract) with HS256 and RS256: obtain a pair, authenticate
 * with the access token, refresh with rotation (a replayed refresh token is refused, also when
 * two replays race), blacklist on logout; forged tokens (`alg: none`, HS256 signed with the
 * RS256 public key, a changed payload, expired, a refresh token used as access, generated
 * garbage) all answered 401 with simplejwt's messages, never 5xx; configuration mistakes fail
 * at start-up.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  type Auth,
  type AuthenticationClass,
  createAuth,
  Database,
  DefaultRouter,
  IsAuthenticated,
  JWTAuthentication,
  type JwtOptions,
  ObtainAuthToken,
  PasswordHashers,
  type Request,
  Response,
  restFramework,
  ScryptPasswordHasher,
  TokenAuthentication,
  TokenBlacklistView,
  TokenObtainPairView,
  TokenRefreshView,
  TokenVerifyView,
  ViewSet,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import fc from 'fast-check';
import Fastify, { type FastifyInstance } from 'fastify';
import * as jose from 'jose';

const PASSWORD = 'a very long passphrase';
const hashers = new PasswordHashers([new ScryptPasswordHasher({ workFactor: 2 ** 10 })]);

class MeViewSet extends ViewSet {
  override authenticationClasses: readonly AuthenticationClass[] = [JWTAuthentication];
  override permissionClasses = [IsAuthenticated];
  list(request: Request) {
    return new Response({ username: request.user.username });
  }
}

async function appFor(auth: Auth, db: Database): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(restFramework, { database: db, settings: { AUTH: auth } });
  const router = new DefaultRouter()
    .register('token', TokenObtainPairView, { basename: 'token' })
    .register('token/refresh', TokenRefreshView, { basename: 'token-refresh' })
    .register('token/blacklist', TokenBlacklistView, { basename: 'token-blacklist' })
    .register('token/verify', TokenVerifyView, { basename: 'token-verify' })
    .register('me', MeViewSet, { basename: 'me' });
  await app.register(router.plugin, { prefix: '/api' });
  await app.ready();
  return app;
}

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const RS_PRIVATE = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const RS_PUBLIC = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const HS_SECRET = 'k'.repeat(48);

const configurations: [string, JwtOptions][] = [
  ['HS256', { algorithm: 'HS256', signingKey: HS_SECRET }],
  ['RS256', { algorithm: 'RS256', signingKey: RS_PRIVATE, verifyingKey: RS_PUBLIC }],
];

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

for (const [name, jwtOptions] of configurations) {
  describe(`JWT (${name})`, () => {
    const auth = createAuth({ hashers, jwt: jwtOptions });
    let db: Database;
    let app: FastifyInstance;
    before(async () => {
      db = Database.connect('sqlite::memory:');
      await db.migrate(auth.models);
      await db.run(() => auth.createUser({ username: 'ada', password: PASSWORD }));
      app = await appFor(auth, db);
    });
    after(async () => {
      await app.close();
      await db.close();
    });

    const post = (url: string, payload: object) => app.inject({ method: 'POST', url, payload });
    const me = (token: string) =>
      app.inject({ url: '/api/me/', headers: { authorization: `Bearer ${token}` } });
    const pair = async () => {
      const response = await post('/api/token/', { username: 'ada', password: PASSWORD });
      assert.equal(response.statusCode, 200, response.body);
      return response.json() as { access: string; refresh: string };
    };

    it('obtains a pair and authenticates with the access token only', async () => {
      const { access, refresh } = await pair();
      assert.equal(jose.decodeProtectedHeader(access).alg, name);
      const ok = await me(access);
      assert.equal(ok.statusCode, 200);
      assert.deepEqual(ok.json(), { username: 'ada' });
      const wrongType = await me(refresh);
      assert.equal(wrongType.statusCode, 401);
      assert.deepEqual(wrongType.json(), {
        detail: 'Given token not valid for any token type',
        code: 'token_not_valid',
        messages: [
          { token_class: 'AccessToken', token_type: 'access', message: 'Token has wrong type' },
        ],
      });
      assert.equal(wrongType.headers['www-authenticate'], 'Bearer realm="api"');
    });

    it('answers wrong credentials 401 alike for unknown users and wrong passwords', async () => {
      for (const credentials of [
        { username: 'ada', password: 'nope' },
        { username: 'ghost', password: PASSWORD },
      ]) {
        const response = await post('/api/token/', credentials);
        assert.equal(response.statusCode, 401);
        assert.deepEqual(response.json(), {
          detail: 'No active account found with the given credentials',
        });
      }
    });

    it('rotates refresh tokens and refuses a replayed one', async () => {
      const { refresh } = await pair();
      const first = await post('/api/token/refresh/', { refresh });
      assert.equal(first.statusCode, 200, first.body);
      const rotated = first.json();
      assert.ok(rotated.access && rotated.refresh && rotated.refresh !== refresh);
      const replay = await post('/api/token/refresh/', { refresh });
      assert.equal(replay.statusCode, 401);
      assert.deepEqual(replay.json(), { detail: 'Token is blacklisted', code: 'token_not_valid' });
      assert.equal(
        (await post('/api/token/refresh/', { refresh: rotated.refresh })).statusCode,
        200,
      );
    });

    it('lets only one of two racing refreshes of one token through', async () => {
      const { refresh } = await pair();
      const statuses = await Promise.all(
        [1, 2, 3].map(async () => (await post('/api/token/refresh/', { refresh })).statusCode),
      );
      assert.deepEqual(statuses.sort(), [200, 401, 401]);
    });

    it('blacklists a refresh token on logout', async () => {
      const { refresh } = await pair();
      assert.equal((await post('/api/token/blacklist/', { refresh })).statusCode, 200);
      const after = await post('/api/token/refresh/', { refresh });
      assert.equal(after.statusCode, 401);
      assert.equal((await post('/api/token/blacklist/', { refresh })).statusCode, 401);
    });

    it('answers as simplejwt: refresh and verify failures, a user gone inactive', async () => {
      const { access, refresh } = await pair();
      const invalid = { detail: 'Token is invalid or expired', code: 'token_not_valid' };
      const bad = await post('/api/token/refresh/', { refresh: `${refresh}x` });
      assert.equal(bad.statusCode, 401);
      assert.deepEqual(bad.json(), invalid);
      assert.equal(bad.headers['www-authenticate'], 'Bearer realm="api"');
      const wrongType = await post('/api/token/refresh/', { refresh: access });
      assert.deepEqual(wrongType.json(), {
        detail: 'Token has wrong type',
        code: 'token_not_valid',
      });

      for (const token of [access, refresh]) {
        const ok = await post('/api/token/verify/', { token });
        assert.equal(ok.statusCode, 200, ok.body);
        assert.deepEqual(ok.json(), {});
      }
      const forged = await post('/api/token/verify/', { token: `${access.slice(0, -2)}AA` });
      assert.equal(forged.statusCode, 401);
      assert.deepEqual(forged.json(), invalid);
      assert.equal((await post('/api/token/verify/', {})).statusCode, 400);
      assert.equal((await post('/api/token/blacklist/', { refresh })).statusCode, 200);
      assert.deepEqual((await post('/api/token/verify/', { token: refresh })).json(), {
        detail: 'Token is blacklisted',
        code: 'token_not_valid',
      });

      const twoWords = await app.inject({
        url: '/api/me/',
        headers: { authorization: `Bearer ${access} more` },
      });
      assert.equal(twoWords.statusCode, 401);
      assert.deepEqual(twoWords.json(), {
        detail: 'Authorization header must contain two space-delimited values',
        code: 'bad_authorization_header',
      });
      await db.run(() =>
        auth.User.objects.filter({ username: 'ada' }).update({ is_active: false }),
      );
      try {
        const inactive = await me(access);
        assert.equal(inactive.statusCode, 401);
        assert.deepEqual(inactive.json(), { detail: 'User is inactive', code: 'user_inactive' });
      } finally {
        await db.run(() =>
          auth.User.objects.filter({ username: 'ada' }).update({ is_active: true }),
        );
      }
    });

    it('refuses forged tokens: alg none, HS/RS confusion, changed payload, expired', async () => {
      const { access } = await pair();
      const [header, payload, signature] = access.split('.') as [string, string, string];
      const claims = jose.decodeJwt(access);
      const forged = [
        `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`,
        `${header}.${b64({ ...claims, user_id: 2 })}.${signature}`,
        await new jose.SignJWT({ ...claims })
          .setProtectedHeader({ alg: 'HS256' })
          .sign(new TextEncoder().encode(RS_PUBLIC)),
        await new jose.SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 })
          .setProtectedHeader({ alg: 'HS256' })
          .sign(new TextEncoder().encode(name === 'HS256' ? HS_SECRET : 'x'.repeat(48))),
        await new jose.SignJWT({ ...claims })
          .setProtectedHeader({ alg: 'HS256' })
          .sign(new TextEncoder().encode('another secret of enough length 123456')),
      ];
      for (const token of forged) {
        const response = await me(token);
        assert.equal(response.statusCode, 401, token);
        assert.deepEqual(response.json(), {
          detail: 'Given token not valid for any token type',
          code: 'token_not_valid',
          messages: [
            {
              token_class: 'AccessToken',
              token_type: 'access',
              message: 'Token is invalid or expired',
            },
          ],
        });
      }
      const unsigned = await post('/api/token/refresh/', {
        refresh: `${b64({ alg: 'none' })}.${b64({ ...claims, token_type: 'refresh' })}.`,
      });
      assert.equal(unsigned.statusCode, 401);
    });

    it('answers generated Bearer headers and refresh bodies 401/400, never 5xx', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string({ maxLength: 300 }),
            fc
              .tuple(fc.json(), fc.json(), fc.string())
              .map(([h, p, s]) => `${b64(h)}.${b64(p)}.${s}`),
          ),
          async (token) => {
            let response: Awaited<ReturnType<typeof me>>;
            try {
              response = await me(token);
            } catch {
              return;
            }
            assert.equal(response.statusCode, 401, `${response.body} for ${token}`);
            const refreshed = await post('/api/token/refresh/', { refresh: token });
            assert.ok([400, 401].includes(refreshed.statusCode), refreshed.body);
          },
        ),
        { numRuns: 100 },
      );
      const twoWords = await app.inject({
        url: '/api/me/',
        headers: { authorization: 'Bearer a b' },
      });
      assert.deepEqual(twoWords.json(), {
        detail: 'Authorization header must contain two space-delimited values',
        code: 'bad_authorization_header',
      });
    });
  });
}

describe('JWT configuration', () => {
  it('fails at start-up without jwt options, with a short secret or without PEM keys', async () => {
    const db = Database.connect('sqlite::memory:');
    await assert.rejects(appFor(createAuth({ hashers }), db), { code: 'REST_ERR_JWT_CONFIG' });
    // The token views alone (no JWTAuthentication anywhere) are checked too.
    const app = Fastify();
    await app.register(restFramework, {
      database: db,
      settings: { AUTH: createAuth({ hashers }) },
    });
    const router = new DefaultRouter().register('token', TokenObtainPairView, {
      basename: 'token',
    });
    await assert.rejects(
      async () => {
        await app.register(router.plugin);
        await app.ready();
      },
      { code: 'REST_ERR_JWT_CONFIG' },
    );
    assert.throws(() => createAuth({ jwt: { algorithm: 'HS256', signingKey: 'short' } }), {
      code: 'REST_ERR_JWT_CONFIG',
    });
    assert.throws(() => createAuth({ jwt: { algorithm: 'RS256', signingKey: HS_SECRET } }), {
      code: 'REST_ERR_JWT_CONFIG',
    });
    assert.throws(
      () => createAuth({ jwt: { algorithm: 'none' as 'HS256', signingKey: HS_SECRET } }),
      { code: 'REST_ERR_JWT_CONFIG' },
    );
    await db.close();
  });
});

for (const dialect of testDialects()) {
  describe(`refresh races and token lookups (${dialect.name})`, { skip: dialect.skip }, () => {
    const auth = createAuth({ hashers, jwt: { algorithm: 'HS256', signingKey: HS_SECRET } });
    let db: Database;
    let app: FastifyInstance;
    before(async () => {
      db = await dialect.create();
      await db.migrate(auth.models);
      await db.run(() => auth.createUser({ username: 'ada', password: PASSWORD }));
      app = Fastify();
      await app.register(restFramework, { database: db, settings: { AUTH: auth } });
      const router = new DefaultRouter()
        .register('token', TokenObtainPairView, { basename: 'token' })
        .register('token/refresh', TokenRefreshView, { basename: 'token-refresh' })
        .register('me', MeViewSet, { basename: 'me' })
        .register('api-token', ObtainAuthToken, { basename: 'api-token' })
        .register('token-me', TokenMeViewSet, { basename: 'token-me' });
      await app.register(router.plugin, { prefix: '/api' });
      await app.ready();
    });
    after(async () => {
      await app.close();
      await dialect.drop(db);
    });

    const post = (url: string, payload: object) => app.inject({ method: 'POST', url, payload });

    it('lets exactly one of eight concurrent refreshes of one token through', async () => {
      const { refresh } = (
        await post('/api/token/', { username: 'ada', password: PASSWORD })
      ).json();
      const statuses = await Promise.all(
        Array.from(
          { length: 8 },
          async () => (await post('/api/token/refresh/', { refresh })).statusCode,
        ),
      );
      assert.deepEqual(statuses.filter((status) => status === 200).length, 1, String(statuses));
      assert.ok(
        statuses.every((status) => status === 200 || status === 401),
        String(statuses),
      );
    });

    it('authenticates JWT and API tokens (lookups that wait for the database)', async () => {
      const { access } = (
        await post('/api/token/', { username: 'ada', password: PASSWORD })
      ).json();
      const me = await app.inject({
        url: '/api/me/',
        headers: { authorization: `Bearer ${access}` },
      });
      assert.deepEqual(me.json(), { username: 'ada' });
      const { token } = (
        await post('/api/api-token/', { username: 'ada', password: PASSWORD })
      ).json();
      const viaToken = await app.inject({
        url: '/api/token-me/',
        headers: { authorization: `Token ${token}` },
      });
      assert.deepEqual(viaToken.json(), { username: 'ada' });
      const wrong = await app.inject({
        url: '/api/token-me/',
        headers: { authorization: `Token ${'0'.repeat(40)}` },
      });
      assert.equal(wrong.statusCode, 401);
    });
  });
}

class TokenMeViewSet extends MeViewSet {
  override authenticationClasses: readonly AuthenticationClass[] = [TokenAuthentication];
}
