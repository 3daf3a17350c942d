/**
 * DRF's `APIClient` / `APIRequestFactory` over `inject()`: JSON and multipart bodies, query
 * data, `credentials()`, `forceAuthenticate()` (permissions still run), `login()` through the
 * real session flow (the CSRF token sent on unsafe requests), and `logout()`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type AuthenticationClass,
  createAuth,
  Database,
  DefaultRouter,
  IsAuthenticated,
  issueToken,
  type Request,
  Response,
  restFramework,
  SessionAuthentication,
  SessionLoginView,
  TokenAuthentication,
  ViewSet,
} from '@restframework/core';
import { APIClient, APIRequestFactory } from '@restframework/core/testing';
import Fastify, { type FastifyInstance } from 'fastify';

const auth = createAuth({});

class EchoViewSet extends ViewSet {
  override authenticationClasses: readonly AuthenticationClass[] = [
    SessionAuthentication,
    TokenAuthentication,
  ];
  override permissionClasses = [IsAuthenticated];
  list(request: Request) {
    return new Response({
      user: request.user.username,
      auth: request.auth ?? null,
      url: request.raw.url,
    });
  }
  create(request: Request) {
    return new Response({ user: request.user.username, data: request.data }, 201);
  }
}

describe('APIClient', () => {
  let db: Database;
  let app: FastifyInstance;
  let ada: Awaited<ReturnType<typeof auth.createUser>>;
  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(auth.models);
    ada = await db.run(() => auth.createUser({ username: 'ada', password: 'a long passphrase' }));
    app = Fastify();
    await app.register(restFramework, {
      database: db,
      settings: { AUTH: auth, ALLOWED_HOSTS: ['testserver'] },
    });
    await app.register(
      new DefaultRouter()
        .register('echo', EchoViewSet, { basename: 'echo' })
        .register('login', SessionLoginView, { basename: 'login' }).plugin,
      { prefix: '/api' },
    );
    await app.ready();
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  it("builds inject() options as DRF's factory builds requests", () => {
    const factory = new APIRequestFactory();
    const options = factory.post('/x/', { a: 1 }) as {
      payload: string;
      headers: Record<string, string>;
    };
    assert.equal(options.payload, '{"a":1}');
    assert.equal(options.headers['content-type'], 'application/json');
    assert.equal(options.headers.host, 'testserver');
    assert.equal(
      (factory.get('/x/', { q: 'a b', tag: [1, 2] }) as { url: string }).url,
      '/x/?q=a+b&tag=1&tag=2',
    );
  });

  it('refuses anonymous callers, and forceAuthenticate passes the user through permissions', async () => {
    const client = new APIClient(app);
    assert.equal((await client.get('/api/echo/')).statusCode, 403);
    client.forceAuthenticate(ada, 'forced-token');
    const response = await client.get('/api/echo/', { q: 'x' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { user: 'ada', auth: 'forced-token', url: '/api/echo/?q=x' });
    const posted = await client.post('/api/echo/', { name: 'golden' }, { format: 'multipart' });
    assert.deepEqual(posted.json(), { user: 'ada', data: { name: 'golden' } });
    client.forceAuthenticate(null);
    assert.equal((await client.get('/api/echo/')).statusCode, 403);
  });

  it('sends credentials() on every request', async () => {
    const key = await db.run(() => issueToken(auth, ada));
    const client = new APIClient(app);
    client.credentials({ Authorization: `Token ${key}` });
    const response = await client.post('/api/echo/', { a: [1, 2] });
    assert.equal(response.statusCode, 201, response.body);
    assert.deepEqual(response.json().data, { a: [1, 2] });
    client.credentials();
    assert.equal((await client.get('/api/echo/')).statusCode, 403);
  });

  it('logs in through the session view, sends the CSRF token, and logs out', async () => {
    const client = new APIClient(app);
    assert.equal(await client.login({ username: 'ada', password: 'wrong' }), false);
    assert.equal(await client.login({ username: 'ada', password: 'a long passphrase' }), true);
    const posted = await client.post('/api/echo/', { a: 1 });
    assert.equal(posted.statusCode, 201, posted.body);
    assert.equal(posted.json().user, 'ada');
    client.logout();
    assert.equal((await client.get('/api/echo/')).statusCode, 403);
  });
});
