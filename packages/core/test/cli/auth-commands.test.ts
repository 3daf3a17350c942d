/**
 * `restframework createsuperuser` and `changepassword` as child processes on a temporary SQLite
 * database: `--noinput` with the password from the environment, the interactive questions
 * answered through piped standard input (validator failures and mismatches asked again),
 * `--password-stdin`, and no password ever printed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Database, defaultAuth } from '@restframework/core';
import { CORE, runCli } from '../fixtures/cli-project.ts';

describe('restframework createsuperuser and changepassword', () => {
  let dir: string;
  let url: string;
  let db: Database;

  const cli = (args: readonly string[], input = '', env: NodeJS.ProcessEnv = {}) =>
    runCli(dir, args, { DATABASE_URL: url, ...env }, input);
  const user = (username: string) =>
    db.run(() => defaultAuth.User.objects.filter({ username }).first());
  const logsIn = async (username: string, password: string) =>
    (await db.run(() => defaultAuth.authenticate(username, password))) !== null;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rf-auth-cli-'));
    url = `sqlite:${join(dir, 'db.sqlite3')}`;
    writeFileSync(
      join(dir, 'restframework.config.ts'),
      `import { defaultAuth, defineConfig } from '${CORE}';\n` +
        `export default defineConfig({ app: 'shop', models: defaultAuth.models, auth: defaultAuth, databaseUrl: process.env.DATABASE_URL ?? '' });\n`,
    );
    db = Database.connect(url);
    await db.migrate(defaultAuth.models);
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('createsuperuser --noinput reads the password from RESTFRAMEWORK_SUPERUSER_PASSWORD and validates it', async () => {
    const secret = 'noinput passphrase 42';
    const run = await cli(
      ['createsuperuser', '--noinput', '--username', 'root', '--email', 'root@example.org'],
      '',
      { RESTFRAMEWORK_SUPERUSER_PASSWORD: secret },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Superuser created successfully\./);
    assert.ok(!run.stdout.includes(secret) && !run.stderr.includes(secret));
    const row = await user('root');
    assert.equal(row?.is_superuser, true);
    assert.equal(row?.is_staff, true);
    assert.equal(row?.email, 'root@example.org');
    assert.ok(await logsIn('root', secret));

    const weak = await cli(['createsuperuser', '--noinput', '--username', 'weak1'], '', {
      RESTFRAMEWORK_SUPERUSER_PASSWORD: '1234',
    });
    assert.equal(weak.code, 1);
    assert.match(weak.stderr, /This password is too short\./);
    assert.equal(await user('weak1'), undefined);

    const again = await cli(['createsuperuser', '--noinput', '--username', 'root'], '', {
      RESTFRAMEWORK_SUPERUSER_PASSWORD: secret,
    });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /A user with that username already exists\./);
  });

  it('createsuperuser --noinput refuses an invalid e-mail address and creates nobody', async () => {
    for (const [args, env] of [
      [['--email', 'root@'], {}],
      [[], { RESTFRAMEWORK_SUPERUSER_EMAIL: 'no at sign' }],
    ] as const) {
      const run = await cli(
        ['createsuperuser', '--noinput', '--username', 'bademail', ...args],
        '',
        {
          RESTFRAMEWORK_SUPERUSER_PASSWORD: 'violet staircase morning',
          ...env,
        },
      );
      assert.equal(run.code, 1);
      assert.match(run.stderr, /Error: Enter a valid email address\./);
      assert.equal(await user('bademail'), undefined);
    }
  });

  it('createsuperuser --noinput needs a username, and without a password makes it unusable', async () => {
    const missing = await cli(['createsuperuser', '--noinput']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /You must use --username with --noinput\./);
    const run = await cli(['createsuperuser', '--noinput', '--username', 'nopass'], '', {
      RESTFRAMEWORK_SUPERUSER_PASSWORD: '',
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(String((await user('nopass'))?.password), /^!/);
  });

  it('createsuperuser asks again after a validator failure and a mismatch, echoing nothing', async () => {
    const good = 'violet staircase morning';
    const answers = [
      'root', // taken: asked again
      'ada',
      'not an address', // refused as Django's EmailValidator refuses it: asked again
      'ü@exämple.com',
      'ada@example.org',
      'xq7',
      'xq7',
      'n', // do not bypass the validators
      'first of two words',
      'second of two words',
      good,
      good,
    ];
    const run = await cli(['createsuperuser'], `${answers.join('\n')}\n`);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Error: That username is already taken\./);
    assert.equal(run.stderr.match(/Error: Enter a valid email address\./g)?.length, 2);
    assert.match(run.stderr, /This password is too short\./);
    assert.match(run.stderr, /Error: Your passwords didn't match\./);
    assert.match(run.stdout, /Password \(again\): /);
    assert.match(run.stdout, /Superuser created successfully\./);
    for (const secret of [good, 'xq7', 'first of two words'])
      assert.ok(!run.stdout.includes(secret) && !run.stderr.includes(secret), secret);
    assert.equal((await user('ada'))?.is_superuser, true);
    assert.equal((await user('ada'))?.email, 'ada@example.org');
    assert.ok(await logsIn('ada', good));
  });

  it('createsuperuser lets a weak password through when the bypass is answered yes', async () => {
    const run = await cli(
      ['createsuperuser', '--username', 'weak', '--email', ''],
      'abc\nabc\ny\n',
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Bypass password validation/);
    assert.ok(await logsIn('weak', 'abc'));
  });

  it('createsuperuser stops when the input ends', async () => {
    const run = await cli(['createsuperuser'], 'someone\n');
    assert.equal(run.code, 1);
    assert.match(run.stderr, /Operation cancelled\./);
    assert.equal(await user('someone'), undefined);
  });

  it('changepassword --password-stdin sets a validated password for scripts', async () => {
    const next = 'a brand new passphrase';
    const run = await cli(['changepassword', '--password-stdin', 'ada'], `${next}\n`);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Password changed successfully for user 'ada'/);
    assert.ok(!run.stdout.includes(next) && !run.stderr.includes(next));
    assert.ok(await logsIn('ada', next));

    const weak = await cli(['changepassword', '--password-stdin', 'ada'], 'password\n');
    assert.equal(weak.code, 1);
    assert.match(weak.stderr, /This password is too common\./);
    assert.ok(await logsIn('ada', next), 'unchanged');

    const nobody = await cli(['changepassword', '--password-stdin', 'nobody'], `${next}\n`);
    assert.equal(nobody.code, 1);
    assert.match(nobody.stderr, /user 'nobody' does not exist/);
  });

  it('changepassword asks twice, and gives up after three failed attempts', async () => {
    const chosen = 'quiet harbour lantern';
    const ok = await cli(['changepassword', 'ada'], `nope1\nnope2\n${chosen}\n${chosen}\n`);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /Changing password for user 'ada'/);
    assert.match(ok.stderr, /Passwords do not match\. Please try again\./);
    assert.ok(!ok.stdout.includes(chosen) && !ok.stderr.includes(chosen));
    assert.ok(await logsIn('ada', chosen));

    const failed = await cli(['changepassword', 'ada'], 'a\nb\nc\nd\n123\n123\n');
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /Aborting password change for user 'ada' after 3 attempts/);
    assert.ok(await logsIn('ada', chosen), 'unchanged');
  });
});
