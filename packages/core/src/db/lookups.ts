/**
 * Filter lookups: `title`, `pages__gte`, `user__username__icontains`, `id__in`, `summary__isnull`.
 * @module
 */
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyModel } from '../models/model.ts';
import type { AnyModelField } from '../models/model-field.ts';
import type { DialectAdapter, TextMatchMode } from './dialect/dialect-adapter.ts';
import { datePartValue, lookupValue } from './lookup-values.ts';
import type { JoinSet, ResolvedColumn } from './plan/query-paths.ts';

const COMMON_LOOKUPS = ['exact', 'in', 'range', 'gt', 'gte', 'lt', 'lte', 'isnull'] as const;
const TEXT_LOOKUPS = [
  'iexact',
  'contains',
  'icontains',
  'startswith',
  'istartswith',
  'endswith',
  'iendswith',
  'regex',
  'iregex',
  'search',
] as const;
/**
 * The text matches with accents folded first (Django's `unaccent` transform:
 * `title__unaccent__icontains`), where the database declares `capabilities.accentFolding`.
 */
const ACCENT_LOOKUPS = [
  'unaccent__exact',
  'unaccent__iexact',
  'unaccent__contains',
  'unaccent__icontains',
  'unaccent__startswith',
  'unaccent__istartswith',
  'unaccent__endswith',
  'unaccent__iendswith',
] as const;
const DATE_LOOKUPS = ['year', 'month', 'day'] as const;

/** The lookups a filter key may end with. */
export const LOOKUPS = [
  ...COMMON_LOOKUPS,
  ...TEXT_LOOKUPS,
  ...ACCENT_LOOKUPS,
  ...DATE_LOOKUPS,
] as const;

/** One of {@link LOOKUPS}. */
export type Lookup = (typeof LOOKUPS)[number];

const COMPARISONS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function isLookup(name: string): name is Lookup {
  return (LOOKUPS as readonly string[]).includes(name);
}

/** The lookups of each kind of field (see {@link lookupsFor}): constants, not a cache. */
const COMMON: ReadonlySet<Lookup> = new Set(COMMON_LOOKUPS);
const TEXT: ReadonlySet<Lookup> = new Set([...COMMON_LOOKUPS, ...TEXT_LOOKUPS, ...ACCENT_LOOKUPS]);
const DATE: ReadonlySet<Lookup> = new Set([...COMMON_LOOKUPS, ...DATE_LOOKUPS]);
const BOOLEAN: ReadonlySet<Lookup> = new Set(['exact', 'in', 'isnull']);
const JSON_LOOKUPS: ReadonlySet<Lookup> = new Set(['isnull']);

/**
 * The lookups a field supports: every field the comparisons (`exact`, `in`, `range`, `gt`…,
 * `isnull`); text fields the text matches (`iexact`, `icontains`, `istartswith`,
 * `iendswith`, their case-sensitive forms, `regex`, `search`, and the same matches with
 * accents folded, `unaccent__icontains`...); date
 * fields the date parts (`year`, `month`, `day`); boolean fields `exact`, `in`, `isnull`; JSON
 * fields `isnull` only.
 *
 * @example
 * ```ts
 * lookupsFor(Book.getField('pages')!).has('icontains'); // false
 * [...lookupsFor(Book.getField('publication_date')!)]; // ['exact', 'in', ..., 'year', 'month', 'day']
 * ```
 */
export function lookupsFor(field: AnyModelField): ReadonlySet<Lookup> {
  if (field.isText) return TEXT;
  switch (field.kind) {
    case 'date':
      return DATE;
    case 'boolean':
      return BOOLEAN;
    case 'json':
      return JSON_LOOKUPS;
    default:
      return COMMON;
  }
}

function unsupported(where: string, field: AnyModelField, lookup: string): ImproperlyConfigured {
  return new ImproperlyConfigured(
    'REST_ERR_QUERY_LOOKUP',
    `${where}: unsupported lookup "${lookup}" for ${field.name} (a ${field.kind} field); ` +
      `supported lookups: ${[...lookupsFor(field)].join(', ')}.`,
  );
}

const NEVER = sql<SqlBool>`1 = 0`;
const ALWAYS = sql<SqlBool>`1 = 1`;

/** The values each integer column holds (Django's ranges, the same on every database). */
const INT32: readonly [number, number] = [-2_147_483_648, 2_147_483_647];
const INT16: readonly [number, number] = [-32_768, 32_767];
const RANGES: ReadonlyMap<string, readonly [number, number]> = new Map([
  ['auto', INT32],
  ['integer', INT32],
  ['positive_integer', INT32],
  ['foreign_key', INT32],
  ['one_to_one', INT32],
  ['small_integer', INT16],
  ['positive_small_integer', INT16],
]);

/** The range of values the column holds, for the kinds with a narrow one. */
function rangeOf(field: AnyModelField): readonly [number, number] | undefined {
  return RANGES.get(field.isRelation ? field.relatedModel.pk.kind : field.kind);
}

