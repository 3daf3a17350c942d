/**
 * OPTIONS: the metadata body of spec 4.1, byte for byte as the reference service sends it
 * (exchanges 01 and 10): name "<View> List" / "<View> Instance", the view set's description,
 * the media types of the renderers and parsers, and `actions` with one entry per serializer
 * field (read-only ones included) whose keys come in the order type, required, read_only,
 * label, then max_length / children / choices.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  BasePermission,
  BaseRenderer,
  type Database,
  IsAuthenticatedOrReadOnly,
  JSONParser,
  JSONRenderer,
  ModelSerializer,
  type Request,
  SimpleMetadata,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { metadataBodiesBuilt } from '../../src/metadata/simple-metadata.ts';
import { buildApp, request } from '../fixtures/http-app.ts';
import { Book, STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet, seedBooks } from '../fixtures/store-views.ts';

/** A second renderer, so `renders` lists two media types as the reference's does. */
class HTMLRenderer extends BaseRenderer {
  readonly mediaType = 'text/html';
  readonly format = 'api';
  render(): string {
    return '<!doctype html>';
  }
}

class ReadOnlyForAnonymousViewSet extends BookViewSet {
  static override description = 'Anonymous callers may only read.';
  override permissionClasses = [IsAuthenticatedOrReadOnly];
}

class RenamedViewSet extends BookViewSet {
  static override viewName = 'Library Shelf';
}

/** Describes only the title of each action: a subclass deciding the actions itself. */
class TitleOnlyMetadata extends SimpleMetadata {
  override async determineActions(request: Request, view: unknown) {
    const actions = await super.determineActions(request, view);
    return Object.fromEntries(
      Object.entries(actions).map(([method, fields]) => [method, { title: fields.title }]),
    ) as Awaited<ReturnType<SimpleMetadata['determineActions']>>;
  }
}

/** The same name as BookViewSet's, with its own metadata class. */
class TitleOnlyViewSet extends BookViewSet {
  static override viewName = 'Book';
  override metadataClass = TitleOnlyMetadata;
}

/** How each dispatch answered: `now` (a Response) or `later` (a promise). */
const seen: string[] = [];

class RecordingViewSet extends BookViewSet {
  static override viewName = 'Book';
  override dispatch(...args: Parameters<BookViewSet['dispatch']>) {
    const response = super.dispatch(...args);
    seen.push(response instanceof Promise ? 'later' : 'now');
    return response;
  }
}

/**
 * Allows reads, and writes only when the caller sends `x-write: yes`; it answers after a
 * wait and reads the method only then, so it sees whether OPTIONS still asks as POST or PUT.
 */
class AsyncWriteHeader extends BasePermission {
  override async hasPermission(request: Request): Promise<boolean> {
    await new Promise((resolve) => setImmediate(resolve));
    return request.isSafeMethod || request.raw.headers['x-write'] === 'yes';
  }
}

class AsyncPermissionViewSet extends RecordingViewSet {
  override permissionClasses = [AsyncWriteHeader];
}

/** Finds the record after a wait: PUT is listed (or not) once it settled. */
class AsyncObjectViewSet extends RecordingViewSet {
  override async getObject() {
    await new Promise((resolve) => setImmediate(resolve));
    return super.getObject();
  }
}

const ShortBookSerializer = ModelSerializer.with({ model: Book, fields: ['id', 'title'] });

/** Picks its serializer class by the caller's `x-short` header. */
class ClassChooserViewSet extends BookViewSet {
  static override viewName = 'Book';
  override getSerializerClass() {
    return this.request?.raw.headers['x-short'] === 'yes'
      ? ShortBookSerializer
      : super.getSerializerClass();
  }
}

/** Describes itself and parses as the caller's headers say: a body's inputs that vary. */
class VaryingViewSet extends BookViewSet {
  static override viewName = 'Book';
  override getViewDescription() {
    return String(this.request?.raw.headers['x-description'] ?? 'Book ViewSet.');
  }
  override getParsers() {
    return this.request?.raw.headers['x-json-only'] === 'yes'
      ? [new JSONParser()]
      : super.getParsers();
  }
}

const HEAD =
  '"renders":["application/json","text/html"],' +
  '"parses":["application/json","application/x-www-form-urlencoded","multipart/form-data"]';

