/**
 * The ordering filter with friendly names, through HTTP (`inject()`) on SQLite and PostgreSQL.
 *
 * The Profile cases replay the reference's recorded exchanges 97-110 on the same 200 profiles
 * and compare whole pages; the Book cases replay 113-119 on books of our own (the reference's
 * book table is not reproducible), against orders computed here in JavaScript.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AllowAny,
  type Database,
  DefaultRouter,
  defineModel,
  type FilterBackendClass,
  ImproperlyConfigured,
  ModelViewSet,
  models,
  PageNumberPagination,
  type PaginationClass,
  type QueryEvent,
  type QuerySet,
  type Request,
  restFramework,
  type SettingsInput,
  type ViewSetClass,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import { type OrderingFieldsMapping, OrderingFilter } from '@restframework/tricks';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  ALL_MODELS,
  Book,
  BookSerializer,
  bookData,
  edgeProfiles,
  Profile,
  ProfileSerializer,
  referenceProfiles,
  seedBooks,
  seedProfiles,
  User,
} from './fixtures/ordering-models.ts';

// --- view sets --------------------------------------------------------------------------

const PROFILE_ORDERING_FIELDS = {
  id: 'id',
  username: 'user__username',
  email: 'user__email',
  full_name: ['user__first_name', 'user__last_name'],
};

/** Spec 4.2, as the reference's `/api/profile/`. */
class ProfileViewSet extends ModelViewSet {
  static override description = 'Profile ViewSet.';
  override queryset = Profile.objects.all();
  override serializerClass = ProfileSerializer;
  override permissionClasses = [AllowAny];
  override filterBackends: readonly FilterBackendClass[] | undefined = [OrderingFilter];
  orderingFields: OrderingFieldsMapping = PROFILE_ORDERING_FIELDS;
  ordering = ['id'];
}

class StrictProfileViewSet extends ProfileViewSet {
  orderingStrict = true;
}

/** The parameter set on the filter class. */
class SortOrdering extends OrderingFilter {
  override orderingParam = 'sort';
}

class SortProfileViewSet extends ProfileViewSet {
  override filterBackends = [SortOrdering];
  orderingStrict = true;
}

class SevenPerPage extends PageNumberPagination {
  override pageSize = 7;
}

/** Many ties (five hobbies over 200 rows), small pages. */
class TiedProfileViewSet extends ProfileViewSet {
  override paginationClass: PaginationClass | null = SevenPerPage;
  override orderingFields = { ...PROFILE_ORDERING_FIELDS, hobbies: 'hobbies' };
}

/** No pagination: the list must be stable too. */
class UnpagedProfileViewSet extends TiedProfileViewSet {
  override paginationClass = null;
}

/** As the reference's `/books/api/proxy-books/`. */
class BookViewSet extends ModelViewSet {
  override queryset = Book.objects.all();
  override serializerClass = BookSerializer;
  override permissionClasses = [AllowAny];
  override filterBackends = [OrderingFilter];
  orderingFields: OrderingFieldsMapping = {
    id: 'id',
    title: 'title',
    isbn: 'isbn',
    price: 'price',
    status: ['state', 'publication_date'],
  };
  ordering = ['id'];
}

/** Hyphenated names, a path with its own `-`, strict mode, no pagination. */
class BookMoreViewSet extends BookViewSet {
  override paginationClass = null;
  override orderingFields = {
    'publication-date': 'publication_date',
    newest: ['-publication_date', 'id'],
    status: ['state', 'publication_date'],
  };
  orderingStrict = true;
}

/** No view `ordering`: the model's default (`isbn`) applies. */
class BookModelDefaultViewSet extends BookViewSet {
  override paginationClass = null;
  override ordering = undefined as unknown as string[];
}

const VIEWSETS: Record<string, ViewSetClass> = {
  profile: ProfileViewSet,
  'profile-strict': StrictProfileViewSet,
  'profile-sort': SortProfileViewSet,
  'profile-tied': TiedProfileViewSet,
  'profile-unpaged': UnpagedProfileViewSet,
  'proxy-books': BookViewSet,
  'books-more': BookMoreViewSet,
  'books-model-default': BookModelDefaultViewSet,
};

async function buildApp(db: Database, settings: SettingsInput = {}): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(restFramework, {
    database: db,
    settings: { DEFAULT_PAGINATION_CLASS: PageNumberPagination, PAGE_SIZE: 100, ...settings },
  });
  const router = new DefaultRouter();
  for (const [prefix, viewset] of Object.entries(VIEWSETS))
    router.register(prefix, viewset, { basename: prefix });
  await app.register(router.plugin, { prefix: '/api' });
  await app.ready();
  return app;
}

// --- helpers ----------------------------------------------------------------------------

interface Page {
  count: number;
  next: string | null;
  previous: string | null;
  results: { id: number }[];
}

async function get(app: FastifyInstance, url: string): Promise<{ status: number; body: any }> {
  const response = await app.inject({ method: 'GET', url });
  return { status: response.statusCode, body: response.json() };
}