/**
 * 1 or -1 when `value` is a number above or below what the column can hold, else 0. No row
 * can match it, and PostgreSQL refuses to compare an `integer` column with it (an error, not
 * "no row"): `/books/1e10/` is a 404, as in Django, not a 500.
 */
function outOfRange(field: AnyModelField, value: unknown): -1 | 0 | 1 {
  if (typeof value !== 'number') return 0;
  const range = rangeOf(field);
  if (range === undefined) return 0;
  if (value > range[1]) return 1;
  if (value < range[0]) return -1;
  return 0;
}

/** What a path ends with to fold accents before its lookup (`title__unaccent__icontains`). */
const UNACCENT = '__unaccent';

/**
 * Splits `a__b__lookup` into the column path and the lookup; `a__unaccent__lookup` (and
 * `a__unaccent`, its `exact`) into `a` and the lookup with accents folded, unless `unaccent`
 * is a field of the model there.
 */
export function splitLookup(
  joins: JoinSet,
  key: string,
  where: string,
): { column: ResolvedColumn; lookup: Lookup } {
  // Most keys hold no `__`: includes() is a fast builtin, lastIndexOf() a runtime call.
  const cut = key.includes('__') ? key.lastIndexOf('__') : -1;
  if (cut === -1) return { column: joins.resolve(key, where), lookup: 'exact' };
  const tail = key.slice(cut + 2);
  const head = key.slice(0, cut);
  if (tail === 'unaccent' && !fieldAt(joins.model, key))
    return lookupOn(joins, head, 'unaccent__exact', where);
  if (isLookup(tail)) {
    if (head.endsWith(UNACCENT)) {
      const folded = `unaccent__${tail}`;
      if (isLookup(folded) && !fieldAt(joins.model, head))
        return lookupOn(joins, head.slice(0, -UNACCENT.length), folded, where);
    }
    return lookupOn(joins, head, tail, where);
  }
  // Not a lookup: a field across a relation (`user__email`), or a lookup misspelt after a
  // column (`city__nope`), which must be named as such, not as a missing relation.
  const target = fieldAt(joins.model, head);
  if (target && !target.isRelation) throw unsupported(where, target, tail);
  return { column: joins.resolve(key, where), lookup: 'exact' };
}

/** The column at `path` with `lookup`, which its field must support. */
function lookupOn(
  joins: JoinSet,
  path: string,
  lookup: Lookup,
  where: string,
): { column: ResolvedColumn; lookup: Lookup } {
  const column = joins.resolve(path, where);
  if (lookup !== 'exact' && !lookupsFor(column.field).has(lookup))
    throw unsupported(where, column.field, lookup);
  return { column, lookup };
}

