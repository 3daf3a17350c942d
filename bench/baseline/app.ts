/**
 * The hand-written baseline: the bookstore's routes that the benchmark loads, as a Fastify
 * app doing the same SQL and answering the same bytes (the same headers in the same order,
 * the same `Host` check), written as lean as a careful engineer would: statements prepared
 * once (`store.ts`), constant answers and headers made at start-up, nothing allocated per
 * request that the answer does not need, SQLite answered without waiting a microtask turn.
 * It is the practical limit of this stack (Fastify + the same driver), which the toolkit is
 * measured against.
 *
 * Routes: `/books/api/books/` (GET page-number list, POST, OPTIONS), `/books/api/books/:pk/`
 * (GET, PATCH), `/books/api/proxy-books/` (GET with `?ordering=`), `/api/profile/` (GET with
 * `?ordering=`), `/bench/api/books-cursor/` (GET, keyset pages).
 * @module
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  ARTICLE_PAGE_SIZE,
  articleKeys,
  articlePage,
  articleResults,
  articleTags,
  COUNT_ARTICLES,
} from './articles.ts';
import { book, bookFilters, changedColumns, Invalid, insertValues, validateBook } from './books.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { type Site, siteOf } from './hosts.ts';
import { pageLink } from './links.ts';
import { BOOK_LIST_METADATA } from './options.ts';
import { type OrderingSpec, orderBy } from './ordering.ts';
import { ISBN_ORDER, PAGE_SIZE } from './sql.ts';
import { type CursorOp, type Maybe, openStore, type RawRow, type Store } from './store.ts';

/** The headers the toolkit sets on every answer first (its one `onRequest` hook). */
const SECURITY = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
};
const JSON_TYPE = { vary: 'Accept', 'content-type': 'application/json' };
const LIST_ALLOW = { allow: 'GET, POST, HEAD, OPTIONS' };
const LIST_HEADERS = { ...SECURITY, ...LIST_ALLOW, ...JSON_TYPE };
const DETAIL_HEADERS = {
  ...SECURITY,
  allow: 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS',
  ...JSON_TYPE,
};
const REFUSED_HEADERS = { ...SECURITY, 'content-type': 'application/json' };

const NOT_FOUND = Buffer.from('{"detail":"Not found."}');
const INVALID_PAGE = Buffer.from('{"detail":"Invalid page."}');
const INVALID_CURSOR = Buffer.from('{"detail":"Invalid cursor"}');
const INVALID_HOST = Buffer.from('{"detail":"Invalid Host header."}');
const ISBN_TAKEN = Buffer.from(
  JSON.stringify({ publishing_information: { isbn: ['book with this isbn already exists.'] } }),
);
const METADATA = Buffer.from(JSON.stringify(BOOK_LIST_METADATA));
const PK = /^\d{1,15}$/;
const VIEWER = /^\d{1,9}$/;
const NO_VALUES: readonly unknown[] = [];
const ARTICLE_HEADERS = { ...SECURITY, allow: 'GET, HEAD, OPTIONS', ...JSON_TYPE };
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

/**
 * JSON out: the object goes back to Fastify, which stringifies it. Through the reply's own
 * serializer, because Fastify's default one adds `; charset=utf-8` to the content type.
 */
function json(reply: FastifyReply, data: unknown): unknown {
  reply.serializer(JSON.stringify);
  return data;
}

/** 400 for a host not allowed, with the toolkit's headers of a refusal. */
function refuse(reply: FastifyReply): Buffer {
  reply.code(400).headers(REFUSED_HEADERS);
  return INVALID_HOST;
}

/** `next(value, a, b)` now when `value` is there, else once it is: no closure per request. */
function then<T, A, B>(value: Maybe<T>, next: (value: T, a: A, b: B) => unknown, a: A, b: B) {
  return value instanceof Promise ? value.then((v) => next(v, a, b)) : next(value, a, b);
}

/** The last value of a query parameter (Fastify gives an array for a repeated one). */
function param(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[value.length - 1] : value;
}

/** The request's path and query string, and a link to another page of it. */
function linkTo(request: FastifyRequest, site: Site, name: string, value: string | number | null) {
  const url = request.url;
  const q = url.indexOf('?');
  if (q === -1) return value === null ? site.origin + url : `${site.origin}${url}?${name}=${value}`;
  return pageLink(site.origin, url.slice(0, q), url.slice(q + 1), name, value);
}

type Represent = (row: RawRow, site: Site) => unknown;

const bookOf: Represent = (row, site) => book(row, site.books);
const profileOf: Represent = (row) => ({
  id: row.id,
  username: row.user__username,
  full_name: `${row.user__first_name} ${row.user__last_name}`.trim(),
  email: row.user__email,
  biography: row.biography,
  hobbies: row.hobbies,
});

