/**
 * The opt-in token cache (`createAuth({ tokenCacheSeconds })`) forgets what it kept when the
 * toolkit deletes a token or saves, deactivates or deletes a user — in this process, at once
 * and again when the write's transaction commits — and a lookup that ran across such a write
 * is not kept. Without the option nothing is cached at all.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  createAuth,
  Database,
  issueToken,
  PasswordHashers,
  type Request,
  ScryptPasswordHasher,
  TokenAuthentication,
} from '@restframework/core';

const hashers = new PasswordHashers([new ScryptPasswordHasher({ workFactor: 2 ** 12 })]);
const cached = createAuth({ hashers, tokenCacheSeconds: 60 });
// A second Auth over the same tables: its writes must reach the first one's cache too.
const other = createAuth({ hashers });

describe('token cache invalidation', () => {
  let db: Database;
  let user: { id: number };
  let key: string;

  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(cached.models);
  });
  after(() => db.close());
  beforeEach(async () => {
    await db.run(async () => {
      await cached.Token.objects.delete();
      await cached.User.objects.delete();
      user = (await cached.createUser({ username: 'ada', password: null })) as { id: number };
      key = await issueToken(cached, user);
    });
  });

  const request = () =>
    ({
      settings: { AUTH: cached },
      raw: { headers: { authorization: `Token ${key}` } },
    }) as unknown as Request;
  const authenticate = () => db.run(async () => new TokenAuthentication().authenticate(request()));
  /** The cache is in use: a row removed behind its back still authenticates. */
  async function assertCachedAcrossRawDelete(): Promise<void> {
    assert.ok(await authenticate());
    await db.query(`delete from ${cached.Token.table}`, []);
    assert.ok(await authenticate(), 'answered from the cache');
    await db.run(async () => {
      key = await issueToken(cached, user);
    });
  }

  it('forgets a token deleted through the toolkit', async () => {
    assert.ok(await authenticate());
    await db.run(() => cached.Token.objects.filter({ user_id: user.id }).delete());
    await assert.rejects(authenticate(), { message: 'Invalid token.' });
  });

  it('forgets a token deleted through another Auth of the same tables', async () => {
    assert.ok(await authenticate());
    await db.run(() => other.Token.objects.delete());
    await assert.rejects(authenticate(), { message: 'Invalid token.' });
  });

  it('forgets the user deactivated with updateRow() or update()', async () => {
    await assertCachedAcrossRawDelete();
    const row = await db.run(() => cached.User.objects.get({ pk: user.id }));
    await db.run(() => cached.User.objects.updateRow(row, { is_active: false }));
    await assert.rejects(authenticate(), { message: 'User inactive or deleted.' });

    await db.run(() => cached.User.objects.filter({ pk: user.id }).update({ is_active: true }));
    assert.ok(await authenticate());
    await db.run(() => other.User.objects.filter({ pk: user.id }).update({ is_active: false }));
    await assert.rejects(authenticate(), { message: 'User inactive or deleted.' });
  });

  it('shows a saved user at once (request.user is not a stale copy)', async () => {
    const before = (await authenticate()) as readonly [Record<string, unknown>, unknown];
    assert.equal(before[0].email, '');
    const row = await db.run(() => cached.User.objects.get({ pk: user.id }));
    await db.run(() => cached.User.objects.updateRow(row, { email: 'ada@example.com' }));
    const after = (await authenticate()) as readonly [Record<string, unknown>, unknown];
    assert.equal(after[0].email, 'ada@example.com');
  });

  it('forgets the tokens of a deleted user (the cascade)', async () => {
    assert.ok(await authenticate());
    await db.run(() => cached.User.objects.filter({ pk: user.id }).delete());
    await assert.rejects(authenticate(), { message: 'Invalid token.' });
  });

  it('forgets again when the transaction of the write commits', async () => {
    assert.ok(await authenticate());
    await db.run(() =>
      db.transaction(async () => {
        await cached.Token.objects.delete();
        // A request that reads in between (here: the transaction's own, which sees the delete;
        // another connection would still see the row) may fill the cache again...
        cached.cacheToken('stale', 'kept before the commit');
        assert.equal(cached.cachedToken('stale'), 'kept before the commit');
      }),
    );
    // ...and the commit empties it.
    assert.equal(cached.cachedToken('stale'), undefined);
    await assert.rejects(authenticate(), { message: 'Invalid token.' });
  });

  it('does not keep what a lookup found when the cache was emptied while it ran', async () => {
    const epoch = cached.tokenCacheEpoch;
    cached.forgetTokens();
    cached.cacheToken('digest', 'found before the write', epoch);
    assert.equal(cached.cachedToken('digest'), undefined);
    cached.cacheToken('digest', 'found after it', cached.tokenCacheEpoch);
    assert.equal(cached.cachedToken('digest'), 'found after it');
    cached.forgetTokens();
  });

  it('keeps at most 10,000 tokens, the oldest going first', () => {
    const bounded = createAuth({ hashers, tokenCacheSeconds: 60 });
    for (let i = 0; i <= 10_000; i++) bounded.cacheToken(`digest ${i}`, i);
    assert.equal(bounded.cachedToken('digest 0'), undefined, 'the oldest went');
    assert.equal(bounded.cachedToken('digest 1'), 1);
    assert.equal(bounded.cachedToken('digest 10000'), 10_000);
  });

  it('caches nothing by default', async () => {
    const plain = createAuth({ hashers });
    plain.cacheToken('digest', 'value');
    assert.equal(plain.cachedToken('digest'), undefined);
  });
});
