/**
 * Annotations of a query (`annotate()`): bound once per query, selected under their names,
 * usable in its filters and ordering, and read onto its rows.
 * @module
 */
import { type Expression, sql } from 'kysely';
import { ImproperlyConfigured } from '../../errors/improperly-configured.ts';
import type { AnyModel } from '../../models/model.ts';
import type { Database } from '../database.ts';
import { type JoinSet, type OrderTerm, resolveOrdering } from '../plan/query-paths.ts';
import type { RowReader } from '../plan/row-reader.ts';
import type { Slot } from '../plan/statement-cache.ts';
import { Aggregate } from './aggregates.ts';
import { ExistsExpression, SubqueryExpression } from './exists.ts';
import { bindPath } from './f.ts';
import type { BindContext, BoundExpression, QueryExpression } from './query-expression.ts';

/** The annotations of a query set: names and expressions, in the order given. */
export type Annotations = readonly (readonly [name: string, expression: QueryExpression])[];

/** A name an annotation may take: letters, digits and `_`, not starting with a digit, no `__`. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Checks the names of new annotations on `model` (a field's name, `pk`, a relation's, one
 * given before, or one with `__` is refused, as in Django).
 */
export function checkAnnotationNames(
  model: AnyModel,
  taken: Annotations | null,
  names: readonly string[],
  where = 'annotate',
): void {
  for (const name of names) {
    let problem: string | undefined;
    if (!NAME.test(name) || name.includes('__'))
      problem = 'is not a name (letters, digits and single underscores)';
    else if (where === 'aggregate') problem = undefined;
    else if (name === 'pk' || model.has(name) || model.getField(name))
      problem = `is a field of ${model.name}`;
    else if (Object.hasOwn(model.manyToMany, name) || model.reverseRelations.find(name))
      problem = `is a relation of ${model.name}`;
    else if (taken?.some(([n]) => n === name)) problem = 'is annotated already';
    if (problem) {
      throw new ImproperlyConfigured(
        'REST_ERR_QUERY_EXPRESSION',
        `${model.name}.objects.${where}(): "${name}" ${problem}; choose another name.`,
      );
    }
  }
}

/**
 * The annotations bound in `joins` (their paths joined there), by name; undefined for none.
 * `lazy` (a count's, an existence check's, a write's keys: no annotation is selected) binds
 * an annotation only when a filter or another annotation names it, and those that may join
 * the query's rows to others (`F('author__name')`: see {@link LazyAnnotations.bindJoining});
 * an unused count or `EXISTS` is neither built nor written into the SQL.
 */
export function bindAnnotations(
  model: AnyModel,
  annotations: Annotations | null,
  db: Database,
  joins: JoinSet,
  lazy = false,
): Map<string, BoundExpression> | undefined {
  if (annotations === null || annotations.length === 0) return undefined;
  const bound = lazy ? new LazyAnnotations(annotations) : new Map<string, BoundExpression>();
  const context: BindContext = {
    db,
    model,
    joins,
    where: `${model.name}.annotate()`,
    annotations: bound,
  };
  if (bound instanceof LazyAnnotations) {
    bound.context = context;
    return bound;
  }
  // One after the other: an annotation may use those before it (`F('favorites_count')`).
  for (const [name, expression] of annotations) bound.set(name, expression.bind(context));
  return bound;
}

/**
 * Annotations bound when first named (see {@link bindAnnotations}): `has` and `size` count
 * every annotation, `get` binds one on its first call, iteration gives the bound ones (what
 * the SQL holds, hence its shape).
 */
export class LazyAnnotations extends Map<string, BoundExpression> {
  readonly #pending: Map<string, QueryExpression>;
  /** What the annotations are bound in; set right after construction. */
  context: BindContext | undefined;

  constructor(annotations: Annotations) {
    super();
    this.#pending = new Map(annotations);
  }

  override get size(): number {
    return super.size + this.#pending.size;
  }

  override has(name: string): boolean {
    return super.has(name) || this.#pending.has(name);
  }

  override get(name: string): BoundExpression | undefined {
    const bound = super.get(name);
    if (bound !== undefined) return bound;
    const expression = this.#pending.get(name);
    if (expression === undefined) return undefined;
    this.#pending.delete(name);
    const made = expression.bind(this.context as BindContext);
    this.set(name, made);
    return made;
  }

