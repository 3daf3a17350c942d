/**
 * Lookup plans (`QuerySet.lookup`, a detail view's `getObject()`) are keyed by the lookup's
 * shape: a view whose `getQueryset()` builds a new query set per request plans once, and two
 * different shapes never run each other's SQL, checked with generated shapes against the
 * general way (`filter().orderBy().slice().compile()` and `execute()`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Database,
  type Filter,
  ModelSerializer,
  type QueryEvent,
  QuerySet,
  ReadOnlyModelViewSet,
  type Row,
} from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { MAX_LOOKUP_PLANS } from '../../src/db/plan/lookup-plan.ts';
import { INITIAL_STATE, type QueryState, stateIdentity } from '../../src/db/query-state.ts';
import { buildApp, request } from '../fixtures/http-app.ts';
import { ALL_MODELS, Book, Profile, User } from '../fixtures/library-models.ts';

class BookTitleSerializer extends ModelSerializer.with({
  model: Book,
  fields: ['id', 'title', 'isbn'],
}) {}

/** A new query set on every request, as most `getQueryset()` overrides make. */
class RelatedBookViewSet extends ReadOnlyModelViewSet {
  override serializerClass = BookTitleSerializer;
  override getQueryset(): QuerySet<typeof Book> {
    return Book.objects.selectRelated('owner__user');
  }
}

/** A new query set per request whose own condition takes a value of the request. */
class InPrintBookViewSet extends ReadOnlyModelViewSet {
  override serializerClass = BookTitleSerializer;
  override getQueryset(): QuerySet<typeof Book> {
    const inPrint = this.request.query.in_print !== 'no';
    return Book.objects.filter({ in_print: inPrint }).selectRelated('owner');
  }
}

