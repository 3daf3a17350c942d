/**
 * An error nobody handled is logged with its stack and the request id whatever logger the app
 * has (issue 37: an app made with `Fastify()` logged nothing on a 500). Without a logger, or
 * with one whose level drops errors, the line goes to the fallback (a pino on stderr); with one
 * that writes errors, it goes there, once. No line carries the request's Authorization or
 * Cookie header, its body, its query string, or what else the error object holds; the client
 * still gets the bare 500.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import {
  Database,
  DatabaseUnavailableError,
  DefaultRouter,
  ModelViewSet,
  restFramework,
  serverOptions,
} from '@restframework/core';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { Book, BookSerializer, STORE_MODELS } from '../fixtures/store-models.ts';

const SECRETS = ['Token s3cr3t-t0ken', 'sessionid=c00kie-value', 'hunter2-password', 'qu3ry-token'];

/** A view set whose create fails with an error that carries more than a message. */
class ThrowingViewSet extends ModelViewSet {
  override queryset = Book.objects.all();
  override serializerClass = BookSerializer;
  override async create(): Promise<never> {
    const error = new TypeError('the view broke') as TypeError & {
      config?: unknown;
      code?: string;
    };
    // What a client library's error may hold: it must not reach the log.
    error.config = { headers: { Authorization: 'Token s3cr3t-t0ken' } };
    error.code = 'E_VIEW_BROKE';
    throw error;
  }
}

/** A view set whose list finds the database read-only (an outage, not a bug). */
class ReadOnlyDatabaseViewSet extends ModelViewSet {
  override queryset = Book.objects.all();
  override serializerClass = BookSerializer;
  override list(): never {
    throw new DatabaseUnavailableError(undefined, { kind: 'read-only' });
  }
}

interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly reqId?: string;
  readonly req?: { readonly method: string; readonly url: string };
  readonly err?: {
    readonly type: string;
    readonly message: string;
    readonly stack: string;
    readonly code?: string;
  };
}

async function start(
  db: Database,
  logger: FastifyServerOptions['logger'],
): Promise<FastifyInstance> {
  let n = 0;
  const options: FastifyServerOptions = { ...serverOptions(), genReqId: () => `req-${++n}` };
  const app = Fastify(logger === undefined ? options : { ...options, logger });
  await app.register(restFramework, { database: db });
  const router = new DefaultRouter()
    .register('throwing', ThrowingViewSet)
    .register('read-only', ReadOnlyDatabaseViewSet, { basename: 'read-only' });
  await app.register(router.plugin, {
    prefix: '/api',
  });
  await app.ready();
  return app;
}

/** Sends the failing request with secrets in its headers, query string and body. */
function sendFailing(app: FastifyInstance) {
  return app.inject({
    method: 'POST',
    url: '/api/throwing/?token=qu3ry-token',
    headers: {
      host: '127.0.0.1',
      accept: 'application/json',
      authorization: 'Token s3cr3t-t0ken',
      cookie: 'sessionid=c00kie-value',
      'content-type': 'application/json',
    },
    payload: JSON.stringify({ title: 'x', password: 'hunter2-password' }),
  });
}

/** What the test writes to stderr meanwhile, as lines. */
function captureStderr(t: TestContext): string[] {
  const lines: string[] = [];
  t.mock.method(process.stderr, 'write', (chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  });
  return lines;
}

function checkLine(raw: string, reqId: string): LogLine {
  for (const secret of SECRETS)
    assert.ok(!raw.includes(secret.split(' ').pop() as string), `${secret} logged: ${raw}`);
  const line = JSON.parse(raw) as LogLine;
  assert.equal(line.level, 50);
  assert.equal(line.msg, 'unhandled error');
  assert.equal(line.reqId, reqId);
  assert.equal(line.err?.type, 'TypeError');
  assert.equal(line.err?.message, 'the view broke');
  assert.equal(line.err?.code, 'E_VIEW_BROKE');
  assert.match(line.err?.stack ?? '', /TypeError: the view broke\n\s+at ThrowingViewSet\.create/);
  return line;
}

describe('unhandled errors are logged whatever the app logger', () => {
  let db: Database;
  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(STORE_MODELS);
  });
  after(() => db.close());

  for (const [title, logger] of [
    ['an app without a logger (Fastify())', undefined],
    ['an app with logger: false', false],
    ['an app whose logger level is fatal', { level: 'fatal' }],
  ] as const) {
    it(`${title}: one line on the fallback, with the stack and the request id`, async (t) => {
      const app = await start(db, logger);
      t.after(() => app.close());
      const lines = captureStderr(t);
      const response = await sendFailing(app);
      t.mock.restoreAll();
      assert.equal(response.statusCode, 500);
      assert.deepEqual(response.json(), { detail: 'A server error occurred.' });
      assert.equal(lines.length, 1, lines.join('\n'));
      const line = checkLine(lines[0] as string, 'req-1');
      assert.deepEqual(line.req, { method: 'POST', url: '/api/throwing/' });
    });
  }

  it('an app whose logger writes errors: one line there, none on the fallback', async (t) => {
    const written: string[] = [];
    const stream = { write: (line: string) => void written.push(line.trimEnd()) };
    const app = await start(db, { level: 'error', stream });
    t.after(() => app.close());
    const lines = captureStderr(t);
    const response = await sendFailing(app);
    t.mock.restoreAll();
    assert.equal(response.statusCode, 500);
    assert.deepEqual(lines, []);
    assert.equal(written.length, 1, written.join('\n'));
    checkLine(written[0] as string, 'req-1');
  });

  it('a handled error (a 4xx) writes nothing', async (t) => {
    const app = await start(db, false);
    t.after(() => app.close());
    const lines = captureStderr(t);
    const response = await app.inject({
      method: 'GET',
      url: '/api/throwing/999/',
      headers: { host: '127.0.0.1' },
    });
    t.mock.restoreAll();
    assert.equal(response.statusCode, 404);
    assert.deepEqual(lines, []);
  });

  it('an outage in an app without a logger: one warning on the fallback, no stack', async (t) => {
    const app = await start(db, false);
    t.after(() => app.close());
    const lines = captureStderr(t);
    const first = await app.inject({ url: '/api/read-only/', headers: { host: '127.0.0.1' } });
    const second = await app.inject({ url: '/api/read-only/', headers: { host: '127.0.0.1' } });
    t.mock.restoreAll();
    assert.equal(first.statusCode, 503);
    assert.equal(second.statusCode, 503);
    assert.equal(first.headers['retry-after'], '1');
    // Once per kind per interval: the second request adds no line.
    assert.equal(lines.length, 1, lines.join('\n'));
    const line = JSON.parse(lines[0] as string) as LogLine & { kind?: string };
    assert.equal(line.level, 40);
    assert.equal(line.kind, 'read-only');
    assert.match(line.msg, /database unavailable \(read-only\)/);
    assert.ok(!(lines[0] as string).includes('    at '), 'no stack for an outage');
  });
});
