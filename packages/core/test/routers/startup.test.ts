/**
 * Mistakes in the set-up of views and routers fail when the app starts, not on the first
 * request, with an `ImproperlyConfigured` whose message names the class and the fix.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Database,
  DefaultRouter,
  ImproperlyConfigured,
  ModelViewSet,
  type QuerySet,
  restFramework,
  type SerializerClass,
  type SettingsInput,
} from '@restframework/core';
import Fastify from 'fastify';
import { buildApp, request } from '../fixtures/http-app.ts';
import { Book, BookSerializer, STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet } from '../fixtures/store-views.ts';

class NoQuerysetViewSet extends ModelViewSet {
  override serializerClass = BookSerializer;
}

class NoSerializerViewSet extends ModelViewSet {
  override queryset = Book.objects.all();
}

/** No `queryset` attribute, but its own `getQueryset()`: fine with a basename. */
class OwnQuerysetViewSet extends ModelViewSet {
  override serializerClass = BookSerializer;
  override getQueryset(): QuerySet<any> {
    return Book.objects.filter({ pages__gte: 0 });
  }
}

/** No `queryset`; its `getQueryset()` only calls super: no query set on any request either. */
class SuperOnlyQuerysetViewSet extends ModelViewSet {
  override serializerClass = BookSerializer;
  override getQueryset(): QuerySet<any> {
    return super.getQueryset();
  }
}

/** No `queryset`; its `getQueryset()` needs the request: honoured per request. */
class RequestQuerysetViewSet extends ModelViewSet {
  override serializerClass = BookSerializer;
  override getQueryset(): QuerySet<any> {
    const least = Number(this.request.queryParam('min_pages') ?? 0);
    return Book.objects.filter({ pages__gte: least });
  }
}

/** A `queryset` and an override that only calls super: checked as the attribute, at once. */
class SuperOnlyWithQuerysetViewSet extends ModelViewSet {
  override queryset = Book.objects.all();
  override serializerClass = BookSerializer;
  override getQueryset(): QuerySet<any> {
    return super.getQueryset();
  }
}

/** No `serializerClass`; its `getSerializerClass()` answers one without a request. */
class FixedSerializerViewSet extends ModelViewSet {
  override queryset = Book.objects.all();
  override getSerializerClass(): SerializerClass {
    return BookSerializer;
  }
}

/** No `serializerClass`; its `getSerializerClass()` reads the request's method. */
class RequestSerializerViewSet extends ModelViewSet {
  override queryset = Book.objects.all();
  override getSerializerClass(): SerializerClass {
    return this.request.method === 'GET' ? BookSerializer : BookSerializer;
  }
}

/** Asserts `fn` fails with `ImproperlyConfigured` of `code`, its message matching every pattern. */
async function failsWith(fn: () => unknown, code: string, ...patterns: RegExp[]): Promise<void> {
  await assert.rejects(
    async () => fn(),
    (error: unknown) => {
      assert.ok(
        error instanceof ImproperlyConfigured,
        `expected ImproperlyConfigured, got ${error}`,
      );
      assert.equal(error.code, code);
      for (const pattern of patterns) assert.match(error.message, pattern);
      return true;
    },
  );
}

