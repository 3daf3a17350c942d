/**
 * The bench-only routes of the toolkit contender: the book list with core's
 * `CursorPagination`, at `/bench/api/books-cursor/`, the bookstore's list with per-view
 * caching (`cachePage`), at `/bench/api/books-cached/`, and issue 39's `articles` row, added
 * next to the bookstore's routers
 * (the bookstore itself is unchanged).
 * @module
 */
import { CursorPagination, cachePage, DefaultRouter } from '@restframework/core';
import type { FastifyInstance } from 'fastify';
import { BookViewSet } from '../../../examples/bookstore/src/viewsets/book-viewsets.ts';
import { ArticleViewSet } from '../articles/views.ts';

/** Books in isbn order (the model's default), one keyset page of 100 per query. */
export class BookCursorViewSet extends BookViewSet {
  static override description = 'Book ViewSet with cursor pagination (benchmark only).';
  override paginationClass = CursorPagination;
}

/**
 * The bookstore's book list answered from the app's cache (the default `MemoryCache`) for 60 s:
 * the first request runs the view, the others send the stored bytes.
 */
export class BookCachedViewSet extends BookViewSet {
  static override description = 'Book ViewSet with per-view caching (benchmark only).';
  static override cachePolicy = cachePage(60);
}

/** The prefix of the bench-only router. */
export const BENCH_PREFIX = '/bench/api';

/** Registers the bench-only router on an app built by the bookstore's `buildApp`. */
export async function registerBenchRoutes(app: FastifyInstance): Promise<void> {
  const router = new DefaultRouter()
    .register('books-cursor', BookCursorViewSet, { basename: 'book-cursor' })
    .register('books-cached', BookCachedViewSet, { basename: 'book-cached' })
    // Issue 39's row, on tables of its own (`bench/src/articles/`).
    .register('articles', ArticleViewSet, { basename: 'article' });
  await app.register(router.plugin, { prefix: BENCH_PREFIX });
}
