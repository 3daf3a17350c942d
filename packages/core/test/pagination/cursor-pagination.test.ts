/**
 * Cursor (keyset) pagination through HTTP: walking forward then backward returns every row
 * exactly once, for orderings with many ties, NULLs, descending keys and keys across a
 * nullable relation; each page is one query; cursors carry values only, and anything else in
 * them is 404 {"detail":"Invalid cursor"}.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CursorPagination,
  type Database,
  Exists,
  F,
  ModelSerializer,
  ModelViewSet,
  OrderingFilter,
  OuterRef,
  type Row,
  Subquery,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp, request } from '../fixtures/http-app.ts';
import { Category, Entry, EntrySerializer, STORE_MODELS } from '../fixtures/store-models.ts';

const ORIGIN = 'http://127.0.0.1:8001';

class IdOnlySerializer extends ModelSerializer.with({ model: Entry, fields: ['id'] }) {}
const PAGE_SIZE = 4;
const ROWS = 50;

class SizedCursor extends CursorPagination {
  override pageSizeQueryParam = 'page_size';
  override maxPageSize = 20;
}

class EntryViewSet extends ModelViewSet {
  override queryset = Entry.objects.all();
  override serializerClass = EntrySerializer;
  override paginationClass = SizedCursor;
  override filterBackends = [OrderingFilter];
  orderingFields = [
    'id',
    'rank',
    'label',
    'score',
    'day',
    'seen',
    'flag',
    'category',
    'category__name',
  ];
}

/** Loads the ids only: the pagination loads the ordering's fields on top, for its cursors. */
class NarrowEntryViewSet extends ModelViewSet {
  override queryset = Entry.objects.only('id');
  override serializerClass = IdOnlySerializer;
  override paginationClass = SizedCursor;
  override filterBackends = [OrderingFilter];
  orderingFields = ['rank', 'label', 'score', 'day', 'category__name'];
}

/** Annotations to order by: text or NULL, a boolean, a whole number. */
const annotatedEntries = () =>
  Entry.objects.annotate({
    categoryName: Subquery<string>(Category.objects.filter({ pk: OuterRef('category') }), 'name'),
    inA: Exists(Category.objects.filter({ pk: OuterRef('category'), name: 'a' })),
    doubled: F('rank').mul(2),
  });

class AnnotatedEntryViewSet extends EntryViewSet {
  override queryset = annotatedEntries() as never;
  override orderingFields = [
    ...new EntryViewSet().orderingFields,
    'categoryName',
    'inA',
    'doubled',
  ];
}

const ANNOTATED_ORDERINGS = [
  'categoryName',
  '-categoryName,-rank',
  'inA,label',
  '-inA,-score',
  'doubled,-categoryName',
  '-doubled,inA,-day',
];

/** A pagination whose own ordering applies when the query set has none. */
class NewestFirst extends CursorPagination {
  override ordering = ['-day', 'rank'];
}

class NewestEntryViewSet extends ModelViewSet {
  override queryset = Entry.objects.all();
  override serializerClass = EntrySerializer;
  override paginationClass = NewestFirst;
}

class NewestOrderedEntryViewSet extends NewestEntryViewSet {
  override filterBackends = [OrderingFilter];
  orderingFields = ['id'];
}

type Page = { next: string | null; previous: string | null; results: { id: number }[] };
const ids = (page: Page) => page.results.map((e) => e.id);
const path = (link: string) => link.slice(ORIGIN.length);

function decode(link: string): unknown[] {
  const cursor = new URL(link).searchParams.get('cursor') as string;
  return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
}

