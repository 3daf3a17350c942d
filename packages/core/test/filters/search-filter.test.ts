/**
 * SearchFilter through HTTP on every dialect: DRF's prefixes, terms AND-ed across fields
 * OR-ed, quoted phrases, `%` and `_` taken literally, relations without repeated rows, the
 * SEARCH_PARAM setting, bounds on what a client sends, and the start-up checks.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Database, ModelSerializer, ModelViewSet, SearchFilter } from '@restframework/core';
import { searchTerms } from '@restframework/core/internal';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp, request } from '../fixtures/http-app.ts';
import { Book, Category, Entry, STORE_MODELS } from '../fixtures/store-models.ts';
import { BookViewSet } from '../fixtures/store-views.ts';

class SearchedBooks extends BookViewSet {
  override filterBackends = [SearchFilter];
  override paginationClass = null;
  searchFields = ['title', '^isbn', '=summary', '@description'];
}

/** A backend's own parameter, declared as a field, as in DRF (`search_param = 'find'`). */
class FindFilter extends SearchFilter {
  override searchParam = 'find';
}

class FoundBooks extends SearchedBooks {
  override filterBackends = [FindFilter];
}

class RegexBooks extends SearchedBooks {
  override searchFields = ['$title'];
}

class EntrySerializer extends ModelSerializer.with({ model: Entry, fields: ['id', 'label'] }) {}

class SearchedEntries extends ModelViewSet {
  override queryset = Entry.objects.all();
  override serializerClass = EntrySerializer;
  override filterBackends = [SearchFilter];
  override paginationClass = null;
  searchFields = ['label', 'category__name'];
}

/** One view per prefix, on the entries' labels. */
class LabelSearch extends SearchedEntries {
  override searchFields = ['label'];
}
class LabelStartSearch extends SearchedEntries {
  override searchFields = ['^label'];
}
class LabelExactSearch extends SearchedEntries {
  override searchFields = ['=label'];
}
class LabelAccentSearch extends SearchedEntries {
  override searchFields = ['label__unaccent', '=category__name__unaccent'];
}
class LabelFullTextSearch extends SearchedEntries {
  override searchFields = ['@label'];
}

/** Labels of mixed case, accents, scripts and LIKE's wildcards. */
const LABELS = [
  'Café crème',
  'HO CAFÉ',
  'cafe',
  'Ωμέγα ΟΔΟΣ',
  '100 days',
  '100% sure',
  'a*b',
  'a_b',
  'a\\b',
];

/** What each prefix finds, the same on every database: case folded, accents and `%_\\` kept. */
const PREFIX_CASES: readonly (readonly [string, string, readonly string[]])[] = [
  ['labels', 'CAFÉ', ['Café crème', 'HO CAFÉ']],
  ['labels', 'cafe', ['cafe']],
  ['labels', 'οδος', ['Ωμέγα ΟΔΟΣ']],
  ['labels', 'ΩΜΈΓΑ', ['Ωμέγα ΟΔΟΣ']],
  ['labels', '100%25', ['100% sure']],
  ['labels', 'A_B', ['a_b']],
  ['labels', 'a%5C', ['a\\b']],
  ['labels', '%25', ['100% sure']],
  ['label-starts', 'CAFÉ', ['Café crème']],
  ['label-starts', 'ho', ['HO CAFÉ']],
  ['label-starts', '_', []],
  ['label-exact', '"ho café"', ['HO CAFÉ']],
  ['label-exact', 'café', []],
  ['label-exact', 'A*B', ['a*b']],
];

const BOOKS = [
  { title: 'Dune', isbn: 'ab-1', summary: 'Spice', description: 'A desert planet and its spice' },
  { title: 'Dune Messiah', isbn: 'ab-2', summary: 'spice', description: 'The emperor years' },
  { title: '100% Pure_Fun', isbn: 'cd-3', summary: null, description: null },
  { title: 'Emma', isbn: 'xab-4', summary: 'Matchmaking', description: 'A comedy of manners' },
];