// The reference body (DRF 3.14) except `price`: its DecimalField also describes max_digits and
// decimal_places, as DRF 3.15's metadata does (the field tests decide that; DRF 3.14 has none).
const FIELDS =
  '{"url":{"type":"field","required":false,"read_only":true,"label":"Url"},' +
  '"id":{"type":"integer","required":false,"read_only":true,"label":"ID"},' +
  '"title":{"type":"string","required":true,"read_only":false,"label":"Title","max_length":100},' +
  '"description":{"type":"string","required":false,"read_only":false,"label":"Description"},' +
  '"summary":{"type":"string","required":false,"read_only":false,"label":"Summary"},' +
  '"publishing_information":{"type":"nested object","required":false,"read_only":false,' +
  '"label":"Publishing information","children":{' +
  '"publication_date":{"type":"date","required":false,"read_only":false,"label":"Publication date"},' +
  '"isbn":{"type":"string","required":false,"read_only":false,"label":"Isbn"},' +
  '"pages":{"type":"integer","required":false,"read_only":false,"label":"Pages"}}},' +
  '"stock_information":{"type":"nested object","required":false,"read_only":false,' +
  '"label":"Stock information","children":{' +
  '"stock_count":{"type":"integer","required":false,"read_only":false,"label":"Stock count"},' +
  '"price":{"type":"decimal","required":true,"read_only":false,"label":"Price",' +
  '"max_digits":10,"decimal_places":2},' +
  '"state":{"type":"choice","required":false,"read_only":false,"label":"State","choices":[' +
  '{"value":"published","display_name":"Published"},' +
  '{"value":"not_published","display_name":"Not published"},' +
  '{"value":"in_progress","display_name":"In progress"}]}}}}';

