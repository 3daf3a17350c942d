/**
 * The child of a list or dictionary field declared without one: DRF's `_UnvalidatedField`.
 * @module
 */
import { Field, type FieldOptions } from './field.ts';

/**
 * Any value, as sent and as stored: what a `ListField` or `DictField` holds when no `child`
 * is given (`null` included).
 *
 * @example
 * ```ts
 * const anything = new ListField(); // its child is an UnvalidatedField
 * ```
 */
export class UnvalidatedField extends Field<unknown, unknown, FieldOptions<unknown>> {
  constructor(options: FieldOptions<unknown> = {}) {
    super({ allowNull: true, ...options });
  }

  toInternalValue(data: unknown): unknown {
    return data;
  }

  toRepresentation(value: unknown): unknown {
    return value;
  }
}
