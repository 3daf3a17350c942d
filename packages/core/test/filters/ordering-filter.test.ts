/**
 * Core's OrderingFilter: the start-up check of a view's declarations (table-driven: each row a
 * declaration and the message it fails with), and through HTTP on every dialect: DRF's
 * ordering (unknown names dropped), the project's strict mode (400), what a client may send
 * without a 5xx, `'__all__'` and the serializer's names, the OpenAPI parameter and the
 * browsable API's choices.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  BrowsableAPIRenderer,
  Database,
  DefaultRouter,
  F,
  ImproperlyConfigured,
  JSONRenderer,
  ModelViewSet,
  OrderingFilter,
  OuterRef,
  openApi,
  type QueryEvent,
  restFramework,
  SearchFilter,
  Subquery,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp, request } from '../fixtures/http-app.ts';
import { Book, Category, Entry, EntrySerializer, STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet } from '../fixtures/store-views.ts';

class OrderedBooks extends BookViewSet {
  override filterBackends = [OrderingFilter];
  override paginationClass = null;
  orderingFields: unknown = ['title', 'price', 'pages'];
  ordering: unknown = ['id'];
}

class StrictBooks extends OrderedBooks {
  orderingStrict = true;
}

/** Every field of the model, across the nullable relation too. */
class AllEntries extends ModelViewSet {
  override queryset = Entry.objects.all();
  override serializerClass = EntrySerializer;
  override filterBackends = [OrderingFilter];
  override paginationClass = null;
  orderingFields = '__all__';
}

/** No orderingFields: the serializer's readable fields (DRF's default). */
class SerializerEntries extends AllEntries {
  override orderingFields = undefined as never;
}

class RelatedEntries extends AllEntries {
  override orderingFields = ['rank', 'category', 'category__name'] as never;
  ordering = ['-rank'];
}

/** Entries annotated: a Subquery (NULL for no category) and arithmetic on a column. */
const annotatedEntries = () =>
  Entry.objects.annotate({
    categoryName: Subquery<string>(Category.objects.filter({ pk: OuterRef('category') }), 'name'),
    negRank: F('rank').mul(-1),
  });

/** Annotation names listed as ordering names: a client may order by them, as by fields. */
class AnnotatedEntries extends AllEntries {
  override queryset = annotatedEntries();
  override orderingFields = ['label', 'categoryName'] as never;
  ordering = ['-categoryName'];
  orderingStrict = true;
}

/** '__all__' lists the query set's annotations too, as DRF's. */
class AllAnnotatedEntries extends AllEntries {
  override queryset = annotatedEntries();
}

// --- start-up -------------------------------------------------------------------------

