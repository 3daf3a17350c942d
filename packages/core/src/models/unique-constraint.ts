/**
 * Django's `UniqueConstraint`: a set of fields whose values together are unique, declared in a
 * model's `constraints`. The migrations create it as a unique index; model serializers check
 * it before the write (DRF's `UniqueTogetherValidator`).
 * @module
 */

/** A unique constraint as a model declares it. `N` is the names of its fields. */
export interface UniqueConstraintSpec<N extends string = string> {
  /** What the constraint is: `unique`, the only kind so far. */
  readonly kind: 'unique';
  /** The fields whose values together are unique, by name. */
  readonly fields: readonly N[];
  /** The index name; defaults to `<table>_<columns>_uniq`, bounded to 63 characters. */
  readonly name?: string;
}

/**
 * Declares that the values of `fields` together are unique (NULL in any of them is never a
 * duplicate, as in SQL). A field name the model does not have is a compile error, and an
 * error at start-up (`REST_ERR_MODEL_INDEX`).
 *
 * @example
 * ```ts
 * import { defineModel, models, UniqueConstraint } from '@restframework/core';
 *
 * const Seat = defineModel({
 *   name: 'Seat',
 *   fields: { row: models.CharField({ maxLength: 2 }), number: models.SmallIntegerField() },
 *   constraints: [UniqueConstraint({ fields: ['row', 'number'], name: 'seat_place_uniq' })],
 * });
 * ```
 */
export function UniqueConstraint<const N extends string>(options: {
  readonly fields: readonly N[];
  readonly name?: string;
}): UniqueConstraintSpec<N> {
  return Object.freeze({
    kind: 'unique' as const,
    fields: Object.freeze([...(options?.fields ?? [])]),
    ...(options?.name !== undefined ? { name: options.name } : {}),
  });
}
