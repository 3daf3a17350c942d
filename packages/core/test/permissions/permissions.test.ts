/**
 * Authentication and permissions through HTTP, as DRF answers: 403 when the view has no
 * authentication scheme; 401 with `WWW-Authenticate` when its first scheme names one; 403
 * with "Authentication credentials were not provided." when the scheme names none; object
 * permissions on detail routes. Error responses carry `Allow` and `Vary` like any other.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AllowAny,
  AuthenticationFailed,
  BaseAuthentication,
  BasePermission,
  type Database,
  IsAuthenticated,
  IsAuthenticatedOrReadOnly,
  type Request,
  type RequestUser,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, json, request } from '../fixtures/http-app.ts';
import { STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet, GOLDEN_BOOK, seedBooks } from '../fixtures/store-views.ts';

const NOT_PROVIDED = '{"detail":"Authentication credentials were not provided."}';
const NO_PERMISSION = '{"detail":"You do not have permission to perform this action."}';

/** `Authorization: Token good` is user "ann"; any other token is refused. */
class TokenAuthentication extends BaseAuthentication {
  override async authenticate(request: Request): Promise<readonly [RequestUser, unknown] | null> {
    const header = request.raw.headers.authorization;
    if (!header?.startsWith('Token ')) return null;
    const token = header.slice('Token '.length);
    if (token !== 'good') throw new AuthenticationFailed('Invalid token.');
    return [{ isAuthenticated: true, username: 'ann' }, token];
  }

  override authenticateHeader(): string {
    return 'Token';
  }
}

/** A scheme without a challenge (as DRF's session authentication). */
class CookieAuthentication extends BaseAuthentication {}

class NoSchemeViewSet extends BookViewSet {
  override authenticationClasses = [];
  override permissionClasses = [IsAuthenticated];
}

class TokenViewSet extends BookViewSet {
  override authenticationClasses = [TokenAuthentication];
  override permissionClasses = [IsAuthenticated];
}

class CookieViewSet extends BookViewSet {
  override authenticationClasses = [CookieAuthentication];
  override permissionClasses = [IsAuthenticated];
}

class ReadOnlyViewSet extends BookViewSet {
  override authenticationClasses = [TokenAuthentication];
  override permissionClasses = [IsAuthenticatedOrReadOnly];
}

/** Only books with an even id, with its own message. */
class EvenBooksOnly extends BasePermission {
  readonly message = 'Only even books.';
  override hasObjectPermission(_request: Request, _view: unknown, obj: unknown): boolean {
    return (obj as { id: number }).id % 2 === 0;
  }
}

class ObjectPermissionViewSet extends BookViewSet {
  override permissionClasses = [EvenBooksOnly];
}

const later = () => new Promise((resolve) => setImmediate(resolve));

/** Reads only, answered later (as a permission that looks something up would). */
class LaterReadOnly extends BasePermission {
  override async hasPermission(request: Request): Promise<boolean> {
    await later();
    return request.isSafeMethod;
  }
}

/** Even books only, answered later. */
class LaterEvenBooksOnly extends BasePermission {
  readonly message = 'Only even books, later.';
  override async hasObjectPermission(_r: Request, _v: unknown, obj: unknown): Promise<boolean> {
    await later();
    return (obj as { id: number }).id % 2 === 0;
  }
}

class LaterEvenViewSet extends BookViewSet {
  override permissionClasses = [LaterEvenBooksOnly];
}

/**
 * A "no" given as a thenable that is not a native promise (another promise library's): it
 * must be waited for, never taken for a truthy answer.
 */
class ThenableNo extends BasePermission {
  override hasPermission(): Promise<boolean> {
    const no = {
      // biome-ignore lint/suspicious/noThenProperty: the point of the test is a foreign thenable.
      then(resolve: (value: boolean) => void) {
        void later().then(() => resolve(false));
      },
    };
    return no as unknown as Promise<boolean>;
  }
  override hasObjectPermission(): Promise<boolean> {
    return this.hasPermission();
  }
}

class ThenableNoViewSet extends BookViewSet {
  override permissionClasses = [ThenableNo];
}

/** Permissions answering at once and later, mixed: every one of them is asked, in order. */
class LaterViewSet extends BookViewSet {
  override permissionClasses = [AllowAny, LaterEvenBooksOnly, LaterReadOnly];
}

function assertRefused(
  response: LightMyRequestResponse,
  status: number,
  body: string,
  allow = 'GET, POST, HEAD, OPTIONS',
): void {
  assert.equal(response.statusCode, status, response.body);
  assert.equal(response.body, body);
  assert.equal(response.headers['content-type'], 'application/json');
  assert.equal(response.headers.allow, allow);
  assert.equal(response.headers.vary, 'Accept');
}

