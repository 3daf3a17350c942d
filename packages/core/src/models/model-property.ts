/**
 * Computed properties of a model: values derived from a row, readable by serializers as a
 * `source`, with no column behind them.
 * @module
 */
import type { AnyModel } from './model.ts';

/**
 * A named value derived from a row. Core reads it with `get(row)`; add-ons (the nested proxy
 * fields of `@restframework/tricks`) implement the same interface and use `bind` to check
 * their declaration against the model when it is defined.
 */
export interface ModelProperty<T = unknown> {
  /** Reads the property from a row of the model. */
  get(row: any): T;
  /**
   * Called once by `defineModel`, after every field and property is known. Throw an
   * `ImproperlyConfigured` that names the model, the property and the fix on a mistake.
   */
  bind?(model: AnyModel, name: string): void;
}

/**
 * A member of a group property: a field or group name, or inner groups declared in place.
 *
 * @example
 * ```ts-fragment
 * const members: GroupMember[] = ['isbn', { stock: ['price', 'stock_count'] }];
 * ```
 */
export type GroupMember = string | Readonly<Record<string, readonly GroupMember[]>>;

/**
 * A property whose value is an object of other members of the same model: fields, other
 * groups, or inner groups declared in place. Add-ons that declare groups (the
 * `NestedProxyField` of `@restframework/tricks`) implement it; core's types read `memberTypes`
 * to type the group's value from the model (`Book.properties.stock_information.get(row)`), to
 * check its members when the model is defined, and to build serializer types for it.
 *
 * @example
 * ```ts
 * class Pair implements GroupProperty<'first_name' | 'last_name'> {
 *   declare readonly memberTypes: 'first_name' | 'last_name';
 *   get(row: Record<string, unknown>) {
 *     return { first_name: row.first_name, last_name: row.last_name };
 *   }
 * }
 * ```
 */
export interface GroupProperty<N extends GroupMember = GroupMember>
  extends ModelProperty<Record<string, unknown>> {
  /** Type-level only: the members, a union; the value's type is inferred from them. */
  readonly memberTypes: N;
}

/**
 * Declares a computed property.
 *
 * @example
 * ```ts
 * const User = defineModel({
 *   name: 'User',
 *   fields: { first_name: models.CharField({ maxLength: 150 }), last_name: models.CharField({ maxLength: 150 }) },
 *   properties: {
 *     full_name: computed((u: { first_name: string; last_name: string }) => `${u.first_name} ${u.last_name}`.trim()),
 *   },
 * });
 * ```
 */
export function computed<R, T>(get: (row: R) => T): ModelProperty<T> {
  return { get };
}
