/**
 * The hand-written baseline: the bookstore's routes that the benchmark loads, as a Fastify
 * app doing the same SQL and answering the same bytes, without any toolkit code. It is the
 * practical limit of this stack (Fastify + the same driver), which the toolkit is measured
 * against.
 *
 * Routes: `/books/api/books/` (GET page-number list, POST, OPTIONS), `/books/api/books/:pk/`
 * (GET, PATCH), `/books/api/proxy-books/` (GET with `?ordering=`), `/api/profile/` (GET with
 * `?ordering=`), `/bench/api/books-cursor/` (GET, keyset pages).
 * @module
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  book,
  bookFilters,
  changedColumns,
  insertValues,
  SQL,
  updateSql,
  validateBook,
} from './books.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { pageLink } from './links.ts';
import { BOOK_LIST_METADATA } from './options.ts';
import { type OrderingSpec, orderBy } from './ordering.ts';
import { openStore, type RawRow, type Store } from './store.ts';

const PAGE_SIZE = 100;

/** The headers the toolkit sends with every answer of these routes. */
const COMMON = {
  vary: 'Accept',
  'content-type': 'application/json',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
};
const LIST_HEADERS = { allow: 'GET, POST, HEAD, OPTIONS', ...COMMON };
const DETAIL_HEADERS = { allow: 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS', ...COMMON };

const NOT_FOUND = Buffer.from('{"detail":"Not found."}');
const INVALID_PAGE = Buffer.from('{"detail":"Invalid page."}');
const INVALID_CURSOR = Buffer.from('{"detail":"Invalid cursor"}');
const METADATA = Buffer.from(JSON.stringify(BOOK_LIST_METADATA));
const PK = /^\d{1,15}$/;
const PAGE = /^\s*\+?\d+\s*$/;

const BOOK_ORDERING: OrderingSpec = {
  mapping: new Map([
    ['id', ['"books_book"."id"']],
    ['title', ['"books_book"."title"']],
    ['isbn', ['"books_book"."isbn"']],
    ['price', ['"books_book"."price"']],
    ['status', ['"books_book"."state"', '"books_book"."publication_date"']],
  ]),
  fallback: ['id'],
  pk: '"books_book"."id"',
  unique: new Set(['"books_book"."id"', '"books_book"."isbn"']),
};

const PROFILE_ORDERING: OrderingSpec = {
  mapping: new Map([
    ['id', ['"books_profile"."id"']],
    ['username', ['"r_user"."username"']],
    ['email', ['"r_user"."email"']],
    ['full_name', ['"r_user"."first_name"', '"r_user"."last_name"']],
  ]),
  fallback: ['id'],
  pk: '"books_profile"."id"',
  unique: new Set(['"books_profile"."id"']),
};

const PROFILE_COUNT = 'select count(*) as "count" from "books_profile"';
const profilePage = (order: string, limit: number, offset: number) =>
  'select "books_profile"."id" as "id", "books_profile"."user_id" as "user_id", "books_profile"."biography" as "biography", ' +
  '"books_profile"."hobbies" as "hobbies", "r_user"."id" as "user__id", "r_user"."username" as "user__username", ' +
  '"r_user"."first_name" as "user__first_name", "r_user"."last_name" as "user__last_name", "r_user"."email" as "user__email" ' +
  'from "books_profile" inner join "auth_user" as "r_user" on "r_user"."id" = "books_profile"."user_id" ' +
  `order by ${order} limit ${limit}${offset ? ` offset ${offset}` : ''}`;

function send(reply: FastifyReply, status: number, headers: object, body: Buffer): FastifyReply {
  return reply.code(status).headers(headers).send(body);
}

function json(reply: FastifyReply, status: number, headers: object, data: unknown): FastifyReply {
  return send(reply, status, headers, Buffer.from(JSON.stringify(data)));
}

function split(request: FastifyRequest): { path: string; query: string; origin: string } {
  const url = request.url;
  const q = url.indexOf('?');
  return {
    path: q === -1 ? url : url.slice(0, q),
    query: q === -1 ? '' : url.slice(q + 1),
    origin: `${request.protocol}://${request.host}`,
  };
}

function param(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[value.length - 1] : value;
}

/** A page-number page: COUNT, then the page; `{count, next, previous, results}`. */
async function pageNumberList(
  store: Store,
  request: FastifyRequest,
  reply: FastifyReply,
  countSql: string,
  pageSql: (limit: number, offset: number) => string,
  represent: (row: RawRow, origin: string) => unknown,
  parameters: readonly unknown[] = [],
): Promise<FastifyReply> {
  const count = await store.count(countSql, parameters);
  const pages = Math.max(1, Math.ceil(count / PAGE_SIZE));
  const raw = param(request, 'page') ?? '1';
  const page = raw === 'last' ? pages : PAGE.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(page) || page < 1 || page > pages)
    return send(reply, 404, LIST_HEADERS, INVALID_PAGE);
  const offset = (page - 1) * PAGE_SIZE;
  const rows = await store.all(pageSql(PAGE_SIZE, offset), parameters);
  const { origin, path, query } = split(request);
  const results = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) results[i] = represent(rows[i] as RawRow, origin);
  return json(reply, 200, LIST_HEADERS, {
    count,
    next: page < pages ? pageLink(origin, path, query, 'page', page + 1) : null,
    previous:
      page > 1 ? pageLink(origin, path, query, 'page', page - 1 === 1 ? null : page - 1) : null,
    results,
  });
}

