/**
 * The SELECT of a query set, prepared for one run: FROM, JOIN, WHERE, ORDER BY and LIMIT
 * resolved and bound, with the key of their shape. Its SQL is compiled (through the statement
 * cache) only the first time a shape is seen; every later run of that shape binds values.
 * @module
 */
import { type Compilable, type SelectQueryBuilder, sql } from 'kysely';
import { ImproperlyConfigured } from '../../errors/improperly-configured.ts';
import type { AnyModel } from '../../models/model.ts';
import type { Database } from '../database.ts';
import {
  type AnnotationSelection,
  annotationSelections,
  bindAnnotations,
  type ExpressionOrderTerm,
  expressionOrder,
  isExpressionTerm,
  LazyAnnotations,
  resolveAnnotatedOrdering,
  selectAnnotation,
} from '../expressions/annotations.ts';
import type { QueryState } from '../query-state.ts';
import { type BoundWhere, bindWhere } from './bound-where.ts';
import { applyJoins, JoinSet, type OrderTerm, resolveOrdering } from './query-paths.ts';
import {
  type CompiledStatement,
  cachedStatement,
  compileStatement,
  modelKey,
  type Slot,
} from './statement-cache.ts';

/** What a query needs besides its state: ordering, paging, related rows, extra parameters. */
export interface PrepareOptions {
  readonly ordered: boolean;
  readonly paged?: boolean;
  readonly related?: boolean;
  /** Parameters the finishing step adds (`LIMIT 1` of exists()), after the query's own. */
  readonly extra?: readonly unknown[];
}

/** What a SELECT of rows needs: the ordering, the paging and the related rows. */
export const SELECT_OPTIONS: PrepareOptions = { ordered: true, paged: true, related: true };

/** Completes a prepared query: its select list, `COUNT(*)`, `LIMIT 1`… */
export type Finish = (query: SelectQueryBuilder<any, any, any>, slot: Slot) => Compilable<any>;

const NO_ORDER: readonly OrderTerm[] = Object.freeze([]);
const NO_SELECTIONS: readonly AnnotationSelection[] = Object.freeze([]);

/** The names a DISTINCT query selects its ORDER BY values under (`__order_0`...). */
export const ORDER_COLUMN = '__order_';

/** LIMIT and OFFSET of a prepared query: their values, or the slots of their parameters. */
interface Paging {
  readonly limitValue: number | null;
  readonly offsetValue: number | null;
  readonly limitSlot: number;
  readonly offsetSlot: number;
  /** True when the dialect writes them into the SQL (see `DialectAdapter.inlineLimits`). */
  readonly inline: boolean;
}

/**
 * A query resolved and bound (see {@link prepareSelect}): its parameters, the key of its
 * shape, and what builds its Kysely query, which only a shape compiled for the first time needs.
 */
export class PreparedSelect {
  /** The key of the SQL's shape; null when a custom `where()` makes it unknowable. */
  readonly key: string | null;
  readonly parameters: unknown[];
  /** Where the parameters of the finishing step start. */
  readonly extraStart: number;
  /** The bound conditions (their parameters come first in `parameters`). */
  readonly where: BoundWhere;
  readonly #db: Database;
  readonly #model: AnyModel;
  readonly #joins: JoinSet;
  readonly #order: readonly (OrderTerm | ExpressionOrderTerm)[];
  readonly #paging: Paging;
  readonly #annotations: readonly AnnotationSelection[];
  readonly #lockRows: boolean;
  readonly #distinct: boolean;

  constructor(
    db: Database,
    model: AnyModel,
    joins: JoinSet,
    where: BoundWhere,
    order: readonly (OrderTerm | ExpressionOrderTerm)[],
    paging: Paging,
    key: string | null,
    parameters: unknown[],
    extraStart: number,
    annotations: readonly AnnotationSelection[] = NO_SELECTIONS,
    lockRows = false,
    distinct = false,
  ) {
    this.#annotations = annotations;
    this.#lockRows = lockRows;
    this.#distinct = distinct;
    this.#db = db;
    this.#model = model;
    this.#joins = joins;
    this.where = where;
    this.#order = order;
    this.#paging = paging;
    this.key = key;
    this.parameters = parameters;
    this.extraStart = extraStart;
  }

