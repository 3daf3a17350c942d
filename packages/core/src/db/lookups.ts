/**
 * Filter lookups: `title`, `pages__gte`, `user__username__icontains`, `id__in`, `summary__isnull`.
 * @module
 */
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { DialectAdapter } from './dialect-adapter.ts';
import type { JoinSet, ResolvedColumn } from './query-paths.ts';

/** The lookups a filter key may end with. */
export const LOOKUPS = [
  'exact',
  'in',
  'gt',
  'gte',
  'lt',
  'lte',
  'isnull',
  'contains',
  'icontains',
  'startswith',
  'istartswith',
] as const;

/** One of {@link LOOKUPS}. */
export type Lookup = (typeof LOOKUPS)[number];

const COMPARISONS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function isLookup(name: string): name is Lookup {
  return (LOOKUPS as readonly string[]).includes(name);
}

/** Splits `a__b__lookup` into the column path and the lookup. */
export function splitLookup(
  joins: JoinSet,
  key: string,
  where: string,
): { column: ResolvedColumn; lookup: Lookup } {
  const cut = key.lastIndexOf('__');
  if (cut !== -1) {
    const tail = key.slice(cut + 2);
    if (isLookup(tail)) return { column: joins.resolve(key.slice(0, cut), where), lookup: tail };
  }
  return { column: joins.resolve(key, where), lookup: 'exact' };
}

/** The WHERE expression of one filter entry. */
export function lookupExpression(
  eb: ExpressionBuilder<any, any>,
  adapter: DialectAdapter,
  column: ResolvedColumn,
  lookup: Lookup,
  value: unknown,
  where: string,
): Expression<SqlBool> {
  const ref = eb.ref(column.ref);
  const toDb = (v: unknown) => adapter.toDb(column.field, v);
  switch (lookup) {
    case 'exact':
      return value === null || value === undefined
        ? eb(ref, 'is', null)
        : eb(ref, '=', toDb(value));
    case 'in': {
      if (!Array.isArray(value)) {
        throw new ImproperlyConfigured(
          'REST_ERR_QUERY_LOOKUP',
          `${where}: __in needs an array, got ${typeof value}.`,
        );
      }
      if (value.length === 0) return sql<SqlBool>`1 = 0`;
      return eb(ref, 'in', value.map(toDb));
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return eb(ref, COMPARISONS[lookup], toDb(value));
    case 'isnull':
      return eb(ref, value ? 'is' : 'is not', null);
    case 'contains':
    case 'icontains':
    case 'startswith':
    case 'istartswith':
      return adapter.textMatch(
        ref,
        String(value),
        lookup.endsWith('contains') ? 'contains' : 'startswith',
        lookup.startsWith('i'),
      );
  }
}
