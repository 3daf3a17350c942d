/**
 * Argon2, bcrypt-SHA256 and bcrypt hashes in Django's encoded formats: verified (literal hashes
 * in Django's format, and hashes the libraries make here), refused for a wrong password or a
 * malformed hash, upgraded to the preferred hasher at login (Django's `must_update`), and the
 * optional packages loaded only when such a hash is met, with a clear error when missing.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import {
  Argon2PasswordHasher,
  BCryptPasswordHasher,
  BCryptSHA256PasswordHasher,
  createAuth,
  Database,
  PasswordHashers,
  ScryptPasswordHasher,
} from '@restframework/core';
import { requireOptional } from '@restframework/core/internal';
import fc from 'fast-check';

const require = createRequire(import.meta.url);
const PASSWORD = 'Ada Lovelace 1815';

// Made with @node-rs/argon2 and bcryptjs directly (not through the hashers under test), in
// Django's formats: Argon2PasswordHasher's defaults (argon2id, m=102400, t=2, p=8) and an
// argon2i hash as older Django versions made; BCryptSHA256PasswordHasher's 12 rounds over the
// hex SHA-256 digest; BCryptPasswordHasher over the password itself.
const DJANGO = {
  argon2id:
    'argon2$argon2id$v=19$m=102400,t=2,p=8$Sng5ck54R0RTNk1ySjJhOXNGdlZOYQ$tk0kuSWEAAPNbYFtJYNqi6Be+4uRgq8HMLZLkbV6/jo',
  argon2i: 'argon2$argon2i$v=19$m=512,t=2,p=2$WlhoaGJYQnNaWE5oYkhR$Xt0XVzp8jTcS8m8LZJxghw',
  bcryptSha256: 'bcrypt_sha256$$2b$12$oq7.pEvAOc9DGkaunB0P5e3bQMKK7t8hlUMTjJWIwXjeBUiiJaZVq',
  bcrypt: 'bcrypt$$2b$10$0mWGoBRaRPBCCqmyX.X3M.aN3u6S69Vtiquz4HMl5gK7mUtYkHJTi',
};

const loaded = (name: string) =>
  Object.keys(require.cache).some((path) => path.includes(`/node_modules/${name}/`));

describe("Django's Argon2 and bcrypt hashes", () => {
  const argon2 = new Argon2PasswordHasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 });
  const bcryptSha256 = new BCryptSHA256PasswordHasher({ rounds: 4 });
  const bcrypt = new BCryptPasswordHasher({ rounds: 4 });

  it('loads neither package while no such hash is met', async () => {
    const hashers = new PasswordHashers();
    const scrypt = await new ScryptPasswordHasher({ workFactor: 2 ** 10 }).encode(PASSWORD);
    await hashers.check(PASSWORD, scrypt);
    await hashers.check(PASSWORD, 'pbkdf2_sha256$1000$salt$bm90IHRoZSBoYXNo');
    assert.equal(loaded('@node-rs/argon2'), false);
    assert.equal(loaded('bcryptjs'), false);
    assert.equal((await hashers.check(PASSWORD, DJANGO.argon2i)).valid, true);
    assert.equal(loaded('@node-rs/argon2'), true);
    assert.equal(loaded('bcryptjs'), false);
  });

  it("verifies literal hashes in Django's formats, and refuses a wrong password", async () => {
    const defaults = new PasswordHashers();
    for (const [name, encoded] of Object.entries(DJANGO)) {
      assert.deepEqual(
        await defaults.check(PASSWORD, encoded),
        { valid: true, mustUpdate: true },
        name,
      );
      assert.equal((await defaults.check(`${PASSWORD}!`, encoded)).valid, false, name);
    }
    // Django's defaults: its own argon2id and bcrypt_sha256 hashes need no update.
    assert.equal(new Argon2PasswordHasher().mustUpdate(DJANGO.argon2id), false);
    assert.equal(new Argon2PasswordHasher().mustUpdate(DJANGO.argon2i), true);
    assert.equal(new BCryptSHA256PasswordHasher().mustUpdate(DJANGO.bcryptSha256), false);
    assert.equal(new BCryptPasswordHasher().mustUpdate(DJANGO.bcrypt), true, '10 rounds, not 12');
  });

  it('verifies what the libraries make in the same formats', async () => {
    const { hash } = require('@node-rs/argon2') as typeof import('@node-rs/argon2');
    const bcryptjs = require('bcryptjs') as typeof import('bcryptjs');
    const hashers = new PasswordHashers([argon2, bcryptSha256, bcrypt]);
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }),
        fc.string({ minLength: 8, maxLength: 16, unit: fc.constantFrom(...'abcdefXYZ0189') }),
        async (password, salt) => {
          const phc = await hash(password, {
            memoryCost: 256,
            timeCost: 1,
            parallelism: 1,
            salt: Buffer.from(salt),
          });
          const digest = createHash('sha256').update(password).digest('hex');
          const made = [
            `argon2${phc}`,
            `bcrypt_sha256$${bcryptjs.hashSync(digest, 4)}`,
            `bcrypt$${bcryptjs.hashSync(password, 4)}`,
          ];
          // Plain bcrypt reads the first 72 bytes only (as Django's BCryptPasswordHasher): a
          // longer password with a byte added past them is the same password to it.
          const truncated = Buffer.byteLength(password) >= 72;
          for (const encoded of made) {
            assert.equal((await hashers.check(password, encoded)).valid, true, encoded);
            const sameTo = truncated && encoded.startsWith('bcrypt$');
            assert.equal((await hashers.check(`${password}x`, encoded)).valid, sameTo, encoded);
          }
          // And the hashers' own hashes round-trip.
          for (const hasher of [argon2, bcryptSha256, bcrypt]) {
            const encoded = await hasher.encode(password);
            assert.ok(encoded.startsWith(`${hasher.algorithm}$`), encoded);
            assert.equal(await hasher.verify(password, encoded), true);
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  it('bcrypt-SHA256 tells apart passwords that share their first 72 bytes; bcrypt does not', async () => {
    const long = 'x'.repeat(72);
    const sha = await bcryptSha256.encode(`${long}a`);
    assert.equal(await bcryptSha256.verify(`${long}b`, sha), false);
    const plain = await bcrypt.encode(`${long}a`);
    assert.equal(await bcrypt.verify(`${long}b`, plain), true, "bcrypt's own limit, as Django's");
  });

  it('refuses malformed and out-of-bounds hashes without throwing', async () => {
    const hashers = new PasswordHashers();
    for (const encoded of [
      'argon2$argon2id$v=19$m=102400,t=2,p=8$c2FsdA',
      'argon2$argon2id$v=19$m=99999999999,t=2,p=8$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo',
      'argon2$argon2x$v=19$m=1024,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo',
      'argon2$argon2id$v=19$m=1024,t=2,p=1$c2FsdHNhbHQ$bm90IGEgcmVhbCBoYXNo',
      'bcrypt_sha256$$2b$12$short',
      'bcrypt_sha256$$2b$31$oq7.pEvAOc9DGkaunB0P5e3bQMKK7t8hlUMTjJWIwXjeBUiiJaZVq',
      'bcrypt$2b$10$0mWGoBRaRPBCCqmyX.X3M.aN3u6S69Vtiquz4HMl5gK7mUtYkHJTi',
      'bcrypt$$2c$10$0mWGoBRaRPBCCqmyX.X3M.aN3u6S69Vtiquz4HMl5gK7mUtYkHJTi',
    ]) {
      assert.deepEqual(await hashers.check(PASSWORD, encoded), { valid: false, mustUpdate: false });
    }
  });

  it('upgrades the hash to the preferred hasher at login', async () => {
    const auth = createAuth({
      hashers: new PasswordHashers([
        new ScryptPasswordHasher({ workFactor: 2 ** 10 }),
        new Argon2PasswordHasher(),
        new BCryptSHA256PasswordHasher(),
        new BCryptPasswordHasher(),
      ]),
    });
    const db = Database.connect('sqlite::memory:');
    try {
      await db.migrate(auth.models);
      await db.run(async () => {
        for (const [name, encoded] of Object.entries(DJANGO)) {
          await auth.User.objects.create({ username: name, password: encoded });
          assert.equal(await auth.authenticate(name, 'wrong'), null);
          const row = await auth.User.objects.get({ username: name });
          assert.equal(row.password, encoded, 'a failed login changes nothing');
          const user = await auth.authenticate(name, PASSWORD);
          assert.ok(user, name);
          const stored = await auth.User.objects.get({ username: name });
          assert.match(stored.password as string, /^scrypt\$/, name);
          assert.ok(await auth.authenticate(name, PASSWORD), `${name} after the upgrade`);
        }
      });
    } finally {
      await db.close();
    }
  });

  it('says which package to install when it is missing', async () => {
    class Missing extends Argon2PasswordHasher {
      override loadLibrary(): never {
        // What the hasher's loader answers for a package that is not there.
        return requireOptional('@node-rs/argon2-not-installed', 'A password hashed with Argon2');
      }
    }
    await assert.rejects(new PasswordHashers([new Missing()]).check(PASSWORD, DJANGO.argon2i), {
      name: 'ImproperlyConfigured',
      code: 'REST_ERR_MISSING_PACKAGE',
      message:
        'A password hashed with Argon2 needs the "@node-rs/argon2-not-installed" package, which is not installed: run `npm install @node-rs/argon2-not-installed`.',
    });
  });
});
