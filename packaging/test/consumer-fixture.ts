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
      include: ['app.ts', 'models.ts', 'wire-types.ts', 'entry-points.ts', 'idioms.ts'],
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
  // The parent's lookupValueConverter is 'int': its lookup is a number.
  declare kwargs: { readonly author_pk: number; readonly pk?: string };
  override getQueryset() {
    return Book.objects.filter({ author_id: this.kwargs.author_pk });
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

/**
 * One app using the DRF idioms of the porting guide through the installed packages, checked
 * with `APIClient` and `APIRequestFactory` in-process (`node:assert`: a mismatch exits 1 with
 * the assertion's message): extra actions (detail and list, methods, `urlPath`, `urlName`,
 * `mapping`, per-action `permissionClasses` and `serializerClass`), `SimpleRouter` with
 * `trailingSlash: false`, `lookupValueRegex`, a nested router, `path()` views, the nine concrete
 * generic views, the five versioning schemes, CORS, conditional requests, JWT with
 * `authHeaderTypes` and a pair issued for a user. Prints `IDIOMS OK <number of checks>`.
 */
export const IDIOMS_TS = `import assert from 'node:assert/strict';
import {
  AcceptHeaderVersioning,
  AllowAny,
  APIView,
  CreateAPIView,
  corsHeaders,
  createAuth,
  Database,
  DefaultRouter,
  DestroyAPIView,
  defineModel,
  type ExtraActions,
  type GenericAPIView,
  HostNameVersioning,
  IsAuthenticated,
  JWTAuthentication,
  ListAPIView,
  ListCreateAPIView,
  ModelSerializer,
  ModelViewSet,
  models,
  NamespaceVersioning,
  NestedSimpleRouter,
  QueryParameterVersioning,
  type Request,
  Response,
  RetrieveAPIView,
  RetrieveDestroyAPIView,
  RetrieveUpdateAPIView,
  RetrieveUpdateDestroyAPIView,
  restFramework,
  SimpleRouter,
  UpdateAPIView,
  URLPathVersioning,
  type VersioningClass,
  type ViewSetClass,
} from '@restframework/core';
import { APIClient, APIRequestFactory } from '@restframework/core/testing';
import Fastify from 'fastify';

let checks = 0;
function check(actual: unknown, expected: unknown, what: string): void {
  assert.deepEqual(actual, expected, what);
  checks++;
}

const auth = createAuth({
  jwt: {
    algorithm: 'HS256',
    signingKey: 'a consumer secret of at least 32 chars',
    authHeaderTypes: ['Token'],
  },
});

const Article = defineModel({
  name: 'Article',
  fields: {
    slug: models.SlugField({ maxLength: 50, unique: true }),
    title: models.CharField({ maxLength: 100 }),
    favorites: models.IntegerField({ default: 0 }),
    version: models.IntegerField({ default: 0 }),
  },
  ordering: ['id'],
});

const Comment = defineModel({
  name: 'Comment',
  fields: {
    article: models.ForeignKey(Article, { onDelete: 'CASCADE' }),
    body: models.CharField({ maxLength: 100 }),
  },
  ordering: ['id'],
});

class ArticleSerializer extends ModelSerializer.with({
  model: Article,
  fields: ['id', 'slug', 'title', 'favorites', 'version'],
  readOnlyFields: ['favorites', 'version'],
}) {}

class TitleSerializer extends ModelSerializer.with({ model: Article, fields: ['title'] }) {}

class CommentSerializer extends ModelSerializer.with({ model: Comment, fields: ['id', 'body'] }) {}

class ArticleViewSet extends ModelViewSet {
  override queryset = Article.objects.all();
  override serializerClass = ArticleSerializer;
  override permissionClasses = [AllowAny];
  override lookupField = 'slug';
  override lookupValueRegex = '[a-z0-9-]+';
  override versionField = 'version';
  static override extraActions: ExtraActions<ArticleViewSet> = {
    favorite: {
      detail: true,
      methods: ['post'],
      urlPath: 'favourite',
      urlName: 'fav',
      permissionClasses: [IsAuthenticated],
      mapping: { delete: 'unfavorite' },
    },
    titles: { detail: false, serializerClass: TitleSerializer },
  };

  async favorite(request: Request) {
    return this.#bump(request, 1);
  }

  async unfavorite(request: Request) {
    return this.#bump(request, -1);
  }

  async #bump(request: Request, by: number) {
    const article = await this.getObject();
    const favorites = Number(article['favorites']) + by;
    await Article.objects.filter({ id: article['id'] as number }).update({ favorites });
    return new Response({ favorites, action: this.action, user: request.user['id'] ?? null });
  }

  async titles(_request: Request) {
    const rows = await Article.objects.all().execute();
    return new Response(this.getSerializer({ instance: rows, many: true }).data);
  }
}

class CommentViewSet extends ModelViewSet {
  override serializerClass = CommentSerializer;
  override permissionClasses = [AllowAny];
  declare kwargs: { readonly article_slug: string; readonly pk?: string };
  override getQueryset() {
    return Comment.objects.filter({ article__slug: this.kwargs.article_slug });
  }
}

type Base = abstract new () => GenericAPIView;
function concrete(View: Base): ViewSetClass {
  return class extends View {
    override queryset = Article.objects.all();
    override serializerClass = ArticleSerializer;
    override permissionClasses = [AllowAny];
  };
}
const GENERICS: [string, Base, boolean, string][] = [
  ['create', CreateAPIView, false, 'POST, OPTIONS'],
  ['list', ListAPIView, false, 'GET, HEAD, OPTIONS'],
  ['list-create', ListCreateAPIView, false, 'GET, POST, HEAD, OPTIONS'],
  ['retrieve', RetrieveAPIView, true, 'GET, HEAD, OPTIONS'],
  ['destroy', DestroyAPIView, true, 'DELETE, OPTIONS'],
  ['update', UpdateAPIView, true, 'PUT, PATCH, OPTIONS'],
  ['retrieve-update', RetrieveUpdateAPIView, true, 'GET, PUT, PATCH, HEAD, OPTIONS'],
  ['retrieve-destroy', RetrieveDestroyAPIView, true, 'GET, DELETE, HEAD, OPTIONS'],
  ['retrieve-update-destroy', RetrieveUpdateDestroyAPIView, true, 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS'],
];

function versioned(scheme: VersioningClass): ViewSetClass {
  return class extends APIView {
    override permissionClasses = [AllowAny];
    override versioningClass = scheme;
    get(request: Request) {
      return new Response({ version: request.version });
    }
  };
}

const db = Database.connect('sqlite::memory:');
await db.migrate([...auth.models, Article, Comment]);
const app = Fastify();
await app.register(restFramework, {
  database: db,
  settings: {
    AUTH: auth,
    DEFAULT_AUTHENTICATION_CLASSES: [JWTAuthentication],
    ALLOWED_HOSTS: ['testserver', '.example.org'],
  },
});
const router = new SimpleRouter({ trailingSlash: false }).register('articles', ArticleViewSet);
const comments = new NestedSimpleRouter(router, 'articles', { lookup: 'article' });
comments.register('comments', CommentViewSet, { basename: 'article-comment' });
const generics = new DefaultRouter();
for (const [name, View, detail] of GENERICS) {
  generics.path(detail ? \`generic/\${name}/<int:pk>/\` : \`generic/\${name}/\`, concrete(View), { name });
}
const versions = new DefaultRouter()
  .path('accept/', versioned(AcceptHeaderVersioning), { name: 'accept' })
  .path('host/', versioned(HostNameVersioning), { name: 'host' })
  .path('query/', versioned(QueryParameterVersioning), { name: 'query' });
await app.register(router.plugin, { prefix: '/api' });
await app.register(comments.plugin, { prefix: '/api' });
await app.register(generics.plugin, { prefix: '/g' });
await app.register(versions.plugin, { prefix: '/versions' });
await app.register(new DefaultRouter().path('v/', versioned(URLPathVersioning), { name: 'url' }).plugin, {
  prefix: '/url/:version',
});
await app.register(new DefaultRouter().path('v/', versioned(NamespaceVersioning), { name: 'ns' }).plugin, {
  prefix: '/ns/v7',
  namespace: 'v7',
});
await app.register(corsHeaders, { allowedOrigins: ['https://app.example.org'] });

const { user, article } = await db.run(async () => ({
  user: await auth.createUser({ username: 'ada', password: 'a long passphrase' }),
  article: await Article.objects.create({ slug: 'hello', title: 'Hello' }),
}));
await db.run(() => Comment.objects.create({ article_id: article.id, body: 'First!' }));

const client = new APIClient(app);

// SimpleRouter without trailing slash; lookupValueRegex; a nested router.
check((await client.get('/api/articles')).statusCode, 200, 'list without a slash');
check((await client.get('/api/articles/')).statusCode, 404, 'no slash routes only');
check((await client.get('/api/articles/hello')).json().title, 'Hello', 'detail by slug');
check((await client.get('/api/articles/Not_A_Slug')).statusCode, 404, 'lookupValueRegex');
check(
  (await client.get('/api/articles/hello/comments')).json(),
  [{ id: 1, body: 'First!' }],
  'nested router, this.kwargs.article_slug',
);

// Extra actions: urlPath, per-action permissions and serializer, mapping.
check((await client.get('/api/articles/titles')).json(), [{ title: 'Hello' }], 'list action, its serializerClass');
check((await client.post('/api/articles/hello/favourite')).statusCode, 401, 'per-action IsAuthenticated');

// JWT: a pair issued for a user, sent with the Token header type.
const pair = await auth.jwt.pair(user); // a Jwt, not Jwt | null: the options gave jwt
client.credentials({ authorization: \`Bearer \${pair.access}\` });
check((await client.post('/api/articles/hello/favourite')).statusCode, 401, 'Bearer is not a header type here');
client.credentials({ authorization: \`Token \${pair.access}\` });
check(
  (await client.post('/api/articles/hello/favourite')).json(),
  { favorites: 1, action: 'favorite', user: user.id },
  'the action, as the JWT user',
);
check(
  (await client.delete('/api/articles/hello/favourite')).json(),
  { favorites: 0, action: 'unfavorite', user: user.id },
  'mapping: DELETE on the same URL',
);
client.credentials();

// The nine concrete generic views: each answers exactly its methods.
for (const [name, , detail, allow] of GENERICS) {
  const url = detail ? \`/g/generic/\${name}/\${article.id}/\` : \`/g/generic/\${name}/\`;
  check((await client.options(url)).headers['allow'], allow, \`\${name}: Allow\`);
}
check((await client.get('/g/generic/list/')).json().length, 1, 'ListAPIView lists');
check(
  (await client.patch(\`/g/generic/retrieve-update/\${article.id}/\`, { title: 'Hi' })).json().title,
  'Hi',
  'RetrieveUpdateAPIView patches',
);

// The five versioning schemes.
check((await client.get('/url/v2/v/')).json(), { version: 'v2' }, 'URLPathVersioning');
check((await client.get('/ns/v7/v/')).json(), { version: 'v7' }, 'NamespaceVersioning');
check(
  (await client.get('/versions/accept/', undefined, { headers: { accept: 'application/json; version=1.0' } })).json(),
  { version: '1.0' },
  'AcceptHeaderVersioning',
);
check(
  (await client.get('/versions/host/', undefined, { headers: { host: 'v3.example.org' } })).json(),
  { version: 'v3' },
  'HostNameVersioning',
);
check((await client.get('/versions/query/', { version: 'v4' })).json(), { version: 'v4' }, 'QueryParameterVersioning');

// Conditional requests: ETag from versionField, 304, 412 on a stale If-Match.
const first = await client.get('/api/articles/hello');
const etag = String(first.headers['etag']);
check(etag.startsWith('"'), true, 'a strong ETag');
check(
  (await client.get('/api/articles/hello', undefined, { headers: { 'if-none-match': etag } })).statusCode,
  304,
  'If-None-Match: 304',
);
check(
  (await client.patch('/api/articles/hello', { title: 'New' }, { headers: { 'if-match': '"99.json"' } })).statusCode,
  412,
  'a stale If-Match: 412',
);

// CORS: a preflight from an allowed origin.
const preflight = await client.options('/api/articles', undefined, {
  headers: { origin: 'https://app.example.org', 'access-control-request-method': 'POST' },
});
check(preflight.headers['access-control-allow-origin'], 'https://app.example.org', 'CORS preflight');

// APIRequestFactory: inject() options for the app.
const factory = new APIRequestFactory();
const made = await app.inject(factory.post('/api/articles', { slug: 'second', title: 'Second' }));
check(made.statusCode, 201, 'APIRequestFactory POST');

await app.close();
await db.close();
console.log(\`IDIOMS OK \${checks}\`);
`;
