/**
 * The start-up check of filters that need a capability of the database: regular
 * expressions (`regex`: PostgreSQL and MySQL have them, SQLite does not) or accent folding
 * (`accentFolding`: SQLite and PostgreSQL have it, MySQL does not).
 * @module
 */
import type { DialectCapabilities } from '../db/dialect/dialect-adapter.ts';
import type { QuerySet } from '../db/query-set.ts';

/**
 * The vendor of `queryset`'s database when it lacks `capability`, else undefined (also when
 * no database is known yet: the query layer then names the missing capability).
 *
 * @example
 * ```ts
 * const vendor = missingCapability(Book.objects.all(), 'regex');
 * if (vendor) throw new ImproperlyConfigured('REST_ERR_SEARCH_FIELDS', `${vendor} has no regular expressions`);
 * ```
 */
export function missingCapability(
  queryset: QuerySet<any> | undefined,
  capability: keyof DialectCapabilities,
): string | undefined {
  if (!queryset) return undefined;
  let adapter: { vendor: string; capabilities: DialectCapabilities };
  try {
    adapter = queryset.db.adapter;
  } catch {
    return undefined;
  }
  return adapter.capabilities[capability] ? undefined : adapter.vendor;
}
