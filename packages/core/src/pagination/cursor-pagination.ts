/**
 * Cursor (keyset) pagination: `?cursor=...`, `{next, previous, results}`, no COUNT.
 * @module
 */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import { canonicalTime, canonicalUuid } from '../db/column-values.ts';
import { bindAnnotations } from '../db/expressions/annotations.ts';
import { Q, type QChild } from '../db/expressions/q.ts';
import type { BoundExpression, QueryExpression } from '../db/expressions/query-expression.ts';
import { reverseTerm, termPath } from '../db/order-term.ts';
import { JoinSet } from '../db/plan/query-paths.ts';
import type { ColumnRef, OrderTerm, QuerySet } from '../db/query-set.ts';
import { NotFound } from '../errors/api-exception.ts';
import type { Request } from '../http/request.ts';
import { Response } from '../http/response.ts';
import type { AnyModel } from '../models/model.ts';
import type { AnyModelField } from '../models/model-field.ts';
import { BoundedCache, ownPlan } from '../utils/bounded-cache.ts';
import { replaceQueryParam } from '../utils/urls.ts';
import {
  clientPageSize,
  type Pagination,
  pageSchema,
  pageSizeParameters,
  queryParameter,
} from './pagination.ts';

/** Where a page starts: the ordering values of a boundary row, and the direction. */
export interface Cursor {
  /** The values of every ordering key of the boundary row, in ordering order. */
  readonly position: readonly unknown[];
  /** True for a previous-page cursor: the page ends before `position`. */
  readonly reverse: boolean;
  /** True when the boundary row itself belongs to the page (after rows were removed). */
  readonly inclusive: boolean;
}

/**
 * An ordering key that names an annotation of the query set (`-favoritesCount`): its value is
 * read from the row under its name, and checked against what the annotation answers.
 */
export interface AnnotationOrderTerm {
  /** The annotation's name. */
  readonly path: string;
  /** True when the key sorts in descending order (`-favoritesCount`). */
  readonly descending: boolean;
  /** What the annotation answers: a whole number (a count), a number, a boolean, or a value. */
  readonly annotation: BoundExpression['output'];
}

/** An ordering key of a cursor: a column's (see `QuerySet.resolveOrdering`) or an annotation's. */
export type CursorOrderTerm = OrderTerm | AnnotationOrderTerm;

function isAnnotationTerm(term: CursorOrderTerm): term is AnnotationOrderTerm {
  return 'annotation' in term;
}

/** A cursor longer than this is refused without being decoded. */
const MAX_CURSOR_LENGTH = 8192;
/** Column ranges on every dialect: a value outside them would be a database error. */
const INT32 = 2 ** 31;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL = /^-?\d{1,64}(?:\.\d{1,64})?$/;

/**
 * DRF's `CursorPagination`, as true keyset pagination: a cursor holds the values of every
 * ordering key of the row where the page starts (the query set's ordering, made total with
 * the primary key), so each page is one query, whatever its depth, and rows inserted or
 * removed meanwhile never shift pages. The response is `{next, previous, results}`; there is
 * no count.
 *
 * The cursor is opaque to clients (base64url of JSON). Only values come from it, never
 * names: the ordering comes from the view, the cursor must carry exactly one value per
 * ordering key, each of the type of its column, bound as a query parameter. A cursor that
 * fails any check, or was made for another ordering, is 404 `{"detail": "Invalid cursor"}`.
 *
 * An ordering key may name an annotation of the query set (`orderBy('-favoritesCount')`):
 * the cursor holds its value as it holds a column's, checked against what the annotation
 * answers (an integer for a count, a boolean for an `Exists`), and the page condition compares
 * the annotation's SQL, as `filter({ favoritesCount__lt: 3 })` would.
 *
 * NULL sorts as the smallest value (as the dialect adapters order it), and descending keys
 * are compared the other way, so the page condition
 * `(a > x) OR (a = x AND b > y) OR ...` matches the ORDER BY exactly.
 *
 * @example
 * ```ts
 * class BookViewSet extends ReadOnlyModelViewSet {
 *   override queryset = Book.objects.orderBy('-publication_date');
 *   override serializerClass = BookSerializer;
 *   override paginationClass = CursorPagination;
 * }
 * // GET /books/ → {"next":"http://host/books/?cursor=…","previous":null,"results":[…]}
 * ```
 */