/** The field at the end of `path`, or undefined when the path does not resolve. */
function fieldAt(model: AnyModel, path: string): AnyModelField | undefined {
  let current = model;
  const parts = path.split('__');
  for (let i = 0; i < parts.length; i++) {
    const field = current.getField(parts[i] as string);
    if (!field || i === parts.length - 1) return field;
    if (!field.isRelation) return undefined;
    current = field.relatedModel;
  }
  return undefined;
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

/** A value checked against the column (see `lookupValue`); a related row stands for its key. */
function checked(field: AnyModelField, value: unknown): unknown {
  // As a model instance does in a Django filter (a unique validator of a one-to-one field
  // filters by the row the field produced).
  return lookupValue(
    field,
    field.isRelation && value !== null && typeof value === 'object' && !(value instanceof Date)
      ? (value as Record<string, unknown>)[field.relatedModel.pk.attname]
      : value,
  );
}

/** A checked value as the column stores it. */
function toDbValue(adapter: DialectAdapter, field: AnyModelField, value: unknown): unknown {
  return adapter.toDb(field, value);
}

/** `column >= low AND column <= high` (Django's BETWEEN), bound. */
function between(ref: string, low: unknown, high: unknown, shape = 'range'): LookupBinding {
  return {
    shape,
    parameters: [low, high],
    expression: (eb, parameters) =>
      eb.and([eb(eb.ref(ref), '>=', parameters[0]), eb(eb.ref(ref), '<=', parameters[1])]),
  };
}

/** What a lookup needs of the database when it lacks it: what to say, and what to use instead. */
const NEEDS = {
  regex: [
    'needs regular expressions, which %s does not have',
    'use contains/icontains, or a database whose adapter declares capabilities.regex.',
  ],
  accentFolding: [
    'folds accents, which %s cannot',
    'use the lookup without unaccent (it folds case, keeps accents), or a database whose adapter declares capabilities.accentFolding (SQLite, PostgreSQL).',
  ],
} as const;

function needsCapability(
  adapter: DialectAdapter,
  capability: keyof typeof NEEDS,
  lookup: string,
  where: string,
): ImproperlyConfigured {
  const [lacks, instead] = NEEDS[capability];
  return new ImproperlyConfigured(
    'REST_ERR_QUERY_LOOKUP',
    `${where}: the "${lookup}" lookup ${lacks.replace('%s', adapter.vendor)}; ${instead}`,
  );
}

/** `column IS NULL`: what `exact` and `iexact` match for a null value, as in Django. */
const nullBinding = (ref: string): LookupBinding => ({
  shape: 'null',
  parameters: [],
  expression: (eb) => eb(eb.ref(ref), 'is', null),
});

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
      if (value === null || value === undefined) return nullBinding(ref);
      value = checked(field, value);
      if (outOfRange(field, value)) return constant('never', NEVER);
      return new ComparisonBinding('=', ref, toDbValue(adapter, field, value));
    case 'iexact':
      if (value === null || value === undefined) return nullBinding(ref);
      return textBinding(adapter, ref, 'iexact', String(checked(field, value)), false);
    case 'in': {
      if (!Array.isArray(value)) {
        throw new ImproperlyConfigured(
          'REST_ERR_QUERY_LOOKUP',
          `${where}: __in needs an array, got ${typeof value}.`,
        );
      }
      const values = value
        .filter((v) => v !== null && v !== undefined)
        .map((v) => checked(field, v))
        .filter((v) => !outOfRange(field, v))
        .map((v) => toDbValue(adapter, field, v));
      if (values.length === 0) return constant('never', NEVER);
      return {
        shape: `in${values.length}`,
        parameters: values,
        expression: (eb, parameters) => eb(eb.ref(ref), 'in', parameters as unknown[]),
      };
    }
    case 'range': {
      if (!Array.isArray(value) || value.length !== 2) {
        throw new ImproperlyConfigured(
          'REST_ERR_QUERY_LOOKUP',
          `${where}: __range needs an array of two values, got ${JSON.stringify(value)}.`,
        );
      }
      let low = checked(field, value[0]);
      let high = checked(field, value[1]);
      // Past the column's range: clamp to it (PostgreSQL refuses to compare beyond it).
      if (outOfRange(field, low) > 0 || outOfRange(field, high) < 0)
        return constant('never', NEVER);
      if (outOfRange(field, low) < 0) low = (rangeOf(field) as readonly [number, number])[0];
      if (outOfRange(field, high) > 0) high = (rangeOf(field) as readonly [number, number])[1];
      return between(ref, toDbValue(adapter, field, low), toDbValue(adapter, field, high));
    }
    case 'year': {
      const year = datePartValue(field, lookup, value);
      if (year < 1 || year > 9999) return constant('never', NEVER);
      // A range of days rather than a function of the column, so an index on it serves.
      const y = String(year).padStart(4, '0');
      return between(ref, `${y}-01-01`, `${y}-12-31`, 'year');
    }
    case 'month':
    case 'day': {
      const part = datePartValue(field, lookup, value);
      return {
        shape: lookup,
        parameters: [part],
        expression: (eb, parameters) =>
          eb(adapter.datePart(eb.ref(ref), lookup), '=', parameters[0] as number),
      };
    }
    case 'regex':
    case 'iregex': {
      if (!adapter.capabilities.regex) throw needsCapability(adapter, 'regex', lookup, where);
      const pattern = String(checked(field, value));
      return {
        shape: lookup,
        parameters: [pattern],
        expression: (eb, parameters) =>
          adapter.regexMatch(eb.ref(ref), parameters[0], lookup === 'iregex'),
      };
    }
    case 'search': {
      const parameters = adapter.fullTextParameters(String(checked(field, value)));
      return {
        shape: `search${parameters.length}`,
        parameters,
        expression: (eb, bound) => adapter.fullTextMatch(eb.ref(ref), bound),
      };
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      value = checked(field, value);
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
    case 'istartswith':
    case 'endswith':
    case 'iendswith':
      return textBinding(adapter, ref, lookup, String(checked(field, value)), false);
    case 'unaccent__exact':
    case 'unaccent__iexact':
    case 'unaccent__contains':
    case 'unaccent__icontains':
    case 'unaccent__startswith':
    case 'unaccent__istartswith':
    case 'unaccent__endswith':
    case 'unaccent__iendswith':
      if (!adapter.capabilities.accentFolding)
        throw needsCapability(adapter, 'accentFolding', lookup, where);
      if ((value === null || value === undefined) && lookup.endsWith('exact'))
        return nullBinding(ref);
      return textBinding(adapter, ref, lookup, String(checked(field, value)), true);
  }
}

/**
 * A text match: `lookup` names its mode (`icontains`: contains, case-insensitively) and its
 * shape; `accents` folds accents first.
 */
function textBinding(
  adapter: DialectAdapter,
  ref: string,
  lookup: Lookup,
  text: string,
  accents: boolean,
): LookupBinding {
  const name = accents ? lookup.slice('unaccent__'.length) : lookup;
  const insensitive = name.startsWith('i');
  const mode = (insensitive ? name.slice(1) : name) as TextMatchMode;
  return {
    shape: lookup,
    parameters: adapter.textMatchParameters(text, mode, insensitive, accents),
    expression: (eb, parameters) =>
      adapter.textMatch(eb.ref(ref), parameters, mode, insensitive, accents),
  };
}