function encode(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

// Few distinct values per column: most orderings tie on most keys.
const LABELS = [null, 'x', 'y', 'x', 'Y'] as const;
const SCORES = [null, '1.50', '10.00'] as const;
const DAYS = [null, '2020-01-01', '2020-01-02', '2019-12-31'] as const;
const MOMENTS = [null, '2024-05-01T10:00:00.000Z', '2024-05-01T09:59:59.999Z'] as const;

const ORDERINGS = [
  '',
  'rank',
  '-rank,label',
  'label,-score,day',
  '-label,score',
  'category__name,-rank',
  '-category__name,flag',
  '-day,-flag,category',
  '-seen,rank',
  'seen,-score',
  '-id',
];

for (const dialect of testDialects()) {
  describe(`cursor pagination on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;
    let queries = 0;

    async function page(url: string): Promise<Page> {
      queries = 0;
      const response = await request(app, { method: 'GET', url });
      assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
      assert.equal(queries, 1, `${url}: one query per page`);
      return response.json();
    }

    async function invalid(url: string): Promise<void> {
      const response = await request(app, { method: 'GET', url });
      assert.equal(response.statusCode, 404, url);
      assert.equal(response.body, '{"detail":"Invalid cursor"}');
      assert.equal(response.headers['content-type'], 'application/json');
      assert.equal(response.headers.allow, 'GET, POST, HEAD, OPTIONS');
      assert.equal(response.headers.vary, 'Accept');
    }

    /** The ids in the order the database gives for `ordering` (primary key appended). */
    async function expected(ordering: string): Promise<number[]> {
      const terms = ordering ? ordering.split(',') : [];
      const qs = terms.length ? Entry.objects.using(db).orderBy(...terms) : Entry.objects.using(db);
      return (await qs.withStableOrdering().execute()).map((row) => row.id);
    }

    /** Every page from the first, forward; then every page from the last, backward. */
    async function walk(first: string): Promise<{ forward: Page[]; backward: Page[] }> {
      // Bounded: broken cursors could lead round in circles.
      const most = ROWS + 2;
      const forward: Page[] = [await page(first)];
      while (forward.at(-1)?.next && forward.length < most)
        forward.push(await page(path(forward.at(-1)?.next as string)));
      const backward: Page[] = [forward.at(-1) as Page];
      while (backward[0]?.previous && backward.length < most)
        backward.unshift(await page(path(backward[0].previous)));
      return { forward, backward };
    }

    before(async () => {
      db = await dialect.create();
      await db.migrate(STORE_MODELS);
      db.onQuery(() => queries++);
      await db.transaction(async () => {
        const a = await Category.objects.using(db).create({ name: 'a' });
        const b = await Category.objects.using(db).create({ name: 'b' });
        const unnamed = await Category.objects.using(db).create({ name: null });
        const categories = [null, a.id, b.id, unnamed.id];
        for (let i = 1; i <= ROWS; i++) {
          await Entry.objects.using(db).create({
            rank: i % 4,
            label: LABELS[i % LABELS.length],
            score: SCORES[i % SCORES.length],
            day: DAYS[i % DAYS.length],
            seen: MOMENTS[i % MOMENTS.length],
            flag: i % 2 === 0,
            category_id: categories[(i * 7) % categories.length],
          });
        }
      });
      app = await buildApp({
        database: db,
        prefix: '/api',
        viewsets: [
          ['entries', EntryViewSet],
          ['newest', NewestEntryViewSet, { basename: 'newest' }],
          ['newest-ordered', NewestOrderedEntryViewSet, { basename: 'newest-ordered' }],
          ['narrow', NarrowEntryViewSet as unknown as typeof EntryViewSet, { basename: 'narrow' }],
          ['annotated', AnnotatedEntryViewSet, { basename: 'annotated' }],
        ],
        settings: { PAGE_SIZE },
      });
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
    });

    it('answers {next, previous, results}, without a count', async () => {
      const response = await request(app, { method: 'GET', url: '/api/entries/' });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-type'], 'application/json');
      assert.equal(response.headers.allow, 'GET, POST, HEAD, OPTIONS');
      const body = response.json();
      assert.deepEqual(Object.keys(body), ['next', 'previous', 'results']);
      assert.equal(body.previous, null);
      assert.match(body.next, /^http:\/\/127\.0\.0\.1:8001\/api\/entries\/\?cursor=[\w-]+$/);
      assert.deepEqual(ids(body), [1, 2, 3, 4]);
    });

    for (const ordering of ORDERINGS) {
      it(`walks forward then backward through every row once, ordering "${ordering}"`, async () => {
        const first = ordering ? `/api/entries/?ordering=${ordering}` : '/api/entries/';
        const { forward, backward } = await walk(first);
        const order = await expected(ordering);
        assert.equal(order.length, ROWS);
        assert.deepEqual(forward.flatMap(ids), order, 'forward');
        assert.deepEqual(backward.flatMap(ids), order, 'backward');
        // Backward pages are the forward pages: same boundaries, same links out.
        assert.deepEqual(backward.map(ids), forward.map(ids));
        assert.equal(forward[0]?.previous, null);
        assert.equal(backward[0]?.previous, null);
        assert.equal(forward.at(-1)?.next, null);
        assert.ok(forward.slice(0, -1).every((p) => p.results.length === PAGE_SIZE));
        // Other parameters stay in the links.
        if (ordering) assert.match(forward[0]?.next as string, /&ordering=/);
      });
    }

    for (const ordering of ANNOTATED_ORDERINGS) {
      it(`walks an ordering by annotations forward and backward, "${ordering}"`, async () => {
        const { forward, backward } = await walk(`/api/annotated/?ordering=${ordering}`);
        const order = (
          await annotatedEntries()
            .using(db)
            .orderBy(...ordering.split(','))
            .withStableOrdering()
            .execute()
        ).map((row) => row.id);
        assert.equal(order.length, ROWS);
        assert.deepEqual(forward.flatMap(ids), order, 'forward');
        assert.deepEqual(backward.flatMap(ids), order, 'backward');
        assert.deepEqual(backward.map(ids), forward.map(ids));
        assert.equal(forward.at(-1)?.next, null);
      });
    }

    it("refuses a cursor whose annotation value is not of the annotation's type", async () => {
      const first = await page('/api/annotated/?ordering=doubled');
      const [print, flags, , id] = decode(first.next as string);
      for (const bad of ['2', 1.5, true, {}, [1]]) {
        await invalid(`/api/annotated/?ordering=doubled&cursor=${encode([print, flags, bad, id])}`);
      }
      const boolean = await page('/api/annotated/?ordering=inA');
      const [p2, f2, , id2] = decode(boolean.next as string);
      for (const bad of ['true', 1, 0]) {
        await invalid(`/api/annotated/?ordering=inA&cursor=${encode([p2, f2, bad, id2])}`);
      }
      // A cursor made for the column ordering is not one for the annotation's.
      const rank = await page('/api/entries/?ordering=rank');
      const cursor = new URL(rank.next as string).searchParams.get('cursor') as string;
      await invalid(`/api/annotated/?ordering=doubled&cursor=${cursor}`);
    });

    it("walks every row once when the view's query set loads only() some fields", async () => {
      for (const ordering of ['label,-score,day', 'category__name,-rank']) {
        const { forward, backward } = await walk(`/api/narrow/?ordering=${ordering}`);
        const order = await expected(ordering);
        assert.deepEqual(forward.flatMap(ids), order, `forward, ${ordering}`);
        assert.deepEqual(backward.flatMap(ids), order, `backward, ${ordering}`);
        assert.deepEqual(forward[0]?.results[0], { id: order[0] });
      }
    });

    it('puts NULL first going up and last going down, on every database', async () => {
      const up = await page('/api/entries/?ordering=label&page_size=20');
      const rows = up.results as unknown as { label: string | null }[];
      assert.equal(rows[0]?.label, null);
      const down = await walk('/api/entries/?ordering=-label&page_size=20');
      const labels = down.forward.flatMap(
        (p) => p.results as unknown as { label: string | null }[],
      );
      assert.deepEqual(
        [...new Set(labels.map((r) => r.label))],
        ['y', 'x', 'Y', null],
        'byte order, NULL smallest',
      );
    });

    it("walks the pagination's own ordering, unless an ordering filter ordered the request", async () => {
      const own = await walk('/api/newest/');
      assert.deepEqual(own.forward.flatMap(ids), await expected('-day,rank'));
      assert.deepEqual(own.backward.flatMap(ids), await expected('-day,rank'));
      const fallback = await walk('/api/newest-ordered/');
      assert.deepEqual(fallback.forward.flatMap(ids), await expected('-day,rank'));
      const filtered = await walk('/api/newest-ordered/?ordering=-id');
      assert.deepEqual(filtered.forward.flatMap(ids), await expected('-id'));
      assert.deepEqual(filtered.backward.flatMap(ids), await expected('-id'));
    });

    it('lets clients choose the page size, up to maxPageSize', async () => {
      const body = await page('/api/entries/?page_size=7');
      assert.equal(body.results.length, 7);
      assert.match(body.next as string, /\?cursor=[\w-]+&page_size=7$/);
      const capped = await page('/api/entries/?page_size=1000');
      assert.equal(capped.results.length, 20);
    });

    it('answers 404 {"detail":"Invalid cursor"} for a garbled cursor', async () => {
      const real = decode((await page('/api/entries/?ordering=label,rank')).next as string);
      // [fingerprint, flags, label, rank, id]: the primary key completes the ordering.
      assert.equal(real.length, 5);
      const url = (value: unknown) => `/api/entries/?ordering=label,rank&cursor=${encode(value)}`;
      const withValue = (index: number, value: unknown) =>
        real.map((v, i) => (i === index ? value : v));
      // The real cursor is fine; each variant below differs from it in one way.
      await page(url(real));
      for (const raw of ['abc', '%21%21%21', '', 'A'.repeat(9000), encode(real).slice(1)])
        await invalid(`/api/entries/?ordering=label,rank&cursor=${raw}`);
      for (const value of [
        'not an array',
        {},
        [],
        { p: real.slice(2) },
        real.slice(0, 4),
        [...real, 1],
        withValue(0, 'another ordering'),
        withValue(1, 4),
        withValue(1, '0'),
        withValue(2, 7),
        withValue(2, 'nul\u0000byte'),
        withValue(2, { raw: 'label' }),
        withValue(2, ['x']),
        withValue(3, '1 OR 1=1'),
        withValue(3, '1'),
        withValue(3, 1.5),
        withValue(3, 2 ** 40),
        withValue(3, null),
        withValue(3, true),
        withValue(4, -(2 ** 31) - 1),
      ])
        await invalid(url(value));
      // A cursor made for one ordering does not walk another, even with as many keys.
      await invalid(`/api/entries/?ordering=rank,label&cursor=${encode(real)}`);
      // Nor the same keys the other way (each ordering's plan is kept apart, direction included).
      await invalid(`/api/entries/?ordering=-label,rank&cursor=${encode(real)}`);
      await page(url(real));
    });

    it('binds cursor values as values: SQL in a text value is just text', async () => {
      const [fingerprint] = decode((await page('/api/entries/?ordering=label,id')).next as string);
      const rows = await Entry.objects.using(db).orderBy('label', 'id').execute();
      for (const label of ["x' OR '1'='1", 'x"; DROP TABLE store_entry; --', 'w', '']) {
        const cursor = encode([fingerprint, 0, label, 0]);
        const body = await page(`/api/entries/?ordering=label,id&page_size=20&cursor=${cursor}`);
        // Exactly the rows whose label sorts after the text (byte order), as a value would.
        const after = rows.filter((row) => row.label !== null && row.label > label);
        assert.deepEqual(
          ids(body),
          after.slice(0, 20).map((row) => row.id),
          label,
        );
      }
      assert.equal(await Entry.objects.using(db).count(), ROWS);
    });

    it('neither skips nor repeats rows when rows are added or removed between pages', async () => {
      const first = await page('/api/entries/?ordering=id');
      assert.deepEqual(ids(first), [1, 2, 3, 4]);
      // A row sorting before the position does not shift the next page.
      const early: Row<typeof Entry> = await Entry.objects.using(db).create({ id: 0, rank: 0 });
      const second = await page(path(first.next as string));
      assert.deepEqual(ids(second), [5, 6, 7, 8]);
      await Entry.objects.using(db).filter({ id: early.id }).delete();
      // Every row after the cursor removed: an empty page whose previous link includes the
      // boundary row itself.
      const removed = await Entry.objects.using(db).filter({ id__gt: 8 }).execute();
      await Entry.objects.using(db).filter({ id__gt: 8 }).delete();
      try {
        const empty = await page(path(second.next as string));
        assert.deepEqual(empty.results, []);
        assert.equal(empty.next, null);
        const back = await page(path(empty.previous as string));
        assert.deepEqual(ids(back), [5, 6, 7, 8]);
        const again = await page(path(back.next as string));
        assert.deepEqual(again.results, []);
      } finally {
        await db.transaction(async () => {
          for (const row of removed) await Entry.objects.using(db).create(row);
        });
      }
      assert.equal(await Entry.objects.using(db).count(), ROWS);
    });
  });
}
