/**
 * Resolution of `relation__field` paths to column references, adding one join per relation
 * however many terms use it (a LEFT JOIN where the row may be missing, an inner join along
 * NOT NULL foreign keys). Only declared model names ever become identifiers.
 * @module
 */
import { ImproperlyConfigured } from '../../errors/improperly-configured.ts';
import type { AnyModel } from '../../models/model.ts';
import type { AnyModelField } from '../../models/model-field.ts';
import { modelPlans } from './model-plans.ts';

/** The join of a relation path (`user`, `user__company`): LEFT JOIN when `nullable`. */
export interface Join {
  readonly path: string;
  readonly alias: string;
  readonly parentAlias: string;
  readonly relation: AnyModelField;
  readonly model: AnyModel;
  /** True when the joined row may be missing (any relation on the way is nullable). */
  readonly nullable: boolean;
}

/** A resolved path: the column to reference and what it may hold. */
export interface ResolvedColumn {
  /** `table.column` or `alias.column`, ready for Kysely. */
  readonly ref: string;
  readonly field: AnyModelField;
  /** True when the value may be NULL (a nullable column, or reached through a LEFT JOIN). */
  readonly nullable: boolean;
  /** True when the column belongs to the queried model itself. */
  readonly local: boolean;
}

/** The joins one query needs, in the order they were first required. */
export class JoinSet {
  readonly model: AnyModel;
  // Made on the first join: most queries join nothing, and each query makes a JoinSet.
  #joins: Map<string, Join> | null = null;

  constructor(model: AnyModel) {
    this.model = model;
  }

  get joins(): Join[] {
    return this.#joins ? [...this.#joins.values()] : [];
  }

  get size(): number {
    return this.#joins ? this.#joins.size : 0;
  }

  /** Adds the joins of a relation path (`user__company`) and returns the last one. */
  join(path: string, where: string): Join {
    const joins = (this.#joins ??= new Map<string, Join>());
    const existing = joins.get(path);
    if (existing) return existing;
    const parts = path.split('__');
    let model = this.model;
    let alias = this.model.table;
    let nullable = false;
    let join: Join | undefined;
    for (let i = 0; i < parts.length; i++) {
      const prefix = parts.slice(0, i + 1).join('__');
      const found = joins.get(prefix);
      if (found) {
        join = found;
      } else {
        const relation = model.getField(parts[i] as string);
        if (!relation?.isRelation) {
          throw new ImproperlyConfigured(
            'REST_ERR_MODEL_PATH',
            `${where}: "${path}" does not resolve: ${model.name}.${parts[i]} is not a relation.`,
          );
        }
        join = {
          path: prefix,
          alias: `r_${prefix}`,
          parentAlias: alias,
          relation,
          model: relation.relatedModel,
          nullable: nullable || relation.nullable,
        };
        joins.set(prefix, join);
      }
      model = join.model;
      alias = join.alias;
      nullable = join.nullable;
    }
    return join as Join;
  }

  /**
   * Resolves `field`, `pk` or `relation__field` to a column, joining what it crosses.
   * A path ending on a relation refers to its key column (`user` → `profile.user_id`).
   */
  resolve(path: string, where: string): ResolvedColumn {
    const cut = path.lastIndexOf('__');
    if (cut === -1) {
      // The model's own columns are resolved once (see `ModelPlans.localColumns`).
      const byName = modelPlans(this.model).localColumns;
      const known = byName.get(path);
      if (known) return known;
      const field = this.model.getField(path);
      if (!field) {
        throw new ImproperlyConfigured(
          'REST_ERR_MODEL_PATH',
          `${where}: ${this.model.name} has no field "${path}". Fields: ${Object.keys(this.model.fields).join(', ')}.`,
        );
      }
      const column: ResolvedColumn = {
        ref: `${this.model.table}.${field.column}`,
        field,
        nullable: field.nullable,
        local: true,
      };
      byName.set(path, column);
      return column;
    }
    const join = this.join(path.slice(0, cut), where);
    const name = path.slice(cut + 2);
    const field = join.model.getField(name);
    if (!field) {
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
}

/** A resolved ordering term, as pagination needs it. */
export interface OrderTerm {
  /** The path as written, without `-` (`user__email`). */
  readonly path: string;
  readonly descending: boolean;
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
