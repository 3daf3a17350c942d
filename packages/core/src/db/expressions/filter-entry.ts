/**
 * One entry of a filter (`{ key: value }`) bound to a query, with what expressions add to the
 * plain lookups: a key naming an annotation (`favorites_count__gte: 2`) and a value that is
 * an expression (`pages__gt: F('stock_count')`, `article: OuterRef('pk')`).
 * @module
 */
import type { Expression, SqlBool } from 'kysely';
import { sql } from 'kysely';
import { InvalidLookupValueError } from '../database-errors.ts';
import { bindLookup, LOOKUPS, type LookupBinding, splitLookup } from '../lookups.ts';
import { EB } from '../plan/bound-where.ts';
import {
  type BindContext,
  type BoundExpression,
  expressionError,
  isQueryExpression,
} from './query-expression.ts';

/** The lookups a column compared with an expression, or an annotation, supports. */
const COMPARISONS = { exact: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
type Comparison = keyof typeof COMPARISONS;
const ANNOTATION_LOOKUPS = ['exact', 'gt', 'gte', 'lt', 'lte', 'in', 'isnull'] as const;

/**
 * Binds `key: value` in `context` (see `LookupBinding`): an annotation's lookup, a column
 * compared with an expression, else the column's lookup.
 */
export function bindFilterEntry(context: BindContext, key: string, value: unknown): LookupBinding {
  const annotations = context.annotations;
  if (annotations !== undefined && annotations.size !== 0) {
    const cut = key.lastIndexOf('__');
    const direct = annotations.get(key);
    if (direct) return annotationLookup(context, key, direct, 'exact', value);
    if (cut !== -1) {
      const head = annotations.get(key.slice(0, cut));
      if (head) return annotationLookup(context, key, head, key.slice(cut + 2), value);
    }
  }
  const { column, lookup } = splitLookup(context.joins, key, context.where);
  if (!isQueryExpression(value)) {
    return bindLookup(context.db.adapter, column, lookup, value, context.where);
  }
  const operator = COMPARISONS[lookup as Comparison];
  if (operator === undefined) {
    throw expressionError(
      context.where,
      `"${key}" compares with an expression, which takes ${Object.keys(COMPARISONS).join(', ')}, not "${lookup}".`,
    );
  }
  const bound = value.bind(context);
  const ref = column.ref;
  return {
    shape: `${lookup}:${bound.shape}`,
    parameters: bound.parameters,
    expression: (eb, parameters) => eb(eb.ref(ref), operator, bound.build(parameters)),
  };
}

/** A lookup on an annotation's value: the annotation's SQL, then the lookup's value. */
function annotationLookup(
  context: BindContext,
  key: string,
  annotation: BoundExpression,
  lookup: string,
  value: unknown,
): LookupBinding {
  if (!(ANNOTATION_LOOKUPS as readonly string[]).includes(lookup)) {
    throw expressionError(
      context.where,
      `"${key}": an annotation takes the lookups ${ANNOTATION_LOOKUPS.join(', ')}` +
        ((LOOKUPS as readonly string[]).includes(lookup)
          ? `, not "${lookup}".`
          : `; "${lookup}" is none.`),
    );
  }
  const own = annotation.parameters;
  const count = own.length;
  const built = (parameters: readonly unknown[]) => annotation.build(parameters.slice(0, count));
  if (lookup === 'isnull') {
    const isNull = value === true || value === 'true' || value === 1;
    return {
      shape: `@${isNull ? 'null' : 'notnull'}`,
      parameters: own,
      expression: (eb, parameters) =>
        eb(built(parameters), isNull ? 'is' : 'is not', null) as Expression<SqlBool>,
    };
  }
  if (isQueryExpression(value)) {
    const other = value.bind(context);
    const operator = COMPARISONS[lookup as Comparison];
    if (operator === undefined)
      throw expressionError(
        context.where,
        `"${key}" compares with an expression: use exact, gt, gte, lt or lte.`,
      );
    return {
      shape: `@${lookup}:${other.shape}`,
      parameters: [...own, ...other.parameters],
      expression: (eb, parameters) =>
        eb(built(parameters), operator, other.build(parameters.slice(count))),
    };
  }
  if (annotation.output === 'boolean') {
    // No boolean parameter (SQLite binds none): the condition itself, or its negation.
    if (lookup !== 'exact')
      throw expressionError(
        context.where,
        `"${key}" is a boolean annotation: compare it with true or false.`,
      );
    const truth = annotationValue(annotation, key, value);
    return {
      shape: `@${truth}`,
      parameters: own,
      expression: (_eb, parameters) => {
        const condition = built(parameters) as Expression<SqlBool>;
        return truth ? condition : EB.not(condition);
      },
    };
  }
  if (lookup === 'in') {
    if (!Array.isArray(value))
      throw expressionError(context.where, `${key} needs an array, got ${typeof value}.`);
    const values = value
      .filter((v) => v !== null && v !== undefined)
      .map((v) => annotationValue(annotation, key, v));
    if (values.length === 0)
      return { shape: '@never', parameters: [], expression: () => sql<SqlBool>`1 = 0` };
    return {
      shape: `@in${values.length}`,
      parameters: [...own, ...values],
      expression: (eb, parameters) =>
        eb(built(parameters), 'in', parameters.slice(count) as unknown[]),
    };
  }
  const operator = COMPARISONS[lookup as Comparison];
  if (value === null || value === undefined) {
    // As SQL compares: nothing is greater or smaller than NULL (a client's value, never a 500).
    if (lookup !== 'exact')
      return { shape: '@never', parameters: [], expression: () => sql<SqlBool>`1 = 0` };
    return {
      shape: '@null',
      parameters: own,
      expression: (eb, parameters) => eb(built(parameters), 'is', null) as Expression<SqlBool>,
    };
  }
  return {
    shape: `@${lookup}`,
    parameters: [...own, annotationValue(annotation, key, value)],
    expression: (eb, parameters) => eb(built(parameters), operator, parameters[count]),
  };
}

/**
 * A value compared with an annotation, checked against what the annotation answers (as a
 * lookup value is against its column): a number for a count, a boolean for an `Exists`.
 */
function annotationValue(annotation: BoundExpression, key: string, value: unknown): unknown {
  switch (annotation.output) {
    case 'integer':
    case 'number': {
      const number =
        typeof value === 'number'
          ? value
          : typeof value === 'string' && /^[+-]?(?:\d+\.?\d*|\.\d+)$/.test(value.trim())
            ? Number(value)
            : Number.NaN;
      if (
        !Number.isFinite(number) ||
        (annotation.output === 'integer' && !Number.isSafeInteger(number))
      )
        throw invalid(key, annotation.output === 'integer' ? 'an integer' : 'a number', value);
      return number;
    }
    case 'boolean':
      if (value === true || value === 'true' || value === 1 || value === '1') return true;
      if (value === false || value === 'false' || value === 0 || value === '0') return false;
      throw invalid(key, 'a boolean', value);
    default:
      return value;
  }
}

function invalid(key: string, expected: string, value: unknown): InvalidLookupValueError {
  const shown = typeof value === 'string' ? value : JSON.stringify(value);
  return new InvalidLookupValueError(
    `Annotation '${key}' expected ${expected} but got ${JSON.stringify(shown ?? String(value))}.`,
    { name: key },
    value,
  );
}