export class CursorPagination implements Pagination {
  // Defaults on the prototype (below the class), as DRF's class attributes: a paginator is
  // made per request, and each field defined here was one more store per request. A subclass
  // overrides one with a field of its own (`override ordering = ['-created']`).
  /** The query parameter holding the cursor (default `cursor`). */
  declare cursorQueryParam: string;
  /** Items per page; defaults to the `PAGE_SIZE` setting. */
  declare pageSize: number | null;
  /** A parameter that lets clients choose the page size (off by default). */
  declare pageSizeQueryParam: string | null;
  /** The largest page size a client may ask for; null for no cap. */
  declare maxPageSize: number | null;
  /**
   * The ordering pages walk in, as DRF's `ordering`: it replaces the query set's, unless an
   * ordering filter of the view ordered this request. Null (the default) keeps the query
   * set's ordering (the view's, else the model's). The primary key is appended when needed.
   */
  declare ordering: readonly string[] | null;
  /** The 404's message for a cursor that cannot be read. */
  declare invalidCursorMessage: string;

  /** The request being paginated (set by `paginateQueryset`). */
  declare request: Request | undefined;
  /** The cursor of the next and previous pages (null when there is none). */
  declare nextCursor: Cursor | null;
  /** The cursor of the previous page (null on the first). */
  declare previousCursor: Cursor | null;
  /** The ordering the cursors of this request are made for (a hash of its keys). */
  declare fingerprint: string;

  /** The page size of this request: the client's (within `maxPageSize`) when allowed, else `pageSize`. */
  getPageSize(request: Request): number | null {
    return (
      clientPageSize(request, this.pageSizeQueryParam, this.maxPageSize) ??
      this.pageSize ??
      request.settings.PAGE_SIZE
    );
  }

  /** The query set in the order pages walk, total (the primary key appended when needed). */
  getOrderedQueryset(queryset: QuerySet<any>, request: Request, view: unknown): QuerySet<any> {
    const ordered =
      this.ordering && !orderedByFilter(request, queryset, view)
        ? queryset.orderBy(...this.ordering)
        : queryset;
    return ordered.withStableOrdering();
  }

  async paginateQueryset(
    queryset: QuerySet<any>,
    request: Request,
    view?: unknown,
  ): Promise<unknown[] | null> {
    const size = this.getPageSize(request);
    if (!size) return null;
    this.request = request;
    const ordered = this.getOrderedQueryset(queryset, request, view);
    const terms = cursorTerms(ordered);
    const { fingerprint, paths, relations, key: orderKey } = orderingPlan(ordered.model, terms);
    const raw = request.queryParam(this.cursorQueryParam);
    const cursor = raw === undefined ? null : this.decodeCursor(raw, terms, fingerprint);

    let query = relations.length ? ordered.selectRelated(...relations) : ordered;
    // The next cursors are read from the rows: an only() must load the ordering's fields.
    const only = query.onlyFields;
    if (only !== null)
      query = query.only(...only, ...paths.filter((_, i) => !isAnnotationTerm(terms[i]!)));
    if (cursor) {
      const { position, reverse, inclusive } = cursor;
      const adapter = ordered.db.adapter;
      // The SQL depends on the ordering, the direction and which values are null: compiled
      // once per such shape, the values bound as parameters.
      let nulls = '';
      for (let i = 0; i < position.length; i++) nulls += position[i] === null ? 'n' : 'v';
      const key = `cursor:${orderKey}:${reverse ? 'r' : ''}${inclusive ? 'i' : ''}:${nulls}`;
      if (terms.some(isAnnotationTerm)) {
        // An annotation is no column a where() can name: the same condition as filters,
        // which compare an annotation's SQL (their values bound as parameters too).
        query = query.filter(pageFilter(terms, position, reverse, inclusive));
      } else {
        const columns = terms as readonly OrderTerm[];
        const parameters = position.map((v, i) =>
          v === null ? null : adapter.toDb((columns[i] as OrderTerm).column.field, v),
        );
        query = query.where(
          (eb, ref, values) =>
            pageCondition(eb, ref, columns, values, position, reverse, inclusive),
          { key, parameters },
        );
      }
    }
    if (cursor?.reverse) query = query.orderBy(...ordered.ordering.map(reverseTerm));
    const rows = (await query.slice(0, size + 1).execute()) as Record<string, unknown>[];
    const more = rows.length > size;
    if (more) rows.length = size;
    if (cursor?.reverse) rows.reverse();

    const positionOf = (row: Record<string, unknown>) =>
      paths.map((path, i) => readPath(row, path, terms[i] as CursorOrderTerm));
    const first = rows[0];
    const last = rows[rows.length - 1];
    // Going forward, there are rows after the page when one more was found; before it when
    // the request came with a cursor. Going back, the other way round.
    const hasNext = cursor?.reverse ? true : more;
    const hasPrevious = cursor?.reverse ? more : cursor !== null;
    const at = (row: Record<string, unknown> | undefined, reverse: boolean): Cursor | null => {
      if (row) return { position: positionOf(row), reverse, inclusive: false };
      // An empty page (its rows were removed): the neighbouring page starts at the cursor's
      // own boundary row, which is included so that it is not skipped.
      return cursor ? { position: cursor.position, reverse, inclusive: !cursor.inclusive } : null;
    };
    this.nextCursor = hasNext ? at(last, false) : null;
    this.previousCursor = hasPrevious ? at(first, true) : null;
    this.fingerprint = fingerprint;
    return rows;
  }

