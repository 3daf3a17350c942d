/**
 * `QuerySet.only()`: the fields loaded, per row, on every dialect; its select plans, statement
 * shapes and lookup plans kept apart from those of queries loading every field.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Database, ImproperlyConfigured } from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import { ALL_MODELS, Book, Profile, User } from '../fixtures/library-models.ts';

for (const dialect of testDialects()) {
  describe(`only() on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let userId: number;
    let profileId: number;

    before(async () => {
      db = await dialect.create();
      await db.migrate(ALL_MODELS);
      const user = await User.objects.using(db).create({
        username: 'ada',
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
      });
      userId = user.id as number;
      const profile = await Profile.objects
        .using(db)
        .create({ user_id: userId, biography: 'Notes', nickname: 'A' });
      profileId = profile.id as number;
      await Book.objects
        .using(db)
        .create({ title: 'Notes', isbn: '1', price: '9.50', owner_id: profileId });
    });
    after(() => dialect.drop(db));

    const profiles = () => Profile.objects.using(db);

    it('loads the named fields and the primary key of the model', async () => {
      const [row] = await Book.objects.using(db).only('title', 'price').execute();
      assert.deepEqual(row, { id: row?.id, title: 'Notes', price: '9.50' });
    });

    it('loads a related row restricted, with the key that joins it', async () => {
      const rows = await profiles()
        .selectRelated('user')
        .only('biography', 'user__username', 'user__email')
        .execute();
      assert.deepEqual(rows, [
        {
          id: profileId,
          user_id: userId,
          biography: 'Notes',
          user: { id: userId, username: 'ada', email: 'ada@example.com' },
        },
      ]);
    });

    it('loads every field of a row of which no field is named', async () => {
      const [row] = await profiles().selectRelated('user').only('user__username').execute();
      assert.deepEqual(row, {
        id: profileId,
        user_id: userId,
        biography: 'Notes',
        nickname: 'A',
        user: { id: userId, username: 'ada' },
      });
    });

    it('applies to get() without mixing its plan with that of every field', async () => {
      const narrow = await profiles().selectRelated('user').only('nickname').get({ pk: profileId });
      assert.deepEqual(Object.keys(narrow).sort(), ['id', 'nickname', 'user', 'user_id']);
      // Same lookup shape but every field: a plan of its own, not the narrow one.
      const full = await profiles().selectRelated('user').get({ pk: profileId });
      assert.equal(full.biography, 'Notes');
      assert.equal((full as { user?: { email: string } }).user?.email, 'ada@example.com');
      const other = await profiles().selectRelated('user').only('biography').get({ pk: profileId });
      assert.equal(other.biography, 'Notes');
      assert.equal('nickname' in other, false);
    });

    it('changes the SELECT list of rows, not a count', async () => {
      const all = profiles().compile().sql;
      const narrow = profiles().only('nickname').compile().sql;
      assert.notEqual(narrow, all);
      assert.doesNotMatch(narrow, /biography/);
      assert.match(all, /biography/);
      assert.equal(await profiles().only('nickname').count(), 1);
    });

    it('with no names loads every field again', async () => {
      const [row] = await profiles().only('nickname').only().execute();
      assert.equal(row?.biography, 'Notes');
      assert.equal(profiles().only().onlyFields, null);
      assert.deepEqual(profiles().only('a', 'a').onlyFields, ['a']);
    });

    it('refuses a name that is no field, and a path through a relation not loaded', async () => {
      await assert.rejects(
        () => profiles().only('nick').execute(),
        (error: unknown) =>
          error instanceof ImproperlyConfigured &&
          /Profile has no field "nick"/.test(error.message),
      );
      await assert.rejects(
        () => profiles().only('user__username').execute(),
        (error: unknown) =>
          error instanceof ImproperlyConfigured &&
          /"user__username" goes through "user", which selectRelated\(\) does not load/.test(
            error.message,
          ),
      );
    });
  });
}
