/**
 * Resolution of `relation__field` paths to column references, adding one join per relation
 * however many terms use it (a LEFT JOIN where the row may be missing, an inner join along
 * NOT NULL foreign keys). Only declared model names ever become identifiers.
 * @module
 */
import type { SelectQueryBuilder } from 'kysely';
import { ImproperlyConfigured } from '../../errors/improperly-configured.ts';
import type { AnyModel } from '../../models/model.ts';
import type { AnyModelField } from '../../models/model-field.ts';
import { modelPlans } from './model-plans.ts';
import { type JoinStep, relationHop } from './relation-hop.ts';

/**
 * The join of a relation path (`user`, `user__company`, `tags`): `alias.column =
 * parentAlias.parentColumn`, a LEFT JOIN when `nullable`.
 */
export interface Join {
  readonly path: string;
  readonly alias: string;
  readonly parentAlias: string;
  readonly model: AnyModel;
  /** The column of the joined table the join matches on. */
  readonly column: string;
  /** The column of the parent it matches. */
  readonly parentColumn: string;
  /** True when the joined row may be missing (any relation on the way is nullable). */
  readonly nullable: boolean;
  /** True when one row of the query may meet many rows here (a reverse key, a many-to-many). */
  readonly multiValued: boolean;
}

/** A resolved path: the column to reference and what it may hold. */
export interface ResolvedColumn {
  /** `table.column` or `alias.column`, ready for Kysely. */
  readonly ref: string;
  /** The model field of the column. */
  readonly field: AnyModelField;
  /** True when the value may be NULL (a nullable column, or reached through a LEFT JOIN). */
  readonly nullable: boolean;
  /** True when the column belongs to the queried model itself. */
  readonly local: boolean;
}

/**
 * The joins one query needs, in the order they were first required. A subquery's set has
 * aliases of its own (`rootAlias`, `aliasPrefix`), so that it may join the tables of the
 * query around it (a model related to itself) and refer to them.
 */
export class JoinSet {
  readonly model: AnyModel;
  /** The alias of the model's table: the table's name, unless this is a subquery's. */
  readonly rootAlias: string;
  readonly #prefix: string;
  // Made on the first join: most queries join nothing, and each query makes a JoinSet.
  #joins: Map<string, Join> | null = null;

  constructor(model: AnyModel, rootAlias: string = model.table, aliasPrefix = 'r_') {
    this.model = model;
    this.rootAlias = rootAlias;
    this.#prefix = aliasPrefix;
  }

  get joins(): Join[] {
    return this.#joins ? [...this.#joins.values()] : [];
  }

  get size(): number {
    return this.#joins ? this.#joins.size : 0;
  }

