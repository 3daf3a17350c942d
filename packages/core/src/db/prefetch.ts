/**
 * Django's `Prefetch`: a `prefetchRelated` lookup with a query set of its own (filtered,
 * ordered, with related rows) and, with `toAttr`, a plain attribute to put the rows in.
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyModel } from '../models/model.ts';
import type { QuerySet } from './query-set.ts';

/** Options of {@link Prefetch}. */
export interface PrefetchOptions<M extends AnyModel = AnyModel> {
  /** The related rows to load: filtered, ordered, `selectRelated`... but not sliced. */
  readonly queryset?: QuerySet<M>;
  /**
   * Puts the rows in this attribute of each row (a list; the row or null for a relation
   * to one row) instead of the prefetch cache that related sets and serializers read.
   */
  readonly toAttr?: string;
}

/**
 * A `prefetchRelated` lookup with its own query set or attribute.
 *
 * @example
 * ```ts-fragment
 * const articles = await Article.objects
 *   .prefetchRelated(
 *     'tags',
 *     new Prefetch('comments', {
 *       queryset: Comment.objects.filter({ approved: true }).orderBy('-created'),
 *       toAttr: 'approvedComments',
 *     }),
 *   )
 *   .execute();
 * ```
 */
export class Prefetch<M extends AnyModel = AnyModel> {
  /** The relation path (`comments`, `author__followers`). */
  readonly lookup: string;
  /** The query set the related rows come from (filtered, ordered), or all of them. */
  readonly queryset: QuerySet<M> | undefined;
  /** The attribute the list is stored in instead of the relation's name. */
  readonly toAttr: string | undefined;

  constructor(lookup: string, options: PrefetchOptions<M> = {}) {
    if (typeof lookup !== 'string' || lookup === '') {
      throw new ImproperlyConfigured(
        'REST_ERR_PREFETCH',
        `Prefetch needs a relation path ('tags', 'comments__author'), got ${JSON.stringify(lookup)}.`,
      );
    }
    this.lookup = lookup;
    this.queryset = options.queryset;
    this.toAttr = options.toAttr;
  }
}

/** A lookup of `prefetchRelated`: a relation path, or a {@link Prefetch}. */
export type PrefetchLookup = string | Prefetch<any>;
