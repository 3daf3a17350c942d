/**
 * One SQL query per page for every list of the bookstore (plus one COUNT for page-number
 * pagination), whatever the ordering, the page or the nesting: counted with `db.onQuery`.
 * A list that loaded a relation or a group per row would show here as 100 more queries.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database, QueryEvent } from '@restframework/core';
import { testDialects } from '@restframework/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../examples/bookstore/src/app.ts';
import { seed } from '../../examples/bookstore/src/seed.ts';
import { seedArticles } from '../src/articles/seed.ts';
import { BENCH_MODELS } from '../src/bench-models.ts';
import { registerBenchRoutes } from '../src/servers/bench-router.ts';

/** Page-number lists: the COUNT and the page. */
const PAGE_NUMBER_LISTS = [
  '/books/api/books/',
  '/books/api/books/?page=3',
  '/books/api/books/?page=last',
  '/books/api/proxy-books/?ordering=status&page=5',
  '/books/api/proxy-books/?ordering=-price,title',
  '/books/api/proxy-books/?ordering=bogus',
  '/books/api/books-nullable/',
  '/books/api/authors/',
  '/api/profile/',
  '/api/profile/?ordering=full_name',
  '/api/profile/?ordering=-email',
  '/api/profile/?ordering=username,-full_name&page=2',
  '/books/api/books/?price__gte=500&state=published',
  '/books/api/books/?search=river glass&publication_date__year=2020',
  '/books/api/proxy-books/?stock_information__price__gte=100&ordering=-price',
  '/books/api/authors/?search=a&birth_date__isnull=false',
  '/api/profile/?search=a&ordering=email',
];

for (const dialect of testDialects()) {
  describe(`queries per list request on ${dialect.name}`, { skip: dialect.skip }, () => {
    let db: Database;
    let app: FastifyInstance;
    const queries: QueryEvent[] = [];

    before(async () => {
      db = await dialect.create();
      await db.migrate(BENCH_MODELS);
      await seed(db);
      await seedArticles(db);
      app = await buildApp({ database: db });
      await registerBenchRoutes(app);
      db.onQuery((event) => queries.push(event));
    });

    after(async () => {
      await app?.close();
      if (db) await dialect.drop(db);
    });

    /** The statements one GET runs, and its body. */
    async function get(url: string): Promise<{ sql: string[]; body: Record<string, unknown> }> {
      queries.length = 0;
      const response = await app.inject({ url, headers: { host: '127.0.0.1' } });
      assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
      return { sql: queries.map((q) => q.sql), body: response.json() };
    }

    for (const url of PAGE_NUMBER_LISTS) {
      it(`${url}: one COUNT and one page query`, async () => {
        const { sql, body } = await get(url);
        assert.ok((body.results as unknown[]).length > 0, 'the page has rows');
        assert.equal(sql.length, 2, sql.join('\n'));
        assert.match(sql[0] as string, /count\(\*\)/i);
        assert.match(sql[1] as string, /^select .* limit/i);
      });
    }

    it('the profile page loads the users with the same query (a join)', async () => {
      const { sql } = await get('/api/profile/?ordering=email');
      assert.match(sql[1] as string, /(left|inner) join ["`]auth_user["`]/);
    });

    // Issue 39: the page, the author (joined), the count and both EXISTS (correlated
    // subqueries) and the tags (one IN query) in three statements, whatever the page size.
    for (const query of [
      '',
      '&page=2',
      '&page=last',
      '&page_size=1',
      '&page_size=100',
      '&page=3&page_size=7',
    ]) {
      it(`/bench/api/articles/?viewer=1${query}: at most 3 statements`, async () => {
        const { sql, body } = await get(`/bench/api/articles/?viewer=1${query}`);
        const results = body.results as { tags: unknown[]; author: { username: unknown } }[];
        assert.ok(results.length > 0, 'the page has rows');
        assert.ok(
          results.every((r) => r.tags.length === 3 && typeof r.author.username === 'string'),
        );
        assert.ok(sql.length <= 3, sql.join('\n'));
        assert.match(sql[0] as string, /count\(\*\)/i);
        assert.match(sql[1] as string, /exists/i);
      });
    }

    it('the cursor list: one query per page, first and following pages', async () => {
      let url: string | null = '/bench/api/books-cursor/';
      for (let page = 0; page < 3 && url; page++) {
        const result: { sql: string[]; body: Record<string, unknown> } = await get(url);
        assert.equal(result.sql.length, 1, result.sql.join('\n'));
        assert.equal((result.body.results as unknown[]).length, 100);
        const next = result.body.next as string | null;
        url = next ? new URL(next).pathname + new URL(next).search : null;
      }
      assert.ok(url, 'there is a fourth page');
    });
  });
}
