/**
 * The JWT header keywords (simplejwt's `AUTH_HEADER_TYPES`): `authHeaderTypes` replaces
 * `Bearer` (`Token <jwt>`), several are accepted, the first names the 401's challenge and
 * OpenAPI's scheme; a pair issued for a user (simplejwt's `for_user`) authenticates; a bad
 * list fails at declaration.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type AuthenticationClass,
  createAuth,
  Database,
  DefaultRouter,
  IsAuthenticated,
  JWTAuthentication,
  type Request,
  Response,
  restFramework,
  SchemaGenerator,
  ViewSet,
} from '@restframework/core';
import { assertImproperlyConfigured } from '@restframework/core/testing';
import Fastify, { type FastifyInstance } from 'fastify';

class MeViewSet extends ViewSet {
  override authenticationClasses: readonly AuthenticationClass[] = [JWTAuthentication];
  override permissionClasses = [IsAuthenticated];
  list(request: Request) {
    return new Response({ username: request.user.username });
  }
}

const SECRET = 's'.repeat(40);

describe('JWT authHeaderTypes', () => {
  const auth = createAuth({
    jwt: { algorithm: 'HS256', signingKey: SECRET, authHeaderTypes: ['Token', 'JWT'] },
  });
  let db: Database;
  let app: FastifyInstance;
  let access: string;
  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(auth.models);
    const user = await db.run(() => auth.createUser({ username: 'ada', password: 'x'.repeat(20) }));
    // simplejwt's RefreshToken.for_user(user): a pair without the password round trip.
    ({ access } = await (auth.jwt as NonNullable<typeof auth.jwt>).pair(user as { id: number }));
    app = Fastify();
    await app.register(restFramework, { database: db, settings: { AUTH: auth } });
    await app.register(new DefaultRouter().register('me', MeViewSet, { basename: 'me' }).plugin, {
      prefix: '/api',
    });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await db.close();
  });
  const me = (authorization?: string) =>
    app.inject({ url: '/api/me/', headers: authorization ? { authorization } : {} });

  it('accepts each keyword, in any case', async () => {
    for (const keyword of ['Token', 'JWT', 'token']) {
      const response = await me(`${keyword} ${access}`);
      assert.equal(response.statusCode, 200, keyword);
      assert.deepEqual(response.json(), { username: 'ada' });
    }
  });

  it('ignores Bearer, which is no longer a keyword, and challenges with the first', async () => {
    const response = await me(`Bearer ${access}`);
    assert.equal(response.statusCode, 401);
    assert.equal(response.headers['www-authenticate'], 'Token realm="api"');
  });

  it("answers simplejwt's message for a header of three words", async () => {
    const response = await me(`Token ${access} more`);
    assert.equal(response.statusCode, 401);
    assert.match(response.json().detail, /two space-delimited values/);
  });

  it('describes the header as an API key when Bearer is not accepted', () => {
    const document = new SchemaGenerator().getSchema(app.restFramework);
    assert.deepEqual(
      {
        ...(document.components.securitySchemes?.jwtAuth as Record<string, unknown>),
        description: undefined,
      },
      { type: 'apiKey', in: 'header', name: 'Authorization', description: undefined },
    );
  });

  it('refuses a list that is empty or holds no keyword', () => {
    for (const authHeaderTypes of [[], ['Bearer token'], [''], 'Bearer'])
      assertImproperlyConfigured(
        () =>
          createAuth({
            jwt: {
              algorithm: 'HS256',
              signingKey: SECRET,
              authHeaderTypes: authHeaderTypes as never,
            },
          }),
        'REST_ERR_JWT_CONFIG',
        /authHeaderTypes/,
      );
  });
});