  /**
   * Binds the annotations not bound yet that may add a join to the query (anything but a
   * correlated subquery: `Count('tags')`, `Exists(...)`, `Subquery(...)`), so that the rows
   * counted are the rows a SELECT reads, as in Django, where `annotate(F('tags__name'))`
   * gives a row per tag to `count()` too.
   */
  bindJoining(): void {
    for (const [name, expression] of [...this.#pending]) {
      if (
        expression instanceof Aggregate ||
        expression instanceof ExistsExpression ||
        expression instanceof SubqueryExpression
      )
        continue;
      this.get(name);
    }
  }
}

/** An ordering term on an expression (an annotation, or a column with NULL placed). */
export interface ExpressionOrderTerm {
  readonly path: string;
  readonly descending: boolean;
  readonly nulls: 'first' | 'last' | undefined;
  readonly expression: BoundExpression;
  /** Where its parameters start among the query's. */
  readonly start: number;
}

/** What ` nulls first` / ` nulls last` after a term asks (see `QuerySet.orderBy`). */
const NULLS = / nulls (first|last)$/;

/**
 * Resolves ordering terms with annotations: a term naming an annotation, or placing NULL,
 * orders by an expression (its parameters added to `parameters`); the rest as columns.
 */
export function resolveAnnotatedOrdering(
  terms: readonly string[],
  joins: JoinSet,
  context: BindContext,
  parameters: unknown[],
): (OrderTerm | ExpressionOrderTerm)[] {
  const annotations = context.annotations;
  return terms.map((term) => {
    const nulls = NULLS.exec(term)?.[1] as 'first' | 'last' | undefined;
    const plain = nulls ? term.slice(0, term.length - ` nulls ${nulls}`.length) : term;
    const descending = plain.startsWith('-');
    const path = descending ? plain.slice(1) : plain;
    if (!nulls && !annotations?.has(path))
      return (resolveOrdering([plain], joins) as OrderTerm[])[0] as OrderTerm;
    const expression = bindPath({ ...context, where: `${joins.model.name} ordering` }, path);
    const start = parameters.length;
    for (const value of expression.parameters) parameters.push(value);
    return { path: `${path}${nulls ? `:${nulls}` : ''}`, descending, nulls, expression, start };
  });
}

/** True for a term of {@link resolveAnnotatedOrdering} that orders by an expression. */
export function isExpressionTerm(
  term: OrderTerm | ExpressionOrderTerm,
): term is ExpressionOrderTerm {
  return 'expression' in term;
}

/** The ORDER BY items of an expression term: NULL placed first when asked, then the value. */
export function expressionOrder(
  term: ExpressionOrderTerm,
  slot: Slot,
): { placement: Expression<any> | null; value: Expression<any> } {
  const values = term.expression.parameters.map((_, i) => slot(term.start + i));
  const value = term.expression.build(values);
  if (!term.nulls) return { placement: null, value };
  const [isNull, notNull] = term.nulls === 'last' ? ['1', '0'] : ['0', '1'];
  return {
    placement: sql`case when ${value} is null then ${sql.raw(isNull)} else ${sql.raw(notNull)} end`,
    value,
  };
}

/** The selected annotations of a query: each one's name, expression and parameters' start. */
export interface AnnotationSelection {
  readonly name: string;
  readonly expression: BoundExpression;
  readonly start: number;
}

/** The annotations to select, their parameters added to `parameters`. */
export function annotationSelections(
  annotations: ReadonlyMap<string, BoundExpression>,
  parameters: unknown[],
): AnnotationSelection[] {
  const selections: AnnotationSelection[] = [];
  for (const [name, expression] of annotations) {
    const start = parameters.length;
    for (const value of expression.parameters) parameters.push(value);
    selections.push({ name, expression, start });
  }
  return selections;
}

/** The select-list item of an annotation. */
export function selectAnnotation(selection: AnnotationSelection, slot: Slot) {
  const values = selection.expression.parameters.map((_, i) => slot(selection.start + i));
  return sql`${selection.expression.build(values)}`.as(selection.name);
}

/**
 * A reader of annotated rows: the model's reader, then each annotation read from the driver's
 * row onto the record (`COUNT` as a number, `EXISTS` as a boolean on every database).
 */
export function annotatedReader(
  read: RowReader,
  annotations: ReadonlyMap<string, BoundExpression>,
): RowReader {
  const entries = [...annotations].map(([name, bound]) => [name, bound.read] as const);
  return (raw) => {
    const values = entries.map(([name]) => raw[name]);
    const row = read(raw);
    for (let i = 0; i < entries.length; i++) {
      const [name, reader] = entries[i] as (typeof entries)[number];
      const value = values[i];
      row[name] = reader ? reader(value) : value;
    }
    return row;
  };
}