/** A page-number list: COUNT, then the page; `{count, next, previous, results}`. */
function pageNumberList(
  request: FastifyRequest,
  reply: FastifyReply,
  site: Site,
  count: Maybe<number>,
  page: (offset: number) => Maybe<RawRow[]>,
  represent: Represent,
): unknown {
  return then(
    count,
    (total: number) => {
      const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
      const raw = param(request, 'page');
      const number =
        raw === undefined ? 1 : raw === 'last' ? pages : PAGE.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isSafeInteger(number) || number < 1 || number > pages) {
        reply.code(404);
        return INVALID_PAGE;
      }
      return then(
        page((number - 1) * PAGE_SIZE),
        (rows: RawRow[]) => {
          const results = new Array(rows.length);
          for (let i = 0; i < rows.length; i++) results[i] = represent(rows[i] as RawRow, site);
          return json(reply, {
            count: total,
            next: number < pages ? linkTo(request, site, 'page', number + 1) : null,
            previous:
              number > 1 ? linkTo(request, site, 'page', number === 2 ? null : number - 1) : null,
            results,
          });
        },
        undefined,
        undefined,
      );
    },
    undefined,
    undefined,
  );
}

/** One book's answer (GET), or 404. */
function detail(row: RawRow | undefined, reply: FastifyReply, site: Site): unknown {
  if (row === undefined) {
    reply.code(404);
    return NOT_FOUND;
  }
  return json(reply, book(row, site.books));
}

/** A keyset page of books after (or before) a cursor: `{next, previous, results}`. */
function cursorList(request: FastifyRequest, reply: FastifyReply, site: Site, store: Store) {
  const raw = param(request, 'cursor');
  const cursor = raw === undefined ? null : decodeCursor(raw);
  if (raw !== undefined && !cursor) {
    reply.code(404);
    return INVALID_CURSOR;
  }
  const reverse = cursor?.reverse ?? false;
  const op: CursorOp = cursor
    ? reverse
      ? cursor.inclusive
        ? '<='
        : '<'
      : cursor.inclusive
        ? '>='
        : '>'
    : null;
  return then(
    store.cursorPage(op, cursor ? cursor.isbn : null),
    (rows: RawRow[]) => {
      const more = rows.length > PAGE_SIZE;
      if (more) rows.length = PAGE_SIZE;
      if (reverse) rows.reverse();
      const link = (row: RawRow | undefined, back: boolean) => {
        let value: string | null = null;
        if (row) value = encodeCursor(row.isbn as string, back);
        else if (cursor) value = encodeCursor(cursor.isbn, back, !cursor.inclusive);
        return value === null ? null : linkTo(request, site, 'cursor', value);
      };
      const results = new Array(rows.length);
      for (let i = 0; i < rows.length; i++) results[i] = book(rows[i] as RawRow, site.cursorBooks);
      return json(reply, {
        next: reverse || more ? link(rows[rows.length - 1], false) : null,
        previous: (reverse ? more : cursor !== null) ? link(rows[0], true) : null,
        results,
      });
    },
    undefined,
    undefined,
  );
}

/** A POST's answer: 201 with the book and its Location, or 400 when the isbn is taken. */
function created(row: RawRow | null, reply: FastifyReply, site: Site): unknown {
  if (row === null) {
    reply.code(400).headers(LIST_HEADERS);
    return ISBN_TAKEN;
  }
  const data = book(row, site.books);
  reply
    .code(201)
    .headers(SECURITY)
    .header('location', data.url)
    .headers(LIST_ALLOW)
    .headers(JSON_TYPE);
  return json(reply, data);
}

/** A PATCH's answer: the book as stored, 404, or the database's refusal. */
function patched(
  result: RawRow | { error: unknown } | undefined,
  reply: FastifyReply,
  site: Site,
): unknown {
  if (result === undefined) {
    reply.code(404);
    return NOT_FOUND;
  }
  if ('error' in result) return json(reply.code(400), result.error);
  return json(reply, book(result, site.books));
}

