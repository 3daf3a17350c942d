/**
 * The scenarios: one request shape each, sent to both contenders. Writes vary per request
 * (a unique isbn per POST, a new price per PATCH) through autocannon's `setupRequest`.
 * @module
 */

import type { Database } from '@restframework/core';
import * as tricks from '@restframework/tricks';
import { Book } from '../../examples/bookstore/src/models/index.ts';
import { seed } from '../../examples/bookstore/src/seed.ts';
import { BookProxyViewSet } from '../../examples/bookstore/src/viewsets/book-viewsets.ts';
import { ProfileViewSet } from '../../examples/bookstore/src/viewsets/profile-viewset.ts';
import { encodeCursor } from '../baseline/cursor.ts';
import { seedArticles, VIEWER } from './articles/seed.ts';

/** One request of a scenario. */
export interface ScenarioRequest {
  readonly path: string;
  readonly body?: string;
}

export interface Scenario {
  readonly id: string;
  /** What the table shows. */
  readonly title: string;
  readonly method: 'GET' | 'POST' | 'PATCH' | 'OPTIONS';
  /** The status every answer must have. */
  readonly status: number;
  /**
   * The toolkit/baseline throughput ratio to reach (issue 30, against the lean baseline:
   * reads 1.0, OPTIONS and the profile join 0.95, writes 0.85).
   */
  readonly target: number;
  /** How the harness compares the two contenders' answers before measuring. */
  readonly compare: 'exact' | 'structure';
  /** The n-th request (n counts from 0 in each server run). */
  request(n: number): ScenarioRequest;
  /** Why the scenario cannot be measured yet, or null. */
  pending(): string | null;
}

/** What scenarios need to know of the data. */
export interface ScenarioData {
  /** The isbn a mid-list cursor starts after. */
  readonly cursorIsbn: string;
  /** How many books there are (PATCH spreads over them). */
  readonly books: number;
}

/** Fills a template database with the bookstore's seed and returns what the scenarios need of it. */
export async function seedScenarioData(db: Database): Promise<ScenarioData> {
  await seed(db);
  await seedArticles(db);
  return db.run(async () => {
    const books = await Book.objects.count();
    const [row] = await Book.objects.orderBy('isbn').slice(499, 500).execute();
    return { books, cursorIsbn: String(row?.isbn ?? '') };
  });
}

/**
 * Tricks' ordering filter (friendly names) is being wired into the bookstore's view sets;
 * until a view set uses it, core's filter ignores the mapped names and the scenario would
 * measure another query.
 */
function needsMappedOrdering(viewSet: new () => { filterBackends?: unknown }): () => string | null {
  return () => {
    const TricksFilter = (tricks as Record<string, unknown>).OrderingFilter as
      | (abstract new () => unknown)
      | undefined;
    if (!TricksFilter) return '@restframework/tricks exports no OrderingFilter yet';
    const backends = (new viewSet().filterBackends ?? []) as readonly Function[];
    const uses = backends.some((B) => B === TricksFilter || B.prototype instanceof TricksFilter);
    return uses
      ? null
      : `${viewSet.name} does not use tricks' OrderingFilter yet (mapped names are ignored)`;
  };
}

const ready = () => null;

/** A price that changes on every request: 0.01 .. 99999.99. */
function price(n: number): string {
  const cents = (n % 9_999_999) + 1;
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Every scenario, in the order they run (reads first, then writes). */
export function buildScenarios(data: ScenarioData): Scenario[] {
  const cursorPath = `/bench/api/books-cursor/?cursor=${encodeCursor(data.cursorIsbn, false)}`;
  return [
    {
      id: 'list',
      title: 'GET list of 100 books (page number, count)',
      method: 'GET',
      status: 200,
      target: 1.0,
      compare: 'exact',
      request: () => ({ path: '/books/api/books/' }),
      pending: ready,
    },
    {
      id: 'filtered',
      title: 'GET list of books filtered (?price__gte=500&state=published)',
      method: 'GET',
      status: 200,
      target: 0.85,
      compare: 'exact',
      request: () => ({ path: '/books/api/books/?price__gte=500&state=published' }),
      pending: ready,
    },
    {
      id: 'cursor',
      title: 'GET list of 100 books (cursor, mid-list)',
      method: 'GET',
      status: 200,
      target: 1.0,
      compare: 'exact',
      request: () => ({ path: cursorPath }),
      pending: ready,
    },
    {
      id: 'detail',
      title: 'GET one book',
      method: 'GET',
      status: 200,
      target: 1.0,
      compare: 'exact',
      request: () => ({ path: '/books/api/books/500/' }),
      pending: ready,
    },
    {
      id: 'options',
      title: 'OPTIONS on the list',
      method: 'OPTIONS',
      status: 200,
      target: 0.95,
      compare: 'exact',
      request: () => ({ path: '/books/api/books/' }),
      pending: ready,
    },
    {
      id: 'profile',
      title: 'GET /api/profile/?ordering=full_name (join)',
      method: 'GET',
      status: 200,
      target: 0.95,
      compare: 'exact',
      request: () => ({ path: '/api/profile/?ordering=full_name' }),
      pending: needsMappedOrdering(ProfileViewSet),
    },
    {
      id: 'proxy-books',
      title: 'GET /books/api/proxy-books/?ordering=status&page=5',
      method: 'GET',
      status: 200,
      target: 0.8,
      compare: 'exact',
      request: () => ({ path: '/books/api/proxy-books/?ordering=status&page=5' }),
      pending: needsMappedOrdering(BookProxyViewSet),
    },
    {
      id: 'articles',
      title: 'GET 20 articles: author, tags, favourites count, two EXISTS (issue 39)',
      method: 'GET',
      status: 200,
      // Issue 39: at most 1.4 times the baseline's CPU per request.
      target: 0.71,
      compare: 'exact',
      request: () => ({ path: `/bench/api/articles/?viewer=${VIEWER}` }),
      pending: ready,
    },
    {
      id: 'create',
      title: 'POST a book with nested groups',
      method: 'POST',
      status: 201,
      target: 0.85,
      compare: 'structure',
      request: (n) => ({
        path: '/books/api/books/',
        body: JSON.stringify({
          title: `Benchmark book ${n}`,
          description: 'Written by the benchmark.',
          publishing_information: {
            publication_date: '2024-05-17',
            isbn: `bench-${n}`,
            pages: 320,
          },
          stock_information: { stock_count: 12, price: price(n), state: 'in_progress' },
        }),
      }),
      pending: ready,
    },
    {
      id: 'patch',
      title: 'PATCH one nested leaf (stock_information.price)',
      method: 'PATCH',
      status: 200,
      target: 0.85,
      compare: 'structure',
      request: (n) => ({
        path: `/books/api/books/${(n % data.books) + 1}/`,
        body: JSON.stringify({ stock_information: { price: price(n + 7) } }),
      }),
      pending: ready,
    },
  ];
}

/** The ids of every scenario. */
export const SCENARIO_IDS = [
  'list',
  'cursor',
  'detail',
  'options',
  'profile',
  'proxy-books',
  'articles',
  'create',
  'patch',
] as const;
