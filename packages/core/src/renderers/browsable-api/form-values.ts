/**
 * Where a form's controls take their values from: a representation (nested objects), or what
 * a form post sent (dotted keys, `stock_information.price`), the one before the other.
 * @module
 */
import { formInputList, isFormInput } from '../../fields/form-input.ts';

/**
 * Reads the value to show for a field path (`['stock_information', 'price']`); `many` for a
 * control of several values (a `<select multiple>`), which reads every value a form sent.
 */
export type ValueLookup = (path: readonly string[], many?: boolean) => unknown;

/**
 * Values from a representation (nested objects) or from form input (dotted keys).
 *
 * @example
 * ```ts
 * valueLookup({ stock_information: { price: '9.99' } })(['stock_information', 'price']); // '9.99'
 * ```
 */
export function valueLookup(data: unknown): ValueLookup {
  if (isFormInput(data))
    // A select of several values sends each as the same key, and nothing when none is chosen.
    return (path, many) => (many ? formInputList(data, path.join('.')) : data[path.join('.')]);
  return (path) => {
    let node: unknown = data;
    for (const key of path) {
      if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
      node = Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
    }
    return node;
  };
}

/** `primary`'s value, or `secondary`'s where `primary` has none (what was sent, then the stored). */
export function fallback(primary: ValueLookup, secondary: ValueLookup): ValueLookup {
  return (path, many) => {
    const value = primary(path, many);
    return value === undefined ? secondary(path, many) : value;
  };
}