async function page(app: FastifyInstance, url: string): Promise<Page> {
  const { status, body } = await get(app, url);
  assert.equal(status, 200, `${url}: ${JSON.stringify(body)}`);
  return body as Page;
}

const idsOf = (rows: readonly { id: number }[]) => rows.map((row) => row.id);

/** Every row of a paginated list, following `next` to the end. */
async function walk(app: FastifyInstance, url: string): Promise<number[]> {
  const ids: number[] = [];
  let next: string | null = url;
  while (next) {
    const body: Page = await page(app, next.replace(/^https?:\/\/[^/]+/, ''));
    ids.push(...idsOf(body.results));
    next = body.next;
  }
  return ids;
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);
const ids = (text: string) => text.trim().split(/\s+/).map(Number);

/** Byte order for text (SQLite BINARY, PostgreSQL "C"), NULL smallest. */
function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));
}

type SortKey<T> = readonly [get: (row: T) => unknown, descending: boolean];

/** The ids of `rows` sorted by `keys`, ties in id order: the order the filter must give. */
function sortedIds<T extends { id: number }>(rows: readonly T[], keys: readonly SortKey<T>[]) {
  return [...rows]
    .sort((a, b) => {
      for (const [getValue, descending] of keys) {
        const c = compareValues(getValue(a), getValue(b));
        if (c !== 0) return descending ? -c : c;
      }
      return a.id - b.id;
    })
    .map((row) => row.id);
}

const BOOKS = bookData().map((book, i) => ({ id: i + 1, ...book, price: Number(book.price) }));
type BookRow = (typeof BOOKS)[number];
const by =
  <K extends keyof BookRow>(key: K) =>
  (row: BookRow) =>
    row[key];

const PROFILES = referenceProfiles().map((profile, i) => ({ id: i + 1, ...profile }));
type ProfileRow = (typeof PROFILES)[number];

/** The recorded first pages (ids) of exchanges 99-110 on /api/profile/. */
const REFERENCE = {
  email: ids(`120 140 160 180 20 40 60 80 100 150 200 50 107 127 147 167 187 27 47 67 7 87 114 134
    14 154 174 194 34 54 74 94 101 121 141 161 181 1 21 41 61 81 108 128 148 168 188 28 48 68 88 8
    115 135 155 15 175 195 35 55 75 95 102 122 142 162 182 22 2 42 62 82 109 129 149 169 189 29 49
    69 89 9 116 136 156 16 176 196 36 56 76 96 103 123 143 163 183 23 3 43`),
  minusUsername: ids(`53 153 13 113 73 173 33 133 93 193 46 146 6 106 66 166 26 126 86 186 39 139
    99 199 59 159 19 119 79 179 32 132 92 192 52 152 12 112 72 172 85 185 45 145 65 165 25 125 78
    178 38 138 98 198 58 158 18 118 71 171 31 131 91 191 51 151 111 11 64 164 24 124 84 184 44 144
    4 104 57 157 17 117 77 177 37 137 97 197 110 10 70 170 90 190 3 103 63 163 23 123`),
  fullName: ids(`50 100 150 200 40 140 80 180 20 120 60 160 47 147 87 187 27 127 67 167 7 107 54 154
    94 194 34 134 74 174 14 114 61 161 1 101 41 141 81 181 21 121 68 168 8 108 48 148 88 188 28 128
    75 175 15 115 55 155 95 195 35 135 22 122 62 162 2 102 42 142 82 182 29 129 69 169 9 109 49 149
    89 189 36 136 76 176 16 116 56 156 96 196 43 143 83 183 23 123 63 163`),
  fullNamePage2: ids(`3 103 90 190 30 130 70 170 10 110 97 197 37 137 77 177 17 117 57 157 4 104 44
    144 84 184 24 124 64 164 11 111 51 151 91 191 31 131 71 171 18 118 58 158 98 198 38 138 78 178
    25 125 65 165 5 105 45 145 85 185 72 172 12 112 52 152 92 192 32 132 79 179 19 119 59 159 99 199
    39 139 86 186 26 126 66 166 6 106 46 146 93 193 33 133 73 173 13 113 53 153`),
  minusFullName: ids(`53 153 13 113 73 173 33 133 93 193 46 146 6 106 66 166 26 126 86 186 39 139
    99 199 59 159 19 119 79 179 32 132 92 192 52 152 12 112 72 172 85 185 45 145 5 105 65 165 25 125
    78 178 38 138 98 198 58 158 18 118 71 171 31 131 91 191 51 151 11 111 64 164 24 124 84 184 44
    144 4 104 57 157 17 117 77 177 37 137 97 197 10 110 70 170 30 130 90 190 3 103`),
  minusEmailUsername: ids(`93 73 53 33 193 173 153 13 133 113 86 6 66 46 26 186 166 146 126 106 99
    79 59 39 19 199 179 159 139 119 92 72 52 32 192 172 152 132 12 112 85 65 5 45 25 185 165 145 125
    105 98 78 58 38 198 18 178 158 138 118 91 71 51 31 191 171 151 131 11 111 84 64 4 44 24 184 164
    144 124 104 97 77 57 37 197 17 177 157 137 117 90 70 30 190 170 130 110 10 83 63`),
};

