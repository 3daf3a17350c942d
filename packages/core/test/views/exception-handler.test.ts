/**
 * One function turns every error into a response: the `EXCEPTION_HANDLER` setting (by default
 * `exceptionHandler`). A handler set in the settings shapes the errors of views, of bodies
 * Fastify refuses, of unknown routes and of URLs Fastify cannot route; what it does not handle,
 * or a handler that fails, is one logged 500 with no details for the client.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  Database,
  DefaultRouter,
  type ExceptionHandler,
  exceptionHandler,
  ImproperlyConfigured,
  ModelViewSet,
  PermissionDenied,
  resolveSettings,
  restFramework,
  type SettingsInput,
  serverOptions,
} from '@restframework/core';
import Fastify, { type FastifyInstance } from 'fastify';
import { request } from '../fixtures/http-app.ts';
import { Book, BookSerializer, STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet } from '../fixtures/store-views.ts';

/** The default's answer, under `error`, with the name of the view that raised it. */
const wrapping: ExceptionHandler = (exc, context) => {
  const response = exceptionHandler(exc, context);
  if (response)
    response.data = { error: response.data, view: context.view?.constructor.name ?? null };
  return response;
};

/** A handler with a bug of its own. */
const throwing: ExceptionHandler = () => {
  throw new TypeError('the handler broke');
};

/** A view set whose list fails with an error that is not an HTTP error. */
class BrokenViewSet extends ModelViewSet {
  override queryset = Book.objects.all();
  override serializerClass = BookSerializer;
  override async list(): Promise<never> {
    throw new RangeError('secret internals');
  }
}

interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly err?: { readonly message: string };
}

interface TestApp {
  readonly app: FastifyInstance;
  /** What the app logged at error level. */
  readonly errors: LogLine[];
}

/** An app with the toolkit's server options, the plugin with `settings`, and one router. */
async function start(db: Database, settings: SettingsInput): Promise<TestApp> {
  const errors: LogLine[] = [];
  const stream = { write: (line: string) => void errors.push(JSON.parse(line) as LogLine) };
  const app = Fastify({ logger: { level: 'error', stream }, ...serverOptions() });
  await app.register(restFramework, {
    database: db,
    settings: { MAX_BODY_SIZE: 256, ...settings },
  });
  const router = new DefaultRouter();
  router.register('books', BookViewSet, { basename: 'book' });
  router.register('broken', BrokenViewSet, { basename: 'broken' });
  await app.register(router.plugin, { prefix: '/api' });
  // A route of the app's own, outside the views, that raises an HTTP error.
  app.get('/plain-denied', () => {
    throw new PermissionDenied('Not for you.');
  });
  await app.ready();
  return { app, errors };
}

const TOO_LARGE = {
  payload: JSON.stringify({ title: 'x'.repeat(1000) }),
  headers: { 'content-type': 'application/json' },
};