for (const dialect of testDialects()) {
  describe(`permissions on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      await seedBooks(db, 2);
      app = await buildApp({
        database: db,
        prefix: '/api',
        viewsets: [
          // The books' `url` field links to the "book-detail" route.
          ['books', BookViewSet],
          ['no-scheme', NoSchemeViewSet, { basename: 'no-scheme' }],
          ['token', TokenViewSet, { basename: 'token' }],
          ['cookie', CookieViewSet, { basename: 'cookie' }],
          ['read-only', ReadOnlyViewSet, { basename: 'read-only' }],
          ['even', ObjectPermissionViewSet, { basename: 'even' }],
          ['later', LaterViewSet, { basename: 'later' }],
          ['later-even', LaterEvenViewSet, { basename: 'later-even' }],
          ['thenable-no', ThenableNoViewSet, { basename: 'thenable-no' }],
        ],
      });
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
    });

    it('answers 403 to IsAuthenticated when the view has no authentication scheme', async () => {
      const response = await request(app, { method: 'GET', url: '/api/no-scheme/' });
      assertRefused(response, 403, NO_PERMISSION);
      assert.equal(response.headers['www-authenticate'], undefined);
    });

    it('answers 401 with WWW-Authenticate when the scheme names a challenge', async () => {
      for (const method of ['GET', 'POST', 'OPTIONS'] as const) {
        const response = await request(app, { method, url: '/api/token/' });
        assertRefused(response, 401, NOT_PROVIDED);
        assert.equal(response.headers['www-authenticate'], 'Token');
      }
      const detail = await request(app, { method: 'DELETE', url: '/api/token/1/' });
      assertRefused(detail, 401, NOT_PROVIDED, 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
      assert.equal((await request(app, { method: 'GET', url: '/api/token/1/' })).statusCode, 401);
    });

    it('answers 401 for wrong credentials, and 200 for good ones', async () => {
      const wrong = await request(app, {
        method: 'GET',
        url: '/api/token/',
        headers: { authorization: 'Token bad' },
      });
      assertRefused(wrong, 401, '{"detail":"Invalid token."}');
      assert.equal(wrong.headers['www-authenticate'], 'Token');
      const good = await request(app, {
        method: 'GET',
        url: '/api/token/',
        headers: { authorization: 'Token good' },
      });
      assert.equal(good.statusCode, 200);
      assert.equal(good.json().length, 2);
    });

    it('answers 403 "not provided" when the scheme names no challenge, as DRF does', async () => {
      const response = await request(app, { method: 'GET', url: '/api/cookie/' });
      assertRefused(response, 403, NOT_PROVIDED);
      assert.equal(response.headers['www-authenticate'], undefined);
    });

    it('lets anyone read and only authenticated callers write with IsAuthenticatedOrReadOnly', async () => {
      assert.equal((await request(app, { method: 'GET', url: '/api/read-only/' })).statusCode, 200);
      assert.equal(
        (await request(app, { method: 'HEAD', url: '/api/read-only/1/' })).statusCode,
        200,
      );
      const refused = await request(app, {
        method: 'POST',
        url: '/api/read-only/',
        ...json(GOLDEN_BOOK),
      });
      assertRefused(refused, 401, NOT_PROVIDED);
      const allowed = await request(app, {
        method: 'POST',
        url: '/api/read-only/',
        payload: JSON.stringify(GOLDEN_BOOK),
        headers: { 'content-type': 'application/json', authorization: 'Token good' },
      });
      assert.equal(allowed.statusCode, 201, allowed.body);
      // OPTIONS shows POST only to those who may use it.
      const anonymous = await request(app, { method: 'OPTIONS', url: '/api/read-only/' });
      assert.equal(anonymous.json().actions, undefined);
      const signedIn = await request(app, {
        method: 'OPTIONS',
        url: '/api/read-only/',
        headers: { authorization: 'Token good' },
      });
      assert.deepEqual(Object.keys(signedIn.json().actions), ['POST']);
    });

    it('checks object permissions on detail routes with the permission message', async () => {
      const odd = await request(app, { method: 'GET', url: '/api/even/1/' });
      assertRefused(
        odd,
        403,
        '{"detail":"Only even books."}',
        'GET, PUT, PATCH, DELETE, HEAD, OPTIONS',
      );
      const even = await request(app, { method: 'GET', url: '/api/even/2/' });
      assert.equal(even.statusCode, 200);
      const list = await request(app, { method: 'GET', url: '/api/even/' });
      assert.equal(list.statusCode, 200);
      const deleted = await request(app, { method: 'DELETE', url: '/api/even/1/' });
      assert.equal(deleted.statusCode, 403);
    });

    it('waits for a permission answering with a thenable that is not a native promise', async () => {
      const list = await request(app, { method: 'GET', url: '/api/thenable-no/' });
      assertRefused(list, 403, NO_PERMISSION);
      const detail = await request(app, { method: 'GET', url: '/api/thenable-no/1/' });
      assertRefused(detail, 403, NO_PERMISSION, 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
    });

    it('waits for permissions that answer with a promise, after those that answer at once', async () => {
      const list = await request(app, { method: 'GET', url: '/api/later/' });
      assert.equal(list.statusCode, 200);
      const count = list.json().length;
      const refused = await request(app, {
        method: 'POST',
        url: '/api/later/',
        ...json(GOLDEN_BOOK),
      });
      assertRefused(refused, 403, NO_PERMISSION);
      assert.equal(
        (await request(app, { method: 'GET', url: '/api/later/' })).json().length,
        count,
      );
      const odd = await request(app, { method: 'GET', url: '/api/later/1/' });
      assertRefused(
        odd,
        403,
        '{"detail":"Only even books, later."}',
        'GET, PUT, PATCH, DELETE, HEAD, OPTIONS',
      );
      assert.equal((await request(app, { method: 'GET', url: '/api/later/2/' })).statusCode, 200);
      // OPTIONS asks the same permissions as PUT would: no actions for a reader.
      const options = await request(app, { method: 'OPTIONS', url: '/api/later/2/' });
      assert.equal(options.statusCode, 200);
      assert.equal(options.json().actions, undefined);
      assert.equal(options.json().name, 'Later Instance');
      // A PUT is offered on the object a later object permission allows, not on the others.
      const even = await request(app, { method: 'OPTIONS', url: '/api/later-even/2/' });
      assert.deepEqual(Object.keys(even.json().actions), ['PUT']);
      const odd2 = await request(app, { method: 'OPTIONS', url: '/api/later-even/1/' });
      assert.equal(odd2.json().actions, undefined);
      const collection = await request(app, { method: 'OPTIONS', url: '/api/later-even/' });
      assert.deepEqual(Object.keys(collection.json().actions), ['POST']);
    });
  });
}