const UNKNOWN_PROFILE_NAME = (name: string) =>
  `Unknown ordering name "${name}". Valid names: id, username, email, full_name.`;

/** A request as the filter reads it, for calls outside HTTP. */
function fakeRequest(query: Record<string, string>, param = 'ordering'): Request {
  return {
    query,
    queryParam: (name: string) => query[name],
    queryList: (name: string) => query[name]?.split(',') ?? [],
    settings: { ORDERING_PARAM: param },
  } as unknown as Request;
}

// --- without a database -----------------------------------------------------------------

describe('OrderingFilter seams', () => {
  const filter = new OrderingFilter();
  const profileView = new ProfileViewSet();
  const profiles = Profile.objects.all();

  it('getValidFields returns the public names with their paths; context defaults to {}', () => {
    assert.deepEqual(filter.getValidFields(profiles, profileView), [
      { param: 'id', paths: ['id'], label: 'ID' },
      { param: 'username', paths: ['user__username'], label: 'Username' },
      { param: 'email', paths: ['user__email'], label: 'Email' },
      { param: 'full_name', paths: ['user__first_name', 'user__last_name'], label: 'Full name' },
    ]);
  });

  it('getOrdering returns the sort keys as they are applied', () => {
    const ordering = (query: string, view: object = profileView, qs: QuerySet<any> = profiles) =>
      filter.getOrdering(fakeRequest({ ordering: query }), qs, view);
    assert.deepEqual(ordering('email'), ['user__email']);
    assert.deepEqual(ordering('-username'), ['-user__username']);
    assert.deepEqual(ordering('full_name'), ['user__first_name', 'user__last_name']);
    assert.deepEqual(ordering('-full_name'), ['-user__first_name', '-user__last_name']);
    assert.deepEqual(ordering(' -email , username '), ['-user__email', 'user__username']);
    assert.deepEqual(ordering('bogus,-email'), ['-user__email']);
    // Not names: a model path, a double minus, nothing; the view's `ordering` applies.
    for (const query of ['user__username', '--email', '', ' , ', 'bogus', '- email'])
      assert.deepEqual(ordering(query), ['id'], query);
    // A path already sorted by is not repeated: a repeat never changes the order.
    assert.deepEqual(ordering('email,-email,email,full_name,-full_name'), [
      'user__email',
      'user__first_name',
      'user__last_name',
    ]);
    // Paths with their own `-`: the client's `-` flips them.
    const books = new BookMoreViewSet();
    assert.deepEqual(ordering('newest', books), ['-publication_date', 'id']);
    assert.deepEqual(ordering('-newest', books), ['publication_date', '-id']);
    assert.deepEqual(ordering('-publication-date', books), ['-publication_date']);
    assert.deepEqual(ordering('-status', books), ['-state', '-publication_date']);
    // No view ordering: the query set's own (the model's default).
    assert.deepEqual(ordering('bogus', new BookModelDefaultViewSet(), Book.objects.all()), [
      'isbn',
    ]);
    assert.deepEqual(
      ordering('bogus', new BookModelDefaultViewSet(), Book.objects.orderBy('-price')),
      ['-price'],
    );
  });

  it('inherited object keys are no names', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '-__proto__'])
      assert.deepEqual(filter.getOrdering(fakeRequest({ ordering: name }), profiles, profileView), [
        'id',
      ]);
  });

  it('a list of names keeps core behaviour (names are paths)', () => {
    const view = { orderingFields: ['id', 'user__email'], ordering: ['id'] };
    assert.deepEqual(
      filter.getOrdering(fakeRequest({ ordering: '-user__email,email' }), profiles, view),
      ['-user__email'],
    );
    assert.doesNotThrow(() => filter.check(view as never));
  });

  it('strict mode raises a 400 keyed by the parameter, one message per unknown name', () => {
    const strict = new StrictProfileViewSet();
    assert.throws(
      () =>
        filter.getOrdering(
          fakeRequest({ ordering: 'email,bogus,--email,bogus' }),
          profiles,
          strict,
        ),
      (error: any) => {
        assert.equal(error.statusCode, 400);
        assert.deepEqual(error.toJSON(), {
          ordering: [UNKNOWN_PROFILE_NAME('bogus'), UNKNOWN_PROFILE_NAME('--email')],
        });
        return true;
      },
    );
    assert.throws(
      () => new SortOrdering().getOrdering(fakeRequest({ sort: 'x' }), profiles, strict),
      (error: any) => {
        assert.deepEqual(error.toJSON(), { sort: [UNKNOWN_PROFILE_NAME('x')] });
        return true;
      },
    );
  });

  it('getSchemaOperationParameters lists every name both ways in an enum', () => {
    const names = [
      'id',
      '-id',
      'username',
      '-username',
      'email',
      '-email',
      'full_name',
      '-full_name',
    ];
    const [parameter] = filter.getSchemaOperationParameters(profileView);
    assert.deepEqual(parameter, {
      name: 'ordering',
      required: false,
      in: 'query',
      description:
        'Which field to use when ordering the results. Names as repeated parameters (`ordering=-price&ordering=title`) or one comma-separated value (`ordering=-price,title`); a leading "-" sorts in descending order.',
      style: 'form',
      explode: true,
      schema: { type: 'array', items: { type: 'string', enum: names } },
    });
    assert.equal(new SortOrdering().getSchemaOperationParameters(profileView)[0]?.name, 'sort');
    // The names of the serializer when the view declares none (core's default), from the query set.
    const defaults = new OrderingFilter().getSchemaOperationParameters({
      queryset: Profile.objects.all(),
      getSerializerClass: () => ProfileSerializer,
    } as never)[0] as any;
    assert.deepEqual(defaults.schema.items.enum, [
      'id',
      '-id',
      'biography',
      '-biography',
      'hobbies',
      '-hobbies',
    ]);
  });

  it('describe gives the browsable API the parameter and labelled choices', () => {
    const description = filter.describe(profileView);
    assert.equal(description.param, 'ordering');
    assert.equal(description.title, 'Ordering');
    assert.deepEqual(description.options.slice(0, 4), [
      { value: 'id', label: 'ID - ascending' },
      { value: '-id', label: 'ID - descending' },
      { value: 'username', label: 'Username - ascending' },
      { value: '-username', label: 'Username - descending' },
    ]);
    assert.deepEqual(description.options.at(-1), {
      value: '-full_name',
      label: 'Full name - descending',
    });
    assert.equal(description.current, undefined);
    const serving = Object.assign(new ProfileViewSet(), {
      request: fakeRequest({ ordering: ' -email,bogus,full_name' }),
    });
    assert.deepEqual(filter.describe(serving).current, ['-email', 'full_name']);
  });
});