/** Builds the baseline on the database of `url` (not listening). */
export async function buildBaseline(url: string): Promise<FastifyInstance> {
  const store = openStore(url);
  // The same Fastify options as the bookstore's buildApp.
  const app = Fastify({ logger: false, requestTimeout: 30_000, bodyLimit: 1024 * 1024 });
  app.addHook('onClose', async () => {
    await store.close();
  });
  app.setNotFoundHandler((request, reply) => {
    if (siteOf(request.headers.host) === null) return refuse(reply);
    reply.code(404).headers(REFUSED_HEADERS);
    return NOT_FOUND;
  });

  app.get('/books/api/books/', (request, reply) => {
    const site = siteOf(request.headers.host);
    if (site === null) return refuse(reply);
    reply.headers(LIST_HEADERS);
    const filters = bookFilters(param(request, 'price__gte'), param(request, 'state'));
    if (filters === null) {
      return pageNumberList(
        request,
        reply,
        site,
        store.countBooks(),
        (offset) => store.bookPage(ISBN_ORDER, offset),
        bookOf,
      );
    }
    if ('error' in filters) return json(reply.code(400), filters.error);
    const { where, parameters } = filters;
    return pageNumberList(
      request,
      reply,
      site,
      store.countBooks(where, parameters),
      (offset) => store.bookPage(ISBN_ORDER, offset, where, parameters),
      bookOf,
    );
  });

  app.get('/books/api/proxy-books/', (request, reply) => {
    const site = siteOf(request.headers.host);
    if (site === null) return refuse(reply);
    reply.headers(LIST_HEADERS);
    const order = orderBy(BOOK_ORDERING, param(request, 'ordering'), 'book');
    return pageNumberList(
      request,
      reply,
      site,
      store.countBooks(),
      (offset) => store.bookPage(order, offset),
      bookOf,
    );
  });

  app.get('/api/profile/', (request, reply) => {
    const site = siteOf(request.headers.host);
    if (site === null) return refuse(reply);
    reply.headers(LIST_HEADERS);
    const order = orderBy(PROFILE_ORDERING, param(request, 'ordering'), 'profile');
    return pageNumberList(
      request,
      reply,
      site,
      store.countProfiles(),
      (offset) => store.profilePage(order, offset),
      profileOf,
    );
  });

  app.get('/bench/api/articles/', (request, reply) => {
    const site = siteOf(request.headers.host);
    if (site === null) return refuse(reply);
    reply.headers(ARTICLE_HEADERS);
    const given = param(request, 'viewer');
    const viewer = given !== undefined && VIEWER.test(given) ? Number(given) : 0;
    return then(
      store.rows(COUNT_ARTICLES, NO_VALUES),
      (counted: RawRow[]) => {
        const total = Number((counted[0] as RawRow).count);
        const pages = Math.max(1, Math.ceil(total / ARTICLE_PAGE_SIZE));
        const raw = param(request, 'page');
        const number =
          raw === undefined
            ? 1
            : raw === 'last'
              ? pages
              : PAGE.test(raw)
                ? Number(raw)
                : Number.NaN;
        if (!Number.isSafeInteger(number) || number < 1 || number > pages) {
          reply.code(404);
          return INVALID_PAGE;
        }
        return then(
          store.rows(articlePage((number - 1) * ARTICLE_PAGE_SIZE), [viewer, viewer]),
          (rows: RawRow[]) => {
            const page = (results: unknown[]) =>
              json(reply, {
                count: total,
                next: number < pages ? linkTo(request, site, 'page', number + 1) : null,
                previous:
                  number > 1
                    ? linkTo(request, site, 'page', number === 2 ? null : number - 1)
                    : null,
                results,
              });
            if (rows.length === 0) return page([]);
            return then(
              store.rows(articleTags(rows.length), articleKeys(rows)),
              (tags: RawRow[]) => page(articleResults(rows, tags)),
              undefined,
              undefined,
            );
          },
          undefined,
          undefined,
        );
      },
      undefined,
      undefined,
    );
  });

  app.get('/bench/api/books-cursor/', (request, reply) => {
    const site = siteOf(request.headers.host);
    if (site === null) return refuse(reply);
    reply.headers(LIST_HEADERS);
    return cursorList(request, reply, site, store);
  });

  app.get('/books/api/books/:pk/', (request, reply) => {
    const site = siteOf(request.headers.host);
    if (site === null) return refuse(reply);
    reply.headers(DETAIL_HEADERS);
    const pk = (request.params as { pk: string }).pk;
    if (!PK.test(pk)) {
      reply.code(404);
      return NOT_FOUND;
    }
    return then(store.bookById(Number(pk)), detail, reply, site);
  });

  app.post('/books/api/books/', (request, reply) => {
    const site = siteOf(request.headers.host);
    if (site === null) return refuse(reply);
    const checked = validateBook(request.body ?? {}, false);
    const values = checked instanceof Invalid ? checked : insertValues(checked);
    if (values instanceof Invalid) {
      reply.code(400).headers(LIST_HEADERS);
      return json(reply, values.errors);
    }
    return then(
      store.createBook((checked as Record<string, unknown>).isbn, values),
      created,
      reply,
      site,
    );
  });

  app.patch('/books/api/books/:pk/', (request, reply) => {
    const site = siteOf(request.headers.host);
    if (site === null) return refuse(reply);
    reply.headers(DETAIL_HEADERS);
    const pk = (request.params as { pk: string }).pk;
    if (!PK.test(pk)) {
      reply.code(404);
      return NOT_FOUND;
    }
    const checked = validateBook(request.body ?? {}, true);
    if (checked instanceof Invalid) return json(reply.code(400), checked.errors);
    return then(
      store.updateBook(Number(pk), (row) => changedColumns(row, checked)),
      patched,
      reply,
      site,
    );
  });

  app.options('/books/api/books/', (request, reply) => {
    if (siteOf(request.headers.host) === null) return refuse(reply);
    reply.headers(LIST_HEADERS);
    return METADATA;
  });

  return app;
}