  /**
   * Adds the joins of a relation path (`user__company`, `tags`, `author__followers`) and
   * returns the last one. A many-to-many joins its join table first, under an alias no path
   * can have (`r_tags+`).
   */
  join(path: string, where: string): Join {
    const joins = (this.#joins ??= new Map<string, Join>());
    const existing = joins.get(path);
    if (existing) return existing;
    const parts = path.split('__');
    let model = this.model;
    let alias = this.rootAlias;
    let nullable = false;
    let multiValued = false;
    let join: Join | undefined;
    for (let i = 0; i < parts.length; i++) {
      const prefix = i === parts.length - 1 ? path : parts.slice(0, i + 1).join('__');
      const found = joins.get(prefix);
      if (found) {
        join = found;
      } else {
        const hop = relationHop(model, parts[i] as string);
        if (!hop) {
          throw new ImproperlyConfigured(
            'REST_ERR_MODEL_PATH',
            `${where}: "${path}" does not resolve: ${model.name}.${parts[i]} is not a relation.`,
          );
        }
        let parentAlias = alias;
        for (let s = 0; s < hop.steps.length; s++) {
          const step = hop.steps[s] as JoinStep;
          const last = s === hop.steps.length - 1;
          const key = last ? prefix : `${prefix}+${s}`;
          nullable ||= step.nullable;
          const made: Join = joins.get(key) ?? {
            path: key,
            alias: `${this.#prefix}${key}`,
            parentAlias,
            model: step.model,
            column: step.column,
            parentColumn: step.parentColumn,
            nullable,
            multiValued: multiValued || hop.multiValued,
          };
          joins.set(key, made);
          parentAlias = made.alias;
          join = made;
        }
      }
      const reached = join as Join;
      model = reached.model;
      alias = reached.alias;
      nullable = reached.nullable;
      multiValued = reached.multiValued;
    }
    return join as Join;
  }

  /**
   * Resolves `field`, `pk` or `relation__field` to a column, joining what it crosses.
   * A path ending on a relation refers to its key column (`user` → `profile.user_id`), or,
   * for a relation that holds no column here, to the related row's key (`tags` → the tag's id).
   */
  resolve(path: string, where: string): ResolvedColumn {
    const cut = path.lastIndexOf('__');
    const root = this.rootAlias === this.model.table;
    if (cut === -1) {
      // The model's own columns are resolved once (see `ModelPlans.localColumns`).
      const byName = root ? modelPlans(this.model).localColumns : undefined;
      const known = byName?.get(path);
      if (known) return known;
      const field = this.model.getField(path);
      if (field) {
        const column: ResolvedColumn = {
          ref: `${this.rootAlias}.${field.column}`,
          field,
          nullable: field.nullable,
          local: true,
        };
        byName?.set(path, column);
        return column;
      }
      if (!relationHop(this.model, path)) {
        throw new ImproperlyConfigured(
          'REST_ERR_MODEL_PATH',
          `${where}: ${this.model.name} has no field "${path}". Fields: ${Object.keys(this.model.fields).join(', ')}.`,
        );
      }
      return this.#relatedKey(path, where);
    }
    const join = this.join(path.slice(0, cut), where);
    const name = path.slice(cut + 2);
    const field = join.model.getField(name);
    if (!field) {
      if (relationHop(join.model, name)) return this.#relatedKey(path, where);
      throw new ImproperlyConfigured(
        'REST_ERR_MODEL_PATH',
        `${where}: "${path}" does not resolve: ${join.model.name} has no field "${name}".`,
      );
    }
    return {
      ref: `${join.alias}.${field.column}`,
      field,
      nullable: join.nullable || field.nullable,
      local: false,
    };
  }

  /** The key of the row at the end of a relation path that holds no column (`tags`). */
  #relatedKey(path: string, where: string): ResolvedColumn {
    const join = this.join(path, where);
    const pk = join.model.pk;
    return { ref: `${join.alias}.${pk.column}`, field: pk, nullable: join.nullable, local: false };
  }
}

/** Adds `joins` to `query`: inner joins along NOT NULL keys, LEFT JOINs elsewhere. */
export function applyJoins<Q extends SelectQueryBuilder<any, any, any>>(
  query: Q,
  joins: JoinSet,
): Q {
  let joined: SelectQueryBuilder<any, any, any> = query;
  for (const join of joins.joins) {
    const table = `${join.model.table} as ${join.alias}`;
    const key = `${join.alias}.${join.column}`;
    const reference = `${join.parentAlias}.${join.parentColumn}`;
    // A chain of NOT NULL foreign keys always finds its row (the constraint guarantees it),
    // so an inner join gives the same rows as a LEFT JOIN, and lets the database start from
    // the related table: ordering profiles by user e-mail walks the e-mail index (0.6 ms at
    // a million rows) instead of sorting every row (340 ms).
    joined = join.nullable
      ? joined.leftJoin(table, key, reference)
      : joined.innerJoin(table, key, reference);
  }
  return joined as Q;
}

/** A resolved ordering term, as pagination needs it. */
export interface OrderTerm {
  /** The path as written, without `-` (`user__email`). */
  readonly path: string;
  /** True for a descending order. */
  readonly descending: boolean;
  /** The column the path leads to. */
  readonly column: ResolvedColumn;
}

/**
 * Resolves ordering terms (`-user__email`) in `joins`, adding the joins they cross. Throws
 * `ImproperlyConfigured` on a path that does not resolve.
 */
export function resolveOrdering(terms: readonly string[], joins: JoinSet): OrderTerm[] {
  return terms.map((term) => {
    const descending = term.startsWith('-');
    const path = descending ? term.slice(1) : term;
    return { path, descending, column: joins.resolve(path, `${joins.model.name} ordering`) };
  });
}
