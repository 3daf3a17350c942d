/**
 * The bench's rows as `bench:instructions` sends them: one fixed request per scenario on the
 * SQLite template (1,000 books), `UNIQUE` in a body (its first occurrence) replaced by a number that changes with
 * every request (a new isbn per POST, a new price per PATCH).
 * @module
 */

/** One request shape. */
export interface InstructionScenario {
  readonly path: string;
  readonly method: string;
  readonly body?: string;
}

/** The rows of `npm run bench` that the instruction counter can send, by scenario id. */
export const INSTRUCTION_SCENARIOS: Readonly<Record<string, InstructionScenario>> = {
  list: { method: 'GET', path: '/books/api/books/' },
  // The same list with per-view caching (bench-only route): every counted request is a hit.
  'cached-list': { method: 'GET', path: '/bench/api/books-cached/' },
  // The cursor of bench's scenario: after the 500th isbn of the seed (9785036416).
  cursor: {
    method: 'GET',
    path: '/bench/api/books-cursor/?cursor=WyJtY2psNGoiLDAsIjk3ODUwMzY0MTYiXQ',
  },
  detail: { method: 'GET', path: '/books/api/books/500/' },
  options: { method: 'OPTIONS', path: '/books/api/books/' },
  profile: { method: 'GET', path: '/api/profile/?ordering=full_name' },
  // Issue 39's row: 20 articles with their relations, as writer 1 (`VIEWER` of its seed).
  articles: { method: 'GET', path: '/bench/api/articles/?viewer=1' },
  create: {
    method: 'POST',
    path: '/books/api/books/',
    body: JSON.stringify({
      title: 'Benchmark book',
      description: 'Written by the benchmark.',
      publishing_information: { publication_date: '2024-05-17', isbn: 'bench-UNIQUE', pages: 320 },
      stock_information: { stock_count: 12, price: '10.50', state: 'in_progress' },
    }),
  },
  patch: {
    method: 'PATCH',
    path: '/books/api/books/7/',
    body: JSON.stringify({ stock_information: { price: 'UNIQUE' } }),
  },
};
