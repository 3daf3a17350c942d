/**
 * The files of a consumer project that uses the packed packages: an app with a nested proxy
 * serializer, the mapped ordering filter across a relation and a constrained file field, served
 * over HTTP on plain Node; a CommonJS script; and two tsconfigs (nodenext, bundler).
 * @module
 */

/** A consumer's strict tsconfig, with the module resolution under test. */
export function consumerTsconfig(resolution: 'nodenext' | 'bundler'): string {
  const modules =
    resolution === 'nodenext'
      ? { module: 'nodenext', moduleResolution: 'nodenext' }
      : { module: 'esnext', moduleResolution: 'bundler' };
  return JSON.stringify(
    {
      compilerOptions: {
        target: 'es2023',
        lib: ['es2024'],
        ...modules,
        types: ['node'],
        strict: true,
        skipLibCheck: false,
        noPropertyAccessFromIndexSignature: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        noImplicitOverride: true,
        verbatimModuleSyntax: true,
        erasableSyntaxOnly: true,
        allowImportingTsExtensions: true,
        noEmit: true,
      },
      include: ['app.ts', 'models.ts', 'wire-types.ts', 'entry-points.ts'],
    },
    null,
    2,
  );
}

export const MODELS_TS = `import { computed, defineModel, models } from '@restframework/core';
import { NestedProxyField } from '@restframework/tricks';

export const Author = defineModel({
  name: 'Author',
  fields: {
    first_name: models.CharField({ maxLength: 50 }),
    last_name: models.CharField({ maxLength: 50 }),
  },
  properties: {
    full_name: computed((a: { first_name: string; last_name: string }) => \`\${a.first_name} \${a.last_name}\`),
  },
  ordering: ['id'],
});

export const Book = defineModel({
  name: 'Book',
  fields: {
    title: models.CharField({ maxLength: 100 }),
    author: models.ForeignKey(Author, { onDelete: 'CASCADE', null: true }),
    isbn: models.CharField({ maxLength: 20, unique: true }),
    pages: models.PositiveIntegerField({ default: 200 }),
    price: models.DecimalField({ maxDigits: 10, decimalPlaces: 2 }),
    state: models.CharField({
      maxLength: 20,
      choices: [['published', 'Published'], ['in_progress', 'In progress']],
      default: 'published',
    }),
  },
  properties: {
    publishing: NestedProxyField('isbn', 'pages'),
    stock: NestedProxyField('price', 'state'),
  },
  ordering: ['id'],
});

export const Upload = defineModel({
  name: 'Upload',
  fields: { username: models.CharField({ maxLength: 255 }), resume: models.FileField() },
  ordering: ['id'],
});

export const Note = defineModel({
  name: 'Note',
  fields: {
    text: models.CharField({ maxLength: 100 }),
    version: models.IntegerField({ default: 0 }),
    updated_at: models.DateTimeField({ autoNow: true }),
  },
  ordering: ['id'],
});
`;

