/**
 * The bookstore on Redis (`REDIS_URL`): two apps, as two processes of the service would be,
 * share one throttle count (the login limit holds across them) and one set of sessions (a
 * login on one is a login on the other), and nothing of the session is in the database.
 * Runs when TEST_REDIS_URL is set.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Database } from '@restframework/core';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from '../src/app.ts';
import { auth } from '../src/auth.ts';
import { readConfig } from '../src/config.ts';
import { ALL_MODELS } from '../src/models/index.ts';

const REDIS = process.env.TEST_REDIS_URL;
const PASSWORD = 'the stacks are quiet tonight';
const HOST = { host: '127.0.0.1' };

if (!REDIS) console.log('# TEST_REDIS_URL is not set: the bookstore Redis tests are skipped');

describe('REDIS_URL', () => {
  it('is read with its key prefix; without it there is no Redis', () => {
    assert.deepEqual(
      [readConfig({}).redisUrl, readConfig({}).redisKeyPrefix],
      [undefined, 'bookstore:'],
    );
    const config = readConfig({ REDIS_URL: 'redis://cache:6379/2', REDIS_KEY_PREFIX: 'shop:' });
    assert.deepEqual([config.redisUrl, config.redisKeyPrefix], ['redis://cache:6379/2', 'shop:']);
  });
});

describe('two bookstore apps sharing Redis', {
  skip: !REDIS && 'TEST_REDIS_URL is not set',
}, () => {
  const keyPrefix = `test-bookstore-${randomUUID()}:`;
  let db: Database;
  const apps: FastifyInstance[] = [];
  let redis: Redis;

  before(async () => {
    redis = new Redis(REDIS as string);
    db = Database.connect('sqlite::memory:');
    await db.migrate(ALL_MODELS);
    await db.run(() => auth.createUser({ username: 'editor', password: PASSWORD }));
    for (let i = 0; i < 2; i++)
      apps.push(await buildApp({ database: db, redis: { url: REDIS as string, keyPrefix } }));
    await Promise.all(apps.map((app) => app.ready()));
  });
  after(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await db.close();
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('count one login limit (10 a minute) across both', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) {
      const response = await (apps[attempt % 2] as FastifyInstance).inject({
        method: 'POST',
        url: '/manage/api/token/',
        headers: HOST,
        payload: { username: 'editor', password: 'wrong' },
      });
      statuses.push(response.statusCode);
    }
    // Each app alone saw 6 attempts, under its limit: only a shared count refuses.
    assert.deepEqual(statuses, [...Array(10).fill(400), 429, 429]);
    assert.ok((await redis.keys(`${keyPrefix}throttle:*`)).length > 0);
  });

  it('share the sessions: a login on one authenticates on the other', async () => {
    await redis.del(...(await redis.keys(`${keyPrefix}throttle:*`)));
    const [one, two] = apps as [FastifyInstance, FastifyInstance];
    const page = await one.inject({ url: '/manage/api/login/', headers: HOST });
    const csrf = page.json().csrfToken as string;
    const login = await one.inject({
      method: 'POST',
      url: '/manage/api/login/',
      headers: { ...HOST, cookie: `csrftoken=${csrf}`, 'x-csrftoken': csrf },
      payload: { username: 'editor', password: PASSWORD },
    });
    assert.equal(login.statusCode, 200, login.body);
    const session = /sessionid=([0-9a-f]+)/.exec(String(login.headers['set-cookie']))?.[1];
    const read = await two.inject({
      url: '/manage/api/books/',
      headers: { ...HOST, cookie: `sessionid=${session}` },
    });
    assert.equal(read.statusCode, 200, read.body);
    assert.equal(await db.run(() => auth.Session.objects.count()), 0, 'not in auth_session');
    assert.equal((await redis.keys(`${keyPrefix}session:*`)).length, 1);
  });
});
