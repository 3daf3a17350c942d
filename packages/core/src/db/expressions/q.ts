/**
 * `Q(...)`: conditions combined with AND, OR and NOT, as Django's `Q` objects.
 * @module
 */
import { type Expression, type SqlBool, sql } from 'kysely';
import type { LookupBinding } from '../lookups.ts';
import { EB } from '../plan/bound-where.ts';
import type { Filter } from '../query-state.ts';
import { bindFilterEntry } from './filter-entry.ts';
import {
  type BindContext,
  type BoundExpression,
  composite,
  expressionError,
  isQueryExpression,
  NotExpression,
  QueryExpression,
  readBoolean,
} from './query-expression.ts';

/** What a `Q` holds: filters (`{ key: value }`, an AND of their entries) and conditions. */
export type QChild = Filter | QueryExpression<boolean>;

/**
 * A condition tree: its children joined by `connector`; made by {@link Q}.
 *
 * @example
 * ```ts
 * import { Q, type QNode } from '@restframework/core';
 *
 * const q: QNode = Q({ state: 'published' }).and(Q({ pages__gte: 100 }).or({ stock_count: 0 }));
 * const rows = await Book.objects.filter(q).execute();
 * ```
 */
export class QNode extends QueryExpression<boolean> {
  /** The filters and conditions joined. */
  readonly children: readonly QChild[];
  /** How they are joined. */
  readonly connector: 'AND' | 'OR';

  constructor(children: readonly QChild[], connector: 'AND' | 'OR') {
    super();
    for (const child of children) {
      if (child === null || typeof child !== 'object' || Array.isArray(child)) {
        throw expressionError(
          'Q()',
          `takes filters ({ field: value }) and conditions, got ${JSON.stringify(child)}.`,
        );
      }
    }
    this.children = children;
    this.connector = connector;
  }

  /** Rows matching this and every one of `others` (Django's `&`). */
  and(...others: QChild[]): QNode {
    return new QNode([this, ...others], 'AND');
  }

  /** Rows matching this or any of `others` (Django's `|`). */
  or(...others: QChild[]): QNode {
    return new QNode([this, ...others], 'OR');
  }

  /** Rows not matching this (Django's `~`). */
  not(): QueryExpression<boolean> {
    return new NotExpression(this);
  }

  bind(context: BindContext): BoundExpression {
    const parts: BoundExpression[] = [];
    for (const child of this.children) {
      if (isQueryExpression(child)) {
        parts.push(child.bind(context));
        continue;
      }
      const entries: BoundExpression[] = [];
      for (const key of Object.keys(child)) {
        entries.push(fromLookup(bindFilterEntry(context, key, (child as Filter)[key])));
      }
      parts.push(composite('and', entries, 'boolean', readBoolean, all('AND')));
    }
    return composite(
      this.connector === 'AND' ? 'and' : 'or',
      parts,
      'boolean',
      readBoolean,
      all(this.connector),
    );
  }
}

/** AND or OR of built conditions; TRUE for an empty AND, FALSE for an empty OR (as `filterAny([])`). */
function all(connector: 'AND' | 'OR') {
  return (built: Expression<any>[]): Expression<SqlBool> => {
    if (built.length === 0) return connector === 'AND' ? sql<SqlBool>`1 = 1` : sql<SqlBool>`1 = 0`;
    if (built.length === 1) return built[0] as Expression<SqlBool>;
    return connector === 'AND' ? EB.and(built) : EB.or(built);
  };
}

/** A filter entry's binding as an expression. */
function fromLookup(binding: LookupBinding): BoundExpression {
  return {
    shape: binding.shape,
    parameters: binding.parameters,
    output: 'boolean',
    read: readBoolean,
    build: (parameters) => binding.expression(EB, parameters),
  };
}

/**
 * Conditions to combine, as Django's `Q`: `Q({ a: 1 }).or({ b: 2 })` is `Q(a=1) | Q(b=2)`,
 * `.and()` is `&`, `.not()` is `~`; `Q.or(x, y)`, `Q.and(x, y)` and `Q.not(x)` say the same.
 * Each filter's entries are ANDed, as in `filter()`; `filter()` and `exclude()` take a `Q`.
 *
 * @example
 * ```ts
 * import { Q } from '@restframework/core';
 *
 * const dune = Book.objects.filter(Q({ title__icontains: 'dune' }).or({ pages__gte: 800 }));
 * const rest = Book.objects.filter(Q.not(Q({ state: 'not_published' })));
 * ```
 */
export function Q(...filters: QChild[]): QNode {
  return new QNode(filters, 'AND');
}

/** Rows matching every child. */
Q.and = (...children: QChild[]): QNode => new QNode(children, 'AND');
/** Rows matching at least one child (none: no row). */
Q.or = (...children: QChild[]): QNode => new QNode(children, 'OR');
/** Rows not matching `child`. */
Q.not = (child: QChild): QueryExpression<boolean> =>
  new NotExpression(isQueryExpression(child) ? (child as QueryExpression<boolean>) : Q(child));
