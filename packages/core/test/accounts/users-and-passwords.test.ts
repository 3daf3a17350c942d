/**
 * Users and passwords: Django-format hashes (vectors computed with Python's hashlib, not with
 * this code), constant answers for unusable or malformed hashes, hash upgrade on login when
 * the cost rises or the hasher changes, password validators with Django's messages, users,
 * groups and permissions, createSuperuser and changePassword — on SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  changePassword,
  createAuth,
  createSuperuser,
  type Database,
  defineModel,
  defineUserModel,
  ImproperlyConfigured,
  models,
  PasswordHashers,
  PBKDF2PasswordHasher,
  ScryptPasswordHasher,
  unusablePassword,
  ValidationError,
  validatePassword,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import fc from 'fast-check';

const fastScrypt = () => new ScryptPasswordHasher({ workFactor: 2 ** 10 });

describe('password hashers', () => {
  const hashers = new PasswordHashers([
    fastScrypt(),
    new PBKDF2PasswordHasher({ iterations: 1000 }),
  ]);

  it("verifies Django's pbkdf2_sha256 and scrypt hashes (hashlib vectors)", async () => {
    const vectors: [string, string][] = [
      [
        'correct horse',
        'pbkdf2_sha256$1000$UzTMSn3WCmgZ$mFK42swdkEm66pat7bEuiN/WxTVzS0wO28VQ+TtUD68=',
      ],
      ['pässwörd', 'pbkdf2_sha256$600000$abcdefgh12$CDNqUZcldlAtF5LzmB73GzMTRY1L+c3L+yua+LKnzK8='],
      [
        'correct horse',
        'scrypt$NaClsalt123$1024$8$1$8tsJUDa8sPaQeUNJKWhkYt37BgDOpP4nCdITkEBbMJfDYbPmZAGzyTzSv3kMLNLkJsktrEl283aSAfWRis94mg==',
      ],
    ];
    for (const [password, encoded] of vectors) {
      assert.equal((await hashers.check(password, encoded)).valid, true, encoded);
      assert.equal((await hashers.check(`${password}x`, encoded)).valid, false, encoded);
    }
  });

  it('hashes with the preferred hasher and verifies its own hashes', async () => {
    const encoded = await hashers.make('a long passphrase');
    assert.match(encoded, /^scrypt\$[A-Za-z0-9]{22}\$1024\$8\$1\$[A-Za-z0-9+/=]{88}$/);
    assert.deepEqual(await hashers.check('a long passphrase', encoded), {
      valid: true,
      mustUpdate: false,
    });
    assert.notEqual(await hashers.make('a long passphrase'), encoded, 'salts differ');
  });

  it('asks for an upgrade when the cost rises or the hasher is not the preferred one', async () => {
    const old = await new ScryptPasswordHasher({ workFactor: 2 ** 9 }).encode('pw');
    assert.deepEqual(await hashers.check('pw', old), { valid: true, mustUpdate: true });
    const pbkdf2 = await new PBKDF2PasswordHasher({ iterations: 1000 }).encode('pw');
    assert.deepEqual(await hashers.check('pw', pbkdf2), { valid: true, mustUpdate: true });
  });

  it('never matches unusable, empty, unknown or malformed encodings, and never throws', async () => {
    const fixed = [
      unusablePassword(),
      '',
      null,
      'md5$x$y',
      'pbkdf2_sha256$abc$s$h',
      'scrypt$s$3$8$1$h',
    ];
    for (const encoded of fixed) assert.equal((await hashers.check('', encoded)).valid, false);
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 60 }),
        fc.string({ maxLength: 20 }),
        async (encoded, pw) => {
          const result = await hashers.check(pw, `pbkdf2_sha256$${encoded}`);
          assert.equal(result.valid, false);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('password validators', () => {
  const table: [string, Record<string, unknown> | undefined, string[]][] = [
    ['short', undefined, ['This password is too short. It must contain at least 8 characters.']],
    ['password', undefined, ['This password is too common.']],
    [
      '12345',
      undefined,
      [
        'This password is too short. It must contain at least 8 characters.',
        'This password is too common.',
        'This password is entirely numeric.',
      ],
    ],
    ['84736251947', undefined, ['This password is entirely numeric.']],
    ['adalovelace1', { username: 'adalovelace' }, ['The password is too similar to the username.']],
    [
      'lovelace-ada!',
      { email: 'ada.lovelace@example.org' },
      ['The password is too similar to the email.'],
    ],
    ['correct horse battery', { username: 'ada' }, []],
  ];
  for (const [password, user, messages] of table) {
    it(`${JSON.stringify(password)} → ${messages.length} message(s)`, () => {
      if (messages.length === 0) return validatePassword(password, user);
      assert.throws(
        () => validatePassword(password, user),
        (error: unknown) =>
          error instanceof ValidationError &&
          JSON.stringify(error.toJSON()) === JSON.stringify({ password: messages }),
      );
    });
  }

  it('refuses a password over 4096 characters before validating it', () => {
    assert.throws(() => validatePassword('x'.repeat(4097)), {
      detail: { password: ['Ensure this field has no more than 4096 characters.'] },
    });
  });
});

describe('custom user models', () => {
  it('log in by a unique e-mail; a non-unique login field fails at definition', () => {
    const Customer = defineUserModel({
      name: 'Customer',
      table: 'customer',
      fields: { email: models.EmailField({ maxLength: 254, unique: true }) },
    });
    assert.equal(
      createAuth({ userModel: Customer, usernameField: 'email' }).usernameField,
      'email',
    );
    assert.throws(
      () => createAuth({ userModel: defineUserModel({ table: 'x' }), usernameField: 'email' }),
      (error: unknown) =>
        error instanceof ImproperlyConfigured && error.code === 'REST_ERR_AUTH_CONFIG',
    );
  });
});

const Book = defineModel({
  name: 'Book',
  table: 'books_book',
  fields: { title: models.CharField({ maxLength: 50 }) },
});

for (const dialect of testDialects()) {
  describe(`users, groups and permissions (${dialect.name})`, { skip: dialect.skip }, () => {
    let db: Database;
    const auth = createAuth({
      hashers: new PasswordHashers([fastScrypt(), new PBKDF2PasswordHasher({ iterations: 1000 })]),
    });
    before(async () => {
      db = await dialect.create();
      await db.migrate([...auth.models, Book]);
      await db.run(() => auth.createPermissions([Book]));
    });
    after(() => dialect.drop(db));

    it('authenticates, and refuses wrong passwords, unknown and inactive users alike', async () => {
      await db.run(async () => {
        await auth.createUser({
          username: 'ada',
          email: 'ada@example.org',
          password: 'engine difference',
        });
        await auth.createUser({
          username: 'idle',
          password: 'engine difference',
          is_active: false,
        });
        const ada = await auth.authenticate('ada', 'engine difference');
        assert.equal(ada?.username, 'ada');
        assert.equal(await auth.authenticate('ada', 'wrong'), null);
        assert.equal(await auth.authenticate('nobody', 'engine difference'), null);
        assert.equal(await auth.authenticate('idle', 'engine difference'), null);
        assert.equal(await auth.authenticate('x'.repeat(10_000), 'x'), null);
        assert.equal(await auth.authenticate(42, ['x']), null);
        const user = auth.requestUser(ada as NonNullable<typeof ada>);
        assert.equal('password' in user, false, 'the request user carries no hash');
        assert.equal(user.isAuthenticated, true);
      });
    });

    it('stores a stronger hash on login when the cost rose', async () => {
      await db.run(async () => {
        const legacy = await new PBKDF2PasswordHasher({ iterations: 1000 }).encode(
          'engine difference',
        );
        const row = await auth.createUser({ username: 'babbage' });
        await auth.User.objects.updateRow(row, { password: legacy });
        const after = await auth.authenticate('babbage', 'engine difference');
        assert.match(String(after?.password), /^scrypt\$/);
        const stored = await auth.User.objects.get({ username: 'babbage' });
        assert.match(String(stored.password), /^scrypt\$/);
        assert.ok(await auth.authenticate('babbage', 'engine difference'));
      });
    });

    it('labels permissions with the app (Django: has_perm("books.change_book")) and renames the unlabelled ones it finds', async () => {
      await db.run(async () => {
        // As an earlier version stored them: unlabelled, and granted to a user.
        const old = await auth.Permission.objects.create({
          codename: 'view_author',
          name: 'Can view author',
          model: 'author',
        });
        const reader = await auth.createUser({ username: 'reader', password: 'x' });
        await auth.UserPermission.objects.create({ user_id: reader.id, permission_id: old.id });
        const Author = defineModel({
          name: 'Author',
          table: 'books_author',
          fields: { name: models.CharField({ maxLength: 50 }) },
        });
        const Tag = defineModel({ name: 'Tag', appLabel: 'shop', fields: {} });
        assert.equal(Author.appLabel, 'books');
        assert.equal(Tag.appLabel, 'shop');
        assert.equal(auth.User.appLabel, 'auth');
        await auth.createPermissions([Author, Tag]);
        await auth.createPermissions([Author, Tag]); // twice: nothing more
        const names = (await auth.Permission.objects.orderBy('id').execute()).map(
          (row) => row.codename,
        );
        for (const action of ['add', 'change', 'delete', 'view']) {
          assert.equal(names.filter((name) => name === `books.${action}_author`).length, 1);
          assert.equal(names.filter((name) => name === `shop.${action}_tag`).length, 1);
        }
        assert.equal(names.includes('view_author'), false, 'renamed, not copied');
        const renamed = await auth.Permission.objects.get({ codename: 'books.view_author' });
        assert.equal(renamed.id, old.id, 'the same row: its grants stay');
        const fresh = await auth.User.objects.get({ id: reader.id });
        assert.equal(
          await auth.hasPerms(auth.requestUser(fresh as never), ['books.view_author']),
          true,
        );
      });
    });

    it('gives permissions to users directly and through groups; superusers have all', async () => {
      await db.run(async () => {
        const editor = await auth.createUser({ username: 'editor', password: 'x' });
        const member = await auth.createUser({ username: 'member', password: 'x' });
        await auth.grant(editor, 'books.change_book');
        const group = await auth.addToGroup(member, 'editors');
        await auth.grant({ group }, 'books.view_book');
        const has = (user: typeof editor, names: string[]) =>
          auth.hasPerms(auth.requestUser(user), names);
        assert.equal(await has(editor, ['books.change_book']), true);
        assert.equal(await has(editor, ['books.view_book']), false);
        assert.equal(await has(member, ['books.view_book']), true);
        assert.equal(await has(member, ['books.change_book']), false);
        // As Django's has_perm: the name carries the app label; the bare codename matches nothing.
        assert.equal(await has(editor, ['change_book']), false);
        assert.equal(await has(editor, ['shop.change_book']), false);
        await assert.rejects(auth.grant(editor, 'books.fly_book'), {
          code: 'REST_ERR_AUTH_CONFIG',
        });
        await assert.rejects(auth.grant(editor, 'change_book'), {
          code: 'REST_ERR_AUTH_CONFIG',
          message: /carry their app label.*"books\.change_book"/,
        });
      });
    });

    it('reads the permissions when asked, keeping nothing of a request in the Auth', async () => {
      await db.run(async () => {
        const keeper = await auth.createUser({ username: 'keeper', password: 'x' });
        await auth.grant(keeper, 'books.change_book');
        const user = auth.requestUser(keeper);
        assert.deepEqual([...(await auth.getAllPermissions(user as never))], ['books.change_book']);
        // A grant counts at the next question, for the same user object too.
        await auth.grant(keeper, 'books.view_book');
        assert.deepEqual([...(await auth.getAllPermissions(user as never))].sort(), [
          'books.change_book',
          'books.view_book',
        ]);
        assert.equal(await auth.hasPerms(user, ['books.view_book']), true);
      });
    });

    it('createSuperuser validates the password; changePassword sets a new one', async () => {
      await assert.rejects(
        createSuperuser(db, { username: 'root', password: '123' }, auth),
        ValidationError,
      );
      const root = await createSuperuser(
        db,
        { username: 'root', email: 'root@example.org', password: 'a strong passphrase' },
        auth,
      );
      assert.equal(root.is_superuser, true);
      await assert.rejects(
        createSuperuser(db, { username: 'root', password: 'a strong passphrase' }, auth),
        { detail: { username: ['A user with that username already exists.'] } },
      );
      assert.equal(root.is_staff, true);
      await db.run(async () => {
        assert.equal(await auth.hasPerms(auth.requestUser(root), ['books.delete_book']), true);
      });
      await changePassword(db, 'root', 'another passphrase', {}, auth);
      await db.run(async () => {
        assert.equal(await auth.authenticate('root', 'a strong passphrase'), null);
        assert.ok(await auth.authenticate('root', 'another passphrase'));
      });
      await assert.rejects(changePassword(db, 'root', 'short', {}, auth), ValidationError);
      await assert.rejects(changePassword(db, 'ghost', 'another passphrase', {}, auth));
    });
  });
}