describe('OrderingFilter start-up check', () => {
  const filter = new OrderingFilter();
  const checkFails = (view: object, ...patterns: RegExp[]) =>
    assert.throws(
      () => filter.check(view as never),
      (error: unknown) => {
        assert.ok(error instanceof ImproperlyConfigured, String(error));
        assert.equal(error.code, 'REST_ERR_ORDERING_FIELDS');
        for (const pattern of patterns) assert.match(error.message, pattern);
        return true;
      },
    );
  const view = (fields: unknown, extra: object = {}) => {
    class ProfileListViewSet extends ProfileViewSet {
      override orderingFields = fields as OrderingFieldsMapping;
    }
    return Object.assign(new ProfileListViewSet(), extra);
  };

  it('accepts the spec mapping, paths ending on a relation, pk and own "-"', () => {
    assert.doesNotThrow(() => filter.check(new ProfileViewSet()));
    assert.doesNotThrow(() => filter.check(new BookMoreViewSet()));
    assert.doesNotThrow(() =>
      filter.check(view({ user: 'user', key: '-user__pk', by_id: ['-pk', 'user_id'] })),
    );
    assert.doesNotThrow(() => filter.check(view(undefined)));
    assert.doesNotThrow(() => filter.check(view('__all__')));
  });

  it('names the view set, the name and the path of a path that does not resolve', () => {
    checkFails(
      view({ id: 'id', email: 'user__emial' }),
      /^ProfileListViewSet\.orderingFields: the ordering name "email" maps to the path "user__emial"/,
      /User has no field "emial" \(fields: id, username, first_name, last_name, email\)/,
    );
    checkFails(
      view({ full_name: ['user__first_name', 'user__lastname'] }),
      /"full_name" maps to the path "user__lastname"/,
    );
    checkFails(
      view({ nick: '-nickname' }),
      /"nick" maps to the path "-nickname"/,
      /Profile has no field "nickname"/,
    );
    checkFails(view({ x: 'user__' }), /User has no field ""/);
  });

  it('rejects a computed property, which is no column', () => {
    checkFails(
      view({ full_name: 'user__full_name' }),
      /"full_name" maps to the path "user__full_name"/,
      /User\.full_name is a computed property, not a column/,
    );
  });

  it('rejects "__" after a field that is not a relation', () => {
    checkFails(
      view({ bio: 'biography__length' }),
      /"bio" maps to the path "biography__length"/,
      /Profile\.biography is not a relation/,
    );
  });

  it('maps names to paths across relations of every kind (Django orders across them too)', () => {
    const Shelf = defineModel({
      name: 'Shelf',
      table: 'ordering_shelf',
      fields: { books: models.ManyToManyField(Book, { relatedName: 'shelves' }) },
    });
    const shelves = { orderingFields: { title: 'books__title' }, queryset: { model: Shelf } };
    assert.doesNotThrow(() => filter.check(shelves as never));
    checkFails(
      { orderingFields: { title: 'books__nope' }, queryset: { model: Shelf } },
      /"title" maps to the path "books__nope", which does not resolve: Book has no field "nope"/,
    );
  });

  it('rejects names no client could send and paths that are no paths', () => {
    checkFails(view({ '-email': 'user__email' }), /"-email" cannot be sent by a client/);
    checkFails(view({ 'a,b': 'id' }), /"a,b" cannot be sent/);
    checkFails(view({ ' a': 'id' }), /" a" cannot be sent/);
    checkFails(view({ '': 'id' }), /"" cannot be sent/);
    checkFails(view({ email: [] }), /"email" maps to \[\]/);
    checkFails(view({ email: 42 }), /"email" maps to 42/);
    checkFails(view({ email: '--user__email' }), /"--user__email" is not a path/);
    checkFails(view({ email: ['id', 7] }), /the path 7 is not a string path/);
    checkFails(view(42), /orderingFields must be a mapping/);
    checkFails(
      view(['id', 'user__nope']),
      /the ordering name "user__nope" maps to the path "user__nope"/,
    );
  });

  it('checks the default ordering too', () => {
    checkFails(
      view(PROFILE_ORDERING_FIELDS, { ordering: ['user__nope'] }),
      /^ProfileListViewSet\.ordering: the default ordering "user__nope", which does not resolve: User has no field "nope"/,
    );
  });
});

