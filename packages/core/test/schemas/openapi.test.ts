/**
 * OpenAPI: each field's own `jsonSchema()`, the document the generator builds from routers,
 * view sets and serializers (validated against the OpenAPI 3.1 schema), and the plugin that
 * serves it with its documentation page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  BaseFilterBackend,
  BooleanField,
  CharField,
  ChoiceField,
  type Database,
  DateField,
  DateTimeField,
  DecimalField,
  DefaultRouter,
  EmailField,
  FileField,
  HyperlinkedIdentityField,
  IntegerField,
  ModelViewSet,
  type OpenAPIDocument,
  openApi,
  PageNumberPagination,
  PrimaryKeyRelatedField,
  ReadOnlyField,
  restFramework,
  SchemaGenerator,
  Serializer,
  URLField,
} from '@restframework/core';
import { bindField, testDialects } from '@restframework/core/testing';
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify, { type FastifyInstance } from 'fastify';
import { Category, Entry, STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet } from '../fixtures/store-views.ts';

describe('fields describe their values as JSON Schema', () => {
  const cases: [string, InstanceType<any>, Record<string, unknown>][] = [
    [
      'a string',
      new CharField({ maxLength: 100, minLength: 2 }),
      { type: 'string', minLength: 2, maxLength: 100 },
    ],
    ['a nullable string', new CharField({ allowNull: true }), { type: ['string', 'null'] }],
    // In a response an address may be a blank the column holds (a blank default), so it has
    // no format there; a request's body is checked against the format (below).
    ['an e-mail address', new EmailField({ maxLength: 254 }), { type: 'string', maxLength: 254 }],
    ['a URL', new URLField(), { type: 'string' }],
    [
      'an integer',
      new IntegerField({ minValue: 0, maxValue: 10 }),
      { type: 'integer', minimum: 0, maximum: 10 },
    ],
    [
      'a 64-bit integer',
      new IntegerField({ maxValue: 2 ** 40 }),
      { type: 'integer', format: 'int64', maximum: 2 ** 40 },
    ],
    [
      'a decimal',
      new DecimalField({ maxDigits: 10, decimalPlaces: 2 }),
      { type: 'string', format: 'decimal', pattern: '^-?\\d{0,8}(?:\\.\\d{0,2})?$' },
    ],
    [
      'a decimal without limits',
      new DecimalField({ maxDigits: undefined, decimalPlaces: undefined }),
      { type: 'string', format: 'decimal', pattern: '^-?\\d*(?:\\.\\d*)?$' },
    ],
    [
      'a boolean with a default',
      new BooleanField({ default: true }),
      { type: 'boolean', default: true },
    ],
    [
      'a choice',
      new ChoiceField({
        choices: [
          ['a', 'A'],
          ['b', 'Bee'],
        ],
        allowNull: true,
      }),
      {
        type: ['string', 'null'],
        enum: ['a', 'b', null],
        description: '* `a` - A\n* `b` - Bee',
      },
    ],
    ['an integer choice', new ChoiceField({ choices: [1, 2] }), { type: 'integer', enum: [1, 2] }],
    ['a date', new DateField(), { type: 'string', format: 'date' }],
    [
      'a date and time',
      new DateTimeField({ readOnly: true }),
      { type: 'string', format: 'date-time', readOnly: true },
    ],
    ['a file (response)', new FileField(), { type: 'string', format: 'uri' }],
    [
      'a record URL',
      new HyperlinkedIdentityField({ viewName: 'x-detail' }),
      { type: 'string', format: 'uri', readOnly: true },
    ],
    [
      'a key',
      new PrimaryKeyRelatedField({ queryset: Category.objects.all() }),
      { type: 'integer' },
    ],
    ['anything', new ReadOnlyField(), { readOnly: true }],
    [
      'a write-only value with help',
      new CharField({ writeOnly: true, helpText: 'Secret.' }),
      { type: 'string', writeOnly: true, description: 'Secret.' },
    ],
  ];
  for (const [what, field, expected] of cases) {
    it(`describes ${what}`, () => {
      assert.deepEqual(bindField(field).jsonSchema(), expected);
    });
  }

  it('describes e-mail addresses and URLs with their format in requests, unless blank is allowed', () => {
    const request = { mode: 'request' } as const;
    assert.deepEqual(bindField(new EmailField({ maxLength: 254 })).jsonSchema(request), {
      type: 'string',
      maxLength: 254,
      format: 'email',
    });
    // `iri`: internationalised addresses are accepted, which `uri` would call invalid.
    assert.deepEqual(bindField(new URLField()).jsonSchema(request), {
      type: 'string',
      format: 'iri',
    });
    assert.deepEqual(bindField(new URLField({ allowBlank: true })).jsonSchema(request), {
      type: 'string',
    });
  });

  it('describes a file as binary in requests', () => {
    assert.deepEqual(new FileField().jsonSchema({ mode: 'request' }), {
      type: 'string',
      format: 'binary',
    });
  });

  class Inner extends Serializer.with({
    fields: { leaf: new CharField(), extra: new IntegerField({ required: false }) },
  }) {}
  class Outer extends Serializer.with({
    fields: {
      id: new ReadOnlyField(),
      secret: new CharField({ writeOnly: true }),
      inner: new Inner({ required: false }),
      items: Inner.many({ allowEmpty: false }),
    },
  }) {}

  it('describes nested serializers as nested objects, required lists by direction', () => {
    const outer = new Outer();
    const response = outer.jsonSchema({ mode: 'response' });
    assert.deepEqual(Object.keys(response.properties as object), ['id', 'inner', 'items']);
    assert.deepEqual(response.required, ['id', 'inner', 'items']);
    const request = outer.jsonSchema({ mode: 'request' });
    assert.deepEqual(request, {
      type: 'object',
      properties: {
        secret: { type: 'string', writeOnly: true },
        inner: {
          type: 'object',
          properties: { leaf: { type: 'string' }, extra: { type: 'integer' } },
          required: ['leaf'],
        },
        items: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: { leaf: { type: 'string' }, extra: { type: 'integer' } },
            required: ['leaf'],
          },
        },
      },
      required: ['secret', 'items'],
    });
    const patch = outer.jsonSchema({ mode: 'request', partial: true });
    assert.equal(patch.required, undefined);
    assert.equal(
      (patch.properties as Record<string, { required?: unknown }>).inner?.required,
      undefined,
    );
  });

  it('lets an add-on field extend its schema', () => {
    class LimitedFileField extends FileField {
      protected override valueSchema(options: Parameters<FileField['jsonSchema']>[0] & object) {
        return { ...super.valueSchema(options), 'x-max-upload-size': 10 };
      }
    }
    assert.deepEqual(new LimitedFileField().jsonSchema({ mode: 'request' }), {
      type: 'string',
      format: 'binary',
      'x-max-upload-size': 10,
    });
  });
});

/** An ordering backend that documents its parameter, as tricks' OrderingFilter does. */
class DocumentedOrdering extends BaseFilterBackend {
  getSchemaOperationParameters(): Record<string, unknown>[] {
    return [
      {
        name: 'ordering',
        in: 'query',
        required: false,
        style: 'form',
        explode: true,
        schema: { type: 'array', items: { type: 'string', enum: ['rank', '-rank'] } },
      },
    ];
  }
}

