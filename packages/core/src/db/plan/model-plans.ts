/**
 * What the query layer prepares once per model and keeps on the model itself (one property,
 * through `ownPlan`), so that it lives and dies with the model: its statement key, its select
 * plans, its own columns resolved, what its writes need. What also depends on a database
 * (compiled statements, lookup plans, the statements of writes) is in that database's caches
 * (`db.caches`) instead.
 * @module
 */
import type { AnyModel } from '../../models/model.ts';
import { BoundedCache, ownPlan } from '../../utils/bounded-cache.ts';
import type { ResolvedColumn } from './query-paths.ts';
import type { RowWrites } from './row-writes.ts';
import type { SelectPlan } from './select-plan.ts';

/**
 * Select plans a model keeps (see `selectPlan`). A related path is refused unless it names
 * declared relations, but the paths and their order can follow a client's choice (cursor
 * pagination joins the relations of the ordering a client picks), and a self-referencing
 * relation nests without end: so the oldest goes first past this.
 */
export const MAX_SELECT_PLANS = 256;

/** Where a model keeps its {@link ModelPlans}. */
const MODEL_PLANS = Symbol('modelPlans');
/** Model keys given so far: never reused, so no two models share one. */
let modelCount = 0;

/**
 * The plans of one model (see the module).
 *
 * @example
 * ```ts
 * const plans = modelPlans(Book);
 * plans.key; // 'books_book#1'
 * plans.selectPlans.stats().size; // how many select plans Book keeps
 * ```
 */
export class ModelPlans {
  /** The model these plans belong to. */
  readonly model: AnyModel;
  /**
   * The part of a statement key that names the model: its table and a number of its own. Two
   * models of one table (a migration's historical model and today's, in one process) have
   * different columns, so they must not share compiled SQL.
   */
  readonly key: string;
  /** Select plans by dialect, related paths and `only()` fields. */
  readonly selectPlans: BoundedCache<string, SelectPlan>;
  /**
   * The model's own fields resolved to columns, by name: the same for every query, and a
   * detail request resolves its lookup field once per query. Only declared names are kept.
   */
  readonly localColumns: BoundedCache<string, ResolvedColumn>;
  /** What a write of the model's rows needs to know of its fields (`rowWrites`). */
  rowWrites: RowWrites | undefined = undefined;

  constructor(model: AnyModel) {
    this.model = model;
    this.key = `${model.table}#${++modelCount}`;
    this.selectPlans = new BoundedCache(`select plans of ${model.name}`, MAX_SELECT_PLANS);
    this.localColumns = new BoundedCache(
      `columns of ${model.name}`,
      Math.max(1, 2 * model.fieldList.length + 1),
    );
  }
}

/** The plans `model` keeps, made on first use. */
export function modelPlans(model: AnyModel): ModelPlans {
  // Read as a plain property first (every query asks, several times): a model's own plans
  // name the model, so another object's found through a prototype is never taken.
  const plans = (model as { readonly [MODEL_PLANS]?: ModelPlans })[MODEL_PLANS];
  if (plans !== undefined && plans.model === model) return plans;
  return ownPlan(model, MODEL_PLANS, () => new ModelPlans(model));
}