// --- through HTTP, on every database --------------------------------------------------

for (const dialect of testDialects()) {
  describe(`OrderingFilter over HTTP on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;

    before(async () => {
      db = await dialect.create();
      await db.migrate(ALL_MODELS);
      await seedProfiles(db, referenceProfiles());
      await seedBooks(db, bookData());
      app = await buildApp(db);
    });
    after(async () => {
      await app?.close();
      if (db) await dialect.drop(db);
    });

    describe('reference exchanges 97-110 (GET /api/profile/)', () => {
      const cases: { exchange: number; query: string; first: number[]; next: string }[] = [
        { exchange: 97, query: '', first: range(1, 100), next: '?page=2' },
        {
          exchange: 99,
          query: '?ordering=email',
          first: REFERENCE.email,
          next: '?ordering=email&page=2',
        },
        {
          exchange: 100,
          query: '?ordering=-username',
          first: REFERENCE.minusUsername,
          next: '?ordering=-username&page=2',
        },
        {
          exchange: 101,
          query: '?ordering=full_name',
          first: REFERENCE.fullName,
          next: '?ordering=full_name&page=2',
        },
        {
          exchange: 102,
          query: '?ordering=-full_name',
          first: REFERENCE.minusFullName,
          next: '?ordering=-full_name&page=2',
        },
        {
          exchange: 103,
          query: '?ordering=-id',
          first: range(101, 200).reverse(),
          next: '?ordering=-id&page=2',
        },
        {
          exchange: 104,
          query: '?ordering=bogus',
          first: range(1, 100),
          next: '?ordering=bogus&page=2',
        },
        {
          exchange: 105,
          query: '?ordering=user__username',
          first: range(1, 100),
          next: '?ordering=user__username&page=2',
        },
        { exchange: 106, query: '?ordering=', first: range(1, 100), next: '?ordering=&page=2' },
        {
          exchange: 107,
          query: '?ordering=%20-email%20,%20username%20',
          first: REFERENCE.minusEmailUsername,
          next: '?ordering=+-email+%2C+username+&page=2',
        },
        {
          exchange: 108,
          query: '?ordering=bogus,-email',
          first: REFERENCE.minusEmailUsername,
          next: '?ordering=bogus%2C-email&page=2',
        },
        {
          exchange: 109,
          query: '?ordering=--email',
          first: range(1, 100),
          next: '?ordering=--email&page=2',
        },
      ];
      for (const { exchange, query, first, next } of cases) {
        it(`${exchange}: GET /api/profile/${query}`, async () => {
          const body = await page(app, `/api/profile/${query}`);
          assert.equal(body.count, 200);
          assert.equal(body.previous, null);
          assert.equal(body.next, `http://localhost:80/api/profile/${next}`);
          assert.deepEqual(idsOf(body.results), first);
        });
      }

      it('110: GET /api/profile/?ordering=full_name&page=2', async () => {
        const body = await page(app, '/api/profile/?ordering=full_name&page=2');
        assert.equal(body.next, null);
        assert.equal(body.previous, 'http://localhost:80/api/profile/?ordering=full_name');
        assert.deepEqual(idsOf(body.results), REFERENCE.fullNamePage2);
      });

      it('renders the read-only user fields (98)', async () => {
        const body = await page(app, '/api/profile/?ordering=username');
        // Byte order: "Aking180" < "Aking80" < ... < "alice..." (upper case first).
        assert.deepEqual(body.results[0], {
          id: 180,
          username: 'Aking180',
          full_name: 'Alice King',
          email: 'alice180@example.com',
          biography: 'Biography of Alice King (#180).',
          hobbies: 'reading',
        });
        const names = body.results.map((r: any) => r.username);
        assert.ok(names.indexOf('Sking5') < names.indexOf('alice.fischer140'));
      });
    });

    describe('reference exchanges 113-119 (GET /api/proxy-books/)', () => {
      const cases: { exchange: number; query: string; keys: SortKey<BookRow>[] }[] = [
        { exchange: 113, query: '', keys: [] },
        {
          exchange: 114,
          query: '?ordering=status',
          keys: [
            [by('state'), false],
            [by('publication_date'), false],
          ],
        },
        {
          exchange: 115,
          query: '?ordering=-status',
          keys: [
            [by('state'), true],
            [by('publication_date'), true],
          ],
        },
        { exchange: 116, query: '?ordering=-price', keys: [[by('price'), true]] },
        { exchange: 117, query: '?ordering=title', keys: [[by('title'), false]] },
        { exchange: 118, query: '?ordering=bogus', keys: [] },
        { exchange: 119, query: '?ordering=isbn,-id', keys: [[by('isbn'), false]] },
      ];
      for (const { exchange, query, keys } of cases) {
        it(`${exchange}: GET /api/proxy-books/${query}, every page`, async () => {
          assert.deepEqual(await walk(app, `/api/proxy-books/${query}`), sortedIds(BOOKS, keys));
        });
      }

      it('sorts decimals by value, not as text', async () => {
        const body = await page(app, '/api/proxy-books/?ordering=price');
        const prices = body.results.map((r: any) => r.price);
        assert.equal(prices[0], '0.00');
        assert.ok(prices.indexOf('2.50') < prices.indexOf('9.99'));
        assert.ok(prices.indexOf('9.99') < prices.indexOf('10.00'));
        assert.ok(prices.indexOf('19.99') < prices.indexOf('100.00'));
      });

      it('isbn,-id starts with the empty isbn', async () => {
        const body = await page(app, '/api/proxy-books/?ordering=isbn,-id');
        assert.equal((body.results[0] as any).isbn, '');
      });
    });

    describe('names with "-", paths with their own "-"', () => {
      const list = async (query: string) => {
        const { status, body } = await get(app, `/api/books-more/${query}`);
        assert.equal(status, 200, JSON.stringify(body));
        return idsOf(body);
      };
      const date = by('publication_date');

      it('a hyphenated name sorts, and only a leading "-" reverses it', async () => {
        assert.deepEqual(
          await list('?ordering=publication-date'),
          sortedIds(BOOKS, [[date, false]]),
        );
        assert.deepEqual(
          await list('?ordering=-publication-date'),
          sortedIds(BOOKS, [[date, true]]),
        );
      });

      it('a client "-" flips a mapped "-"', async () => {
        const newest = sortedIds(BOOKS, [[date, true]]);
        assert.deepEqual(await list('?ordering=newest'), newest);
        const oldest = [...BOOKS]
          .sort((a, b) => compareValues(a.publication_date, b.publication_date) || b.id - a.id)
          .map((b) => b.id);
        assert.deepEqual(await list('?ordering=-newest'), oldest);
      });

      it('strict: 400 listing the valid names for "--newest" and for a prefix', async () => {
        const valid = 'Valid names: publication-date, newest, status.';
        assert.deepEqual(await get(app, '/api/books-more/?ordering=--newest,publication'), {
          status: 400,
          body: {
            ordering: [
              `Unknown ordering name "--newest". ${valid}`,
              `Unknown ordering name "publication". ${valid}`,
            ],
          },
        });
      });

      it('without a view ordering, the model default (isbn)', async () => {
        const { body } = await get(app, '/api/books-model-default/?ordering=bogus');
        assert.deepEqual(idsOf(body), sortedIds(BOOKS, [[by('isbn'), false]]));
      });
    });

    describe('strict mode', () => {
      it('answers 400 for unknown names, model paths and "--"', async () => {
        for (const [query, names] of [
          ['bogus', ['bogus']],
          ['user__username', ['user__username']],
          ['email,--email', ['--email']],
          [' -email , bogus ,x', ['bogus', 'x']],
        ] as const) {
          assert.deepEqual(
            await get(app, `/api/profile-strict/?ordering=${encodeURIComponent(query)}`),
            {
              status: 400,
              body: { ordering: names.map(UNKNOWN_PROFILE_NAME) },
            },
          );
        }
      });

      it('orders as usual for valid names, and by default for none', async () => {
        const body = await page(app, '/api/profile-strict/?ordering=%20-email%20,%20username%20');
        assert.deepEqual(idsOf(body.results), REFERENCE.minusEmailUsername);
        for (const query of ['', '?ordering=', '?ordering=%20,%20'])
          assert.deepEqual(
            idsOf((await page(app, `/api/profile-strict/${query}`)).results),
            range(1, 100),
          );
      });
    });

    describe('the query parameter', () => {
      it('is the filter class orderingParam when set', async () => {
        const sorted = await page(app, '/api/profile-sort/?sort=email');
        assert.deepEqual(idsOf(sorted.results), REFERENCE.email);
        assert.equal(sorted.next, 'http://localhost:80/api/profile-sort/?page=2&sort=email');
        // `ordering` is then an ordinary parameter, even in strict mode.
        const ignored = await page(app, '/api/profile-sort/?ordering=email');
        assert.deepEqual(idsOf(ignored.results), range(1, 100));
        assert.deepEqual(await get(app, '/api/profile-sort/?sort=bogus'), {
          status: 400,
          body: { sort: [UNKNOWN_PROFILE_NAME('bogus')] },
        });
      });

      it('is the ORDERING_PARAM setting otherwise, and the filter class still wins', async () => {
        const other = await buildApp(db, { ORDERING_PARAM: 'order_by' });
        try {
          assert.deepEqual(
            idsOf((await page(other, '/api/profile/?order_by=email')).results),
            REFERENCE.email,
          );
          assert.deepEqual(
            idsOf((await page(other, '/api/profile/?ordering=email')).results),
            range(1, 100),
          );
          assert.deepEqual(await get(other, '/api/profile-strict/?order_by=bogus'), {
            status: 400,
            body: { order_by: [UNKNOWN_PROFILE_NAME('bogus')] },
          });
          assert.deepEqual(
            idsOf((await page(other, '/api/profile-sort/?sort=email')).results),
            REFERENCE.email,
          );
          assert.deepEqual(
            idsOf((await page(other, '/api/profile-sort/?order_by=email')).results),
            range(1, 100),
          );
        } finally {
          await other.close();
        }
      });
    });

    describe('stable pages', () => {
      const hobbies = (p: ProfileRow) => p.hobbies;
      const first = (p: ProfileRow) => p.user?.first_name ?? null;
      const last = (p: ProfileRow) => p.user?.last_name ?? null;
      const cases: [string, SortKey<ProfileRow>[]][] = [
        ['hobbies', [[hobbies, false]]],
        ['-hobbies', [[hobbies, true]]],
        [
          'full_name',
          [
            [first, false],
            [last, false],
          ],
        ],
        [
          '-full_name',
          [
            [first, true],
            [last, true],
          ],
        ],
        [
          '-full_name,hobbies',
          [
            [first, true],
            [last, true],
            [hobbies, false],
          ],
        ],
      ];
      for (const [name, keys] of cases) {
        it(`walking every page of ?ordering=${name} returns each row once, ties by pk`, async () => {
          const walked = await walk(app, `/api/profile-tied/?ordering=${name}`);
          assert.equal(walked.length, 200);
          assert.equal(new Set(walked).size, 200);
          assert.deepEqual(walked, sortedIds(PROFILES, keys));
        });
      }

      it('ties come back in pk order in both directions (reference 102: 53 before 153)', async () => {
        const walked = await walk(app, '/api/profile-tied/?ordering=-full_name');
        assert.ok(walked.indexOf(53) < walked.indexOf(153));
        assert.ok(walked.indexOf(5) < walked.indexOf(105));
        const ascending = await walk(app, '/api/profile-tied/?ordering=full_name');
        assert.deepEqual(ascending.slice(0, 4), [50, 100, 150, 200]);
      });

      it('a list without pagination is stable too', async () => {
        for (const [name, keys] of cases) {
          const { status, body } = await get(app, `/api/profile-unpaged/?ordering=${name}`);
          assert.equal(status, 200);
          assert.deepEqual(idsOf(body), sortedIds(PROFILES, keys), name);
        }
      });
    });

    describe('queries', () => {
      async function queriesOf(url: string): Promise<QueryEvent[]> {
        const events: QueryEvent[] = [];
        const stop = db.onQuery((event) => events.push(event));
        try {
          await page(app, url);
        } finally {
          stop();
        }
        return events;
      }
      const joins = (sql: string) => (sql.match(/left join/gi) ?? []).length;

      it('one COUNT and one page query, with a single LEFT JOIN for both full_name paths', async () => {
        const events = await queriesOf('/api/profile/?ordering=-full_name,email&page=2');
        assert.equal(events.length, 2, events.map((e) => e.sql).join('\n'));
        const [count, rows] = events as [QueryEvent, QueryEvent];
        assert.match(count.sql, /count\(\*\)/i);
        assert.equal(joins(count.sql), 0, count.sql);
        assert.equal(joins(rows.sql), 1, rows.sql);
        // MySQL quotes identifiers with backquotes.
        const sql = rows.sql.replaceAll('`', '"');
        const orderBy = sql.slice(sql.toLowerCase().lastIndexOf('order by'));
        const positions = [
          '"first_name" desc',
          '"last_name" desc',
          '"email"',
          '"ord_profile"."id"',
        ].map((part) => orderBy.indexOf(part));
        assert.ok(
          positions.every((p, i) => p >= 0 && (i === 0 || p > (positions[i - 1] as number))),
          orderBy,
        );
      });

      it('no query for the default ordering joins anything but what the serializer reads', async () => {
        const events = await queriesOf('/api/profile/');
        assert.equal(events.length, 2);
        assert.equal(joins((events[1] as QueryEvent).sql), 1);
      });

      it('client input never reaches SQL', async () => {
        const hostile = [
          'id;drop table ord_user',
          '__proto__',
          'constructor',
          'user__password',
          '"id"',
          'id) --',
          '-toString',
        ];
        const events = await queriesOf(
          `/api/profile/?ordering=${encodeURIComponent(hostile.join(','))}`,
        );
        const sql = events.map((e) => e.sql).join('\n');
        for (const text of ['drop', '__proto__', 'constructor', 'password', 'toString'])
          assert.ok(!sql.includes(text), sql);
        assert.deepEqual(
          events.flatMap((e) => e.parameters).filter((p) => typeof p === 'string'),
          [],
        );
      });
    });

    describe('start-up', () => {
      it('the router refuses a view set whose mapped path does not resolve', async () => {
        class BrokenProfileViewSet extends ProfileViewSet {
          override orderingFields = { ...PROFILE_ORDERING_FIELDS, email: 'user__mail' };
        }
        const broken = Fastify();
        await broken.register(restFramework, { database: db });
        const router = new DefaultRouter();
        router.register('profile', BrokenProfileViewSet);
        await assert.rejects(
          async () => {
            await broken.register(router.plugin, { prefix: '/api' });
            await broken.ready();
          },
          (error: unknown) =>
            error instanceof ImproperlyConfigured &&
            /^BrokenProfileViewSet\.orderingFields: the ordering name "email" maps to the path "user__mail"/.test(
              error.message,
            ),
        );
        await broken.close().catch(() => undefined);
      });

      it('checks a view set that takes the filter from DEFAULT_FILTER_BACKENDS too', async () => {
        class DefaultBackendsViewSet extends ProfileViewSet {
          override filterBackends = undefined;
        }
        class BrokenDefaultBackendsViewSet extends DefaultBackendsViewSet {
          override orderingFields = { full_name: 'user__full_name' };
        }
        const build = async (viewset: ViewSetClass) => {
          const instance = Fastify();
          await instance.register(restFramework, {
            database: db,
            settings: { DEFAULT_FILTER_BACKENDS: [OrderingFilter] },
          });
          const router = new DefaultRouter();
          router.register('profile', viewset);
          await instance.register(router.plugin, { prefix: '/api' });
          await instance.ready();
          return instance;
        };
        await assert.rejects(
          build(BrokenDefaultBackendsViewSet),
          /BrokenDefaultBackendsViewSet\.orderingFields: the ordering name "full_name" maps to the path "user__full_name", which does not resolve: User\.full_name is a computed property/,
        );
        const working = await build(DefaultBackendsViewSet);
        try {
          const { status, body } = await get(working, '/api/profile/?ordering=-full_name');
          assert.equal(status, 200);
          assert.deepEqual(idsOf(body).slice(0, 4), [53, 153, 13, 113]);
        } finally {
          await working.close();
        }
      });
    });
  });

  describe(`OrderingFilter: NULLs, empty strings and byte order on ${dialect.name}`, {
    skip: dialect.skip,
  }, () => {
    let db: Database;
    let app: FastifyInstance;

    before(async () => {
      db = await dialect.create();
      await db.migrate(ALL_MODELS);
      await seedProfiles(db, edgeProfiles());
      app = await buildApp(db);
    });
    after(async () => {
      await app?.close();
      if (db) await dialect.drop(db);
    });

    // Profiles: 1 alice, 2 Aking (e-mail NULL), 3 no user, 4 bob (empty names and e-mail),
    // 5 Bob, 6 émile, 7 zed (e-mail NULL), 8 _x (same names as 2), 9 alice again, 10 no user.
    const expected: Record<string, number[]> = {
      username: [3, 10, 2, 5, 8, 1, 9, 4, 7, 6],
      '-username': [6, 7, 4, 1, 9, 8, 5, 2, 3, 10],
      email: [2, 3, 7, 10, 4, 5, 1, 8, 9, 6],
      '-email': [6, 1, 8, 9, 5, 4, 2, 3, 7, 10],
      full_name: [3, 10, 4, 2, 8, 5, 1, 9, 7, 6],
      '-full_name': [6, 7, 1, 9, 5, 2, 8, 4, 3, 10],
      'email,-username': [7, 2, 3, 10, 4, 5, 1, 9, 8, 6],
    };
    for (const [name, order] of Object.entries(expected)) {
      it(`?ordering=${name}`, async () => {
        const body = await page(app, `/api/profile/?ordering=${name}`);
        assert.deepEqual(idsOf(body.results), order);
        const { body: unpaged } = await get(app, `/api/profile-unpaged/?ordering=${name}`);
        assert.deepEqual(idsOf(unpaged), order);
      });
    }

    it('renders rows without a user', async () => {
      const body = await page(app, '/api/profile/?ordering=username');
      assert.deepEqual(body.results[0], {
        id: 3,
        username: null,
        full_name: null,
        email: null,
        biography: '',
        hobbies: '',
      });
      assert.equal(await User.objects.using(db).count(), 7);
    });
  });
}
