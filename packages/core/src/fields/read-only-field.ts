/**
 * Values shown as they are.
 * @module
 */
import { Field, type FieldOptions } from './field.ts';

/**
 * A read-only field that renders its attribute unchanged (a computed property, say).
 *
 * @example
 * ```ts
 * const fullName = new ReadOnlyField({ source: 'user.full_name' });
 * ```
 */
export class ReadOnlyField<T = unknown> extends Field<T, T, FieldOptions<T>> {
  /** Type-level only: read-only whatever the options say (for the inferred serializer types). */
  declare readonly alwaysReadOnly: true;
  constructor(options: Omit<FieldOptions<T>, 'readOnly'> = {}) {
    super({ ...options, readOnly: true });
  }

  toInternalValue(data: unknown): T {
    return data as T;
  }

  toRepresentation(value: unknown): T {
    return value as T;
  }
}
