/**
 * The bookstore's accounts (not in the spec): the spec's routes stay open to anyone (AllowAny,
 * no security in the OpenAPI document), while /manage/api/ gives a token or a session for a
 * username and password and lets only a user with `change_book` change a book (401 without
 * credentials, 403 without the permission, CSRF for sessions); `npm run createsuperuser`
 * creates a superuser that can log in.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { applyMigrations, Database } from '@restframework/core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { auth } from '../src/auth.ts';
import { ALL_MODELS, Book } from '../src/models/index.ts';
import { seed } from '../src/seed.ts';

const PASSWORD = 'the stacks are quiet tonight';
const HOST = { host: '127.0.0.1' };

describe('bookstore accounts', () => {
  let db: Database;
  let app: FastifyInstance;
  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(ALL_MODELS);
    await seed(db, { books: 3, authors: 1, users: 1 });
    await db.run(async () => {
      await auth.createPermissions([Book]);
      const editor = await auth.createUser({ username: 'editor', password: PASSWORD });
      await auth.grant(editor, 'books.change_book');
      await auth.createUser({ username: 'reader', password: PASSWORD });
    });
    app = await buildApp({ database: db });
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  const token = async (username: string) => {
    const response = await app.inject({
      method: 'POST',
      url: '/manage/api/token/',
      headers: HOST,
      payload: { username, password: PASSWORD },
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().token as string;
  };
  const patch = (headers: Record<string, string>) =>
    app.inject({
      method: 'PATCH',
      url: '/manage/api/books/1/',
      headers: { ...HOST, ...headers },
      payload: { title: 'Changed by an editor' },
    });

  it("keeps the spec's routes open to anyone", async () => {
    assert.equal((await app.inject({ url: '/books/api/books/1/', headers: HOST })).statusCode, 200);
    const response = await app.inject({
      method: 'PATCH',
      url: '/books/api/books/1/',
      headers: HOST,
      payload: { title: 'Anyone may' },
    });
    assert.equal(response.statusCode, 200, response.body);
  });

  it('lets only a user with change_book change a managed book', async () => {
    const anonymous = await patch({});
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.headers['www-authenticate'], 'Token');
    const reader = await patch({ authorization: `Token ${await token('reader')}` });
    assert.equal(reader.statusCode, 403);
    const editorToken = await token('editor');
    const editor = await patch({ authorization: `Token ${editorToken}` });
    assert.equal(editor.statusCode, 200, editor.body);
    assert.equal(editor.json().title, 'Changed by an editor');
    const list = await app.inject({
      url: '/manage/api/books/',
      headers: { ...HOST, authorization: `Token ${await token('reader')}` },
    });
    assert.equal(list.statusCode, 200, 'reading needs only a login');
  });

  /** A browser's login: GET the login route for the CSRF cookie, POST with it. */
  const sessionLogin = async (username: string, headers: Record<string, string> = {}) => {
    const page = await app.inject({ url: '/manage/api/login/', headers: HOST });
    const csrf = page.json().csrfToken as string;
    const cookie = [headers.cookie, `csrftoken=${csrf}`].filter(Boolean).join('; ');
    const login = await app.inject({
      method: 'POST',
      url: '/manage/api/login/',
      headers: { ...HOST, ...headers, cookie, 'x-csrftoken': csrf },
      payload: { username, password: PASSWORD },
    });
    assert.equal(login.statusCode, 200, login.body);
    const session = /sessionid=([0-9a-f]+)/.exec(String(login.headers['set-cookie']))?.[1];
    return { session: session as string, csrf: login.json().csrfToken as string };
  };

  it('logs in with a session; writes need the CSRF token', async () => {
    const { session, csrf } = await sessionLogin('editor');
    const cookie = `sessionid=${session}`;
    assert.deepEqual((await patch({ cookie })).json(), {
      detail: 'CSRF Failed: CSRF token missing.',
    });
    const ok = await patch({ cookie, 'x-csrftoken': csrf });
    assert.equal(ok.statusCode, 200, ok.body);
  });

  it('refuses a cross-site login form (login CSRF) and a login without the CSRF cookie', async () => {
    const form = `username=editor&password=${encodeURIComponent(PASSWORD)}`;
    const forged = await app.inject({
      method: 'POST',
      url: '/manage/api/login/',
      headers: {
        ...HOST,
        origin: 'http://evil.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: form,
    });
    assert.equal(forged.statusCode, 403, forged.body);
    assert.deepEqual(forged.json(), {
      detail:
        'CSRF Failed: Origin checking failed - http://evil.example does not match any trusted origins.',
    });
    assert.equal(forged.headers['set-cookie'], undefined);
    const tokenless = await app.inject({
      method: 'POST',
      url: '/manage/api/login/',
      headers: { ...HOST, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form,
    });
    assert.deepEqual(tokenless.json(), { detail: 'CSRF Failed: CSRF cookie not set.' });
  });

  it('cycles the session key at login: the previous session stops working', async () => {
    const first = await sessionLogin('editor');
    const read = (session: string) =>
      app.inject({
        url: '/manage/api/books/',
        headers: { ...HOST, cookie: `sessionid=${session}` },
      });
    assert.equal((await read(first.session)).statusCode, 200);
    const second = await sessionLogin('editor', { cookie: `sessionid=${first.session}` });
    assert.notEqual(second.session, first.session);
    assert.equal((await read(first.session)).statusCode, 401);
    assert.equal((await read(second.session)).statusCode, 200);
  });

  it('documents security on the management routes only', async () => {
    const document = (await app.inject({ url: '/schema/', headers: HOST })).json();
    for (const [path, item] of Object.entries(document.paths as Record<string, object>)) {
      for (const [method, operation] of Object.entries(item)) {
        if (typeof operation !== 'object' || operation === null || !('responses' in operation))
          continue;
        const security = (operation as { security?: unknown }).security;
        const expected = path.startsWith('/manage/api/books/')
          ? [{ tokenAuth: [] }, { cookieAuth: [] }]
          : path === '/manage/api/logout/'
            ? [{ cookieAuth: [] }, {}]
            : // Public: no credentials needed, said explicitly (issue 42, Redocly's security-defined).
              [];
        assert.deepEqual(security, expected, `${method} ${path}`);
      }
    }
  });
});