/** Builds the baseline on the database of `url` (not listening). */
export async function buildBaseline(url: string): Promise<FastifyInstance> {
  const store = openStore(url);
  // The same Fastify options as the bookstore's buildApp.
  const app = Fastify({ logger: false, requestTimeout: 30_000, bodyLimit: 1024 * 1024 });
  app.addHook('onClose', async () => {
    await store.close();
  });

  const bookRow = (row: RawRow, origin: string) => book(row, `${origin}/books/api/books/`);
  const isbnPage = (limit: number, offset: number) =>
    SQL.page('"books_book"."isbn" asc', limit, offset);

  app.get('/books/api/books/', (request, reply) => {
    const filters = bookFilters(param(request, 'price__gte'), param(request, 'state'));
    if (filters === null)
      return pageNumberList(store, request, reply, SQL.count, isbnPage, bookRow);
    if ('error' in filters) return json(reply, 400, LIST_HEADERS, filters.error);
    return pageNumberList(
      store,
      request,
      reply,
      SQL.filteredCount(filters.where),
      (limit, offset) => SQL.filteredPage(filters.where, '"books_book"."isbn" asc', limit, offset),
      bookRow,
      filters.parameters,
    );
  });

  app.get('/books/api/proxy-books/', (request, reply) => {
    const order = orderBy(BOOK_ORDERING, param(request, 'ordering'), 'book');
    return pageNumberList(
      store,
      request,
      reply,
      SQL.count,
      (limit, offset) => SQL.page(order, limit, offset),
      bookRow,
    );
  });

  app.get('/api/profile/', (request, reply) => {
    const order = orderBy(PROFILE_ORDERING, param(request, 'ordering'), 'profile');
    return pageNumberList(
      store,
      request,
      reply,
      PROFILE_COUNT,
      (limit, offset) => profilePage(order, limit, offset),
      (row) => ({
        id: row.id,
        username: row.user__username,
        full_name: `${row.user__first_name} ${row.user__last_name}`.trim(),
        email: row.user__email,
        biography: row.biography,
        hobbies: row.hobbies,
      }),
    );
  });

  app.get('/bench/api/books-cursor/', async (request, reply) => {
    const raw = param(request, 'cursor');
    const cursor = raw === undefined ? null : decodeCursor(raw);
    if (raw !== undefined && !cursor) return send(reply, 404, LIST_HEADERS, INVALID_CURSOR);
    const reverse = cursor?.reverse ?? false;
    const op = cursor
      ? reverse
        ? cursor.inclusive
          ? '<='
          : '<'
        : cursor.inclusive
          ? '>='
          : '>'
      : null;
    const rows = await store.all(
      SQL.after(op, reverse, PAGE_SIZE + 1),
      cursor ? [cursor.isbn] : [],
    );
    const more = rows.length > PAGE_SIZE;
    if (more) rows.length = PAGE_SIZE;
    if (reverse) rows.reverse();
    const { origin, path, query } = split(request);
    const hasNext = reverse ? true : more;
    const hasPrevious = reverse ? more : cursor !== null;
    const link = (row: RawRow | undefined, back: boolean) => {
      let value: string | null = null;
      if (row) value = encodeCursor(row.isbn as string, back);
      else if (cursor) value = encodeCursor(cursor.isbn, back, !cursor.inclusive);
      return value === null ? null : pageLink(origin, path, query, 'cursor', value);
    };
    const results = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) results[i] = bookRow(rows[i] as RawRow, origin);
    return json(reply, 200, LIST_HEADERS, {
      next: hasNext ? link(rows[rows.length - 1], false) : null,
      previous: hasPrevious ? link(rows[0], true) : null,
      results,
    });
  });

  app.get('/books/api/books/:pk/', async (request, reply) => {
    const pk = (request.params as { pk: string }).pk;
    if (!PK.test(pk)) return send(reply, 404, DETAIL_HEADERS, NOT_FOUND);
    const rows = await store.all(SQL.byId, [Number(pk)]);
    if (rows.length !== 1) return send(reply, 404, DETAIL_HEADERS, NOT_FOUND);
    return json(reply, 200, DETAIL_HEADERS, bookRow(rows[0] as RawRow, split(request).origin));
  });

  app.post('/books/api/books/', async (request, reply) => {
    const checked = validateBook(request.body ?? {}, false);
    if ('errors' in checked) return json(reply, 400, LIST_HEADERS, checked.errors);
    const values = insertValues(checked.values);
    if (!Array.isArray(values)) return json(reply, 400, LIST_HEADERS, values.errors);
    const row = await store.insertUnique(SQL.isbnTaken, [checked.values.isbn], SQL.insert, values);
    if (!row) {
      return json(reply, 400, LIST_HEADERS, {
        publishing_information: { isbn: ['book with this isbn already exists.'] },
      });
    }
    const data = bookRow(row, split(request).origin);
    return json(reply, 201, { location: data.url, ...LIST_HEADERS }, data);
  });

  app.patch('/books/api/books/:pk/', async (request, reply) => {
    const pk = (request.params as { pk: string }).pk;
    if (!PK.test(pk)) return send(reply, 404, DETAIL_HEADERS, NOT_FOUND);
    const checked = validateBook(request.body ?? {}, true);
    if ('errors' in checked) return json(reply, 400, DETAIL_HEADERS, checked.errors);
    const id = Number(pk);
    const result = await store.update(
      SQL.byId,
      [id],
      (row) => changedColumns(row, checked.values),
      updateSql,
      SQL.byId,
      id,
      [id],
    );
    if (result === undefined) return send(reply, 404, DETAIL_HEADERS, NOT_FOUND);
    if ('error' in result) return json(reply, 400, DETAIL_HEADERS, result.error);
    return json(reply, 200, DETAIL_HEADERS, bookRow(result, split(request).origin));
  });

  app.options('/books/api/books/', (_request, reply) => send(reply, 200, LIST_HEADERS, METADATA));

  return app;
}
