/**
 * Every list parameter (page, page_size, cursor, ordering, format, and keys nobody reads) with
 * garbage, SQL fragments, huge values and repeated keys: a 4xx or ignored, never a 5xx, and
 * never SQL from the client: no piece of what the client sent appears in the SQL text the
 * database receives (only among the bound parameters), checked with `db.onQuery`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { QueryEvent } from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import fc from 'fast-check';
import { ALL_MODELS } from '../../src/models/index.ts';
import { hostileString } from './arbitraries.ts';
import { type Bookstore, send, startBookstore } from './support.ts';

const FUZZING = process.env.FUZZ_RUNS !== undefined;
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? (FUZZING ? Date.now() % 2 ** 31 : 20_260_102));

const LISTS = [
  '/books/api/books/',
  '/books/api/proxy-books/',
  '/books/api/books-nullable/',
  '/books/api/authors/',
  '/api/profile/',
  '/api/upload/',
];
const PARAMS = [
  'page',
  'page_size',
  'limit',
  'offset',
  'cursor',
  'ordering',
  'format',
  'search',
  'id',
];
const ORDERING_NAMES = ['id', 'title', 'isbn', 'price', 'status', 'username', 'email', 'full_name'];

/** Words SQL may legitimately contain: tables, columns, field and ordering names. */
const IDENTIFIERS = new Set<string>([
  ...ALL_MODELS.flatMap((model) => [
    model.table,
    ...model.fieldList.flatMap((field) => [field.name, field.column, field.attname]),
  ]),
  ...ORDERING_NAMES,
  'pk',
]);

const SQL_FRAGMENTS = [
  "'; DROP TABLE books_book; --",
  'id; DELETE FROM books_book',
  'title) UNION SELECT password FROM auth_user --',
  '1 OR 1=1',
  '(SELECT 1)',
  'isbn COLLATE "C"',
  'title desc nulls first',
  'random()',
  'id,(select sqlite_version())',
  "-id',pg_sleep(5)--",
  'user__password',
  'user__username__icontains',
  '__proto__',
  '1e999',
  '-1',
  '0',
  '99999999999999999999999',
  'last',
  'NaN',
  'cD0yMDI1',
  '%00',
];

/** A value for a query parameter: garbage, SQL, a valid name, or something huge. */
const value = fc.oneof(
  hostileString.map((s) => s.slice(0, 3000)),
  fc.constantFrom(...SQL_FRAGMENTS),
  fc.constantFrom(...ORDERING_NAMES).chain((n) => fc.constantFrom(n, `-${n}`, ` ${n} `, `--${n}`)),
  fc
    .array(fc.constantFrom(...ORDERING_NAMES, ...SQL_FRAGMENTS), { minLength: 2, maxLength: 4 })
    .map((a) => a.join(',')),
  fc.constantFrom(5_000, 20_000).map((n) => 'a'.repeat(n)),
);

/** Pieces of what the client sent that must never be in SQL text. */
function clientPieces(values: readonly string[]): string[] {
  return values
    .flatMap((v) => v.split(/[,\s]+/))
    .map((p) => p.replace(/^-+/, ''))
    .filter(
      (p) =>
        p.length >= 3 &&
        !IDENTIFIERS.has(p) &&
        !/^(?:asc|desc|null|nulls|first|last|and|or|not|from|select|where|order|limit|offset|count|as|by|on|left|join|inner|outer|collate|is|in|the)$/i.test(
          p,
        ) &&
        !/^\d+$/.test(p),
    );
}

for (const dialect of testDialects()) {
  describe(`query strings on ${dialect.name} (seed ${SEED})`, { skip: dialect.skip }, () => {
    let store: Bookstore;
    const queries: QueryEvent[] = [];

    before(async () => {
      store = await startBookstore(dialect);
      store.db.onQuery((event) => queries.push(event));
    });
    after(() => store?.close());

    it('never answers 5xx and never puts client text into SQL', async (t) => {
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...LISTS),
          fc.array(fc.tuple(fc.constantFrom(...PARAMS), value), { minLength: 1, maxLength: 4 }),
          async (path, pairs) => {
            const query = new URLSearchParams(pairs).toString();
            queries.length = 0;
            const response = await send(store.app, { method: 'GET', url: `${path}?${query}` });
            statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
            const where = `GET ${path}?${query.slice(0, 300)} → ${response.statusCode} ${response.body.slice(0, 200)}`;
            assert.ok(response.statusCode < 500, where);
            if (response.statusCode === 200) {
              assert.ok(JSON.parse(response.body), where);
              assert.ok(queries.length > 0, `${where}: no query was seen`);
            }
            const sqlText = queries.map((q) => q.sql).join('\n');
            for (const piece of clientPieces(pairs.map(([, v]) => v))) {
              assert.ok(
                !sqlText.includes(piece),
                `${where}: "${piece}" is in the SQL text:\n${sqlText}`,
              );
            }
          },
        ),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      t.diagnostic(
        `answers: ${[...statuses]
          .sort()
          .map(([s, n]) => `${n}× ${s}`)
          .join(', ')}`,
      );
    });

    it('keeps valid orderings working, and the last of repeated keys', async () => {
      const page = await send(store.app, {
        method: 'GET',
        url: '/api/profile/?ordering=bogus&ordering=-id',
      });
      assert.equal(page.statusCode, 200);
      const ids = (JSON.parse(page.body) as { results: { id: number }[] }).results.map((r) => r.id);
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => b - a),
      );
      const bad = await send(store.app, { method: 'GET', url: '/books/api/books/?page=1&page=x' });
      assert.equal(bad.statusCode, 404);
      assert.equal(bad.body, '{"detail":"Invalid page."}');
    });

    it('answers ids no column can hold with a 404 on detail routes (PostgreSQL refuses to compare them)', async () => {
      for (const id of [
        '2147483648',
        '9999999999',
        '999999999999999',
        '-1',
        '0',
        '1e3',
        '1.5',
        '٣',
      ]) {
        for (const path of [
          '/books/api/books/',
          '/books/api/authors/',
          '/api/profile/',
          '/api/upload/',
        ]) {
          for (const method of ['GET', 'DELETE', 'PATCH'] as const) {
            const response = await send(store.app, {
              method,
              url: `${path}${encodeURIComponent(id)}/`,
              ...(method === 'PATCH'
                ? { payload: '{}', headers: { 'content-type': 'application/json' } }
                : {}),
            });
            assert.equal(response.statusCode, 404, `${method} ${path}${id}/: ${response.body}`);
          }
        }
      }
      const profile = await send(store.app, {
        method: 'PATCH',
        url: '/api/profile/1/',
        payload: '{"user": 4294967296}',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(profile.statusCode, 400, profile.body);
      assert.equal(
        profile.body,
        '{"user":["Invalid pk \\"4294967296\\" - object does not exist."]}',
      );
    });

    it('answers a query string too large for the HTTP parser with a 4xx', async () => {
      const response = await send(store.app, {
        method: 'GET',
        url: `/books/api/proxy-books/?ordering=${'-id,'.repeat(50_000)}`,
      });
      assert.ok(response.statusCode < 500, String(response.statusCode));
    });
  });
}