/** Writes `raw` to the app's port and reads the answer until the server closes. */
async function exchange(app: FastifyInstance, raw: string): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  return new Promise((resolve, reject) => {
    const socket = connect(address.port, '127.0.0.1', () => socket.write(raw));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('EXCEPTION_HANDLER', () => {
  let db: Database;
  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(STORE_MODELS);
  });
  after(() => db.close());

  describe('a handler set in the settings answers', () => {
    let test: TestApp;
    before(async () => {
      test = await start(db, { EXCEPTION_HANDLER: wrapping });
    });
    after(() => test.app.close());

    it('errors raised in a view, with the view in its context', async () => {
      const missing = await request(test.app, { method: 'GET', url: '/api/books/999/' });
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.json(), { error: { detail: 'Not found.' }, view: 'BookViewSet' });
      assert.equal(missing.headers.allow, 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');

      const invalid = await request(test.app, {
        method: 'POST',
        url: '/api/books/',
        payload: '{"title": 1',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(invalid.statusCode, 400);
      assert.match(
        (invalid.json() as { error: { detail: string } }).error.detail,
        /^JSON parse error/,
      );
    });

    it('a body over the limit, which Fastify refuses before any view runs', async () => {
      const response = await request(test.app, {
        method: 'POST',
        url: '/api/books/',
        ...TOO_LARGE,
      });
      assert.equal(response.statusCode, 413);
      assert.deepEqual(response.json(), {
        error: { detail: 'Request body is too large.' },
        view: 'BookViewSet',
      });
      assert.equal(response.headers.connection, 'close');
      assert.equal(response.headers.allow, 'GET, POST, HEAD, OPTIONS');
    });

    it('a route that does not exist, under the router and elsewhere', async () => {
      for (const url of ['/api/nowhere/', '/api/books/1/more/', '/elsewhere']) {
        const response = await request(test.app, { method: 'GET', url });
        assert.equal(response.statusCode, 404, url);
        assert.deepEqual(response.json(), { error: { detail: 'Not found.' }, view: null }, url);
      }
    });

    it("an HTTP error raised by a route of the app's own, with its status", async () => {
      const response = await request(test.app, { method: 'GET', url: '/plain-denied' });
      assert.equal(response.statusCode, 403);
      assert.deepEqual(response.json(), { error: { detail: 'Not for you.' }, view: null });
    });

    it('a host that is not allowed', async () => {
      const response = await request(test.app, {
        method: 'GET',
        url: '/api/books/',
        headers: { host: 'evil.example' },
      });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), { error: { detail: 'Invalid Host header.' }, view: null });
    });

    it('a URL Fastify cannot route (serverOptions: frameworkErrors)', async () => {
      const response = await request(test.app, { method: 'GET', url: '/api/books/%zz/' });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), {
        error: { detail: 'The URL is not valid.' },
        view: null,
      });
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
    });

    it('a request Node cannot parse (serverOptions: clientErrorHandler)', async () => {
      const answer = await exchange(
        test.app,
        `GET /api/books/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      assert.match(answer, /^HTTP\/1\.1 431 /);
      assert.match(answer, /x-content-type-options: nosniff/i);
      assert.ok(
        answer.endsWith('{"error":{"detail":"Request header fields are too large."},"view":null}'),
        answer,
      );
    });

    it('no 500 for anything a client sends', async () => {
      const cases = [
        {
          method: 'POST',
          url: '/api/books/',
          payload: '[',
          headers: { 'content-type': 'application/json' },
        },
        {
          method: 'POST',
          url: '/api/books/',
          payload: 'x',
          headers: { 'content-type': 'text/plain' },
        },
        { method: 'POST', url: '/api/books/', ...TOO_LARGE },
        { method: 'DELETE', url: '/api/books/' },
        { method: 'GET', url: '/api/books/abc/' },
        { method: 'GET', url: '/api/books/', headers: { accept: 'application/xml' } },
        { method: 'GET', url: '/api/books/%zz/' },
        { method: 'GET', url: '/api/books/?format=yaml' },
      ] as const;
      for (const options of cases) {
        const response = await request(test.app, options);
        const where = `${options.method} ${options.url}`;
        assert.ok(
          response.statusCode >= 400 && response.statusCode < 500,
          `${where}: ${response.statusCode}`,
        );
        assert.ok('error' in (response.json() as object), where);
      }
      assert.deepEqual(test.errors, [], 'nothing logged at error level');
    });

    it('an error that is not an HTTP error: the one 500, logged once', async () => {
      const before = test.errors.length;
      const response = await request(test.app, { method: 'GET', url: '/api/broken/' });
      assert.equal(response.statusCode, 500);
      assert.deepEqual(response.json(), { detail: 'A server error occurred.' });
      const logged = test.errors.slice(before);
      assert.equal(logged.length, 1, JSON.stringify(logged));
      assert.equal(logged[0]?.err?.message, 'secret internals');
    });
  });

  describe('a handler that throws', () => {
    let test: TestApp;
    before(async () => {
      test = await start(db, { EXCEPTION_HANDLER: throwing });
    });
    after(() => test.app.close());

    it('is a 500 with the generic body, logged once, wherever the error was raised', async () => {
      const cases = [
        { method: 'GET', url: '/api/books/999/' },
        { method: 'POST', url: '/api/books/', ...TOO_LARGE },
        { method: 'GET', url: '/api/nowhere/' },
        { method: 'GET', url: '/api/books/%zz/' },
      ] as const;
      for (const options of cases) {
        const before = test.errors.length;
        const response = await request(test.app, options);
        const where = `${options.method} ${options.url}`;
        assert.equal(response.statusCode, 500, where);
        assert.equal(response.body, '{"detail":"A server error occurred."}', where);
        const logged = test.errors.slice(before);
        assert.equal(logged.length, 1, `${where}: ${JSON.stringify(logged)}`);
        assert.equal(logged[0]?.msg, 'the exception handler failed', where);
        assert.equal(logged[0]?.err?.message, 'the handler broke', where);
      }
    });
  });

  describe('the default handler', () => {
    let test: TestApp;
    before(async () => {
      test = await start(db, {});
    });
    after(() => test.app.close());

    it('answers each error path in the catalogue body', async () => {
      const cases = [
        [{ method: 'GET', url: '/api/books/999/' }, 404, 'Not found.'],
        [{ method: 'POST', url: '/api/books/', ...TOO_LARGE }, 413, 'Request body is too large.'],
        [{ method: 'GET', url: '/api/nowhere/' }, 404, 'Not found.'],
        [{ method: 'GET', url: '/api/books/%zz/' }, 400, 'The URL is not valid.'],
        [{ method: 'GET', url: '/api/broken/' }, 500, 'A server error occurred.'],
      ] as const;
      for (const [options, status, detail] of cases) {
        const response = await request(test.app, options);
        assert.equal(response.statusCode, status, options.url);
        assert.deepEqual(response.json(), { detail }, options.url);
      }
    });
  });

  it('refuses at start-up an EXCEPTION_HANDLER that is not a synchronous function', () => {
    for (const [value, pattern] of [
      ['myapp.handlers.exception_handler', /must be a function .* got "myapp\.handlers\.exce/],
      [null, /must be a function .* got null/],
      [async () => null, /is async: it must answer a Response or null at once/],
    ] as const) {
      assert.throws(
        () => resolveSettings({ EXCEPTION_HANDLER: value as never }),
        (error: unknown) =>
          error instanceof ImproperlyConfigured &&
          error.code === 'REST_ERR_SETTINGS' &&
          pattern.test(error.message),
        String(value),
      );
    }
  });
});
