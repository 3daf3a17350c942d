/**
 * OpenAPI of conditional requests and versions: ETag / Last-Modified response headers, the
 * If-* parameters, 304, 412 and 428 where they can happen (and nowhere else), one document
 * per API version (URL path and namespace versioning), each valid OpenAPI 3.1.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Database,
  DefaultRouter,
  defineModel,
  ModelSerializer,
  ModelViewSet,
  models,
  NamespaceVersioning,
  openApi,
  restFramework,
  SchemaGenerator,
  URLPathVersioning,
} from '@restframework/core';
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify, { type FastifyInstance } from 'fastify';

const Doc = defineModel({
  name: 'Doc',
  table: 'schema_doc',
  fields: {
    title: models.CharField({ maxLength: 50 }),
    version: models.IntegerField({ default: 0 }),
    updated_at: models.DateTimeField({ autoNow: true }),
  },
});

class DocSerializer extends ModelSerializer.with({
  model: Doc,
  fields: ['id', 'title', 'version', 'updated_at'],
  readOnlyFields: ['version'],
}) {}

class GuardedDocs extends ModelViewSet {
  override queryset = Doc.objects.all();
  override serializerClass = DocSerializer;
  override versionField = 'version';
  override lastModifiedField = 'updated_at';
  override requirePrecondition = true;
}

class PlainDocs extends ModelViewSet {
  override queryset = Doc.objects.all();
  override serializerClass = DocSerializer;
}

async function valid(document: unknown): Promise<void> {
  const validator = new Validator();
  const result = await validator.validate(document as Record<string, unknown>);
  assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
}

type Operation = {
  parameters?: { name: string; in: string; required: boolean }[];
  responses: Record<string, { headers?: Record<string, unknown> }>;
};

describe('OpenAPI of conditional requests', () => {
  let app: FastifyInstance;
  before(async () => {
    app = Fastify({ logger: false });
    await app.register(restFramework, { database: Database.connect('sqlite::memory:') });
    await app.register(
      new DefaultRouter()
        .register('guarded', GuardedDocs, { basename: 'guarded' })
        .register('plain', PlainDocs, { basename: 'plain' }).plugin,
      { prefix: '/api' },
    );
    await app.ready();
  });
  after(() => app.close());

  it('describes validators, preconditions and their answers, and stays valid', async () => {
    const document = new SchemaGenerator().getSchema(app.restFramework);
    await valid(document);
    const detail = document.paths['/api/guarded/{pk}/'] as Record<string, Operation>;
    const get = detail.get as Operation;
    assert.deepEqual(Object.keys(get.responses['200']?.headers ?? {}), ['ETag', 'Last-Modified']);
    assert.ok(get.responses['304']);
    const names = (op: Operation) => (op.parameters ?? []).map((p) => `${p.in}:${p.name}`);
    assert.deepEqual(names(get), ['header:If-None-Match', 'header:If-Modified-Since']);
    for (const method of ['put', 'patch', 'delete']) {
      const op = detail[method] as Operation;
      assert.deepEqual(names(op), ['header:If-Match', 'header:If-Unmodified-Since'], method);
      assert.deepEqual(op.responses['412'], { $ref: '#/components/responses/PreconditionFailed' });
      assert.deepEqual(op.responses['428'], {
        $ref: '#/components/responses/PreconditionRequired',
      });
    }
    assert.ok(document.components.responses.PreconditionFailed);
    const plain = document.paths['/api/plain/{pk}/'] as Record<string, Operation>;
    for (const method of ['get', 'put', 'patch', 'delete']) {
      const op = plain[method] as Operation;
      assert.equal(op.responses['304'], undefined);
      assert.equal(op.responses['412'], undefined);
      assert.equal((op.parameters ?? []).length, 0, method);
    }
  });
});

describe('OpenAPI per API version', () => {
  it('URL path versioning: one document per version, the version in the paths', async () => {
    const app = Fastify({ logger: false });
    await app.register(restFramework, {
      database: Database.connect('sqlite::memory:'),
      settings: { DEFAULT_VERSIONING_CLASS: URLPathVersioning, ALLOWED_VERSIONS: ['v1', 'v2'] },
    });
    await app.register(new DefaultRouter().register('docs', PlainDocs).plugin, {
      prefix: '/api/:version',
    });
    await app.register(openApi, { docsPath: false, apiVersions: ['v1', 'v2'] });
    await app.ready();
    for (const version of ['v1', 'v2']) {
      const response = await app.inject({
        url: `/schema/${version}/`,
        headers: { host: 'localhost' },
      });
      assert.equal(response.statusCode, 200);
      const document = response.json();
      await valid(document);
      assert.equal(document.info.version, version);
      assert.deepEqual(Object.keys(document.paths), [
        `/api/${version}/docs/`,
        `/api/${version}/docs/{pk}/`,
      ]);
    }
    await app.close();
  });

  it('namespace versioning: each document lists its namespace’s routes', async () => {
    const app = Fastify({ logger: false });
    await app.register(restFramework, {
      database: Database.connect('sqlite::memory:'),
      settings: { DEFAULT_VERSIONING_CLASS: NamespaceVersioning },
    });
    const router = new DefaultRouter().register('docs', PlainDocs);
    await app.register(router.plugin, { prefix: '/v1', namespace: 'v1' } as { prefix: string });
    await app.register(router.plugin, { prefix: '/v2', namespace: 'v2' } as { prefix: string });
    await app.ready();
    const v2 = new SchemaGenerator({ apiVersion: 'v2' }).getSchema(app.restFramework);
    await valid(v2);
    assert.deepEqual(Object.keys(v2.paths), ['/v2/docs/', '/v2/docs/{pk}/']);
    const list = (v2.paths['/v2/docs/'] as Record<string, { operationId: string }>).get;
    assert.equal(list?.operationId, 'listDocs');
    await app.close();
  });
});