export const APP_TS = `import {
  AllowAny,
  corsHeaders,
  Database,
  DefaultRouter,
  type ExtraActions,
  ModelSerializer as CoreModelSerializer,
  ModelViewSet,
  MultiPartParser,
  NestedSimpleRouter,
  type Request,
  Response,
  RetrieveAPIView,
  restFramework,
  URLPathVersioning,
} from '@restframework/core';
import {
  ConstrainedFileField,
  ModelSerializer,
  OrderingFilter,
} from '@restframework/tricks';
import Fastify from 'fastify';
import { Author, Book, Note, Upload } from './models.ts';

class PublishingSerializer extends ModelSerializer.with({
  model: Book,
  fields: ['isbn', 'pages'],
  nestedProxyField: true,
}) {}

class StockSerializer extends ModelSerializer.with({
  model: Book,
  fields: ['price', 'state'],
  nestedProxyField: true,
}) {}

export class BookSerializer extends ModelSerializer.with({
  model: Book,
  fields: ['id', 'title', 'author', 'publishing', 'stock'],
  declaredFields: {
    publishing: new PublishingSerializer({ required: false }),
    stock: new StockSerializer(),
  },
}) {}

class BookViewSet extends ModelViewSet {
  override queryset = Book.objects.all();
  override serializerClass = BookSerializer;
  override permissionClasses = [AllowAny];
  override filterBackends = [OrderingFilter];
  orderingFields = {
    id: 'id',
    title: 'title',
    author: ['author__last_name', 'author__first_name'],
    price: 'price',
  };
  ordering = ['id'];
  static override extraActions: ExtraActions<BookViewSet> = {
    cheapest: { detail: false, urlPath: 'cheapest' },
    retitle: { detail: true, methods: ['post'] },
  };

  async cheapest(_request: Request) {
    const rows = await Book.objects.orderBy('price').slice(0, 1).execute();
    return new Response({ id: rows[0]?.id ?? null, action: this.action });
  }

  async retitle(request: Request) {
    const book = await this.getObject();
    const title = String((request.data as { title?: unknown }).title ?? '');
    await Book.objects.filter({ id: book['id'] as number }).update({ title });
    return new Response({ id: book['id'], title });
  }
}

class AuthorBooks extends ModelViewSet {
  override serializerClass = BookSerializer;
  override permissionClasses = [AllowAny];
  override getQueryset() {
    return Book.objects.filter({ author_id: Number(this.kwargs['author_pk']) });
  }
}

class AuthorViewSet extends ModelViewSet {
  override queryset = Author.objects.all();
  override serializerClass = CoreModelSerializer.with({ model: Author, fields: ['id', 'first_name'] });
  override permissionClasses = [AllowAny];
  override lookupValueConverter = 'int' as const;
}

class BookCard extends RetrieveAPIView {
  override queryset = Book.objects.all();
  override serializerClass = BookSerializer;
  override permissionClasses = [AllowAny];
}

class UploadSerializer extends CoreModelSerializer.with({
  model: Upload,
  fields: ['id', 'username', 'resume'],
  declaredFields: { resume: new ConstrainedFileField({ maxUploadSize: 1024 }) },
}) {}

class UploadViewSet extends ModelViewSet {
  override queryset = Upload.objects.all();
  override serializerClass = UploadSerializer;
  override permissionClasses = [AllowAny];
  override parserClasses = [MultiPartParser];
}

class NoteSerializer extends CoreModelSerializer.with({
  model: Note,
  fields: ['id', 'text', 'version', 'updated_at'],
  readOnlyFields: ['version'],
}) {}

class V1Only extends URLPathVersioning {
  override allowedVersions = ['v1'];
}

class NoteViewSet extends ModelViewSet {
  override queryset = Note.objects.all();
  override serializerClass = NoteSerializer;
  override permissionClasses = [AllowAny];
  override versioningClass = V1Only;
  override versionField = 'version';
  override lastModifiedField = 'updated_at';
  override requirePrecondition = true;
}

const dir = process.env['DATA_DIR'] ?? '.';
const db = Database.connect(\`sqlite:\${dir}/db.sqlite3\`);
await db.migrate([Author, Book, Upload, Note]);
const app = Fastify();
await app.register(restFramework, { database: db, settings: { MEDIA_ROOT: \`\${dir}/media\` } });
const router = new DefaultRouter()
  .register('books', BookViewSet)
  .register('uploads', UploadViewSet)
  .register('authors', AuthorViewSet)
  .path('cards/<int:pk>/', BookCard, { name: 'book-card' });
const byAuthor = new NestedSimpleRouter(router, 'authors', { lookup: 'author' });
byAuthor.register('books', AuthorBooks, { basename: 'author-book' });
await app.register(router.plugin, { prefix: '/api' });
await app.register(byAuthor.plugin, { prefix: '/api' });
await app.register(corsHeaders, {
  allowedOrigins: ['https://app.example.org'],
  allowHeaders: ['content-type', 'if-match'],
  exposeHeaders: ['ETag'],
});
await app.register(new DefaultRouter().register('notes', NoteViewSet).plugin, { prefix: '/v/:version' });
app.addHook('onClose', () => db.close());
process.once('SIGTERM', () => void app.close());
const authors = await db.run(async () => [
  await Author.objects.create({ first_name: 'Ada', last_name: 'Zed' }),
  await Author.objects.create({ first_name: 'Bob', last_name: 'Able' }),
]);
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(\`READY \${address} \${authors.map((a) => a.id).join(',')}\`);
`;