const CASES: readonly (readonly [string, readonly number[]])[] = [
  ['', [1, 2, 3, 4]],
  ['?search=', [1, 2, 3, 4]],
  ['?search=dune', [1, 2]],
  ['?search=DUNE messiah', [2]],
  ['?search=dune,messiah', [2]],
  ['?search="dune messiah"', [2]],
  ['?search="messiah dune"', []],
  ['?search=%25', [3]],
  ['?search=e_f', [3]],
  ['?search=u_', []],
  ['?search=%25%25', []],
  // ^isbn: starts with; title does not match "ab".
  ['?search=ab', [1, 2]],
  ['?search=b-4', []],
  ['?search=xab', [4]],
  ['?search=ab-', [1, 2]],
  // =summary: the whole value, ignoring case.
  ['?search=spice', [1, 2]],
  ['?search=matchmakin', []],
  ['?search=matchmaking', [4]],
  // @description: every word, in any order.
  ['?search=planet', [1]],
  ['?search=manners comedy', [4]],
  ['?search=%00dune%00', [1, 2]],
];

for (const dialect of testDialects()) {
  describe(`SearchFilter on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;
    let renamed: FastifyInstance;

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      for (const b of BOOKS) {
        await Book.objects
          .using(db)
          .create({ ...b, publication_date: '2020-01-01', price: '1.00' });
      }
      const fiction = await Category.objects.using(db).create({ name: 'Fiction' });
      await Entry.objects
        .using(db)
        .create({ rank: 1, label: 'first fiction', category_id: fiction.id });
      await Entry.objects.using(db).create({ rank: 2, label: 'second', category_id: null });
      await Entry.objects.using(db).create({ rank: 3, label: 'third', category_id: fiction.id });
      for (const [i, label] of LABELS.entries())
        await Entry.objects.using(db).create({ rank: 10 + i, label, category_id: null });
      const viewsets = [
        ['books', SearchedBooks, { basename: 'book' }],
        ['entries', SearchedEntries, { basename: 'entry' }],
        ['found', FoundBooks, { basename: 'found' }],
        ['labels', LabelSearch, { basename: 'labels' }],
        ['label-starts', LabelStartSearch, { basename: 'label-starts' }],
        ['label-exact', LabelExactSearch, { basename: 'label-exact' }],
        ['label-words', LabelFullTextSearch, { basename: 'label-words' }],
        ...(db.adapter.capabilities.regex ? [['regex', RegexBooks, { basename: 'regex' }]] : []),
        ...(db.adapter.capabilities.accentFolding
          ? [['label-accents', LabelAccentSearch, { basename: 'label-accents' }]]
          : []),
      ] as const;
      app = await buildApp({ database: db, viewsets: viewsets as never });
      renamed = await buildApp({
        database: db,
        settings: { SEARCH_PARAM: 'q' },
        viewsets: [['books', SearchedBooks, { basename: 'book' }]],
      });
    });

    after(async () => {
      await app?.close();
      await renamed?.close();
      await db?.close();
    });

    async function ids(server: FastifyInstance, url: string): Promise<number[]> {
      const response = await request(server, { method: 'GET', url });
      assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
      return (response.json() as { id: number }[]).map((row) => row.id).sort();
    }

    it('matches as DRF: prefixes, every term, phrases, literal % and _', async () => {
      for (const [query, expected] of CASES) {
        assert.deepEqual(await ids(app, `/api/books/${query}`), expected, query);
      }
    });

    async function labels(url: string): Promise<string[]> {
      const response = await request(app, { method: 'GET', url });
      assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
      return (response.json() as { id: number; label: string }[])
        .sort((a, b) => a.id - b.id)
        .map((row) => row.label);
    }

    it('folds case the same on every database for each prefix, accents and %_\\ kept', async () => {
      for (const [route, search, expected] of PREFIX_CASES) {
        const url = `/api/${route}/?search=${search}`;
        assert.deepEqual(await labels(url), expected, url);
      }
    });

    it('folds accents too for a "__unaccent" path where the database can, else fails at start-up', async () => {
      if (!db.adapter.capabilities.accentFolding) {
        assert.throws(
          () =>
            new SearchFilter().check(
              Object.assign(new LabelAccentSearch(), { queryset: Entry.objects.using(db) }),
            ),
          new RegExp(`"label__unaccent" folds accents, which ${db.vendor} cannot; search "label"`),
        );
        return;
      }
      const cases: [string, string[]][] = [
        ['CAFE', ['Café crème', 'HO CAFÉ', 'cafe']],
        ['creme', ['Café crème']],
        ['ωμεγα', ['Ωμέγα ΟΔΟΣ']],
        ['fiction', ['first fiction', 'third']],
        ['FICTIÓN', ['first fiction', 'third']],
        ['thírd', ['third']],
        ['ωμεγας', []],
      ];
      for (const [search, expected] of cases) {
        const url = `/api/label-accents/?search=${encodeURIComponent(search)}`;
        assert.deepEqual(await labels(url), expected, url);
      }
    });

    it('searches "@" fields with full-text search on PostgreSQL, for every word elsewhere', async () => {
      // DRF: full-text search is PostgreSQL's. There the words are the text search's
      // (punctuation splits them, stop words like "a" drop); elsewhere each term's words
      // must each be contained in the text, literally and case-folded.
      const fullText = db.adapter.capabilities.fullTextSearch;
      const cases: [string, string[], string[]][] = [
        ['100%25', ['100 days', '100% sure'], ['100% sure']],
        ['a_b', ['a*b', 'a_b', 'a\\b'], ['a_b']],
        ['SURE 100', ['100% sure'], ['100% sure']],
        ['CAFÉ', ['Café crème', 'HO CAFÉ'], ['Café crème', 'HO CAFÉ']],
        ['days 100', ['100 days'], ['100 days']],
      ];
      for (const [search, postgres, elsewhere] of cases) {
        const url = `/api/label-words/?search=${search}`;
        assert.deepEqual(await labels(url), fullText ? postgres : elsewhere, url);
      }
      assert.equal(fullText, db.vendor === 'postgres');
    });

    it('searches across relations, each row once', async () => {
      assert.deepEqual(await ids(app, '/api/entries/?search=fiction'), [1, 3]);
      assert.deepEqual(await ids(app, '/api/entries/?search=fiction first'), [1]);
    });

    it('reads the SEARCH_PARAM setting', async () => {
      assert.deepEqual(await ids(renamed, '/api/books/?q=emma'), [4]);
      assert.deepEqual(await ids(renamed, '/api/books/?search=emma'), [1, 2, 3, 4]);
    });

    it("reads a subclass's own searchParam, and only for that subclass", async () => {
      assert.deepEqual(await ids(app, '/api/found/?find=emma'), [4]);
      assert.deepEqual(await ids(app, '/api/found/?search=emma'), [1, 2, 3, 4]);
      assert.deepEqual(await ids(app, '/api/books/?search=emma'), [4]);
      assert.deepEqual(await ids(app, '/api/books/?find=emma'), [1, 2, 3, 4]);
    });

    it('answers too long a query or too many terms with 400', async () => {
      const long = await request(app, {
        method: 'GET',
        url: `/api/books/?search=${'a'.repeat(501)}`,
      });
      assert.equal(long.statusCode, 400);
      assert.deepEqual(long.json(), { search: ['Ensure this value has at most 500 characters.'] });
      const many = await request(app, {
        method: 'GET',
        url: `/api/books/?search=${'a '.repeat(11)}`,
      });
      assert.equal(many.statusCode, 400);
      assert.deepEqual(many.json(), { search: ['Use at most 10 search terms.'] });
    });

    it('searches by regular expression where the database has them, else fails at start-up', async () => {
      if (!db.adapter.capabilities.regex) {
        assert.throws(
          () =>
            new SearchFilter().check(
              Object.assign(new RegexBooks(), { queryset: Book.objects.using(db) }),
            ),
          new RegExp(`"\\$" searches by regular expression, which ${db.vendor} does not have`),
        );
        return;
      }
      assert.deepEqual(await ids(app, '/api/regex/?search=^d.ne$'), [1]);
      assert.deepEqual(await ids(app, '/api/regex/?search=[0-9]%2B%25'), [3]);
      const invalid = await request(app, { method: 'GET', url: '/api/regex/?search=(' });
      assert.equal(invalid.statusCode, 400, invalid.body);
      assert.deepEqual(invalid.json(), { detail: ['Invalid regular expression.'] });
    });

    it('publishes its parameter in OpenAPI', () => {
      assert.deepEqual(new SearchFilter().getSchemaOperationParameters(new SearchedBooks()), [
        {
          name: 'search',
          required: false,
          in: 'query',
          description: 'A search term.',
          schema: { type: 'string', maxLength: 500 },
        },
      ]);
    });
  });
}

describe('search terms and declarations', () => {
  it('splits terms as DRF: spaces and commas, quoted phrases, NUL dropped', () => {
    const cases: [string, string[]][] = [
      ['', []],
      ['  ', []],
      ['a b', ['a', 'b']],
      ['a,b , c', ['a', 'b', 'c']],
      ['"new york" city', ['new york', 'city']],
      ['"unclosed phrase', ['unclosed phrase']],
      ['""', []],
      ['a\u0000b', ['ab']],
    ];
    for (const [text, terms] of cases) assert.deepEqual(searchTerms(text), terms, text);
  });

  const cases: [string, string[], RegExp][] = [
    [
      'a field that does not exist',
      ['titel'],
      /Book has no field "titel"\. Search text fields of Book/,
    ],
    [
      'a field that is not text',
      ['pages'],
      /"pages" is a positive_integer field; search text fields/,
    ],
    ['a path through a non-relation', ['title__x'], /Book\.title is not a relation/],
    [
      'accent folding with full-text search',
      ['@title__unaccent'],
      /"@title__unaccent" folds accents, which only the searches with no prefix, "\^" and "=" do/,
    ],
  ];
  for (const [what, fields, message] of cases) {
    it(`fails at start-up on ${what}`, () => {
      class Wrong extends BookViewSet {
        searchFields = fields;
      }
      assert.throws(
        () => new SearchFilter().check(new Wrong()),
        (error: Error & { code?: string }) =>
          error.code === 'REST_ERR_SEARCH_FIELDS' && message.test(error.message),
      );
    });
  }
});

describe('SearchFilter defaults', () => {
  it('keeps its defaults on the prototype: a backend made per request defines no field', () => {
    const backend = new SearchFilter();
    assert.deepEqual(Object.keys(backend), []);
    assert.equal(backend.searchParam, undefined);
    assert.equal(backend.searchTitle, 'Search');
    assert.equal(backend.searchDescription, 'A search term.');
    assert.deepEqual(backend.lookupPrefixes, {
      '^': 'istartswith',
      '=': 'iexact',
      '@': 'search',
      $: 'iregex',
    });
    // Shared by every backend, so nobody may change it.
    assert.ok(Object.isFrozen(backend.lookupPrefixes));
  });

  it("lets a subclass's fields override them without touching SearchFilter's", () => {
    class Prefixed extends SearchFilter {
      override searchParam = 'q';
      override readonly lookupPrefixes = { '~': 'icontains' as const };
    }
    const own = new Prefixed();
    assert.equal(own.getSearchParam(undefined), 'q');
    assert.deepEqual(own.lookupPrefixes, { '~': 'icontains' });
    assert.equal(new SearchFilter().getSearchParam(undefined), 'search');
    assert.equal(new SearchFilter().lookupPrefixes['~'], undefined);
  });
});