describe('start-up errors', () => {
  let db: Database;

  before(async () => {
    db = Database.connect('sqlite::memory:');
    await db.migrate(STORE_MODELS);
  });
  after(() => db.close());

  async function start(
    viewsets: Parameters<typeof buildApp>[0]['viewsets'],
    settings?: SettingsInput,
  ) {
    const app = await buildApp({ database: db, viewsets, ...(settings ? { settings } : {}) });
    await app.close();
  }

  it('refuses a view set without queryset, naming it, when it registers without a basename', async () => {
    await failsWith(
      () => new DefaultRouter().register('books', NoQuerysetViewSet),
      'REST_ERR_ROUTER',
      /router\.register\(NoQuerysetViewSet\)/,
      /no queryset/,
      /Give NoQuerysetViewSet a `queryset`, or pass \{ basename: '\.\.\.' \}/,
    );
  });

  it('refuses a view set without queryset or getQueryset() at start-up', async () => {
    await failsWith(
      () => start([['books', NoQuerysetViewSet, { basename: 'book' }]]),
      'REST_ERR_VIEW_CONFIG',
      /^NoQuerysetViewSet \(registered as "books"\)/,
      /should either include a `queryset` attribute, or override the `getQueryset\(\)` method\./,
    );
  });

  it('refuses a view set without serializerClass at start-up', async () => {
    await failsWith(
      () => start([['books', NoSerializerViewSet]]),
      'REST_ERR_VIEW_CONFIG',
      /^NoSerializerViewSet \(registered as "books"\)/,
      /should either include a `serializerClass` attribute, or override the `getSerializerClass\(\)` method\./,
    );
  });

  it('refuses a hyperlinked serializer whose detail route no router registers, when the app is ready', async () => {
    // Registered as "volume", the routes are volume-list and volume-detail; the serializer's
    // url field links to book-detail.
    await failsWith(
      () => start([['books', BookViewSet, { basename: 'volume' }]]),
      'REST_ERR_ROUTE_NAME',
      /^BookViewSet \(BookSerializer\)\.url links to the route "book-detail", which no router registers\./,
      /Register its view set with \{ basename: 'book' \}, or pass viewName\./,
      /Known names: volume-list, volume-detail/,
    );
  });

  it('accepts a view set that overrides getQueryset() and has a basename', async () => {
    const app = await buildApp({
      database: db,
      viewsets: [
        ['books', BookViewSet],
        ['mine', OwnQuerysetViewSet, { basename: 'mine' }],
      ],
    });
    try {
      const response = await request(app, { method: 'GET', url: '/api/mine/' });
      assert.equal(response.statusCode, 200);
    } finally {
      await app.close();
    }
  });

  it('refuses a router registered without the restFramework plugin, saying what to register', async () => {
    const app = Fastify({ logger: false });
    const router = new DefaultRouter().register('books', BookViewSet);
    await failsWith(
      async () => {
        await app.register(router.plugin, { prefix: '/api' });
        await app.ready();
      },
      'REST_ERR_ROUTER',
      /Register the restFramework plugin \(with a database\) before a router/,
      /app\.register\(restFramework, \{ database \}\)/,
    );
    await app.close();
  });

  it('refuses a prefix that is not a URL path', async () => {
    await failsWith(
      () => new DefaultRouter().register('books?x', BookViewSet),
      'REST_ERR_ROUTER',
      /the prefix "books\?x" is not a URL path/,
    );
  });

  it('refuses one route name for two different routes', async () => {
    const app = Fastify({ logger: false });
    await app.register(restFramework, { database: db });
    await failsWith(
      async () => {
        await app.register(new DefaultRouter().register('books', BookViewSet).plugin, {
          prefix: '/a',
        });
        await app.register(new DefaultRouter().register('books', BookViewSet).plugin, {
          prefix: '/b',
        });
      },
      'REST_ERR_ROUTE_NAME',
      /The route name "book-list" is used for both \/a\/books\/ and \/b\/books\//,
      /Give one router a different basename/,
    );
    await app.close();
  });

  it('refuses unknown settings and settings of the wrong type', async () => {
    await failsWith(
      () => start([['books', BookViewSet]], { PAGE_SIZ: 10 } as SettingsInput),
      'REST_ERR_SETTINGS',
      /Unknown setting PAGE_SIZ\. Known settings: .*PAGE_SIZE/,
    );
    await failsWith(
      () => start([['books', BookViewSet]], { PAGE_SIZE: -1 }),
      'REST_ERR_SETTINGS',
      /PAGE_SIZE must be a non-negative integer, got -1\./,
    );
    for (const [setting, value, message] of [
      ['DELETE_ORPHANED_FILES', 'no', /DELETE_ORPHANED_FILES must be true or false, got "no"\./],
      ['MAX_BODY_DEPTH', 1.5, /MAX_BODY_DEPTH must be a non-negative integer, got 1\.5\./],
      ['RESPONSE_WRITE_TIMEOUT', -1, /RESPONSE_WRITE_TIMEOUT must be a non-negative integer/],
      ['MAX_PENDING_RESPONSES', '32', /MAX_PENDING_RESPONSES must be a non-negative integer/],
    ] as const) {
      await failsWith(
        () => start([['books', BookViewSet]], { [setting]: value } as SettingsInput),
        'REST_ERR_SETTINGS',
        message,
      );
    }
  });

  it('refuses at start-up a getQueryset() override that only calls super, without a queryset', async () => {
    await failsWith(
      () => start([['books', SuperOnlyQuerysetViewSet, { basename: 'book' }]]),
      'REST_ERR_VIEW_CONFIG',
      /^SuperOnlyQuerysetViewSet \(registered as "books"\) should either include a `queryset` attribute/,
      /An override that calls super\.getQueryset\(\) needs the attribute too\./,
    );
  });

  it('honours a getQueryset() override that needs the request, per request', async () => {
    const app = await buildApp({
      database: db,
      viewsets: [
        ['books', BookViewSet],
        ['long', RequestQuerysetViewSet, { basename: 'long' }],
      ],
    });
    try {
      await Book.objects.using(db).create({
        title: 'Long',
        publication_date: '2020-01-01',
        isbn: 'startup-long',
        pages: 900,
        price: '1.00',
      });
      const all = await request(app, { method: 'GET', url: '/api/long/' });
      const long = await request(app, { method: 'GET', url: '/api/long/?min_pages=500' });
      assert.equal(long.statusCode, 200, long.body);
      const titles = (long.json() as { title: string }[]).map((book) => book.title);
      assert.deepEqual(titles, ['Long']);
      assert.ok((all.json() as unknown[]).length >= titles.length);
    } finally {
      await Book.objects.using(db).filter({ isbn: 'startup-long' }).delete();
      await app.close();
    }
  });

  it('takes the queryset of a view whose override only calls super, and serves it', async () => {
    const app = await buildApp({
      database: db,
      viewsets: [['books', SuperOnlyWithQuerysetViewSet, { basename: 'book' }]],
    });
    try {
      const response = await request(app, { method: 'GET', url: '/api/books/' });
      assert.equal(response.statusCode, 200, response.body);
    } finally {
      await app.close();
    }
  });

  it('checks at start-up the serializer a getSerializerClass() override answers without a request', async () => {
    // Its url field links to book-detail; registered as "volume" nothing serves that route.
    await failsWith(
      () => start([['books', FixedSerializerViewSet, { basename: 'volume' }]]),
      'REST_ERR_ROUTE_NAME',
      /^FixedSerializerViewSet \(BookSerializer\)\.url links to the route "book-detail"/,
    );
  });

  it('honours a getSerializerClass() override that needs the request, per request', async () => {
    const app = await buildApp({
      database: db,
      viewsets: [['books', RequestSerializerViewSet, { basename: 'book' }]],
    });
    try {
      const response = await request(app, { method: 'GET', url: '/api/books/' });
      assert.equal(response.statusCode, 200, response.body);
    } finally {
      await app.close();
    }
  });
});
