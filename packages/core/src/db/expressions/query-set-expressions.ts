/**
 * What `QuerySet` does with expressions, kept out of it: the annotations of its state, its
 * ordering terms, `update()` values, `aggregate()` and the reading of annotated rows.
 * @module
 */
import { type Compilable, type Expression, type SelectQueryBuilder, sql } from 'kysely';
import type { AnyModel, Row } from '../../models/model.ts';
import type { Database } from '../database.ts';
import type { LookupSelect } from '../plan/lookup-plan.ts';
import type { PrepareOptions } from '../plan/prepared-select.ts';
import { JoinSet } from '../plan/query-paths.ts';
import type { Slot } from '../plan/statement-cache.ts';
import type { QueryState } from '../query-state.ts';
import {
  type Annotations,
  annotatedReader,
  bindAnnotations,
  checkAnnotationNames,
} from './annotations.ts';
import { FieldReference } from './f.ts';
import {
  type BindContext,
  type BoundExpression,
  expressionError,
  isQueryExpression,
  OrderBy,
  type QueryExpression,
} from './query-expression.ts';

/** A row of a query set of `M` annotated with `A` (`Row<M>` itself without annotations). */
export type AnnotatedRow<M extends AnyModel, A> = {} extends A ? Row<M> : Row<M> & A;

/** The annotations of a state with `expressions` added (their names checked). */
export function annotationsOf(
  model: AnyModel,
  existing: Annotations | null,
  expressions: Readonly<Record<string, unknown>>,
): Annotations {
  const names = Object.keys(expressions);
  checkAnnotationNames(model, existing, names);
  const added = names.map((name) => {
    const expression = expressions[name];
    if (!isQueryExpression(expression)) {
      throw expressionError(
        `${model.name}.objects.annotate()`,
        `"${name}" is not an expression (Count(...), F(...), Exists(...), Value(...)).`,
      );
    }
    return Object.freeze([name, expression] as const);
  });
  return Object.freeze([...(existing ?? []), ...added]);
}

/**
 * An ordering term as the state keeps it: a string (`-views`, and ` nulls last` after it when
 * NULL is placed), so that the ordering stays a list of paths for pagination and filters.
 */
export function orderTermOf(term: string | OrderBy): string {
  if (typeof term === 'string') return term;
  if (!(term instanceof OrderBy) || !(term.expression instanceof FieldReference)) {
    throw expressionError(
      'orderBy()',
      'orders by field paths, annotation names and F(...).asc()/desc(); annotate a computed value and order by its name.',
    );
  }
  const nulls = term.nulls ? ` nulls ${term.nulls}` : '';
  return `${term.descending ? '-' : ''}${term.expression.path}${nulls}`;
}

/** The SQL of an expression set by `update()` (`F('views').add(1)`), on the model's own columns. */
export function updateValue(
  model: AnyModel,
  db: Database,
  key: string,
  expression: QueryExpression,
): Expression<any> {
  const joins = new JoinSet(model);
  const where = `${model.name}.objects.update() of "${key}"`;
  const bound = expression.bind({ db, model, joins, where });
  if (joins.size !== 0) {
    throw expressionError(
      where,
      "an UPDATE reads the row's own columns only, not across relations.",
    );
  }
  return bound.build(bound.parameters);
}

/** The SELECT list and row reader of rows with annotations. */
export function annotatedRowsPlan(
  model: AnyModel,
  db: Database,
  state: QueryState,
  plan: LookupSelect,
): LookupSelect {
  const bound = bindAnnotations(model, state.annotations, db, new JoinSet(model));
  return bound === undefined
    ? plan
    : { select: plan.select, read: annotatedReader(plan.read, bound) };
}

/** What `aggregate()` runs: its statement's kind and options, its SELECT list, its reader. */
export interface AggregatePlan {
  readonly kind: string;
  readonly options: PrepareOptions;
  readonly select: (query: SelectQueryBuilder<any, any, any>, slot: Slot) => Compilable<any>;
  readonly read: (raw: Record<string, unknown>) => Record<string, unknown>;
}

/** The plan of `aggregate(expressions)` over the rows of `state`. */
export function aggregateRow(
  model: AnyModel,
  db: Database,
  state: QueryState,
  expressions: Readonly<Record<string, unknown>>,
): AggregatePlan {
  const where = `${model.name}.objects.aggregate()`;
  if (state.limit !== null || state.offset !== 0) {
    throw expressionError(where, 'aggregates every matching row: call it before slice().');
  }
  const names = Object.keys(expressions);
  if (names.length === 0)
    throw expressionError(where, "needs at least one aggregate ({ n: Count('pk') }).");
  checkAnnotationNames(model, null, names, 'aggregate');
  const joins = new JoinSet(model);
  const context: BindContext = { db, model, joins, where, aggregating: true };
  const bound: [string, BoundExpression, number][] = [];
  const extra: unknown[] = [];
  let kind = 'aggregate';
  for (const name of names) {
    const expression = expressions[name];
    if (!isQueryExpression(expression)) {
      throw expressionError(where, `"${name}" is not an aggregate (Count(...), Sum(...), ...).`);
    }
    const b = expression.bind(context);
    bound.push([name, b, extra.length]);
    for (const value of b.parameters) extra.push(value);
    kind += `|${JSON.stringify(name)}=${b.shape}`;
  }
  if (joins.size !== 0) {
    throw expressionError(
      where,
      "aggregates the model's own fields; across a relation, aggregate the related model.",
    );
  }
  return {
    kind,
    options: { ordered: false, extra },
    select: (query, slot) =>
      query.select(
        bound.map(([name, b, start]) =>
          sqlAlias(b.build(b.parameters.map((_, i) => slot(start + i))), name),
        ),
      ),
    read: (raw) => {
      const row: Record<string, unknown> = {};
      for (const [name, b] of bound) row[name] = b.read ? b.read(raw[name]) : raw[name];
      return row;
    },
  };
}

function sqlAlias(expression: Expression<any>, name: string) {
  return sql`${expression}`.as(name);
}