  /** The query, with whatever `slot(i)` gives in the place of parameter `i`. */
  build(slot: Slot): SelectQueryBuilder<any, any, any> {
    const db = this.#db;
    // The conditions first: a custom one's `ref()` may add the joins it crosses.
    const expression = this.where.build(slot);
    let query: SelectQueryBuilder<any, any, any> = db.executor.selectFrom(this.#model.table);
    query = applyJoins(query, this.#joins);
    if (expression) query = query.where(expression);
    for (let i = 0; i < this.#annotations.length; i++)
      query = query.select(selectAnnotation(this.#annotations[i] as AnnotationSelection, slot));
    if (this.#distinct) {
      query = query.distinct();
      // SQL wants a DISTINCT's ORDER BY values in its select list (PostgreSQL and MySQL
      // refuse it otherwise): selected under names no field has, dropped when read.
      for (let i = 0; i < this.#order.length; i++) {
        const term = this.#order[i] as OrderTerm | ExpressionOrderTerm;
        query = isExpressionTerm(term)
          ? query.select(sql`${expressionOrder(term, slot).value}`.as(`${ORDER_COLUMN}${i}`))
          : query.select(`${term.column.ref} as ${ORDER_COLUMN}${i}`);
      }
    }
    for (const term of this.#order) {
      if (isExpressionTerm(term)) {
        const { placement, value } = expressionOrder(term, slot);
        if (placement) query = query.orderBy(placement);
        query = query.orderBy(value, db.adapter.orderDirection(term.descending, !term.nulls));
        continue;
      }
      query = query.orderBy(
        term.column.ref,
        db.adapter.orderDirection(term.descending, term.column.nullable),
      );
    }
    if (this.#lockRows) query = db.adapter.lockRows(query);
    const { limitValue, offsetValue, limitSlot, offsetSlot, inline } = this.#paging;
    if (limitValue !== null)
      query = query.limit(inline ? sql.lit(integer(limitValue)) : (slot(limitSlot) as number));
    if (offsetValue !== null)
      query = query.offset(inline ? sql.lit(integer(offsetValue)) : (slot(offsetSlot) as number));
    return query;
  }
}

/**
 * FROM, JOIN, WHERE, ORDER BY and LIMIT of `state`, bound: the parameters, the key of their
 * shape — what it selects (`kind`), its joins, the shape of its conditions (see
 * `LookupBinding`), its ordering and whether it is paged — and a builder that puts whatever
 * `slot(i)` gives in the place of parameter `i`. Values only ever travel as parameters.
 * Conditions and ordering are resolved first, so that the joins they need are known when
 * FROM is built.
 */
export function prepareSelect(
  model: AnyModel,
  state: QueryState,
  db: Database,
  kind: string,
  options: PrepareOptions,
): PreparedSelect {
  const joins = new JoinSet(model);
  const related = options.related ? state.related : NO_RELATED;
  for (let i = 0; i < related.length; i++)
    joins.join(related[i] as string, `${model.name}.selectRelated()`);
  // A count or an existence check selects no annotation: it binds those its filters name.
  const annotated = bindAnnotations(model, state.annotations, db, joins, !options.related);
  const where = bindWhere(model, state.conditions, db, joins, annotated);
  if (annotated instanceof LazyAnnotations) annotated.bindJoining();
  // Loops and concatenation below rather than spreads and joins: this runs for every query.
  // The parameters of the conditions are this query's own: the paging ones go after them.
  const parameters = where.parameters;
  let annotationKey = '';
  let selections = NO_SELECTIONS;
  let order: readonly (OrderTerm | ExpressionOrderTerm)[];
  const terms = state.order ?? model.ordering;
  // Only a SELECT of rows locks them (a count or an existence check reads no row to change).
  const lockRows = state.forUpdate && options.related === true;
  if (annotated === undefined && !placesNulls(terms)) {
    order = options.ordered ? resolveOrdering(terms, joins) : NO_ORDER;
  } else {
    // Annotations are selected by a SELECT of rows only (not by a count's or a write's keys).
    if (annotated !== undefined && options.related)
      selections = annotationSelections(annotated, parameters);
    order = options.ordered
      ? resolveAnnotatedOrdering(
          terms,
          joins,
          { db, model, joins, where: `${model.name} ordering`, annotations: annotated },
          parameters,
        )
      : NO_ORDER;
    // After the ordering: lazily bound annotations (a count's) may be bound by it.
    if (annotated !== undefined) {
      for (const [name, bound] of annotated) annotationKey += `${name}=${bound.shape};`;
      if (options.related) annotationKey += 'selected';
    }
  }
  const { limit, offset } = state;
  const paged = options.paged === true;
  // SQLite and MySQL need a LIMIT before an OFFSET (see `DialectAdapter.offsetOnlyLimit`).
  const offsetOnlyLimit = db.adapter.offsetOnlyLimit;
  const limitValue =
    paged && (limit !== null || (offset !== 0 && offsetOnlyLimit !== null))
      ? (limit ?? offsetOnlyLimit)
      : null;
  const offsetValue = paged && offset !== 0 ? offset : null;
  const inline = db.adapter.inlineLimits;
  const limitSlot = limitValue !== null && !inline ? parameters.push(limitValue) - 1 : -1;
  const offsetSlot = offsetValue !== null && !inline ? parameters.push(offsetValue) - 1 : -1;
  const extraStart = parameters.length;
  const extra = options.extra;
  if (extra) for (let i = 0; i < extra.length; i++) parameters.push(extra[i]);
  let key: string | null = null;
  if (where.cacheable) {
    let orderKey = '';
    for (let i = 0; i < order.length; i++) {
      const term = order[i] as OrderTerm | ExpressionOrderTerm;
      orderKey += `${i ? ',' : ''}${term.descending ? '-' : ''}${term.path}`;
    }
    // The fields of only() change the select list of a SELECT of rows (not a count's).
    const only = options.related && state.only !== null ? `;${state.only.join(',')}` : '';
    key =
      `${kind}${state.distinct ? '+distinct' : ''}|${modelKey(model)}|${related.length ? related.join(',') : ''}${only}|${orderKey}|` +
      // Inlined limits are part of the SQL, so of its shape.
      (inline ? `${limitValue}:${offsetValue}` : `${limitValue !== null}${offsetValue !== null}`) +
      `|${where.shape}` +
      (annotationKey ? `|a:${annotationKey}` : '') +
      (lockRows ? '|for-update' : '');
  }
  return new PreparedSelect(
    db,
    model,
    joins,
    where,
    order,
    { limitValue, offsetValue, limitSlot, offsetSlot, inline },
    key,
    parameters,
    extraStart,
    selections,
    lockRows,
    state.distinct,
  );
}

const NO_RELATED: readonly string[] = Object.freeze([]);

/** True when a term places NULL (`-rank nulls last`, from `F('rank').desc({ nullsLast: true })`). */
function placesNulls(terms: readonly string[]): boolean {
  for (let i = 0; i < terms.length; i++) if ((terms[i] as string).includes(' nulls ')) return true;
  return false;
}

/**
 * The SQL and parameters of a prepared query, `finish` completing it: compiled once per shape
 * (see `compileStatement`), or every time when its shape is unknowable (a custom `where()`
 * without a shape: its SQL is the caller's to decide).
 */
export function compileSelect(
  db: Database,
  prepared: PreparedSelect,
  finish: Finish,
): CompiledStatement {
  if (prepared.key !== null) {
    // A known shape needs no builder: no closure is made on the way of most queries.
    const known = cachedStatement(db, prepared.key, prepared.parameters);
    if (known) return known;
  }
  const build = (slot: Slot) => finish(prepared.build(slot), (i) => slot(prepared.extraStart + i));
  if (prepared.key === null) return build((i) => prepared.parameters[i]).compile();
  return compileStatement(db, prepared.key, prepared.parameters, build);
}

/** A LIMIT or OFFSET written into SQL: only ever a safe integer. */
export function integer(value: number): number {
  if (!Number.isSafeInteger(value)) {
    throw new ImproperlyConfigured('REST_ERR_QUERY_SLICE', `slice() needs integers, got ${value}.`);
  }
  return value;
}
