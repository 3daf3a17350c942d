/**
 * What a query set holds: its conditions, ordering, paging, related rows and database. The
 * state is immutable: every method of a query set derives a new one.
 * @module
 */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database } from './database.ts';

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
  readonly key: string;
  readonly parameters: readonly unknown[];
}

/** One condition of a query: a filter (or its negation), alternatives, or a custom one. */
export type Condition =
  | { readonly kind: 'filter'; readonly negate: boolean; readonly filter: Filter }
  | { readonly kind: 'any'; readonly filters: readonly Filter[] }
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
  db: null,
};
