/**
 * Paths from a model to a column, as ordering declarations write them (`title`,
 * `user__email`, `-price`), typed from the model so that a misspelt first segment is a
 * compile-time error. What follows a relation's `__` is checked at start-up, where the
 * related model is known (`Model.resolvePath`).
 *
 * @example
 * ```ts
 * import { defineModel, type ModelPath, models, type OrderingTerm } from '@restframework/core';
 *
 * const Shelf = defineModel({ name: 'Shelf', fields: { label: models.CharField({ maxLength: 20 }) } });
 * const paths: readonly ModelPath<typeof Shelf>[] = ['label', 'id'];
 * const ordering: readonly OrderingTerm<typeof Shelf>[] = ['-label', 'pk'];
 * ```
 * @module
 */
import type { FieldsOf, Row } from './model.ts';

/** The relations of a model, by field name. */
type RelationName<M> = {
  [K in keyof FieldsOf<M>]: FieldsOf<M>[K] extends { readonly __relatedModel: unknown } ? K : never;
}[keyof FieldsOf<M>] &
  string;

/**
 * A path from model `M` to a column: `pk`, a field (or a relation's column, `user_id`), or a
 * relation followed by `__` and a path on the related model (checked at start-up).
 */
export type ModelPath<M> =
  | 'pk'
  | (keyof Row<M> & string)
  | (keyof FieldsOf<M> & string)
  | `${RelationName<M>}__${string}`;

/** A {@link ModelPath}, `-` first for descending order. */
export type OrderingTerm<M> = ModelPath<M> | `-${ModelPath<M>}`;