/** A CommonJS script (what \`npm init -y\` makes): \`require()\` of both packages. */
export const REQUIRE_CJS = `'use strict';
const core = require('@restframework/core');
const tricks = require('@restframework/tricks');
const resolved = require.resolve('@restframework/core');
console.log(JSON.stringify({
  modelViewSet: typeof core.ModelViewSet,
  nestedProxyField: typeof tricks.NestedProxyField,
  resolved,
}));
`;

/** Opens a postgres:// database without \`pg\` installed. */
export const MISSING_DRIVER_MJS = `import { Database } from '@restframework/core';
try {
  Database.connect('postgres://nobody@127.0.0.1:1/none');
  console.log('connected');
} catch (error) {
  console.log(JSON.stringify({ code: error.code, message: error.message }));
}
`;

/**
 * Wire types inferred through the packed declarations: what compiles and what must not (each
 * `@ts-expect-error` fails the check when its line compiles).
 */
export const WIRE_TYPES_TS = `import type { CreateInput, PartialInput, Representation } from '@restframework/core';
import { ModelSerializer } from '@restframework/tricks';
import type { BookSerializer } from './app.ts';
import { Book } from './models.ts';

type NewBook = CreateInput<BookSerializer>;

const publishing = { isbn: 'D-1' };
export const ok: NewBook = { title: 'Dune', publishing, stock: { price: '9.99', state: 'in_progress' } };
// @ts-expect-error: no title.
export const noTitle: NewBook = { publishing, stock: { price: '9.99' } };
// @ts-expect-error: no isbn, a NOT NULL column without a default.
export const noIsbn: NewBook = { title: 'Dune', publishing: {}, stock: { price: '9.99' } };
export const sold: NewBook = {
  title: 'Sold',
  publishing,
  // @ts-expect-error: 'sold' is no state.
  stock: { price: '1.00', state: 'sold' },
};
export const patch: PartialInput<BookSerializer> = { stock: { state: 'published' } };
export const title: Representation<BookSerializer>['title'] = 'Dune';
export const id: Representation<BookSerializer>['id'] = 1;
// @ts-expect-error: an unknown name in fields.
export class Typo extends ModelSerializer.with({ model: Book, fields: ['titel'] }) {}
`;

/**
 * One import from each of core's entry points besides the main one, type-checked with the rest
 * and run: `/internal` is what tricks' code imports, `/testing` what a project's tests import.
 */
export const ENTRY_POINTS_TS = `import { labelFromName } from '@restframework/core/internal';
import { APIRequestFactory, assertImproperlyConfigured, multipartBody } from '@restframework/core/testing';
import { ImproperlyConfigured } from '@restframework/core';

const label: string = labelFromName('first_name');
const body: { payload: Buffer } = multipartBody({ title: 'Dune' });
const error: ImproperlyConfigured = assertImproperlyConfigured(() => {
  throw new ImproperlyConfigured('REST_ERR_SETTINGS', 'PAGE_SIZE: expected a number.');
}, 'REST_ERR_SETTINGS', /PAGE_SIZE/);
const factory = new APIRequestFactory();
const request = factory.post('/api/books/', { title: 'Dune' });
console.log(JSON.stringify({ label, bytes: body.payload.length, code: error.code, method: request.method }));
`;