  /** The cursor as it goes in a URL. */
  encodeCursor(cursor: Cursor): string {
    const json = JSON.stringify([
      this.fingerprint,
      (cursor.reverse ? 1 : 0) | (cursor.inclusive ? 2 : 0),
      ...cursor.position,
    ]);
    return Buffer.from(json, 'utf8').toString('base64url');
  }

  /**
   * A cursor from the URL, checked against the ordering: its fingerprint, one value per key,
   * each of its column's type. Anything else is 404 "Invalid cursor".
   */
  decodeCursor(raw: string, terms: readonly CursorOrderTerm[], fingerprint: string): Cursor {
    const invalid = () => new NotFound(this.invalidCursorMessage);
    if (raw.length === 0 || raw.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(raw))
      throw invalid();
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    } catch {
      throw invalid();
    }
    if (!Array.isArray(decoded) || decoded.length !== terms.length + 2) throw invalid();
    const [print, flags, ...position] = decoded as unknown[];
    if (print !== fingerprint || (flags !== 0 && flags !== 1 && flags !== 2 && flags !== 3))
      throw invalid();
    for (let i = 0; i < terms.length; i++) {
      if (!validPositionValue(position[i], terms[i] as CursorOrderTerm)) throw invalid();
    }
    return { position, reverse: (flags & 1) === 1, inclusive: (flags & 2) === 2 };
  }

  /** The next page's URL, or null on the last page. */
  getNextLink(): string | null {
    if (!this.request || !this.nextCursor) return null;
    return replaceQueryParam(
      this.request.buildAbsoluteUri(),
      this.cursorQueryParam,
      this.encodeCursor(this.nextCursor),
    );
  }

  /** The previous page's URL, or null on the first page. */
  getPreviousLink(): string | null {
    if (!this.request || !this.previousCursor) return null;
    return replaceQueryParam(
      this.request.buildAbsoluteUri(),
      this.cursorQueryParam,
      this.encodeCursor(this.previousCursor),
    );
  }

  getLinks(): {
    /** The next page's URL; null on the last page. */
    next: string | null;
    /** The previous page's URL; null on the first page. */
    previous: string | null;
  } {
    return { next: this.getNextLink(), previous: this.getPreviousLink() };
  }

  getPaginatedResponse(data: unknown[]): Response {
    return new Response({
      next: this.getNextLink(),
      previous: this.getPreviousLink(),
      results: data,
    });
  }

  getSchemaOperationParameters(): Record<string, unknown>[] {
    return [
      queryParameter(this.cursorQueryParam, 'The pagination cursor value.', 'string'),
      ...pageSizeParameters(this.pageSizeQueryParam),
    ];
  }

  getPaginatedResponseSchema(itemsSchema: Record<string, unknown>): Record<string, unknown> {
    return pageSchema(itemsSchema, false);
  }
}

