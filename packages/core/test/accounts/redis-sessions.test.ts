/**
 * Sessions in Redis (`RedisSessionStore`), through `inject()`: login keeps one key (the digest
 * of the session key, never the key) with the session's lifetime as TTL and nothing in
 * `auth_session`; reads, CSRF and logout work as with the database store; Redis's TTL ends a
 * session; a user made inactive is refused at once; an unreachable Redis is 503, never 500.
 * Runs when TEST_REDIS_URL is set.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  createAuth,
  Database,
  PasswordHashers,
  RedisSessionStore,
  ScryptPasswordHasher,
} from '@restframework/core';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { assertLoginCyclesKey, sessionApp, sessionLogin } from '../fixtures/session-app.ts';

const REDIS = process.env.TEST_REDIS_URL;
const PASSWORD = 'analytical engine';
const hashers = new PasswordHashers([new ScryptPasswordHasher({ workFactor: 2 ** 10 })]);

if (!REDIS) console.log('# TEST_REDIS_URL is not set: the RedisSessionStore tests are skipped');

describe('sessions in Redis', { skip: !REDIS && 'TEST_REDIS_URL is not set' }, () => {
  const prefix = `test-session-${randomUUID()}:`;
  const store = new RedisSessionStore({ url: REDIS ?? 'redis://unused', keyPrefix: prefix });
  const auth = createAuth({ hashers, session: { store, maxAgeSeconds: 60 } });
  const shortAuth = createAuth({
    hashers,
    session: { store, maxAgeSeconds: 1 },
  });
  let redis: Redis;
  let db: Database;
  let app: FastifyInstance;
  let shortApp: FastifyInstance;

  before(async () => {
    redis = new Redis(REDIS as string);
    db = Database.connect('sqlite::memory:');
    await db.migrate(auth.models);
    await db.run(() => auth.createUser({ username: 'ada', password: PASSWORD }));
    await store.ready();
    app = await sessionApp(auth, db);
    shortApp = await sessionApp(shortAuth, db);
  });
  after(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await store.close();
    await app.close();
    await shortApp.close();
    await db.close();
  });

  const login = (on: FastifyInstance, headers: Record<string, string> = {}) =>
    sessionLogin(on, { username: 'ada', password: PASSWORD }, headers);

  it('keeps the session in Redis with its lifetime as TTL, and logs out', async () => {
    const { session, csrf } = await login(app);
    const key = prefix + createHash('sha256').update(session).digest('hex');
    assert.equal(await redis.exists(key), 1);
    const ttl = await redis.ttl(key);
    assert.ok(ttl > 50 && ttl <= 60, `TTL ${ttl}`);
    assert.equal((await redis.get(key))?.includes(session), false, 'the key itself is not kept');
    assert.equal(await db.run(() => auth.Session.objects.count()), 0, 'nothing in auth_session');

    const cookie = `sessionid=${session}`;
    const me = await app.inject({ url: '/api/notes/', headers: { cookie } });
    assert.deepEqual(me.json(), { username: 'ada' });
    const noToken = await app.inject({ method: 'POST', url: '/api/notes/', headers: { cookie } });
    assert.deepEqual(noToken.json(), { detail: 'CSRF Failed: CSRF token missing.' });
    const created = await app.inject({
      method: 'POST',
      url: '/api/notes/',
      headers: { cookie, 'x-csrftoken': csrf },
    });
    assert.equal(created.statusCode, 201, created.body);

    const out = await app.inject({
      method: 'POST',
      url: '/api/logout/',
      headers: { cookie, 'x-csrftoken': csrf },
    });
    assert.equal(out.statusCode, 200, out.body);
    assert.equal(await redis.exists(key), 0);
    assert.equal((await app.inject({ url: '/api/notes/', headers: { cookie } })).statusCode, 403);
  });

  it('cycles the session key at every login: the previous session stops working', async () => {
    await assertLoginCyclesKey(app, { username: 'ada', password: PASSWORD });
  });

  it("ends a session when Redis's TTL expires it", async () => {
    const { session } = await login(shortApp);
    const cookie = `sessionid=${session}`;
    assert.equal(
      (await shortApp.inject({ url: '/api/notes/', headers: { cookie } })).statusCode,
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 2100));
    assert.equal(
      (await shortApp.inject({ url: '/api/notes/', headers: { cookie } })).statusCode,
      403,
    );
  });

  it('refuses the session of a user made inactive at once', async () => {
    const { session } = await login(app);
    const cookie = `sessionid=${session}`;
    await db.run(() => auth.User.objects.filter({ username: 'ada' }).update({ is_active: false }));
    try {
      assert.equal((await app.inject({ url: '/api/notes/', headers: { cookie } })).statusCode, 403);
    } finally {
      await db.run(() => auth.User.objects.filter({ username: 'ada' }).update({ is_active: true }));
    }
  });
});

describe('RedisSessionStore, unreachable', () => {
  it('answers 503 (never 500, never a session) when Redis does not answer', async () => {
    // Port 1 refuses connections: every command fails at once.
    const down = new RedisSessionStore({ url: 'redis://127.0.0.1:1', timeoutMs: 200 });
    const auth = createAuth({ hashers, session: { store: down } });
    const db = Database.connect('sqlite::memory:');
    await db.migrate(auth.models);
    const app = await sessionApp(auth, db);
    try {
      const cookie = `sessionid=${'a'.repeat(64)}`;
      const read = await app.inject({ url: '/api/notes/', headers: { cookie } });
      assert.equal(read.statusCode, 503, read.body);
      assert.equal(JSON.stringify(read.json()).includes('127.0.0.1'), false);
    } finally {
      await down.close();
      await app.close();
      await db.close();
    }
  });

  it('refuses a url and a client together (REST_ERR_SESSION_STORE)', () => {
    assert.throws(() => new RedisSessionStore({}), { code: 'REST_ERR_SESSION_STORE' });
  });
});
