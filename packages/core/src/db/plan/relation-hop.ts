/**
 * One step of a query path across a relation (`author`, `profile`, `books`, `tags`): the
 * tables it joins, on which columns, and whether it may reach many rows for one. Every kind of
 * relation is one or two equi-joins: a foreign key or one-to-one from either end, a
 * many-to-many through its join table then to the other side.
 * @module
 */
import type { AnyModel } from '../../models/model.ts';

/** One equi-join: `<table>.column = <parent>.parentColumn`. */
export interface JoinStep {
  readonly model: AnyModel;
  /** The column of the joined table. */
  readonly column: string;
  /** The column of the table it joins to. */
  readonly parentColumn: string;
  /** True when the joined row may be missing (a nullable key, or a relation seen from its target). */
  readonly nullable: boolean;
}

/** A relation of a model followed by name. */
export interface RelationHop {
  /** The model reached. */
  readonly model: AnyModel;
  /** One step, or two for a many-to-many (its join table, then the other side). */
  readonly steps: readonly JoinStep[];
  /** True when one row may have many rows at the other end (a reverse foreign key, a many-to-many). */
  readonly multiValued: boolean;
  /**
   * The name, on the first step's model, of the key to the model reached: the join table's
   * key to the other side of a many-to-many; undefined otherwise.
   */
  readonly throughKey?: string;
}

/**
 * The relation `name` of `model` as joins, or undefined when `name` is no relation of it
 * (a column, or nothing).
 *
 * @example
 * ```ts-fragment
 * relationHop(Article, 'tags'); // two steps: article_tags.article_id = article.id, tag.id = article_tags.tag_id
 * relationHop(Author, 'books')?.multiValued; // true
 * ```
 */
export function relationHop(model: AnyModel, name: string): RelationHop | undefined {
  const field = model.getField(name);
  if (field) {
    if (!field.isRelation) return undefined;
    const related = field.relatedModel;
    return {
      model: related,
      steps: [
        {
          model: related,
          column: related.pk.column,
          parentColumn: field.column,
          nullable: field.nullable,
        },
      ],
      multiValued: false,
    };
  }
  const plan = model.relationPlan(name);
  if (plan === undefined) return undefined;
  if (plan.kind !== 'many_to_many') {
    // Seen from its target: the rows whose key holds this row's.
    const source = plan.field.model;
    return {
      model: source,
      steps: [
        { model: source, column: plan.field.column, parentColumn: model.pk.column, nullable: true },
      ],
      multiValued: plan.kind === 'foreign_key',
    };
  }
  const { relation, reverse } = plan;
  const through = relation.through;
  const own = reverse ? relation.targetField : relation.sourceField;
  const other = reverse ? relation.sourceField : relation.targetField;
  const target = other.relatedModel;
  return {
    model: target,
    steps: [
      { model: through, column: own.column, parentColumn: model.pk.column, nullable: true },
      { model: target, column: target.pk.column, parentColumn: other.column, nullable: true },
    ],
    multiValued: true,
    throughKey: other.name,
  };
}
