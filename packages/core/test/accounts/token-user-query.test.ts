/**
 * `TokenAuthentication`'s one statement (`auth/token-user-query.ts`) on every dialect: the
 * token's user (active, inactive, deleted token), the token row as `request.auth`, and no
 * password hash on the user.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createAuth,
  type Database,
  issueToken,
  PasswordHashers,
  type Request,
  ScryptPasswordHasher,
  TokenAuthentication,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';

const auth = createAuth({
  hashers: new PasswordHashers([new ScryptPasswordHasher({ workFactor: 2 ** 10 })]),
});

for (const dialect of testDialects()) {
  describe(`TokenAuthentication on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    before(async () => {
      db = await dialect.create();
      await db.migrate(auth.models);
    });
    after(async () => {
      await dialect.drop(db);
    });

    const authenticate = (key: string) =>
      db.run(async () =>
        new TokenAuthentication().authenticate({
          settings: { AUTH: auth },
          raw: { headers: { authorization: `Token ${key}` } },
        } as unknown as Request),
      );

    it("finds the token's user, refuses an inactive user and a deleted token", async () => {
      const { key, user } = await db.run(async () => {
        const user = await auth.createUser({ username: 'ada', password: 'x', is_staff: true });
        return { key: await issueToken(auth, user), user };
      });
      const found = await authenticate(key);
      assert.ok(found);
      const [requestUser, token] = found as readonly [
        Record<string, unknown>,
        Record<string, unknown>,
      ];
      assert.equal(requestUser.id, user.id);
      assert.equal(requestUser.username, 'ada');
      assert.equal(requestUser.isStaff, true);
      assert.equal(requestUser.is_active, true);
      assert.equal('password' in requestUser, false);
      assert.equal(token.user_id, user.id);
      assert.equal(typeof token.id, 'number');

      await db.run(() => auth.User.objects.filter({ id: user.id }).update({ is_active: false }));
      await assert.rejects(authenticate(key), { message: 'User inactive or deleted.' });
      await db.run(() => auth.User.objects.filter({ id: user.id }).update({ is_active: true }));
      assert.ok(await authenticate(key));

      await db.run(() => auth.Token.objects.filter({ user_id: user.id }).delete());
      await assert.rejects(authenticate(key), { message: 'Invalid token.' });
      await assert.rejects(authenticate('f'.repeat(40)), { message: 'Invalid token.' });
    });
  });
}