describe('npm run createsuperuser', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bookstore-su-'));
  const url = `sqlite:${join(dir, 'db.sqlite3')}`;
  after(() => rmSync(dir, { recursive: true, force: true }));
  const bookstore = fileURLToPath(new URL('..', import.meta.url));
  const bin = fileURLToPath(
    new URL('../../../packages/core/bin/restframework.js', import.meta.url),
  );

  /** The npm script's `restframework` commands in turn, `args` after the last (as npm does). */
  const run = async (args: string[], password: string) => {
    const script = (
      JSON.parse(readFileSync(join(bookstore, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts.createsuperuser as string;
    const commands = script.split(' && ').map((command) => command.split(' '));
    let last = { stdout: '', stderr: '' };
    for (const [index, [program, ...words]] of commands.entries()) {
      assert.equal(program, 'restframework', script);
      last = await promisify(execFile)(
        process.execPath,
        [
          '--conditions=@restframework/source',
          bin,
          ...words,
          ...(index === commands.length - 1 ? args : []),
        ],
        {
          cwd: bookstore,
          env: { ...process.env, DATABASE_URL: url, RESTFRAMEWORK_SUPERUSER_PASSWORD: password },
        },
      );
    }
    return last;
  };

  it('creates a superuser who can log in; refuses a weak password and a taken name', async () => {
    const created = await run(
      ['--noinput', '--username', 'admin', '--email', 'admin@example.org'],
      PASSWORD,
    );
    assert.match(created.stdout, /Superuser created successfully/);
    assert.ok(!created.stdout.includes(PASSWORD) && !created.stderr.includes(PASSWORD));
    await assert.rejects(
      run(['--noinput', '--username', 'weak'], '1234'),
      /This password is too short/,
    );
    await assert.rejects(run(['--noinput', '--username', 'admin'], PASSWORD), /already exists/);
    const db = Database.connect(url);
    try {
      const user = await db.run(() => auth.authenticate('admin', PASSWORD));
      assert.equal(user?.is_superuser, true);
    } finally {
      await db.close();
    }
  });
});

describe('permissions stored by an earlier version (unlabelled codenames)', () => {
  it('are renamed at start-up (createPermissions, as npm start runs it) and keep their grants', async () => {
    const db = Database.connect('sqlite::memory:');
    try {
      // The committed migrations, then rows as the earlier version wrote them.
      await applyMigrations(db, {
        folder: fileURLToPath(new URL('../migrations', import.meta.url)),
        app: 'books',
      });
      await seed(db, { books: 1, authors: 1, users: 1 });
      await db.run(async () => {
        const editor = await auth.createUser({ username: 'editor', password: PASSWORD });
        for (const action of ['add', 'change', 'delete', 'view']) {
          const permission = await auth.Permission.objects.create({
            codename: `${action}_book`,
            name: `Can ${action} book`,
            model: 'book',
          });
          if (action === 'change')
            await auth.UserPermission.objects.create({
              user_id: editor.id,
              permission_id: permission.id,
            });
        }
        await auth.createPermissions([Book]);
        const names = (await auth.Permission.objects.execute()).map((row) => row.codename).sort();
        assert.deepEqual(names, [
          'books.add_book',
          'books.change_book',
          'books.delete_book',
          'books.view_book',
        ]);
      });
      const app = await buildApp({ database: db });
      try {
        const login = await app.inject({
          method: 'POST',
          url: '/manage/api/token/',
          headers: HOST,
          payload: { username: 'editor', password: PASSWORD },
        });
        const response = await app.inject({
          method: 'PATCH',
          url: '/manage/api/books/1/',
          headers: { ...HOST, authorization: `Token ${login.json().token}` },
          payload: { title: 'Still an editor' },
        });
        assert.equal(response.statusCode, 200, response.body);
      } finally {
        await app.close();
      }
    } finally {
      await db.close();
    }
  });
});