describe('OrderingFilter start-up check', () => {
  const filter = new OrderingFilter();
  const books = (extra: object) => Object.assign(new OrderedBooks(), extra);
  const entries = (extra: object) => Object.assign(new RelatedEntries(), extra);

  /** [what, view, the message it fails with]. */
  const failures: readonly (readonly [string, object, RegExp])[] = [
    [
      'a name the model does not have',
      books({ orderingFields: ['title', 'titel'] }),
      /^OrderedBooks\.orderingFields: the ordering name "titel" maps to the path "titel", which does not resolve: Book has no field "titel" \(fields: id, title, description,/,
    ],
    [
      '"__" after a field that is not a relation',
      books({ orderingFields: ['title__length'] }),
      /"title__length", which does not resolve: Book\.title is not a relation, so "__" cannot follow it/,
    ],
    [
      'a path across a relation that does not resolve',
      entries({ orderingFields: ['rank', 'category__nom'] }),
      /^RelatedEntries\.orderingFields: the ordering name "category__nom" .*Category has no field "nom" \(fields: id, name\)/,
    ],
    [
      "'__all__' inside a list",
      books({ orderingFields: ['title', '__all__'] }),
      /^OrderedBooks\.orderingFields: '__all__' stands alone: write orderingFields = '__all__' for every field of the model, not inside a list\./,
    ],
    [
      "a string other than '__all__'",
      books({ orderingFields: 'title' }),
      /^OrderedBooks\.orderingFields is the string "title": write '__all__' for every field of the model, or a list of names \(\["title"\]\)\./,
    ],
    [
      'a mapping (tricks reads those)',
      books({ orderingFields: { title: 'title' } }),
      /^OrderedBooks\.orderingFields must be a list of names \(\['title', 'author__name'\]\) or '__all__'\./,
    ],
    ['a number', books({ orderingFields: 42 }), /orderingFields must be a list of names/],
    [
      'a name that is not a string',
      books({ orderingFields: ['title', 7] }),
      /^OrderedBooks\.orderingFields: 7 is not a name; list field names or paths as strings/,
    ],
    [
      'a name with a leading "-"',
      books({ orderingFields: ['-title'] }),
      /^OrderedBooks\.orderingFields: "-title" cannot be sent by a client: an ordering name must be non-empty, must not start with "-"/,
    ],
    [
      'a name with a comma',
      books({ orderingFields: ['title,price'] }),
      /"title,price" cannot be sent/,
    ],
    ['a name with spaces', books({ orderingFields: [' title'] }), /" title" cannot be sent/],
    ['an empty name', books({ orderingFields: [''] }), /"" cannot be sent/],
    [
      'a default ordering that does not resolve',
      books({ ordering: ['-nope'] }),
      /^OrderedBooks\.ordering: the default ordering "-nope", which does not resolve: Book has no field "nope"/,
    ],
    [
      'a default ordering as one path that does not resolve',
      books({ ordering: 'price__amount' }),
      /^OrderedBooks\.ordering: the default ordering "price__amount", which does not resolve: Book\.price is not a relation/,
    ],
    [
      'a default ordering with two "-"',
      books({ ordering: ['--id'] }),
      /the default ordering "--id" is not a path: write a field name or a relation path/,
    ],
    [
      "'__all__' as the default ordering",
      books({ ordering: '__all__' }),
      /^OrderedBooks\.ordering: '__all__' belongs to orderingFields \(the names clients may use\); ordering lists the paths/,
    ],
    [
      'a default ordering that is no path nor list',
      books({ ordering: 42 }),
      /^OrderedBooks\.ordering must be a path or a list of paths \(\['-publication_date', 'id'\]\); got 42\./,
    ],
    [
      'a default ordering term that is not a string',
      books({ ordering: ['id', null] }),
      /the default ordering null is not a string path/,
    ],
  ];

  for (const [what, view, message] of failures) {
    it(`refuses ${what}`, () => {
      assert.throws(
        () => filter.check(view),
        (error: unknown) => {
          assert.ok(error instanceof ImproperlyConfigured, String(error));
          assert.equal(error.code, 'REST_ERR_ORDERING_FIELDS');
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }

  it('accepts lists, paths across and ending on a relation, pk, "__all__" and none', () => {
    for (const view of [
      new OrderedBooks() as object,
      new StrictBooks(),
      new AllEntries(),
      new SerializerEntries(),
      new RelatedEntries(),
      new AnnotatedEntries(),
      new AllAnnotatedEntries(),
      books({ orderingFields: ['pk', 'id'], ordering: '-pk' }),
      books({ ordering: undefined }),
      books({ ordering: [] }),
      // A view whose model is known only per request: the form is still checked.
      { orderingFields: ['title', 'anything__at_all'], ordering: ['-id'] },
    ]) {
      assert.doesNotThrow(() => filter.check(view), view.constructor.name);
    }
    assert.throws(() => filter.check({ orderingFields: ['-title'] }), /cannot be sent/);
    // An annotation name is a name of the view's own query set only.
    assert.throws(
      () => filter.check(Object.assign(new RelatedEntries(), { orderingFields: ['negRank'] })),
      /the ordering name "negRank" maps to the path "negRank", which does not resolve: Entry has no field "negRank"/,
    );
    assert.throws(
      () => filter.check(Object.assign(new AnnotatedEntries(), { ordering: ['-negRanks'] })),
      /AnnotatedEntries\.ordering: the default ordering "-negRanks", which does not resolve/,
    );
  });

  it('runs when routes are registered, also for a filter from DEFAULT_FILTER_BACKENDS', async () => {
    class Misspelt extends OrderedBooks {
      override orderingFields = ['titel'];
    }
    class Defaulted extends BookViewSet {
      override filterBackends = undefined as never;
      orderingFields = ['title', 'prize'];
    }
    const database = Database.connect('sqlite::memory:');
    for (const [viewset, settings] of [
      [Misspelt, {}],
      [Defaulted, { DEFAULT_FILTER_BACKENDS: [SearchFilter, OrderingFilter] }],
    ] as const) {
      const app = Fastify({ logger: false });
      await app.register(restFramework, { database, settings });
      const start = async () => {
        await app.register(new DefaultRouter().register('books', viewset).plugin, {
          prefix: '/api',
        });
        await app.ready();
      };
      await assert.rejects(start(), (error: unknown) => {
        assert.ok(error instanceof ImproperlyConfigured, String(error));
        assert.equal(error.code, 'REST_ERR_ORDERING_FIELDS');
        assert.match(error.message, new RegExp(`^${viewset.name}\\.orderingFields: `));
        return true;
      });
      await app.close().catch(() => undefined);
    }
    await database.close();
  });
});

// --- through HTTP, on every database --------------------------------------------------

const BOOKS = [
  { title: 'Dune', price: '9.99', pages: 412 },
  { title: 'emma', price: '12.50', pages: 256 },
  { title: 'Beloved', price: '20.00', pages: 100 },
  { title: 'Anna', price: '5.00', pages: 256 },
] as const;

/** [query, the ids in order]: valid names sort, anything else is dropped (DRF). */
const CASES: readonly (readonly [string, readonly number[]])[] = [
  ['', [1, 2, 3, 4]],
  // Byte order: upper case before lower case.
  ['?ordering=title', [4, 3, 1, 2]],
  ['?ordering=-title', [2, 1, 3, 4]],
  // Decimals by value, not as text.
  ['?ordering=-price', [3, 2, 1, 4]],
  ['?ordering=pages,-title', [3, 2, 4, 1]],
  // Ties in primary-key order.
  ['?ordering=-pages', [1, 2, 4, 3]],
  ['?ordering= -price , title ', [3, 2, 1, 4]],
  ['?ordering=price,-price', [4, 1, 2, 3]],
  // Dropped: unknown names, a model field that is not listed, "--", inherited keys, blanks.
  ['?ordering=bogus,-price', [3, 2, 1, 4]],
  ['?ordering=bogus', [1, 2, 3, 4]],
  ['?ordering=isbn', [1, 2, 3, 4]],
  ['?ordering=--price', [1, 2, 3, 4]],
  ['?ordering=-', [1, 2, 3, 4]],
  ['?ordering=__proto__,constructor,-toString', [1, 2, 3, 4]],
  ['?ordering=,, ,', [1, 2, 3, 4]],
  ['?ordering=', [1, 2, 3, 4]],
  ['?ordering=%00price', [1, 2, 3, 4]],
  ['?ordering=price%3B%20drop%20table%20store_book', [1, 2, 3, 4]],
  ['?ordering=title__length', [1, 2, 3, 4]],
];

for (const dialect of testDialects()) {
  describe(`OrderingFilter over HTTP on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;
    let renamed: FastifyInstance;

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      for (const [i, book] of BOOKS.entries()) {
        await Book.objects
          .using(db)
          .create({ ...book, isbn: `isbn-${i + 1}`, publication_date: '2020-01-01' });
      }
      const fiction = await Category.objects.using(db).create({ name: 'Fiction' });
      const essays = await Category.objects.using(db).create({ name: 'Essays' });
      await Entry.objects.using(db).create({ rank: 2, label: 'b', category_id: fiction.id });
      await Entry.objects.using(db).create({ rank: 1, label: 'a', category_id: null });
      await Entry.objects.using(db).create({ rank: 3, label: 'c', category_id: essays.id });
      app = Fastify({ logger: false });
      await app.register(restFramework, {
        database: db,
        settings: { DEFAULT_RENDERER_CLASSES: [JSONRenderer, BrowsableAPIRenderer] },
      });
      const router = new DefaultRouter()
        .register('books', OrderedBooks, { basename: 'book' })
        .register('strict', StrictBooks, { basename: 'strict' })
        .register('all-entries', AllEntries, { basename: 'all-entry' })
        .register('serializer-entries', SerializerEntries, { basename: 'serializer-entry' })
        .register('related-entries', RelatedEntries, { basename: 'related-entry' })
        .register('annotated-entries', AnnotatedEntries, { basename: 'annotated-entry' })
        .register('all-annotated-entries', AllAnnotatedEntries, {
          basename: 'all-annotated-entry',
        });
      await app.register(router.plugin, { prefix: '/api' });
      await app.register(openApi, { title: 'Store', version: '1.0.0' });
      await app.ready();
      renamed = await buildApp({
        database: db,
        settings: { ORDERING_PARAM: 'sort' },
        viewsets: [['books', StrictBooks, { basename: 'book' }]],
      });
    });

    after(async () => {
      await app?.close();
      await renamed?.close();
      if (db) await dialect.drop(db);
    });

    async function ids(url: string, server = app): Promise<number[]> {
      const response = await request(server, { method: 'GET', url });
      assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
      return (response.json() as { id: number }[]).map((row) => row.id);
    }

    it('orders by listed names and drops every other one, as DRF', async () => {
      for (const [query, expected] of CASES) {
        assert.deepEqual(await ids(`/api/books/${query}`), expected, query);
      }
    });

    it("orders by '__all__' fields, the serializer's names, and paths across a relation", async () => {
      assert.deepEqual(await ids('/api/all-entries/?ordering=-rank'), [3, 1, 2]);
      assert.deepEqual(await ids('/api/all-entries/?ordering=label'), [2, 1, 3]);
      // NULL is the smallest value; a path ending on a relation sorts by its key.
      assert.deepEqual(await ids('/api/all-entries/?ordering=category'), [2, 1, 3]);
      assert.deepEqual(await ids('/api/serializer-entries/?ordering=-rank'), [3, 1, 2]);
      // Not a serializer name: dropped, the query set's own ordering applies.
      assert.deepEqual(await ids('/api/serializer-entries/?ordering=category__name'), [1, 2, 3]);
      assert.deepEqual(await ids('/api/related-entries/?ordering=category__name'), [2, 3, 1]);
      assert.deepEqual(await ids('/api/related-entries/?ordering=-category__name'), [1, 3, 2]);
      assert.deepEqual(await ids('/api/related-entries/'), [3, 1, 2]);
    });

    it('orders by annotations the view allows; one it does not is a 400 in strict mode', async () => {
      // Entries 1 (Fiction), 2 (no category: NULL, the smallest), 3 (Essays).
      assert.deepEqual(await ids('/api/annotated-entries/?ordering=categoryName'), [2, 3, 1]);
      assert.deepEqual(await ids('/api/annotated-entries/?ordering=-categoryName'), [1, 3, 2]);
      // The view's default ordering names an annotation too.
      assert.deepEqual(await ids('/api/annotated-entries/'), [1, 3, 2]);
      assert.deepEqual(await ids('/api/annotated-entries/?ordering=label,categoryName'), [2, 1, 3]);
      const refused = await request(app, {
        method: 'GET',
        url: '/api/annotated-entries/?ordering=-negRank',
      });
      assert.equal(refused.statusCode, 400);
      assert.deepEqual(refused.json(), {
        ordering: ['Unknown ordering name "-negRank". Valid names: label, categoryName.'],
      });
      // '__all__': every field and every annotation; the rows carry the annotations.
      assert.deepEqual(await ids('/api/all-annotated-entries/?ordering=negRank'), [3, 1, 2]);
      assert.deepEqual(await ids('/api/all-annotated-entries/?ordering=-negRank'), [2, 1, 3]);
      assert.deepEqual(await ids('/api/all-annotated-entries/?ordering=-categoryName'), [1, 3, 2]);
      // Not strict: a name that is none is dropped, as DRF.
      assert.deepEqual(await ids('/api/all-annotated-entries/?ordering=negRanks'), [1, 2, 3]);
    });

    it('strict mode answers 400 naming each unknown name and the valid ones', async () => {
      const valid = 'Valid names: title, price, pages.';
      for (const [url, messages] of [
        ['/api/strict/?ordering=bogus', [`Unknown ordering name "bogus". ${valid}`]],
        [
          '/api/strict/?ordering=price,--price,isbn,--price',
          [`Unknown ordering name "--price". ${valid}`, `Unknown ordering name "isbn". ${valid}`],
        ],
      ] as const) {
        const response = await request(app, { method: 'GET', url });
        assert.equal(response.statusCode, 400, url);
        assert.deepEqual(response.json(), { ordering: messages });
      }
      assert.deepEqual(await ids('/api/strict/?ordering=-price'), [3, 2, 1, 4]);
      const renamedError = await request(renamed, { method: 'GET', url: '/api/books/?sort=x' });
      assert.equal(renamedError.statusCode, 400);
      assert.deepEqual(renamedError.json(), { sort: [`Unknown ordering name "x". ${valid}`] });
      assert.deepEqual(await ids('/api/books/?sort=-pages&ordering=x', renamed), [1, 2, 4, 3]);
    });

    it('a long parameter makes no long ORDER BY, and client text never reaches SQL', async () => {
      const events: QueryEvent[] = [];
      const stop = db.onQuery((event) => events.push(event));
      try {
        const names = Array.from({ length: 2000 }, (_, i) => (i % 2 ? '-price' : 'price'));
        assert.deepEqual(await ids(`/api/books/?ordering=${names.join(',')},bogus`), [4, 1, 2, 3]);
        await ids('/api/books/?ordering=price%3B%20drop%20table%20store_book,__proto__');
      } finally {
        stop();
      }
      const [sorted, ignored] = events.map((event) => event.sql.replaceAll('`', '"'));
      const orderBy = (sorted as string).slice(
        (sorted as string).toLowerCase().indexOf('order by'),
      );
      assert.equal(orderBy.match(/"price"/g)?.length, 1, orderBy);
      for (const text of ['drop', '__proto__', 'bogus'])
        assert.ok(!`${sorted}${ignored}`.includes(text), `${sorted}\n${ignored}`);
    });

    it('publishes the parameter and its names in OpenAPI', async () => {
      const response = await app.inject({ url: '/schema/', headers: { host: '127.0.0.1' } });
      assert.equal(response.statusCode, 200);
      const document = response.json();
      const validator = new Validator();
      const result = await validator.validate(document);
      assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
      const parameters = (path: string) => document.paths[path].get.parameters;
      assert.deepEqual(parameters('/api/books/'), [
        {
          name: 'ordering',
          required: false,
          in: 'query',
          description:
            'Which field to use when ordering the results. Names as repeated parameters (`ordering=-price&ordering=title`) or one comma-separated value (`ordering=-price,title`); a leading "-" sorts in descending order.',
          style: 'form',
          explode: true,
          schema: {
            type: 'array',
            items: {
              type: 'string',
              enum: ['title', '-title', 'price', '-price', 'pages', '-pages'],
            },
          },
        },
      ]);
      const names = (path: string) => parameters(path)[0].schema.items.enum;
      assert.deepEqual(
        names('/api/all-entries/').filter((name: string) => !name.startsWith('-')),
        ['id', 'rank', 'label', 'score', 'day', 'seen', 'flag', 'category'],
      );
      assert.deepEqual(
        names('/api/serializer-entries/').filter((name: string) => !name.startsWith('-')),
        ['id', 'rank', 'label', 'score', 'day', 'seen', 'flag', 'category'],
      );
      assert.deepEqual(names('/api/related-entries/'), [
        'rank',
        '-rank',
        'category',
        '-category',
        'category__name',
        '-category__name',
      ]);
      // Not on a detail route.
      const detail = JSON.stringify(document.paths['/api/books/{pk}/'].get.parameters ?? []);
      assert.ok(!detail.includes('ordering'), detail);
    });

    it('offers its names in the browsable API, the current one selected', async () => {
      const response = await app.inject({
        url: '/api/books/?ordering=-price',
        headers: { host: '127.0.0.1', accept: 'text/html' },
      });
      assert.equal(response.statusCode, 200);
      const select = response.body.match(/<select[^>]* name="ordering"[^>]*>([\s\S]*?)<\/select>/);
      assert.ok(select, response.body);
      const options = [
        ...(select[1] as string).matchAll(/<option value="([^"]*)"( selected)?>([^<]*)</g),
      ].map(([, value, selected, label]) => [value, label, Boolean(selected)]);
      assert.deepEqual(options, [
        ['', 'Default', false],
        ['title', 'title - ascending', false],
        ['-title', 'title - descending', false],
        ['price', 'price - ascending', false],
        ['-price', 'price - descending', true],
        ['pages', 'pages - ascending', false],
        ['-pages', 'pages - descending', false],
      ]);
      // The browsable page shows the list in the order asked for, too.
      const api = await app.inject({
        url: '/api/all-entries/?format=api&ordering=-rank',
        headers: { host: '127.0.0.1' },
      });
      assert.equal(api.statusCode, 200);
      assert.match(api.body, /<option value="-rank" selected>rank - descending<\/option>/);
    });
  });
}

describe('OrderingFilter defaults', () => {
  it('keeps its defaults on the prototype: a backend made per request defines no field', () => {
    const backend = new OrderingFilter();
    assert.deepEqual(Object.keys(backend), []);
    assert.equal(backend.orderingParam, undefined);
    assert.equal(backend.getOrderingParam(undefined), 'ordering');
    assert.equal(backend.orderingTitle, 'Ordering');
    assert.equal(backend.orderingDescription, 'Which field to use when ordering the results.');
    assert.match(backend.orderingFieldsForms, /^a list of names/);
  });

  it("lets a subclass's fields override them without touching OrderingFilter's", () => {
    class SortFilter extends OrderingFilter {
      override orderingParam = 'sort';
      override readonly orderingTitle = 'Sort';
    }
    const own = new SortFilter();
    assert.equal(own.getOrderingParam(undefined), 'sort');
    assert.equal(own.describe(new OrderedBooks() as never).title, 'Sort');
    assert.equal(new OrderingFilter().getOrderingParam(undefined), 'ordering');
    assert.equal(new OrderingFilter().describe(new OrderedBooks() as never).title, 'Ordering');
    assert.deepEqual(
      own.getSchemaOperationParameters(new OrderedBooks() as never).map((p) => p.name),
      ['sort'],
    );
  });
});
