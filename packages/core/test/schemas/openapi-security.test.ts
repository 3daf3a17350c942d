/**
 * OpenAPI security from the views' authentication and permission classes: security schemes in
 * the components, one requirement per scheme on each operation, `{}` where anonymous callers
 * are let through, 401 wherever an authentication class can refuse credentials, 429 where a
 * throttle applies; the document still validates against the OpenAPI 3.1 schema.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type AuthenticationClass,
  BasicAuthentication,
  createAuth,
  Database,
  DefaultRouter,
  defineModel,
  IsAuthenticated,
  IsAuthenticatedOrReadOnly,
  JWTAuthentication,
  ModelSerializer,
  ModelViewSet,
  models,
  type OpenAPIDocument,
  type PermissionClass,
  restFramework,
  SchemaGenerator,
  SessionAuthentication,
  type ThrottleClass,
  TokenAuthentication,
  UserRateThrottle,
} from '@restframework/core';
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify, { type FastifyInstance } from 'fastify';

const Note = defineModel({ name: 'Note', fields: { text: models.CharField({ maxLength: 50 }) } });
class NoteSerializer extends ModelSerializer.with({ model: Note, fields: ['id', 'text'] }) {}

class PrivateNoteViewSet extends ModelViewSet {
  override queryset = Note.objects.all();
  override serializerClass = NoteSerializer;
  override authenticationClasses: readonly AuthenticationClass[] = [
    TokenAuthentication,
    SessionAuthentication,
  ];
  override permissionClasses: readonly PermissionClass[] = [IsAuthenticated];
  override throttleClasses: readonly ThrottleClass[] = [UserRateThrottle];
}
class PublicNoteViewSet extends PrivateNoteViewSet {
  override authenticationClasses = [JWTAuthentication, BasicAuthentication];
  override permissionClasses = [IsAuthenticatedOrReadOnly];
  override throttleClasses = [];
}
class OpenNoteViewSet extends PrivateNoteViewSet {
  override authenticationClasses = [];
  override throttleClasses = [];
}

describe('OpenAPI security', () => {
  let app: FastifyInstance;
  let document: OpenAPIDocument;
  before(async () => {
    app = Fastify();
    await app.register(restFramework, {
      database: Database.connect('sqlite::memory:'),
      settings: {
        AUTH: createAuth({ jwt: { algorithm: 'HS256', signingKey: 's'.repeat(40) } }),
        DEFAULT_THROTTLE_RATES: { user: '10/min' },
      },
    });
    const router = new DefaultRouter()
      .register('private', PrivateNoteViewSet, { basename: 'private' })
      .register('public', PublicNoteViewSet, { basename: 'public' })
      .register('open', OpenNoteViewSet, { basename: 'open' });
    await app.register(router.plugin, { prefix: '/api' });
    await app.ready();
    document = new SchemaGenerator().getSchema(app.restFramework);
  });
  after(() => app.close());

  const operation = (path: string, method: string) =>
    (document.paths[path] as Record<string, any>)[method];

  it('lists the schemes the views use', () => {
    assert.deepEqual(document.components.securitySchemes, {
      tokenAuth: {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: 'Token-based authentication with required prefix "Token"',
      },
      cookieAuth: { type: 'apiKey', in: 'cookie', name: 'sessionid' },
      jwtAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      basicAuth: { type: 'http', scheme: 'basic' },
    });
  });

  it('requires a scheme where anonymous callers are refused, optional where they pass', () => {
    const table: [string, string, unknown[], boolean][] = [
      ['/api/private/', 'get', [{ tokenAuth: [] }, { cookieAuth: [] }], true],
      ['/api/private/{pk}/', 'delete', [{ tokenAuth: [] }, { cookieAuth: [] }], true],
      // 401 too: a caller that sends bad credentials to JWT or Basic is refused with 401 even
      // where an anonymous one would pass, and the document lists every answer the server gives.
      ['/api/public/', 'get', [{ jwtAuth: [] }, { basicAuth: [] }, {}], true],
      ['/api/public/', 'post', [{ jwtAuth: [] }, { basicAuth: [] }], true],
    ];
    for (const [path, method, security, needs401] of table) {
      const op = operation(path, method);
      assert.deepEqual(op.security, security, `${method} ${path}`);
      assert.equal('401' in op.responses, needs401, `${method} ${path}`);
    }
    // No authentication class: public, said explicitly (Redocly's `security-defined` rule).
    assert.deepEqual(operation('/api/open/', 'get').security, []);
    assert.equal('401' in operation('/api/open/', 'get').responses, false);
  });

  it('answers 429 where a throttle applies, and validates', async () => {
    assert.deepEqual(operation('/api/private/', 'get').responses['429'], {
      $ref: '#/components/responses/Throttled',
    });
    assert.equal(operation('/api/public/', 'get').responses['429'], undefined);
    const result = await new Validator().validate(document as Record<string, unknown>);
    assert.equal(result.valid, true, JSON.stringify(result.errors));
  });
});
