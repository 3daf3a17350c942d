/**
 * DjangoFilterBackend through HTTP on every dialect: django-filter's parameter names, values
 * parsed by the field's type (a wrong one is a 400 naming the parameter, never an empty list),
 * declared, `method` and `exclude` filters, relations, strict mode, and the same answers on
 * SQLite and PostgreSQL. Table-driven: each row is a URL and the ids (or the 400) it gives.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  BooleanFilter,
  CharFilter,
  type Database,
  DjangoFilterBackend,
  defineModel,
  FilterSet,
  ModelSerializer,
  ModelViewSet,
  models,
  NumberFilter,
  OrderingFilter,
  type QuerySet,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp, request } from '../fixtures/http-app.ts';
import { Book, Category, Entry, STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet } from '../fixtures/store-views.ts';

class BookFilters extends FilterSet.with({
  model: Book,
  fields: {
    title: [
      'exact',
      'iexact',
      'icontains',
      'contains',
      'startswith',
      'istartswith',
      'endswith',
      'iendswith',
    ],
    state: ['exact', 'in'],
    price: ['exact', 'gt', 'gte', 'lt', 'lte', 'range'],
    pages: ['exact', 'in', 'range'],
    publication_date: ['exact', 'gte', 'year', 'month', 'day'],
    summary: ['isnull', 'icontains', 'iexact'],
  },
  filters: {
    min_pages: new NumberFilter({ fieldName: 'pages', lookupExpr: 'gte', label: 'At least pages' }),
    not_state: new CharFilter({ fieldName: 'state', exclude: true }),
    in_stock: new BooleanFilter({ method: 'filterInStock' }),
    cheap: new BooleanFilter({
      method: (queryset: QuerySet<any>, _name: string, value: unknown) =>
        value ? queryset.filter({ price__lt: '10' }) : queryset,
    }),
  },
}) {
  filterInStock(queryset: QuerySet<any>, _name: string, value: unknown) {
    return value ? queryset.filter({ stock_count__gt: 0 }) : queryset.filter({ stock_count: 0 });
  }
}

class FilteredBooks extends BookViewSet {
  override filterBackends = [DjangoFilterBackend, OrderingFilter];
  override paginationClass = null;
  filtersetClass: typeof FilterSet = BookFilters;
  orderingFields = ['id', 'pages'];
  ordering = ['id'];
}

/** Books looked up by their date: a date that does not exist is no row (404). */
class BooksByDate extends BookViewSet {
  override lookupField = 'publication_date';
}

class StrictBooks extends FilteredBooks {
  filtersetStrict = true;
}

class EntrySerializer extends ModelSerializer.with({ model: Entry, fields: ['id', 'rank'] }) {}

class FilteredEntries extends ModelViewSet {
  override queryset = Entry.objects.all();
  override serializerClass = EntrySerializer;
  override filterBackends = [DjangoFilterBackend];
  override paginationClass = null;
  filtersetFields = {
    rank: ['exact', 'gte'],
    flag: ['exact'],
    category: ['exact', 'isnull'],
    category__name: ['exact', 'icontains'],
    seen: ['gte', 'lt'],
  } as const;
}

const BOOKS = [
  {
    title: 'Dune',
    state: 'published',
    price: '9.99',
    pages: 412,
    date: '2021-03-05',
    stock: 3,
    summary: 'Spice',
  },
  {
    title: 'dune messiah',
    state: 'in_progress',
    price: '12.50',
    pages: 256,
    date: '2021-11-20',
    stock: 0,
    summary: null,
  },
  {
    title: '100% Pure_Fun',
    state: 'not_published',
    price: '20.00',
    pages: 100,
    date: '2019-02-28',
    stock: 5,
    summary: null,
  },
  {
    title: 'Emma',
    state: 'published',
    price: '5.00',
    pages: 474,
    date: '2020-02-29',
    stock: 0,
    summary: 'Matchmaking at the Café',
  },
] as const;

