/**
 * The query set of a related set whose rows `prefetchRelated` loaded (Django's
 * `article.tags.all()` after `prefetch_related('tags')`): reading it answers those rows
 * without a statement; anything derived from it (`filter`, `orderBy`, `slice`...) is a plain
 * query set again and runs one, as in Django.
 *
 * @example
 * ```ts-fragment
 * const [article] = await Article.objects.prefetchRelated('tags').execute();
 * const tags = Article.related(article, 'tags').all();
 * await tags.execute(); // the prefetched tags: no statement
 * await tags.filter({ name__startswith: 'py' }).execute(); // one statement
 * ```
 * @module
 */
import type { AnyModel, Row } from '../models/model.ts';
import { QuerySet } from './query-set.ts';
import type { Filter } from './query-state.ts';
import type { TypedFilter } from './typed-filter.ts';

/** A query set answering the rows given (see the module); derived ones query. */
export class PrefetchedQuerySet<M extends AnyModel = AnyModel> extends QuerySet<M> {
  readonly #rows: readonly Row<M>[];

  constructor(queryset: QuerySet<M>, rows: readonly Row<M>[]) {
    super(queryset.model, queryset.queryState);
    this.#rows = rows;
  }

  /** The prefetched rows (a new array each time, as a query's). */
  override execute(): Promise<Row<M>[]> {
    return Promise.resolve([...this.#rows]);
  }

  /** How many rows were prefetched. */
  override count(): Promise<number> {
    return Promise.resolve(this.#rows.length);
  }

  /** Whether any row was prefetched; with a filter, a query (as `filter(f).exists()`). */
  override exists<T extends Filter>(filter?: TypedFilter<M, {}, T>): Promise<boolean> {
    if (filter !== undefined) return super.exists(filter);
    return Promise.resolve(this.#rows.length !== 0);
  }
}