class EntryWithFileSerializer extends Serializer.with({
  fields: {
    id: new ReadOnlyField(),
    rank: new IntegerField(),
    label: new CharField({ required: false, allowNull: true }),
    category: new PrimaryKeyRelatedField({ queryset: Category.objects.all(), required: false }),
    attachment: new FileField(),
  },
}) {}

class EntryViewSet extends ModelViewSet {
  static override description = 'Entries, with a file.';
  override queryset = Entry.objects.all();
  override serializerClass = EntryWithFileSerializer;
  override filterBackends = [DocumentedOrdering];
}

async function validate(document: unknown): Promise<void> {
  const validator = new Validator();
  const result = await validator.validate(document as Record<string, unknown>);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  assert.equal(validator.version, '3.1');
}

for (const dialect of testDialects()) {
  describe(`the OpenAPI document on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;
    let document: OpenAPIDocument;

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      app = Fastify({ logger: false });
      await app.register(restFramework, {
        database: db,
        settings: { DEFAULT_PAGINATION_CLASS: PageNumberPagination, PAGE_SIZE: 10 },
      });
      const router = new DefaultRouter()
        .register('books', BookViewSet, { basename: 'book' })
        .register('entries', EntryViewSet, { basename: 'entry' });
      await app.register(router.plugin, { prefix: '/api' });
      await app.register(openApi, { title: 'Store', version: '2.0.0', description: 'Test store.' });
      await app.ready();
      document = new SchemaGenerator({ title: 'Store', version: '2.0.0' }).getSchema(
        app.restFramework,
      );
    });

    after(async () => {
      await app.close();
      await dialect.drop(db);
    });

    it('validates against the OpenAPI 3.1 schema', async () => {
      assert.equal(document.openapi, '3.1.0');
      assert.deepEqual(document.info, { title: 'Store', version: '2.0.0' });
      await validate(document);
    });

    it('has a path per route and an operation per action, DRF operation ids', () => {
      assert.deepEqual(Object.keys(document.paths), [
        '/api/books/',
        '/api/books/{pk}/',
        '/api/entries/',
        '/api/entries/{pk}/',
      ]);
      const ids = Object.values(document.paths).flatMap((item) =>
        Object.values(item)
          .filter(
            (op): op is { operationId: string } =>
              typeof (op as { operationId?: unknown }).operationId === 'string',
          )
          .map((op) => op.operationId),
      );
      assert.deepEqual(ids, [
        'listBooks',
        'createBook',
        'retrieveBook',
        'updateBook',
        'partialUpdateBook',
        'destroyBook',
        'listEntries',
        'createEntry',
        'retrieveEntry',
        'updateEntry',
        'partialUpdateEntry',
        'destroyEntry',
      ]);
      const detail = document.paths['/api/books/{pk}/'] as Record<string, any>;
      assert.deepEqual(detail.parameters, [
        {
          name: 'pk',
          in: 'path',
          required: true,
          description: 'A unique integer value identifying this book.',
          schema: { type: 'integer' },
        },
      ]);
      assert.deepEqual(detail.get.tags, ['books']);
      assert.equal(detail.patch.summary, 'Update part of a book');
    });

    it('documents lists: pagination and filter parameters, the envelope', () => {
      const list = (document.paths['/api/entries/'] as Record<string, any>).get;
      assert.deepEqual(
        list.parameters.map((p: { name: string }) => p.name),
        ['ordering', 'page'],
      );
      assert.deepEqual(list.parameters[0].schema.items.enum, ['rank', '-rank']);
      const envelope = list.responses['200'].content['application/json'].schema;
      assert.deepEqual(envelope.properties.results, {
        type: 'array',
        items: { $ref: '#/components/schemas/EntryWithFile' },
      });
      assert.deepEqual(list.responses['404'], { $ref: '#/components/responses/NotFound' });
    });

    it('gives serializers components: nested groups, required lists, read-only fields', () => {
      const schemas = document.components.schemas as Record<string, any>;
      const book = schemas.Book;
      assert.deepEqual(book.properties.url, { type: 'string', format: 'uri', readOnly: true });
      assert.deepEqual(book.properties.stock_information.properties.state.enum, [
        'published',
        'not_published',
        'in_progress',
      ]);
      const request = schemas.BookRequest;
      assert.deepEqual(request.required, ['title']);
      assert.equal(request.properties.url, undefined, 'no read-only field in requests');
      assert.deepEqual(request.properties.stock_information.required, ['price']);
      assert.equal(
        request.properties.stock_information.properties.price.pattern,
        '^-?\\d{0,8}(?:\\.\\d{0,2})?$',
      );
      assert.equal(
        request.properties.publishing_information.properties.publication_date.format,
        'date',
      );
      assert.equal(schemas.PatchedBookRequest.required, undefined);
      // Form bodies: flat, dotted keys, as the form parsers read them.
      const form = schemas.BookFormRequest;
      assert.ok('stock_information.price' in form.properties);
      assert.deepEqual(form.required, ['title']);
      // Errors mirror the data; a group's errors are an object of its fields' errors, or a list
      // of messages for the group itself (`{"stock_information": null}` → "may not be null").
      const groupErrors = schemas.BookValidationError.properties.stock_information.anyOf;
      assert.deepEqual(groupErrors[0].properties.price, {
        $ref: '#/components/schemas/FieldErrors',
      });
      assert.deepEqual(groupErrors[1], { $ref: '#/components/schemas/FieldErrors' });
    });

    it('documents request bodies in JSON, form and multipart, files in multipart only', () => {
      const books = (document.paths['/api/books/'] as Record<string, any>).post;
      assert.deepEqual(Object.keys(books.requestBody.content), [
        'application/json',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
      ]);
      const entries = (document.paths['/api/entries/'] as Record<string, any>).post;
      assert.deepEqual(Object.keys(entries.requestBody.content), ['multipart/form-data']);
      const form = (document.components.schemas as Record<string, any>).EntryWithFileFormRequest;
      assert.deepEqual(form.properties.attachment, { type: 'string', format: 'binary' });
      assert.ok(form.required.includes('attachment'));
      // A PATCH may leave the file out: JSON and url-encoded bodies, whose shapes have no file.
      const patch = (document.paths['/api/entries/{pk}/'] as Record<string, any>).patch;
      assert.deepEqual(Object.keys(patch.requestBody.content), [
        'application/json',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
      ]);
      const schemas = document.components.schemas as Record<string, any>;
      assert.equal(
        schemas.PatchedEntryWithFileRequest.properties.attachment,
        undefined,
        'JSON carries no file',
      );
      assert.deepEqual(patch.requestBody.content['application/x-www-form-urlencoded'].schema, {
        $ref: '#/components/schemas/PatchedEntryWithFileUrlEncodedRequest',
      });
      const urlEncoded = schemas.PatchedEntryWithFileUrlEncodedRequest;
      assert.equal(
        urlEncoded.properties.attachment,
        undefined,
        'a url-encoded body carries no file',
      );
      assert.deepEqual(Object.keys(urlEncoded.properties), ['rank', 'label', 'category']);
      assert.ok(schemas.PatchedEntryWithFileFormRequest.properties.attachment);
      // Without file fields the url-encoded body is the form body: no second component.
      assert.equal(schemas.BookUrlEncodedRequest, undefined);
    });

    it('documents responses: 201 with Location, 204, 400 field errors, 404, 406, 415', () => {
      const paths = document.paths as Record<string, Record<string, any>>;
      const create = paths['/api/books/']?.post;
      // 405, 408, 431 and 503 are the transport's and the service's, shared by every operation.
      const shared = ['405', '408', '431', '503'];
      assert.deepEqual(
        Object.keys(create.responses).sort(),
        [...['201', '400', '406', '413', '415'], ...shared].sort(),
      );
      assert.ok(create.responses['201'].headers.Location);
      assert.deepEqual(create.responses['400'].content['application/json'].schema, {
        anyOf: [
          { $ref: '#/components/schemas/BookValidationError' },
          { $ref: '#/components/schemas/ErrorDetail' },
        ],
      });
      assert.equal(
        paths['/api/entries/']?.post.responses['201'].headers,
        undefined,
        'no url field, no Location',
      );
      assert.deepEqual(
        Object.keys(paths['/api/books/{pk}/']?.delete.responses).sort(),
        [...['204', '404', '406'], ...shared].sort(),
      );
      assert.deepEqual(paths['/api/books/{pk}/']?.delete.responses['503'], {
        $ref: '#/components/responses/ServiceUnavailable',
      });
      assert.ok(document.components.responses.MethodNotAllowed);
    });

    it('is served at /schema/ with its documentation page at /schema/docs/', async () => {
      const served = await app.inject({ url: '/schema/', headers: { host: '127.0.0.1' } });
      assert.equal(served.statusCode, 200);
      assert.equal(served.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(served.json().paths['/api/books/'].get.operationId, 'listBooks');
      assert.equal(served.json().info.description, 'Test store.');
      const asked = await app.inject({
        url: '/schema/',
        headers: { host: '127.0.0.1', accept: 'application/vnd.oai.openapi+json' },
      });
      assert.equal(asked.headers['content-type'], 'application/vnd.oai.openapi+json');
      const redirect = await app.inject({ url: '/schema', headers: { host: '127.0.0.1' } });
      assert.equal(redirect.statusCode, 301);
      assert.equal(redirect.headers.location, '/schema/');

      const docs = await app.inject({ url: '/schema/docs/', headers: { host: '127.0.0.1' } });
      assert.equal(docs.statusCode, 200);
      assert.equal(docs.headers['content-type'], 'text/html; charset=utf-8');
      assert.match(String(docs.headers['content-security-policy']), /script-src 'self';/);
      assert.doesNotMatch(String(docs.headers['content-security-policy']), /unsafe/);
      assert.match(docs.body, /data-schema-url="\/schema\/"/);
      const scripts = [...docs.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1] as string);
      assert.equal(scripts.length, 2);
      for (const src of scripts) {
        const asset = await app.inject({ url: src, headers: { host: '127.0.0.1' } });
        assert.equal(asset.statusCode, 200, src);
        assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
        assert.equal(asset.headers['content-type'], 'text/javascript; charset=utf-8');
      }
      const other = await app.inject({
        url: scripts[0]?.replace(/[^/]+$/, 'index.html') as string,
        headers: { host: '127.0.0.1' },
      });
      assert.equal(other.statusCode, 404, 'only the files the page uses are served');
    });

    it('serves no documentation page with docsPath: false', async () => {
      const bare = Fastify({ logger: false });
      await bare.register(restFramework, { database: db });
      await bare.register(openApi, { docsPath: false, path: '/openapi/' });
      const document = await bare.inject({ url: '/openapi/', headers: { host: '127.0.0.1' } });
      assert.equal(document.statusCode, 200);
      assert.deepEqual(document.json().paths, {});
      const docs = await bare.inject({ url: '/schema/docs/', headers: { host: '127.0.0.1' } });
      assert.equal(docs.statusCode, 404);
      await bare.close();
    });
  });
}
