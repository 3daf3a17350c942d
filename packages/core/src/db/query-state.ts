/**
 * What a query set holds: its conditions, ordering, paging, related rows and database. The
 * state is immutable: every method of a query set derives a new one.
 * @module
 */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database } from './database.ts';
import type { Annotations } from './expressions/annotations.ts';
import type { QueryExpression } from './expressions/query-expression.ts';
import type { PrefetchLookup } from './prefetch.ts';

/** Filter conditions: `{ field: value, relation__field__lookup: value }`, combined with AND. */
export type Filter = Readonly<Record<string, unknown>>;

/** Resolves paths while a custom condition is built (see `QuerySet.where`). */
export type ColumnRef = (path: string) => Expression<any>;

/**
 * Builds a custom condition (see `QuerySet.where`). `values` stand for the parameters
 * given with the condition's shape, in their order; use them, not the parameters themselves.
 */
export type ConditionBuilder = (
  eb: ExpressionBuilder<any, any>,
  ref: ColumnRef,
  values: readonly unknown[],
) => Expression<SqlBool>;

/**
 * The shape of a custom condition, which lets its SQL be compiled once: `key` must tell apart
 * every SQL the builder can make (it may use nothing else to decide what it builds), and
 * `parameters` are the values, which the builder reads from its `values` argument.
 */
export interface ConditionShape {
  /** The shape of the condition, the same for any values. */
  readonly key: string;
  /** Its values, in order. */
  readonly parameters: readonly unknown[];
}

/** One condition of a query: a filter (or its negation), alternatives, or a custom one. */
export type Condition =
  | { readonly kind: 'filter'; readonly negate: boolean; readonly filter: Filter }
  | { readonly kind: 'any'; readonly filters: readonly Filter[] }
  | { readonly kind: 'expression'; readonly expression: QueryExpression<boolean> }
  | CustomCondition;

/** A condition of `QuerySet.where`. */
export interface CustomCondition {
  readonly kind: 'custom';
  readonly build: ConditionBuilder;
  readonly shape: ConditionShape | undefined;
}

/** The state of a query set. */
export interface QueryState {
  readonly conditions: readonly Condition[];
  /** null: the model's default ordering. */
  readonly order: readonly string[] | null;
  readonly limit: number | null;
  readonly offset: number;
  readonly related: readonly string[];
  /**
   * The fields to load (`QuerySet.only`): names of the model's fields and `relation__field`
   * paths into related rows; null loads every field.
   */
  readonly only: readonly string[] | null;
  /**
   * The annotations (`QuerySet.annotate`), null for none. Expressions have no identity of
   * their own here (see {@link stateIdentity}): an annotated query set is never kept as a
   * lookup plan, whose parameters would be another request's; its statement is still
   * compiled once per shape.
   */
  readonly annotations: Annotations | null;
  /** True when the rows read are locked until the transaction ends (`selectForUpdate()`). */
  readonly forUpdate: boolean;
  /** `SELECT DISTINCT` (`QuerySet.distinct`). */
  readonly distinct: boolean;
  /** The relations `prefetchRelated` loads once the rows are read. */
  readonly prefetch: readonly PrefetchLookup[];
  readonly db: Database | null;
}

/** The state of a model's `objects`: every row, in the model's ordering. */
export const INITIAL_STATE: QueryState = {
  conditions: [],
  order: null,
  limit: null,
  offset: 0,
  related: [],
  only: null,
  annotations: null,
  forUpdate: false,
  distinct: false,
  prefetch: [],
  db: null,
};

/**
 * The identity of a state as a whole, for the plans kept across query sets (`lookup-plan.ts`):
 * two states with the same identity make the same SQL. Every property counts, by name and
 * value, so a property added to {@link QueryState} later is part of it without anyone listing
 * it; only two are read otherwise: `conditions`, by `conditionsShape` (their bound shape: the
 * values change per request, the SQL does not), and `db`, since the plans belong to the
 * database. A property whose value has no identity here (a function, an object other than an
 * array) makes the whole state's null: such a state is never planned, it runs the general way.
 *
 * @example
 * ```ts
 * stateIdentity(INITIAL_STATE, ''); // '|order=~|limit=~|offset=0|related=[]|only=~|annotations=~|forUpdate=false|distinct=false|prefetch=[]'
 * stateIdentity({ ...INITIAL_STATE, related: ['owner'] }, ''); // '…|related=[5:owner]|only=~|annotations=~|forUpdate=false|distinct=false|prefetch=[]'
 * ```
 */
export function stateIdentity(state: QueryState, conditionsShape: string): string | null {
  let identity = conditionsShape;
  for (const name in state) {
    if (name === 'conditions' || name === 'db') continue;
    const part = valueIdentity((state as unknown as Record<string, unknown>)[name]);
    if (part === null) return null;
    identity += `|${name}=${part}`;
  }
  return identity;
}

/** A value's part of {@link stateIdentity}; null for a value it cannot tell apart. */
export function valueIdentity(value: unknown): string | null {
  if (value === null) return '~';
  switch (typeof value) {
    case 'number':
    case 'boolean':
    case 'undefined':
    case 'bigint':
      return String(value);
    case 'string':
      // Its length first, so that no text can pass for another one and a separator.
      return `${value.length}:${value}`;
    case 'object': {
      if (!Array.isArray(value)) return null;
      let identity = '[';
      for (let i = 0; i < value.length; i++) {
        const part = valueIdentity(value[i]);
        if (part === null) return null;
        identity += i === 0 ? part : `,${part}`;
      }
      return `${identity}]`;
    }
    default:
      return null;
  }
}
