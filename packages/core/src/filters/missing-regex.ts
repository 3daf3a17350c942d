/**
 * The start-up check of filters that match regular expressions: the view's database must
 * declare `capabilities.regex` (PostgreSQL does, SQLite does not).
 * @module
 */
import type { QuerySet } from '../db/query-set.ts';

/**
 * The vendor of `queryset`'s database when it has no regular expressions, else undefined
 * (also when no database is known yet: the query layer then names the missing capability).
 *
 * @example
 * ```ts
 * const vendor = missingRegex(Book.objects.all());
 * if (vendor) throw new ImproperlyConfigured('REST_ERR_SEARCH_FIELDS', `${vendor} has no regular expressions`);
 * ```
 */
export function missingRegex(queryset: QuerySet<any> | undefined): string | undefined {
  if (!queryset) return undefined;
  let adapter: { vendor: string; capabilities: { regex: boolean } };
  try {
    adapter = queryset.db.adapter;
  } catch {
    return undefined;
  }
  return adapter.capabilities.regex ? undefined : adapter.vendor;
}
