/**
 * Order terms: a model path (`user__email`), `-` first for descending order (`-user__email`),
 * as `QuerySet.orderBy()` takes them and as views declare them in `ordering`.
 *
 * @example
 * ```ts
 * import { reverseTerm } from '@restframework/core/internal';
 *
 * reverseTerm('-publication_date'); // 'publication_date'
 * reverseTerm('id'); // '-id'
 * ```
 * @module
 */

/** `-path` for `path` and `path` for `-path`: the same key, sorted the other way. */
export function reverseTerm(term: string): string {
  return term.startsWith('-') ? term.slice(1) : `-${term}`;
}

/** The path of a term without its direction: `user__email` for `-user__email`. */
export function termPath(term: string): string {
  return term.startsWith('-') ? term.slice(1) : term;
}
