/**
 * Filters and search on the bookstore's book, author and profile routes, on every dialect:
 * each answer is checked against the query layer asked the same thing directly; the nested
 * names a client sees (`stock_information__price__gte`, `contact_information__...`) filter as
 * the flat ones; tricks' mapped ordering applies on the same request; and generated malformed
 * parameters (fast-check) are all answered 400 (or ignored), never 5xx, changing nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Filter } from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import fc from 'fast-check';
import { Author, Book, Profile } from '../src/models/index.ts';
import { hostileString } from './reliability/arbitraries.ts';
import { type Bookstore, send, snapshot, startBookstore } from './reliability/support.ts';

const SEED = { books: 60, authors: 12, users: 12 };
const RUNS = Number(process.env.FUZZ_RUNS ?? 120);

type Page = { count: number; results: { id: number }[] };

for (const dialect of testDialects()) {
  describe(`bookstore filters and search on ${dialect.name}`, { skip: dialect.skip }, () => {
    let store: Bookstore;

    before(async () => {
      store = await startBookstore(dialect, { seed: SEED });
    });

    after(async () => {
      await store?.close();
    });

    async function list(url: string): Promise<Page> {
      const response = await send(store.app, { method: 'GET', url });
      assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
      return response.json() as Page;
    }

    async function expectIds(
      url: string,
      model: typeof Book | typeof Author | typeof Profile,
      filter: Filter,
    ) {
      const rows = await (model.objects as any)
        .using(store.db)
        .filter(filter)
        .orderBy('id')
        .execute();
      const page = await list(url);
      assert.ok(
        rows.length > 0 || url.includes('nothing'),
        `${url}: the seed should match something`,
      );
      assert.equal(page.count, rows.length, url);
      assert.deepEqual(
        page.results.map((r) => r.id).sort((a, b) => a - b),
        rows.map((r: { id: number }) => r.id).slice(0, 100),
        url,
      );
    }

    it('filters books by the flat and the nested names, as the query layer does', async () => {
      const cases: [string, Filter][] = [
        ['?price__gte=500', { price__gte: '500' }],
        ['?stock_information__price__gte=500', { price__gte: '500' }],
        ['?stock_information__price__range=100,400', { price__range: ['100', '400'] }],
        ['?state__in=published,in_progress', { state__in: ['published', 'in_progress'] }],
        ['?stock_information__state=not_published', { state: 'not_published' }],
        ['?publishing_information__pages__gte=300', { pages__gte: 300 }],
        ['?publication_date__year=2021', { publication_date__year: 2021 }],
        ['?summary__isnull=true', { summary__isnull: true }],
        ['?in_stock=true', { stock_count__gt: 0 }],
        ['?title__icontains=river', { title__icontains: 'river' }],
      ];
      for (const [query, filter] of cases) {
        await expectIds(`/books/api/books/${query}`, Book, filter);
        await expectIds(`/books/api/proxy-books/${query}`, Book, filter);
      }
    });

    it('folds case for every letter and keeps accents: CAFÉ finds café and Café, not cafe', async () => {
      const books = () => Book.objects.using(store.db);
      const last = await books().orderBy('-id').slice(0, 3).execute();
      const titles = ['Le café du coin', 'ho Café', 'cafe crème'];
      const [cafe, hoCafe, plain] = last.map((book) => book.id) as [number, number, number];
      try {
        for (const [i, book] of last.entries())
          await books()
            .filter({ pk: book.id })
            .update({ title: titles[i] as string });
        const ids = async (url: string) =>
          (await list(url)).results.map((r) => r.id).sort((a, b) => a - b);
        for (const path of ['/books/api/books/', '/books/api/proxy-books/']) {
          assert.deepEqual(
            await ids(`${path}?title__icontains=CAF%C3%89`),
            [hoCafe, cafe].sort((a, b) => a - b),
          );
          assert.deepEqual(await ids(`${path}?title__icontains=CAFE`), [plain]);
          assert.deepEqual(await ids(`${path}?title__istartswith=HO%20CAF%C3%89`), [hoCafe]);
          assert.deepEqual(await ids(`${path}?search=CAF%C3%89%20COIN`), [cafe]);
          assert.deepEqual(await ids(`${path}?search=CR%C3%88ME`), [plain]);
        }
      } finally {
        for (const book of last)
          await books().filter({ pk: book.id }).update({ title: book.title });
      }
    });

    it('keys an error by the name the client sent', async () => {
      const cases: [string, Record<string, string[]>][] = [
        ['?pages=abc', { pages: ['Enter a number.'] }],
        [
          '?publishing_information__pages=abc',
          { publishing_information__pages: ['Enter a number.'] },
        ],
        ['?publication_date=2023-02-30', { publication_date: ['Enter a valid date.'] }],
        [
          '?stock_information__state=sold',
          {
            stock_information__state: [
              'Select a valid choice. sold is not one of the available choices.',
            ],
          },
        ],
        ['?price__range=1', { price__range: ['Range query expects two values.'] }],
      ];
      for (const [query, body] of cases) {
        const response = await send(store.app, { method: 'GET', url: `/books/api/books/${query}` });
        assert.equal(response.statusCode, 400, query);
        assert.deepEqual(response.json(), body, query);
      }
    });

    it("applies tricks' mapped ordering with the filters on the same request", async () => {
      const page = await list(
        '/books/api/proxy-books/?stock_information__price__gte=300&ordering=-price',
      );
      const rows = await Book.objects
        .using(store.db)
        .filter({ price__gte: '300' })
        .orderBy('-price', 'id')
        .execute();
      assert.deepEqual(
        page.results.map((r) => r.id),
        rows.map((r) => r.id),
      );
      const status = await list('/books/api/proxy-books/?state=published&ordering=status');
      const byStatus = await Book.objects
        .using(store.db)
        .filter({ state: 'published' })
        .orderBy('state', 'publication_date', 'id')
        .execute();
      assert.deepEqual(
        status.results.map((r) => r.id),
        byStatus.map((r) => r.id),
      );
    });

    it('searches books, authors and profiles', async () => {
      const book = (await Book.objects.using(store.db).orderBy('id').first()) as {
        title: string;
        isbn: string;
      };
      const word = book.title.split(' ')[0] as string;
      await expectIds(`/books/api/books/?search=${encodeURIComponent(word.toUpperCase())}`, Book, {
        title__icontains: word,
      });
      await expectIds(
        `/books/api/books/?search=${encodeURIComponent(book.isbn.slice(0, 5))}`,
        Book,
        {
          isbn__istartswith: book.isbn.slice(0, 5),
        },
      );
      const author = (await Author.objects.using(store.db).orderBy('id').first()) as {
        name: string;
        email: string;
      };
      await expectIds(
        `/books/api/authors/?search=${encodeURIComponent(author.email.toUpperCase())}`,
        Author,
        {
          email__iexact: author.email,
        },
      );
      const profile = (await Profile.objects
        .using(store.db)
        .selectRelated('user')
        .orderBy('id')
        .first()) as unknown as {
        user: { username: string };
      };
      await expectIds(
        `/api/profile/?search=${encodeURIComponent(profile.user.username)}`,
        Profile,
        {
          user__username__icontains: profile.user.username,
        },
      );
    });

    it('filters authors by nested contact names and profiles across the user', async () => {
      await expectIds('/books/api/authors/?birth_date__year=1941', Author, {
        birth_date__year: 1941,
      });
      await expectIds(
        '/books/api/authors/?business_contact_information__company__icontains=company 1',
        Author,
        {
          company__icontains: 'company 1',
        },
      );
      await expectIds(
        '/books/api/authors/?contact_information__business_contact_information__company__isnull=false',
        Author,
        { company__isnull: false },
      );
      const profile = (await Profile.objects
        .using(store.db)
        .selectRelated('user')
        .orderBy('id')
        .first()) as unknown as {
        user_id: number;
        user: { email: string };
      };
      await expectIds(`/api/profile/?user=${profile.user_id}`, Profile, { user: profile.user_id });
      await expectIds(
        `/api/profile/?user__email__iexact=${profile.user.email.toUpperCase()}`,
        Profile,
        {
          user__email__iexact: profile.user.email,
        },
      );
      const bad = await send(store.app, { method: 'GET', url: '/api/profile/?user=me' });
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(bad.json(), {
        user: ['Select a valid choice. That choice is not one of the available choices.'],
      });
    });

    it('answers generated malformed parameters with 400 or ignores them, never 5xx, changing nothing', async () => {
      const before = await snapshot(store.db, store.media);
      const names = fc.constantFrom(
        'pages',
        'price__gte',
        'price__range',
        'state',
        'state__in',
        'publication_date',
        'publication_date__year',
        'publication_date__month',
        'summary__isnull',
        'in_stock',
        'isbn__in',
        'stock_information__price__lte',
        'publishing_information__publication_date__gte',
        'search',
        'birth_date__year',
        'company__isnull',
        'user',
        'user__email__iexact',
        'title__istartswith',
      );
      const value = fc.oneof(
        hostileString.map((s) => s.slice(0, 1500)),
        fc.constantFrom(
          '2023-02-30',
          '1e999',
          '-1',
          '99999999999999999999',
          'NaN',
          ',',
          ',,,',
          '"',
          '%',
          '_',
          '\\',
          'true,false',
          '1,2,3',
          '\u0000',
          'a\u0000b',
          'published,\u0000',
        ),
        fc.array(fc.integer(), { maxLength: 150 }).map((a) => a.join(',')),
      );
      const routes = fc.constantFrom(
        '/books/api/books/',
        '/books/api/proxy-books/',
        '/books/api/authors/',
        '/api/profile/',
      );
      await fc.assert(
        fc.asyncProperty(
          routes,
          fc.array(fc.tuple(names, value), { minLength: 1, maxLength: 4 }),
          async (route, params) => {
            const query = new URLSearchParams(params).toString();
            const response = await send(store.app, { method: 'GET', url: `${route}?${query}` });
            assert.ok(
              response.statusCode === 200 || response.statusCode === 400,
              `${route}?${query}: ${response.statusCode} ${response.body.slice(0, 300)}`,
            );
            if (response.statusCode === 400) {
              const body = response.json() as Record<string, unknown>;
              for (const [key, messages] of Object.entries(body)) {
                assert.ok(
                  key === 'detail' || params.some(([name]) => name === key),
                  `${key} was not sent`,
                );
                assert.ok(Array.isArray(messages) && messages.every((m) => typeof m === 'string'));
              }
            }
          },
        ),
        { numRuns: RUNS, seed: 20_261_125 },
      );
      assert.deepEqual(await snapshot(store.db, store.media), before);
    });
  });
}