for (const dialect of testDialects()) {
  describe(`lookup plans on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;
    let books: Row<typeof Book>[];
    /** Lookups that found no plan (and planned one): the database's cache counts them. */
    const lookupPlansMade = () =>
      db.caches.stats().find((cache) => cache.name === 'lookup plans')?.misses ?? 0;

    before(async () => {
      db = await dialect.create();
      await db.migrate(ALL_MODELS);
      const users = [];
      for (const username of ['ann', 'bob'])
        users.push(await User.objects.using(db).create({ username }));
      const profiles = [
        await Profile.objects.using(db).create({ user_id: users[0]?.id, biography: 'a' }),
        await Profile.objects.using(db).create({ user_id: null, biography: 'b' }),
      ];
      books = [];
      for (let i = 0; i < 8; i++) {
        books.push(
          await Book.objects.using(db).create({
            title: ['a', 'b', 'c'][i % 3] as string,
            isbn: `isbn-${i}`,
            price: '1.00',
            pages: 100 + i * 50,
            in_print: i % 2 === 0,
            summary: i % 4 === 0 ? null : `s${i}`,
            owner_id: i % 3 === 2 ? null : profiles[i % 2]?.id,
          }),
        );
      }
      app = await buildApp({
        database: db,
        viewsets: [
          ['related-books', RelatedBookViewSet, { basename: 'related-book' }],
          ['in-print-books', InPrintBookViewSet, { basename: 'in-print-book' }],
        ],
      });
    });
    after(async () => {
      await app?.close();
      await dialect.drop(db);
    });

    it('plans the lookup of a view whose getQueryset() builds a new query set once, not per request', async () => {
      const sqls = new Set<string>();
      const stop = db.onQuery((event: QueryEvent) => sqls.add(event.sql));
      const before = lookupPlansMade();
      try {
        for (let n = 0; n < 12; n++) {
          const book = books[n % books.length] as Row<typeof Book>;
          const response = await request(app, {
            method: 'GET',
            url: `/api/related-books/${book.id}/`,
          });
          assert.equal(response.statusCode, 200, response.body);
          assert.deepEqual(response.json(), { id: book.id, title: book.title, isbn: book.isbn });
        }
        const missing = await request(app, { method: 'GET', url: '/api/related-books/999999/' });
        assert.equal(missing.statusCode, 404);
      } finally {
        stop();
      }
      assert.equal(lookupPlansMade() - before, 1, 'one plan for thirteen requests');
      assert.equal(sqls.size, 1, [...sqls].join('\n'));
    });

    it("plans once when the query set's own condition takes the request's values", async () => {
      const before = lookupPlansMade();
      for (let n = 0; n < 12; n++) {
        const book = books[n % books.length] as Row<typeof Book>;
        const inPrint = n % 3 !== 0;
        const response = await request(app, {
          method: 'GET',
          url: `/api/in-print-books/${book.id}/?in_print=${inPrint ? 'yes' : 'no'}`,
        });
        // The condition's value is this request's, never the one the plan was made with.
        if (book.in_print === inPrint) {
          assert.equal(response.statusCode, 200, response.body);
          assert.equal(response.json<{ id: number }>().id, book.id);
        } else assert.equal(response.statusCode, 404, response.body);
      }
      assert.equal(lookupPlansMade() - before, 1);
    });

    it('never lets two lookup shapes share a plan (generated shapes)', async () => {
      const ids = books.map((b) => b.id);
      const base = fc.record({
        conditions: fc.array(condition(), { maxLength: 3 }),
        order: fc.constantFrom<readonly string[] | null>(
          null,
          [],
          ['title'],
          ['-pages', 'id'],
          ['owner__user__username'],
        ),
        related: fc.subarray(['owner', 'owner__user', 'owner__user'], { maxLength: 2 }),
        slice: fc.constantFrom<readonly [number, number?] | null>(
          null,
          [0, 1],
          [0, 5],
          [1],
          [1, 3],
        ),
      });
      const lookup = fc.record({
        filter: fc.oneof(
          fc.constantFrom(...ids).map((pk): Filter => ({ pk })),
          fc.constantFrom(...books.map((b) => b.isbn)).map((isbn): Filter => ({ isbn })),
          fc
            .tuple(fc.constantFrom(...ids), fc.boolean())
            .map(([pk, in_print]): Filter => ({ pk, in_print })),
          fc.constantFrom<Filter>({ pk: null }, { pk: 2 ** 40 }, { id: ids[0] }),
        ),
        limit: fc.constantFrom(1, 2),
      });
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(base, lookup), { minLength: 1, maxLength: 6 }),
          async (runs) => {
            // Each shape twice, in turns: the second run of a shape takes its plan.
            for (const round of [0, 1]) {
              for (const [shape, { filter, limit }] of runs) {
                let qs = Book.objects.using(db);
                for (const apply of shape.conditions) qs = apply(qs);
                if (shape.order) qs = qs.orderBy(...shape.order);
                if (shape.related.length) qs = qs.selectRelated(...shape.related);
                if (shape.slice) qs = qs.slice(...shape.slice);
                const reference = qs.filter(filter).orderBy().slice(0, limit);
                const expected = reference.compile();
                const expectedRows = await reference.execute();
                const seen: QueryEvent[] = [];
                const stop = db.onQuery((event) => seen.push(event));
                let rows: Row<typeof Book>[] | Promise<Row<typeof Book>[]>;
                try {
                  rows = qs.lookup(filter, limit);
                  if (!Array.isArray(rows)) rows = await rows;
                } finally {
                  stop();
                }
                const where = `round ${round}: ${JSON.stringify(filter)} on ${expected.sql}`;
                assert.equal(seen.length, 1, where);
                assert.equal(seen[0]?.sql, expected.sql, where);
                assert.deepEqual(seen[0]?.parameters, expected.parameters, where);
                assert.deepEqual(rows, expectedRows, where);
              }
            }
          },
        ),
        { numRuns: 40 },
      );
    });

    it('answers exists(filter) as filter(filter).exists(), never sharing a plan with rows (generated shapes)', async () => {
      const ids = books.map((b) => b.id);
      const shape = fc.record({
        conditions: fc.array(condition(), { maxLength: 3 }),
        related: fc.subarray(['owner', 'owner__user'], { maxLength: 2 }),
        slice: fc.constantFrom<readonly [number, number?] | null>(null, [0, 1], [1], [5, 6]),
        filter: fc.oneof(
          fc.constantFrom(...ids, 999999).map((pk): Filter => ({ pk })),
          fc.constantFrom(...books.map((b) => b.isbn), 'none').map((isbn): Filter => ({ isbn })),
          fc
            .tuple(fc.constantFrom(...ids), fc.boolean())
            .map(([pk, in_print]): Filter => ({ pk, in_print })),
          fc.constantFrom<Filter>(
            { pk: null },
            { summary: null },
            { owner__user__username: 'ann' },
          ),
        ),
      });
      await fc.assert(
        fc.asyncProperty(fc.array(shape, { minLength: 1, maxLength: 6 }), async (runs) => {
          for (const round of [0, 1]) {
            for (const { conditions, related, slice, filter } of runs) {
              let qs = Book.objects.using(db);
              for (const apply of conditions) qs = apply(qs);
              if (related.length) qs = qs.selectRelated(...related);
              if (slice) qs = qs.slice(...slice);
              const where = `round ${round}: ${JSON.stringify(filter)}`;
              const expected = await qs.filter(filter).exists();
              assert.equal(await qs.exists(filter), expected, where);
              // A lookup of the same shape still answers rows.
              let rows = qs.lookup(filter, 1);
              if (!Array.isArray(rows)) rows = await rows;
              assert.deepEqual(
                rows,
                await qs.filter(filter).orderBy().slice(0, 1).execute(),
                where,
              );
              assert.equal(await qs.exists(filter), expected, where);
            }
          }
        }),
        { numRuns: 40 },
      );
    });

    it('plans exists(filter) once per shape, as the unique validator calls it', async () => {
      // Related paths in an order the generated shapes never take: no plan of theirs fits.
      const all = () => Book.objects.using(db).selectRelated('owner__user', 'owner');
      const before = lookupPlansMade();
      for (const book of books) {
        assert.equal(await all().exists({ isbn: book.isbn }), true);
        assert.equal(await all().exists({ isbn: `${book.isbn}-x` }), false);
        const others = all().exclude({ pk: book.id });
        assert.equal(await others.exists({ isbn: book.isbn }), false);
      }
      assert.equal(lookupPlansMade() - before, 2, 'one plan per shape, with and without exclude');
    });

    it('keeps a bounded number of shapes, the oldest going first', async () => {
      const qs = Book.objects.using(db);
      const pk = books[0]?.id;
      // `title__in` lists of every length: a shape each, as a client's `?title__in=` makes.
      const shaped = (n: number) =>
        qs.filter({ title__in: Array.from({ length: n }, (_, i) => `t${i}`) });
      const planned = async (n: number) => {
        const before = lookupPlansMade();
        let rows = shaped(n).lookup({ pk });
        if (!Array.isArray(rows)) rows = await rows;
        return lookupPlansMade() - before;
      };
      const shapes = MAX_LOOKUP_PLANS + 1;
      for (let n = 1; n <= shapes; n++) assert.equal(await planned(n), 1, `shape ${n} is new`);
      // The latest shapes are kept; the first one went to make room.
      assert.equal(await planned(shapes), 0);
      assert.equal(await planned(shapes - 1), 0);
      assert.equal(await planned(1), 1);
    });

    it('plans a state with a property of its own anew: the identity is the whole state', async () => {
      const pk = books[1]?.id;
      const lookup = async (state: QueryState) => {
        const before = lookupPlansMade();
        let rows = new QuerySet(Book, state).lookup({ pk });
        if (!Array.isArray(rows)) rows = await rows;
        return { rows, planned: lookupPlansMade() - before };
      };
      const plain: QueryState = { ...INITIAL_STATE, db };
      const first = await lookup(plain);
      assert.equal((await lookup(plain)).planned, 0, 'the same state: its plan');
      // A property the plans have never heard of, as a later feature would add one.
      const withExtra = (extra: unknown) => ({ ...plain, extra }) as QueryState;
      const one = await lookup(withExtra(1));
      assert.equal(one.planned, 1, 'a new property: a new plan');
      assert.deepEqual(one.rows, first.rows);
      assert.equal((await lookup(withExtra(1))).planned, 0);
      assert.equal((await lookup(withExtra(2))).planned, 1, 'another value: another plan');
      assert.equal((await lookup(withExtra('2'))).planned, 1, 'a text is not a number');
      // A value without an identity (a function): never planned, the general way each time.
      const opaque = withExtra(() => 1);
      assert.equal((await lookup(opaque)).planned, 0);
      assert.deepEqual((await lookup(opaque)).rows, first.rows);
    });
  });
}

describe('the identity of a query state', () => {
  it('changes with every property of the state, and with one added later', () => {
    const base = stateIdentity(INITIAL_STATE, '');
    assert.notEqual(base, null);
    const changed: Record<string, unknown> = {
      order: ['title'],
      limit: 10,
      offset: 5,
      related: ['owner'],
      only: ['title'],
      distinct: true,
      prefetch: ['tags'],
      extra: true,
    };
    for (const [name, value] of Object.entries(changed)) {
      const state = { ...INITIAL_STATE, [name]: value } as QueryState;
      assert.notEqual(stateIdentity(state, ''), base, name);
    }
    // Every property of today's state but the two read otherwise is covered above.
    for (const name of Object.keys(INITIAL_STATE))
      if (name !== 'conditions' && name !== 'db') assert.ok(name in changed, name);
    // The conditions count by their bound shape, not by their objects.
    assert.notEqual(stateIdentity(INITIAL_STATE, 'title=?'), base);
    assert.equal(
      stateIdentity({ ...INITIAL_STATE, conditions: [] }, ''),
      base,
      'a new conditions array of the same shape',
    );
  });

  it('tells apart generated states that differ, and only those', () => {
    const text = fc.string({ maxLength: 4 });
    const state = fc.record({
      order: fc.option(fc.array(text, { maxLength: 3 })),
      limit: fc.option(fc.nat(20)),
      offset: fc.nat(20),
      related: fc.array(text, { maxLength: 3 }),
      only: fc.option(fc.array(text, { maxLength: 3 })),
    });
    fc.assert(
      fc.property(state, state, (a, b) => {
        const same = JSON.stringify(a) === JSON.stringify(b);
        const identityA = stateIdentity({ ...INITIAL_STATE, ...a }, '');
        const identityB = stateIdentity({ ...INITIAL_STATE, ...b }, '');
        assert.equal(identityA === identityB, same);
      }),
    );
  });
});

/** A generated condition of the query set itself (its values vary the shape too). */
function condition(): fc.Arbitrary<(qs: QuerySet<typeof Book>) => QuerySet<typeof Book>> {
  return fc.oneof(
    fc
      .integer({ min: 0, max: 600 })
      .map((n) => (qs: QuerySet<typeof Book>) => qs.filter({ pages__gte: n })),
    fc.boolean().map((b) => (qs: QuerySet<typeof Book>) => qs.filter({ in_print: b })),
    fc
      .constantFrom('a', 'b', null)
      .map((summary) => (qs: QuerySet<typeof Book>) => qs.filter({ summary })),
    fc.boolean().map((b) => (qs: QuerySet<typeof Book>) => qs.filter({ owner__isnull: b })),
    fc
      .constantFrom('ann', 'bob')
      .map((u) => (qs: QuerySet<typeof Book>) => qs.filter({ owner__user__username: u })),
    fc.constantFrom('a', 'c').map((t) => (qs: QuerySet<typeof Book>) => qs.exclude({ title: t })),
    fc
      .subarray(['a', 'b', 'c'])
      .map((titles) => (qs: QuerySet<typeof Book>) => qs.filter({ title__in: titles })),
    fc.tuple(fc.constantFrom('a', 'b'), fc.integer({ min: 0, max: 600 })).map(
      ([t, n]) =>
        (qs: QuerySet<typeof Book>) =>
          qs.filterAny([{ title: t }, { pages__lt: n }]),
    ),
    fc.integer({ min: 0, max: 600 }).map(
      (n) => (qs: QuerySet<typeof Book>) =>
        qs.where((eb, ref, [value]) => eb(ref('pages'), '<=', value), {
          key: 'pages-at-most',
          parameters: [n],
        }),
    ),
    fc
      .integer({ min: 0, max: 600 })
      .map((n) => (qs: QuerySet<typeof Book>) => qs.where((eb, ref) => eb(ref('pages'), '!=', n))),
  );
}