Object.assign(CursorPagination.prototype, {
  cursorQueryParam: 'cursor',
  pageSize: null,
  pageSizeQueryParam: null,
  maxPageSize: null,
  ordering: null,
  invalidCursorMessage: 'Invalid cursor',
  request: undefined,
  nextCursor: null,
  previousCursor: null,
  fingerprint: '',
});

/** True when a filter backend of the view (an `OrderingFilter`) gave this request an ordering. */
function orderedByFilter(request: Request, queryset: QuerySet<any>, view: unknown): boolean {
  const backends = (
    view as { getFilterBackends?: () => unknown[] } | undefined
  )?.getFilterBackends?.();
  return (backends ?? []).some((backend) => {
    const getOrdering = (backend as { getOrdering?: unknown }).getOrdering;
    if (typeof getOrdering !== 'function') return false;
    const ordering = getOrdering.call(backend, request, queryset, view) as readonly string[] | null;
    return Boolean(ordering?.length);
  });
}

/**
 * A short hash of the ordering, so that a cursor made for one ordering (another
 * `?ordering=`) is refused instead of walking another ordering from a meaningless place.
 */
function orderingFingerprint(terms: readonly CursorOrderTerm[]): string {
  const text = terms
    .map((t) => `${t.descending ? '-' : ''}${isAnnotationTerm(t) ? `@${t.path}` : t.column.ref}`)
    .join(',');
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

/**
 * The path with field names instead of attribute names (`user_id__email` → `user__email`),
 * so the rows loaded with `selectRelated` hold the value where {@link readPath} looks.
 */
function canonicalPath(model: AnyModel, path: string): string {
  const parts = path.split('__');
  const names: string[] = [];
  let current = model;
  for (let i = 0; i < parts.length; i++) {
    const field = current.getField(parts[i] as string) as AnyModelField;
    names.push(i === parts.length - 1 ? (parts[i] as string) : field.name);
    if (i < parts.length - 1) current = field.relatedModel;
  }
  return names.join('__');
}

/** What a cursor needs of an ordering, worked out once per model and ordering. */
interface OrderingPlan {
  /** The ordering's terms as text (`-rank,label`): the key of its plan and of its SQL shapes. */
  readonly key: string;
  readonly fingerprint: string;
  /** The terms' paths with field names (see {@link canonicalPath}). */
  readonly paths: readonly string[];
  /** The relations the paths cross (see {@link relationPrefixes}). */
  readonly relations: readonly string[];
}

/**
 * Plans per model and ordering text: every request of a list walks the same ordering, and its
 * fingerprint, paths and relations were worked out per request. The ordering's paths are the
 * view's declared ones (an ordering filter whitelists them), but a view may order by many, so
 * a model keeps at most {@link MAX_ORDERING_PLANS}, the oldest going first.
 */
const ORDERING_PLANS = Symbol('cursor ordering plans');
const MAX_ORDERING_PLANS = 256;

/**
 * The plan of `terms` on `model`. A term's column (hence the fingerprint) and canonical path
 * follow from the model and the term's path and direction, which make the key.
 */
function orderingPlan(model: AnyModel, terms: readonly CursorOrderTerm[]): OrderingPlan {
  let key = '';
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i] as CursorOrderTerm;
    key += `${i ? ',' : ''}${term.descending ? '-' : ''}${isAnnotationTerm(term) ? '@' : ''}${term.path}`;
  }
  const byKey = ownPlan(
    model,
    ORDERING_PLANS,
    () => new BoundedCache<string, OrderingPlan>('cursor ordering plans', MAX_ORDERING_PLANS),
  );
  let plan = byKey.get(key);
  if (plan === undefined) {
    const paths = terms.map((term) =>
      isAnnotationTerm(term) ? term.path : canonicalPath(model, term.path),
    );
    plan = byKey.set(key, {
      key,
      fingerprint: orderingFingerprint(terms),
      paths,
      relations: relationPrefixes(paths),
    });
  }
  return plan;
}