for (const dialect of testDialects()) {
  describe(`OPTIONS on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      await seedBooks(db, 1);
      app = await buildApp({
        database: db,
        prefix: '/books/api',
        viewsets: [
          ['books', BookViewSet],
          ['read-only', ReadOnlyForAnonymousViewSet, { basename: 'read-only' }],
          ['renamed', RenamedViewSet, { basename: 'renamed' }],
          ['titles', TitleOnlyViewSet, { basename: 'titles' }],
          ['recorded', RecordingViewSet, { basename: 'recorded' }],
          ['async-permission', AsyncPermissionViewSet, { basename: 'async-permission' }],
          ['async-object', AsyncObjectViewSet, { basename: 'async-object' }],
          ['class-chooser', ClassChooserViewSet, { basename: 'class-chooser' }],
          ['varying', VaryingViewSet, { basename: 'varying' }],
        ],
        settings: { DEFAULT_RENDERER_CLASSES: [JSONRenderer, HTMLRenderer] },
      });
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
    });

    it('describes the list: name, description, renders, parses and POST fields', async () => {
      const response = await request(app, { method: 'OPTIONS', url: '/books/api/books/' });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers.allow, 'GET, POST, HEAD, OPTIONS');
      assert.equal(response.headers['content-type'], 'application/json');
      assert.equal(response.headers.vary, 'Accept');
      assert.equal(
        response.body,
        `{"name":"Book List","description":"Book ViewSet.",${HEAD},"actions":{"POST":${FIELDS}}}`,
      );
    });

    it('describes the detail with PUT fields', async () => {
      const response = await request(app, { method: 'OPTIONS', url: '/books/api/books/1/' });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers.allow, 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
      assert.equal(response.headers['content-type'], 'application/json');
      assert.equal(response.headers.vary, 'Accept');
      assert.equal(
        response.body,
        `{"name":"Book Instance","description":"Book ViewSet.",${HEAD},"actions":{"PUT":${FIELDS}}}`,
      );
    });

    it('leaves out PUT for a record that does not exist, as DRF does', async () => {
      const response = await request(app, { method: 'OPTIONS', url: '/books/api/books/999/' });
      assert.equal(response.statusCode, 200);
      assert.equal(response.body, `{"name":"Book Instance","description":"Book ViewSet.",${HEAD}}`);
    });

    it('leaves out the actions the caller may not use', async () => {
      const list = await request(app, { method: 'OPTIONS', url: '/books/api/read-only/' });
      assert.equal(list.statusCode, 200);
      assert.deepEqual(Object.keys(list.json()), ['name', 'description', 'renders', 'parses']);
      assert.equal(list.json().description, 'Anonymous callers may only read.');
    });

    it('lets a metadata class describe the actions its own way, kept apart from the default', async () => {
      const expected =
        `{"name":"Book List","description":"Book ViewSet.",${HEAD},"actions":{"POST":{"title":` +
        '{"type":"string","required":true,"read_only":false,"label":"Title","max_length":100}}}}';
      for (let i = 0; i < 2; i++) {
        const titles = await request(app, { method: 'OPTIONS', url: '/books/api/titles/' });
        assert.equal(titles.body, expected);
        const books = await request(app, { method: 'OPTIONS', url: '/books/api/books/' });
        assert.equal(
          books.body,
          `{"name":"Book List","description":"Book ViewSet.",${HEAD},"actions":{"POST":${FIELDS}}}`,
        );
      }
    });

    it('names the view from viewName, or the class name without ViewSet', async () => {
      const renamed = await request(app, { method: 'OPTIONS', url: '/books/api/renamed/' });
      assert.equal(renamed.json().name, 'Library Shelf List');
      const root = await request(app, { method: 'OPTIONS', url: '/books/api/' });
      assert.equal(root.statusCode, 200);
      assert.equal(root.headers.allow, 'GET, HEAD, OPTIONS');
      assert.equal(
        root.body,
        `{"name":"Api Root","description":"The default basic root view for DefaultRouter",${HEAD}}`,
      );
    });

    it('answers at once when every check does, with the same body', async () => {
      seen.length = 0;
      const list = await request(app, { method: 'OPTIONS', url: '/books/api/recorded/' });
      assert.equal(
        list.body,
        (await request(app, { method: 'OPTIONS', url: '/books/api/books/' })).body,
      );
      // The list asks permissions only; the detail also looks the record up, at once on SQLite.
      const detail = await request(app, { method: 'OPTIONS', url: '/books/api/recorded/1/' });
      assert.equal(
        detail.body,
        `{"name":"Book Instance","description":"Book ViewSet.",${HEAD},"actions":{"PUT":${FIELDS}}}`,
      );
      assert.deepEqual(seen, ['now', dialect.name === 'sqlite' ? 'now' : 'later']);
    });

    it('waits for a permission that answers later, asking it as the method listed', async () => {
      seen.length = 0;
      const url = '/books/api/async-permission/';
      const refused = await request(app, { method: 'OPTIONS', url });
      const allowed = await request(app, { method: 'OPTIONS', url, headers: { 'x-write': 'yes' } });
      assert.equal(refused.statusCode, 200, refused.body);
      assert.equal(refused.body, `{"name":"Book List","description":"Book ViewSet.",${HEAD}}`);
      assert.equal(
        allowed.body,
        `{"name":"Book List","description":"Book ViewSet.",${HEAD},"actions":{"POST":${FIELDS}}}`,
      );
      const detail = await request(app, {
        method: 'OPTIONS',
        url: `${url}1/`,
        headers: { 'x-write': 'yes' },
      });
      assert.deepEqual(Object.keys(detail.json().actions), ['PUT']);
      assert.deepEqual(seen, ['later', 'later', 'later']);
    });

    it('lists PUT once a record found later is there, and leaves it out when it is not', async () => {
      seen.length = 0;
      const found = await request(app, { method: 'OPTIONS', url: '/books/api/async-object/1/' });
      const missing = await request(app, {
        method: 'OPTIONS',
        url: '/books/api/async-object/999/',
      });
      assert.equal(
        found.body,
        `{"name":"Book Instance","description":"Book ViewSet.",${HEAD},"actions":{"PUT":${FIELDS}}}`,
      );
      assert.equal(missing.statusCode, 200, missing.body);
      assert.equal(missing.body, `{"name":"Book Instance","description":"Book ViewSet.",${HEAD}}`);
      assert.deepEqual(seen, ['later', 'later']);
    });

    it('describes the serializer class getSerializerClass picks for this request', async () => {
      const url = '/books/api/class-chooser/';
      const short =
        `{"name":"Book List","description":"Book ViewSet.",${HEAD},"actions":{"POST":{` +
        '"id":{"type":"integer","required":false,"read_only":true,"label":"ID"},' +
        '"title":{"type":"string","required":true,"read_only":false,"label":"Title","max_length":100}}}}';
      // Alternately, twice: neither answer is served from the other's cache.
      for (let i = 0; i < 2; i++) {
        const full = await request(app, { method: 'OPTIONS', url });
        assert.equal(
          full.body,
          `{"name":"Book List","description":"Book ViewSet.",${HEAD},"actions":{"POST":${FIELDS}}}`,
        );
        const chosen = await request(app, {
          method: 'OPTIONS',
          url,
          headers: { 'x-short': 'yes' },
        });
        assert.equal(chosen.body, short);
      }
    });

    it('builds a body once, and follows a description or parsers that change per request', async () => {
      const url = '/books/api/varying/';
      const plain = `{"name":"Book List","description":"Book ViewSet.",${HEAD},"actions":{"POST":${FIELDS}}}`;
      assert.equal((await request(app, { method: 'OPTIONS', url })).body, plain);
      const built = metadataBodiesBuilt();
      assert.equal((await request(app, { method: 'OPTIONS', url })).body, plain);
      assert.equal(metadataBodiesBuilt(), built, 'the same inputs: the body built before');
      for (let i = 0; i < 2; i++) {
        const described = await request(app, {
          method: 'OPTIONS',
          url,
          headers: { 'x-description': `Asked ${i}.` },
        });
        assert.equal(described.json().description, `Asked ${i}.`);
        const jsonOnly = await request(app, {
          method: 'OPTIONS',
          url,
          headers: { 'x-json-only': 'yes' },
        });
        assert.deepEqual(jsonOnly.json().parses, ['application/json']);
        assert.equal(jsonOnly.json().description, 'Book ViewSet.');
        assert.equal((await request(app, { method: 'OPTIONS', url })).body, plain);
      }
    });
  });
}
