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