/** [url, ids] for a 200, or [url, { param: message }] for a 400. */
const CASES: readonly (readonly [string, readonly number[] | Record<string, string[]>])[] = [
  ['', [1, 2, 3, 4]],
  ['?title=Dune', [1]],
  ['?title__iexact=DUNE', [1]],
  ['?title__icontains=dune', [1, 2]],
  ['?title__contains=dune', [2]],
  ['?title__startswith=D', [1]],
  ['?title__istartswith=d', [1, 2]],
  // % and _ are taken literally.
  ['?title__icontains=%25', [3]],
  ['?title__icontains=_', [3]],
  ['?title__icontains=u_', []],
  ['?title__contains=e_f', []],
  ['?title__endswith=Messiah', []],
  ['?title__iendswith=MESSIAH', [2]],
  ['?title__iendswith=_FUN', [3]],
  ['?title__iendswith=%25', []],
  // Case folds for every letter, accents are kept (the same on every database).
  ['?summary__icontains=CAFÉ', [4]],
  ['?summary__icontains=CAFE', []],
  ['?summary__iexact=MATCHMAKING AT THE CAFÉ', [4]],
  ['?state=published', [1, 4]],
  ['?state__in=published,in_progress', [1, 2, 4]],
  ['?state__in=', [1, 2, 3, 4]],
  ['?price=9.99', [1]],
  ['?price__gte=10', [2, 3]],
  ['?price__gt=12.5', [3]],
  ['?price__lt=9.99', [4]],
  ['?price__lte=9.99', [1, 4]],
  ['?price__range=5,12.5', [1, 2, 4]],
  ['?pages=100', [3]],
  ['?pages__in=100,474,9', [3, 4]],
  ['?pages__range=200,450', [1, 2]],
  ['?publication_date=2020-02-29', [4]],
  ['?publication_date__gte=2021-01-01', [1, 2]],
  ['?publication_date__year=2021', [1, 2]],
  ['?publication_date__month=2', [3, 4]],
  ['?publication_date__day=29', [4]],
  ['?summary__isnull=true', [2, 3]],
  ['?summary__isnull=False', [1, 4]],
  ['?min_pages=400', [1, 4]],
  ['?not_state=published', [2, 3]],
  ['?in_stock=true', [1, 3]],
  ['?in_stock=false', [2, 4]],
  ['?cheap=true', [1, 4]],
  ['?price__gte=5&state=published&ordering=-pages', [4, 1]],
  // Empty values filter nothing; unknown parameters are ignored (django-filter's default).
  ['?price__gte=&title=', [1, 2, 3, 4]],
  ['?nope=1&price__foo=2', [1, 2, 3, 4]],
  // The last value of a repeated parameter, as Django's QueryDict.get.
  ['?state=in_progress&state=published', [1, 4]],
  // A list-shaped parameter (`in`, `range`, ordering) repeated is one list, as a generated
  // client sends an array by default (issue 42): not its last value.
  ['?state__in=published&state__in=in_progress', [1, 2, 4]],
  ['?state__in=published&state__in=in_progress,not_published', [1, 2, 3, 4]],
  ['?pages__in=100&pages__in=474&pages__in=9', [3, 4]],
  ['?price__range=5&price__range=12.5', [1, 2, 4]],
  ['?pages__range=200&pages__range=450', [1, 2]],
  ['?ordering=-pages&ordering=id', [4, 1, 2, 3]],
  ['?ordering=-pages,id', [4, 1, 2, 3]],
  [
    '?price__range=5&price__range=6&price__range=7',
    { price__range: ['Range query expects two values.'] },
  ],
  ['?pages__in=100&pages__in=two', { pages__in: ['Enter a number.'] }],
  ['?pages=abc', { pages: ['Enter a number.'] }],
  ['?pages=1.5', { pages: ['Enter a whole number.'] }],
  [
    '?pages=99999999999999999999',
    { pages: ['Ensure that there are no more than 15 digits in total.'] },
  ],
  // Past what the column holds: no row (as Django), not a database error.
  ['?pages=99999999999', []],
  ['?pages__range=-99999999999,99999999999', [1, 2, 3, 4]],
  ['?price__gte=ten', { price__gte: ['Enter a number.'] }],
  ['?price__gte=1e3', { price__gte: ['Enter a number.'] }],
  ['?publication_date=2023-02-30', { publication_date: ['Enter a valid date.'] }],
  ['?publication_date=yesterday', { publication_date: ['Enter a valid date.'] }],
  ['?publication_date__year=MMXXI', { publication_date__year: ['Enter a number.'] }],
  ['?state=sold', { state: ['Select a valid choice. sold is not one of the available choices.'] }],
  [
    '?state__in=published,sold',
    { state__in: ['Select a valid choice. sold is not one of the available choices.'] },
  ],
  ['?price__range=1', { price__range: ['Range query expects two values.'] }],
  ['?title=a%00b', { title: ['Null characters are not allowed.'] }],
  ['?title__icontains=%00', { title__icontains: ['Null characters are not allowed.'] }],
  ['?state__in=published,%00', { state__in: ['Null characters are not allowed.'] }],
  ['?price__range=1,2,3', { price__range: ['Range query expects two values.'] }],
  ['?price__range=1,x', { price__range: ['Enter a number.'] }],
  [
    '?summary__isnull=maybe',
    { summary__isnull: ['Select a valid choice. maybe is not one of the available choices.'] },
  ],
  ['?pages__in=1,two', { pages__in: ['Enter a number.'] }],
  [
    '?pages=x&state=y',
    {
      pages: ['Enter a number.'],
      state: ['Select a valid choice. y is not one of the available choices.'],
    },
  ],
  [`?title=${'x'.repeat(1001)}`, { title: ['Ensure this value has at most 1000 characters.'] }],
  [
    `?pages__in=${Array.from({ length: 101 }, (_, i) => i).join(',')}`,
    {
      pages__in: ['Ensure this value has at most 100 items.'],
    },
  ],
];