/** The relations to load so that every ordering value of a row can be read from it. */
function relationPrefixes(paths: readonly string[]): string[] {
  const prefixes = new Set<string>();
  for (const path of paths) {
    const parts = path.split('__');
    for (let i = 1; i < parts.length; i++) prefixes.add(parts.slice(0, i).join('__'));
  }
  return [...prefixes];
}

/** The value of an ordering key in a row (`user__email` → `row.user.email`). */
function readPath(row: Record<string, unknown>, path: string, term: CursorOrderTerm): unknown {
  if (isAnnotationTerm(term)) return row[path] ?? null;
  const parts = path.split('__');
  let target: Record<string, unknown> | null = row;
  for (let i = 0; i < parts.length - 1 && target; i++)
    target = (target[parts[i] as string] as Record<string, unknown> | null) ?? null;
  const value = target ? target[term.column.field.attname] : null;
  return value === undefined ? null : value;
}

/**
 * True when `value` may stand for a value of the term's column: the right JSON type, within
 * the column's range, so that the database compares it instead of failing.
 */
function validPositionValue(value: unknown, term: CursorOrderTerm): boolean {
  if (isAnnotationTerm(term)) return validAnnotationValue(value, term.annotation);
  if (value === null) return term.column.nullable;
  let field = term.column.field;
  // A relation's column holds the related model's key.
  while (field.isRelation) field = field.relatedModel.pk;
  switch (field.kind) {
    case 'auto':
    case 'integer':
    case 'positive_integer':
      return (
        Number.isSafeInteger(value) && (value as number) >= -INT32 && (value as number) < INT32
      );
    case 'small_integer':
    case 'positive_small_integer':
      return Number.isInteger(value) && Math.abs(value as number) <= 32_767;
    case 'big_integer':
    case 'duration':
      return Number.isSafeInteger(value);
    case 'float':
      return typeof value === 'number' && Number.isFinite(value);
    case 'uuid':
      return typeof value === 'string' && canonicalUuid(value) === value;
    case 'time':
      return typeof value === 'string' && canonicalTime(value) === value;
    case 'json':
      return false;
    case 'decimal':
      return typeof value === 'string' && DECIMAL.test(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'date':
      return typeof value === 'string' && DATE.test(value) && isCalendarDate(value);
    case 'datetime':
      return (
        typeof value === 'string' &&
        value.length <= 64 &&
        /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value) &&
        !Number.isNaN(Date.parse(value))
      );
    default:
      // Text: any string PostgreSQL can hold (no NUL character).
      return typeof value === 'string' && !value.includes('\u0000');
  }
}

function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/**
 * Rows strictly after `position` in the ordering (strictly before when `reverse`), plus the
 * boundary row itself when `inclusive`: `(a > x) OR (a = x AND b > y) OR ...`, each
 * comparison turned for descending keys, NULL taken as the smallest value.
 */
function pageCondition(
  eb: ExpressionBuilder<any, any>,
  ref: ColumnRef,
  terms: readonly OrderTerm[],
  values: readonly unknown[],
  position: readonly unknown[],
  reverse: boolean,
  inclusive: boolean,
): Expression<SqlBool> {
  // `values` stand for the position's values as parameters; `position` only says which are null.
  const equal = (i: number): Expression<SqlBool> => {
    const column = ref((terms[i] as OrderTerm).path);
    return position[i] === null ? eb(column, 'is', null) : eb(column, '=', values[i]);
  };
  const beyond = (i: number): Expression<SqlBool> | null => {
    const term = terms[i] as OrderTerm;
    const column = ref(term.path);
    const greater = term.descending === reverse;
    if (position[i] === null) return greater ? eb(column, 'is not', null) : null;
    if (greater) return eb(column, '>', values[i]);
    const less = eb(column, '<', values[i]);
    return term.column.nullable ? eb.or([less, eb(column, 'is', null)]) : less;
  };
  const disjuncts: Expression<SqlBool>[] = [];
  for (let i = 0; i < terms.length; i++) {
    const step = beyond(i);
    if (!step) continue;
    const conjuncts: Expression<SqlBool>[] = [];
    for (let j = 0; j < i; j++) conjuncts.push(equal(j));
    conjuncts.push(step);
    disjuncts.push(conjuncts.length === 1 ? step : eb.and(conjuncts));
  }
  if (inclusive) disjuncts.push(eb.and(terms.map((_, i) => equal(i))));
  if (disjuncts.length === 0) return eb.lit(false);
  return disjuncts.length === 1 ? (disjuncts[0] as Expression<SqlBool>) : eb.or(disjuncts);
}

