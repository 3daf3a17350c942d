/**
 * Filter lookups: `title`, `pages__gte`, `user__username__icontains`, `id__in`, `summary__isnull`.
 * @module
 */
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyModelField } from '../models/model-field.ts';
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

const NEVER = sql<SqlBool>`1 = 0`;
const ALWAYS = sql<SqlBool>`1 = 1`;

/** The values of columns stored as `integer` (Django's range, the same on every database). */
const INT32: readonly [number, number] = [-2_147_483_648, 2_147_483_647];
const INT32_KINDS = new Set(['auto', 'integer', 'positive_integer', 'foreign_key', 'one_to_one']);

/**
 * 1 or -1 when `value` is a number above or below what the column can hold, else 0. No row
 * can match it, and PostgreSQL refuses to compare an `integer` column with it (an error, not
 * "no row"): `/books/1e10/` is a 404, as in Django, not a 500.
 */
function outOfRange(field: AnyModelField, value: unknown): -1 | 0 | 1 {
  if (typeof value !== 'number' || !INT32_KINDS.has(field.kind)) return 0;
  if (value > INT32[1]) return 1;
  if (value < INT32[0]) return -1;
  return 0;
}

/** Splits `a__b__lookup` into the column path and the lookup. */
export function splitLookup(
  joins: JoinSet,
  key: string,
  where: string,
): { column: ResolvedColumn; lookup: Lookup } {
  // Most keys hold no `__`: includes() is a fast builtin, lastIndexOf() a runtime call.
  const cut = key.includes('__') ? key.lastIndexOf('__') : -1;
  if (cut !== -1) {
    const tail = key.slice(cut + 2);
    if (isLookup(tail)) return { column: joins.resolve(key.slice(0, cut), where), lookup: tail };
  }
  return { column: joins.resolve(key, where), lookup: 'exact' };
}

/**
 * One filter entry, bound: the values it passes to the database (in the order its SQL uses
 * them), a `shape` that names its SQL apart from those values, and the SQL itself, built from
 * any values standing in the same places. Two entries of one shape have the same SQL, so a
 * query can be compiled once per shape and run with new values.
 */
export interface LookupBinding {
  readonly shape: string;
  readonly parameters: readonly unknown[];
  expression(eb: ExpressionBuilder<any, any>, parameters: readonly unknown[]): Expression<SqlBool>;
}

/**
 * `column <operator> value`, the binding of nearly every filter entry: a class rather than a
 * literal with a closure, as a request binds one or more (one object instead of three).
 */
class ComparisonBinding implements LookupBinding {
  readonly shape: string;
  readonly parameters: readonly unknown[];
  readonly #ref: string;

  constructor(operator: '=' | '>' | '>=' | '<' | '<=', ref: string, value: unknown) {
    this.shape = operator;
    this.parameters = [value];
    this.#ref = ref;
  }

  expression(eb: ExpressionBuilder<any, any>, parameters: readonly unknown[]): Expression<SqlBool> {
    return eb(eb.ref(this.#ref), this.shape as '=', parameters[0]);
  }
}

/** A value as the column stores it; a related row stands for its key. */
function toDbValue(adapter: DialectAdapter, field: AnyModelField, value: unknown): unknown {
  // As a model instance does in a Django filter (a unique validator of a one-to-one field
  // filters by the row the field produced).
  return adapter.toDb(
    field,
    field.isRelation && value !== null && typeof value === 'object'
      ? (value as Record<string, unknown>)[field.relatedModel.pk.attname]
      : value,
  );
}

const constant = (shape: string, expression: Expression<SqlBool>): LookupBinding => ({
  shape,
  parameters: [],
  expression: () => expression,
});

/** Binds one filter entry (see {@link LookupBinding}). */
export function bindLookup(
  adapter: DialectAdapter,
  column: ResolvedColumn,
  lookup: Lookup,
  value: unknown,
  where: string,
): LookupBinding {
  const field = column.field;
  const ref = column.ref;
  switch (lookup) {
    case 'exact':
      if (value === null || value === undefined) {
        return { shape: 'null', parameters: [], expression: (eb) => eb(eb.ref(ref), 'is', null) };
      }
      if (outOfRange(field, value)) return constant('never', NEVER);
      return new ComparisonBinding('=', ref, toDbValue(adapter, field, value));
    case 'in': {
      if (!Array.isArray(value)) {
        throw new ImproperlyConfigured(
          'REST_ERR_QUERY_LOOKUP',
          `${where}: __in needs an array, got ${typeof value}.`,
        );
      }
      const values = value
        .filter((v) => !outOfRange(field, v))
        .map((v) => toDbValue(adapter, field, v));
      if (values.length === 0) return constant('never', NEVER);
      return {
        shape: `in${values.length}`,
        parameters: values,
        expression: (eb, parameters) => eb(eb.ref(ref), 'in', parameters as unknown[]),
      };
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const side = outOfRange(field, value);
      // Past the column's range every stored value is on one side of it.
      if (side !== 0)
        return side > 0 === lookup.startsWith('l')
          ? constant('always', ALWAYS)
          : constant('never', NEVER);
      return new ComparisonBinding(COMPARISONS[lookup], ref, toDbValue(adapter, field, value));
    }
    case 'isnull':
      return value
        ? { shape: 'isnull', parameters: [], expression: (eb) => eb(eb.ref(ref), 'is', null) }
        : { shape: 'notnull', parameters: [], expression: (eb) => eb(eb.ref(ref), 'is not', null) };
    case 'contains':
    case 'icontains':
    case 'startswith':
    case 'istartswith': {
      const mode = lookup.endsWith('contains') ? 'contains' : 'startswith';
      const insensitive = lookup.startsWith('i');
      return {
        shape: lookup,
        parameters: adapter.textMatchParameters(String(value), mode, insensitive),
        expression: (eb, parameters) =>
          adapter.textMatch(eb.ref(ref), parameters, mode, insensitive),
      };
    }
  }
}