for (const dialect of testDialects()) {
  describe(`DjangoFilterBackend on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      for (const [i, b] of BOOKS.entries()) {
        await Book.objects.using(db).create({
          title: b.title,
          state: b.state,
          price: b.price,
          pages: b.pages,
          publication_date: b.date,
          stock_count: b.stock,
          summary: b.summary,
          isbn: `isbn-${i + 1}`,
        });
      }
      const fiction = await Category.objects.using(db).create({ name: 'Fiction' });
      await Category.objects.using(db).create({ name: 'Empty' });
      await Entry.objects
        .using(db)
        .create({ rank: 1, category_id: fiction.id, flag: true, seen: '2024-01-01T10:00:00Z' });
      await Entry.objects
        .using(db)
        .create({ rank: 2, category_id: null, seen: '2024-06-01T10:00:00Z' });
      await Entry.objects.using(db).create({ rank: 3, category_id: fiction.id });
      app = await buildApp({
        database: db,
        viewsets: [
          ['books', FilteredBooks, { basename: 'book' }],
          ['strict', StrictBooks, { basename: 'strict' }],
          ['by-date', BooksByDate, { basename: 'by-date' }],
          ['entries', FilteredEntries, { basename: 'entry' }],
        ],
      });
    });

    after(async () => {
      await app?.close();
      await db?.close();
    });

    it('answers each parameter as django-filter does', async () => {
      for (const [query, expected] of CASES) {
        const response = await request(app, { method: 'GET', url: `/api/books/${query}` });
        if (Array.isArray(expected)) {
          assert.equal(response.statusCode, 200, `${query}: ${response.body}`);
          const ids = (response.json() as { id: number }[]).map((row) => row.id);
          const order = query.includes('ordering') ? ids : [...ids].sort((a, b) => a - b);
          assert.deepEqual(order, expected, query);
        } else {
          assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
          assert.deepEqual(response.json(), expected, query);
        }
      }
    });

    it('filters across relations, by booleans, foreign keys and date-times', async () => {
      const cases: [string, number[]][] = [
        ['?category__name=Fiction', [1, 3]],
        ['?category__name__icontains=fic', [1, 3]],
        ['?category__isnull=true', [2]],
        ['?category=1', [1, 3]],
        ['?category=2', []],
        ['?flag=true', [1]],
        ['?flag=0', [2, 3]],
        ['?rank__gte=2', [2, 3]],
        ['?seen__gte=2024-03-01T00:00:00Z', [2]],
        ['?seen__lt=2024-03-01', [1]],
      ];
      for (const [query, ids] of cases) {
        const response = await request(app, { method: 'GET', url: `/api/entries/${query}` });
        assert.equal(response.statusCode, 200, `${query}: ${response.body}`);
        assert.deepEqual(
          (response.json() as { id: number }[]).map((row) => row.id).sort(),
          ids,
          query,
        );
      }
      const bad: [string, Record<string, string[]>][] = [
        [
          '?category=x',
          { category: ['Select a valid choice. That choice is not one of the available choices.'] },
        ],
        [
          '?flag=yes',
          { flag: ['Select a valid choice. yes is not one of the available choices.'] },
        ],
        ['?seen__gte=2024-13-01', { seen__gte: ['Enter a valid date/time.'] }],
        ['?rank__gte=', {}],
      ];
      for (const [query, body] of bad) {
        const response = await request(app, { method: 'GET', url: `/api/entries/${query}` });
        if (Object.keys(body).length === 0) {
          assert.equal(response.statusCode, 200, query);
          continue;
        }
        assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
        assert.deepEqual(response.json(), body, query);
      }
    });

    it('answers an unknown parameter with 400 in strict mode, and knows the other backends', async () => {
      const unknown = await request(app, { method: 'GET', url: '/api/strict/?nope=1&pages=100' });
      assert.equal(unknown.statusCode, 400);
      const body = unknown.json() as Record<string, string[]>;
      assert.deepEqual(Object.keys(body), ['nope']);
      assert.match(body.nope?.[0] ?? '', /^Unknown filter parameter\. Valid filters: title, /);
      const known = await request(app, {
        method: 'GET',
        url: '/api/strict/?pages=100&ordering=-pages&format=json',
      });
      assert.equal(known.statusCode, 200, known.body);
      assert.deepEqual(
        (known.json() as { id: number }[]).map((r) => r.id),
        [3],
      );
    });

    it('checks at start-up that a regex filter has a database with regular expressions', async () => {
      class RegexBooks extends FilteredBooks {
        override queryset = Book.objects.using(db);
        override filtersetClass = FilterSet.with({ model: Book, fields: { title: ['iregex'] } });
      }
      const check = () => new DjangoFilterBackend().check(new RegexBooks());
      if (db.adapter.capabilities.regex) {
        check();
        const Regex = new RegexBooks().filtersetClass;
        const filterset = new Regex(new Map([['title__iregex', '^d.ne$']]), Book.objects.using(db));
        assert.deepEqual(
          (await (await filterset.qs).execute()).map((r) => r.id),
          [1],
        );
      } else {
        assert.throws(
          check,
          new RegExp(
            `the filter "title__iregex" uses the iregex lookup, which ${db.vendor} does not have`,
          ),
        );
      }
    });

    it('folds accents for an unaccent lookup where the database can, else fails at start-up', async () => {
      class AccentBooks extends FilteredBooks {
        override queryset = Book.objects.using(db);
        override filtersetClass = FilterSet.with({
          model: Book,
          fields: { summary: ['unaccent__icontains'] },
        });
      }
      const check = () => new DjangoFilterBackend().check(new AccentBooks());
      if (!db.adapter.capabilities.accentFolding) {
        assert.throws(
          check,
          new RegExp(
            `the filter "summary__unaccent__icontains" uses the unaccent__icontains lookup, which folds accents, and ${db.vendor} cannot; use icontains`,
          ),
        );
        return;
      }
      check();
      const Accent = new AccentBooks().filtersetClass;
      for (const [value, ids] of [
        ['CAFE', [4]],
        ['café', [4]],
        ['cafes', []],
      ] as const) {
        const filterset = new Accent(
          new Map([['summary__unaccent__icontains', value]]),
          Book.objects.using(db),
        );
        assert.deepEqual(
          (await (await filterset.qs).execute()).map((r) => r.id),
          ids,
          value,
        );
      }
    });

    it('answers a detail lookup value the column cannot hold with 404, as get_object_or_404', async () => {
      const found = await request(app, { method: 'GET', url: '/api/by-date/2021-03-05/' });
      assert.equal(found.statusCode, 200, found.body);
      for (const value of ['2023-02-30', 'yesterday', '2021-3-5']) {
        const response = await request(app, { method: 'GET', url: `/api/by-date/${value}/` });
        assert.equal(response.statusCode, 404, `${value}: ${response.body}`);
        assert.deepEqual(response.json(), { detail: 'Not found.' });
      }
    });

    it('publishes an OpenAPI parameter per filter, typed', async () => {
      const backend = new DjangoFilterBackend();
      const parameters = backend.getSchemaOperationParameters(new FilteredBooks());
      const byName = new Map(parameters.map((p) => [p.name, p]));
      assert.deepEqual(byName.get('pages')?.schema, { type: 'integer' });
      assert.deepEqual(byName.get('price__gte')?.schema, { type: 'number' });
      assert.deepEqual(byName.get('state')?.schema, {
        type: 'string',
        enum: ['published', 'not_published', 'in_progress'],
      });
      assert.deepEqual(byName.get('state__in'), {
        name: 'state__in',
        required: false,
        in: 'query',
        description: 'State in',
        style: 'form',
        explode: true,
        schema: {
          type: 'array',
          items: { type: 'string', enum: ['published', 'not_published', 'in_progress'] },
          maxItems: 100,
        },
      });
      assert.deepEqual(byName.get('publication_date')?.schema, { type: 'string', format: 'date' });
      assert.deepEqual(byName.get('publication_date__year')?.schema, { type: 'integer' });
      assert.deepEqual(byName.get('summary__isnull')?.schema, { type: 'boolean' });
      assert.equal(byName.get('min_pages')?.description, 'At least pages');
      assert.deepEqual(byName.get('price__range')?.schema, {
        type: 'array',
        items: { type: 'number' },
        minItems: 2,
        maxItems: 2,
      });
    });
  });
}

describe('FilterSet declarations fail at start-up, saying what to change', () => {
  const Thing = defineModel({
    name: 'Thing',
    table: 'filters_thing',
    fields: {
      name: models.CharField({ maxLength: 10 }),
      size: models.IntegerField(),
      on: models.BooleanField({ default: false }),
    },
  });
  const cases: [string, () => unknown, RegExp][] = [
    ['no model', () => FilterSet.prepare(), /has no model: declare it as FilterSet\.with/],
    [
      'an unknown field',
      () => FilterSet.with({ model: Thing, fields: ['nmae'] }).prepare(),
      /"nmae" does not resolve: Thing has no field "nmae"\. Filter by a field of Thing \(id, name, size, on\)/,
    ],
    [
      'a lookup the field does not support',
      () => FilterSet.with({ model: Thing, fields: { size: ['icontains'] } }).prepare(),
      /the lookup "icontains" is not supported for size \(a integer field\); use one of exact, in, range/,
    ],
    [
      'a date part of a text field',
      () => FilterSet.with({ model: Thing, fields: { name: ['year'] } }).prepare(),
      /the lookup "year" is not supported for name/,
    ],
    [
      'a lookup that does not exist',
      () => FilterSet.with({ model: Thing, fields: { name: ['like' as never] } }).prepare(),
      /the lookup "like" is not supported for name/,
    ],
    [
      'lookups that are not a list',
      () => FilterSet.with({ model: Thing, fields: { name: 'exact' as never } }).prepare(),
      /"name" maps to "exact"; map it to a non-empty list of lookups/,
    ],
    [
      'a method the class lacks',
      () =>
        FilterSet.with({
          model: Thing,
          filters: { big: new BooleanFilter({ method: 'filterBig' }) },
        }).prepare(),
      /names the method "filterBig", which .* does not define: add filterBig\(queryset, name, value\)/,
    ],
    [
      'a declared filter on a path that does not resolve',
      () =>
        FilterSet.with({
          model: Thing,
          filters: { big: new NumberFilter({ fieldName: 'size__gte' }) },
        }).prepare(),
      /"size__gte" does not resolve: Thing\.size is not a relation/,
    ],
    [
      'a declared filter that is no filter',
      () => FilterSet.with({ model: Thing, filters: { big: {} as never } }).prepare(),
      /is not a filter: declare new CharFilter/,
    ],
  ];
  for (const [what, build, message] of cases) {
    it(what, () => {
      assert.throws(build, (error: Error & { code?: string }) => {
        assert.equal(error.code, 'REST_ERR_FILTERSET');
        assert.match(error.message, message);
        return true;
      });
    });
  }

  it("generates exact filters for '__all__', and leaves exclude's fields out", () => {
    const keys = (declaration: Parameters<typeof FilterSet.with>[0]) => [
      ...FilterSet.with(declaration).prepare().filters.keys(),
    ];
    assert.deepEqual(keys({ model: Thing, fields: '__all__' }), ['id', 'name', 'size', 'on']);
    assert.deepEqual(keys({ model: Thing, fields: '__all__', exclude: ['size'] }), [
      'id',
      'name',
      'on',
    ]);
    assert.deepEqual(
      keys({ model: Thing, fields: { name: ['exact', 'in'], size: ['gte'] }, exclude: ['size'] }),
      ['name', 'name__in'],
    );
    assert.throws(
      () => FilterSet.with({ model: Thing, fields: '__all__', exclude: ['sise'] }).prepare(),
      /Thing has no field "sise"/,
    );
  });

  it('a filtersetClass of another model than the view', () => {
    class ThingFilters extends FilterSet.with({ model: Thing, fields: ['name'] }) {}
    class Wrong extends FilteredBooks {
      override filtersetClass = ThingFilters as never;
    }
    assert.throws(
      () => new DjangoFilterBackend().check(new Wrong()),
      /filters Thing, but the view's query set is of Book: declare the filter set with model: Book/,
    );
  });
});

describe('DjangoFilterBackend parameters per view class and backend class', () => {
  class ByTitle extends BookViewSet {
    override filterBackends = [DjangoFilterBackend];
    filtersetFields = ['title'];
  }
  class ByState extends BookViewSet {
    override filterBackends = [DjangoFilterBackend];
    filtersetFields = ['state'];
  }
  class Unfiltered extends BookViewSet {}
  /** Publishes `name` for `title`, as tricks publishes names for its proxies. */
  class Aliased extends DjangoFilterBackend {
    override getFilterParameters(...args: Parameters<DjangoFilterBackend['getFilterParameters']>) {
      const names = super.getFilterParameters(...args);
      const title = names.get('title');
      if (title) names.set('name', title);
      return names;
    }
  }

  it('answers each pair with its own parameters, however the asks alternate', () => {
    const names = (backend: DjangoFilterBackend, view: object) => [
      ...(backend.parametersOf(view as never)?.byName.keys() ?? []),
    ];
    const asks: [DjangoFilterBackend, object, string[]][] = [
      [new DjangoFilterBackend(), new ByTitle(), ['title']],
      [new DjangoFilterBackend(), new ByTitle(), ['title']],
      [new DjangoFilterBackend(), new ByState(), ['state']],
      [new Aliased(), new ByState(), ['state']],
      [new Aliased(), new ByTitle(), ['title', 'name']],
      [new DjangoFilterBackend(), new ByTitle(), ['title']],
      [new DjangoFilterBackend(), new Unfiltered(), []],
      [new Aliased(), new ByTitle(), ['title', 'name']],
      [new DjangoFilterBackend(), new ByState(), ['state']],
    ];
    for (const [backend, view, expected] of asks) {
      assert.deepEqual(
        names(backend, view),
        expected,
        `${backend.constructor.name} ${view.constructor.name}`,
      );
    }
    // The same object for the same pair, asked again after others.
    const first = new DjangoFilterBackend().parametersOf(new ByTitle() as never);
    new Aliased().parametersOf(new ByTitle() as never);
    assert.equal(new DjangoFilterBackend().parametersOf(new ByTitle() as never), first);
  });
});