/**
 * True when `value` may stand for a value of an annotation answering `output`: any annotation
 * may be NULL (a `Sum` over no row, a `Subquery` that finds none).
 */
function validAnnotationValue(value: unknown, output: AnnotationOrderTerm['annotation']): boolean {
  if (value === null) return true;
  switch (output) {
    case 'integer':
      return Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return (
        (typeof value === 'string' && !value.includes('\u0000')) ||
        (typeof value === 'number' && Number.isFinite(value)) ||
        typeof value === 'boolean'
      );
  }
}

/**
 * The ordering keys of `queryset`: its columns resolved (see `QuerySet.resolveOrdering`), and
 * the terms naming its annotations with what each answers.
 */
function cursorTerms(queryset: QuerySet<any>): CursorOrderTerm[] {
  const ordering = queryset.ordering;
  const annotations = queryset.queryState.annotations;
  if (annotations === null) return queryset.resolveOrdering(ordering);
  const named = (term: string) => annotations.some(([name]) => name === termPath(term));
  const columns = queryset.resolveOrdering(ordering.filter((term) => !named(term)));
  // Bound only to learn what each answers (lazily: the ordered ones only).
  const bound = bindAnnotations(
    queryset.model,
    annotations,
    queryset.db,
    new JoinSet(queryset.model),
    true,
  ) as Map<string, BoundExpression>;
  let c = 0;
  return ordering.map((term) => {
    if (!named(term)) return columns[c++] as OrderTerm;
    const path = termPath(term);
    const output = (bound.get(path) as BoundExpression).output;
    return { path, descending: term.startsWith('-'), annotation: output };
  });
}

/**
 * {@link pageCondition} as filters, for an ordering with annotations: `(a > x) OR (a = x AND
 * b > y) OR ...`, NULL the smallest value; a boolean annotation, which takes only equality,
 * compares as false < true.
 */
function pageFilter(
  terms: readonly CursorOrderTerm[],
  position: readonly unknown[],
  reverse: boolean,
  inclusive: boolean,
): QueryExpression<boolean> {
  const never: QChild = Q.or();
  const equal = (i: number): QChild => {
    const path = (terms[i] as CursorOrderTerm).path;
    return position[i] === null ? { [`${path}__isnull`]: true } : { [path]: position[i] };
  };
  const beyond = (i: number): QChild | null => {
    const term = terms[i] as CursorOrderTerm;
    const path = term.path;
    const value = position[i];
    const greater = term.descending === reverse;
    if (value === null) return greater ? { [`${path}__isnull`]: false } : null;
    if (isAnnotationTerm(term) && term.annotation === 'boolean') {
      if (greater) return value === false ? { [path]: true } : never;
      return value === true
        ? Q.or({ [path]: false }, { [`${path}__isnull`]: true })
        : { [`${path}__isnull`]: true };
    }
    if (greater) return { [`${path}__gt`]: value };
    const less = { [`${path}__lt`]: value };
    const nullable = isAnnotationTerm(term) || term.column.nullable;
    return nullable ? Q.or(less, { [`${path}__isnull`]: true }) : less;
  };
  const disjuncts: QChild[] = [];
  for (let i = 0; i < terms.length; i++) {
    const step = beyond(i);
    if (!step) continue;
    const conjuncts: QChild[] = [];
    for (let j = 0; j < i; j++) conjuncts.push(equal(j));
    conjuncts.push(step);
    disjuncts.push(Q.and(...conjuncts));
  }
  if (inclusive) disjuncts.push(Q.and(...terms.map((_, i) => equal(i))));
  return Q.or(...disjuncts);
}
