/**
 * Deeply frozen values: objects made once (OPTIONS metadata, field descriptions) that every
 * request shares, and whose JSON a renderer may therefore encode once.
 *
 * `Object.isFrozen` is shallow: a frozen object whose child is not frozen can still change, so
 * it says nothing about the bytes of its JSON. Only values passed through {@link deepFreeze}
 * are known to be immutable all the way down.
 *
 * @example
 * ```ts
 * const metadata = deepFreeze({ name: 'Book List', actions: { POST: {} } });
 * isDeepFrozen(metadata); // true
 * isDeepFrozen(Object.freeze({ child: {} })); // false: its child can change
 * ```
 * @module
 */

const deeplyFrozen = new WeakSet<object>();

/** Freezes `value` and every object reachable from it; returns `value`. */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || deeplyFrozen.has(value)) return value;
  // Marked before the walk, so a cycle ends; the mark is true once the walk returns.
  deeplyFrozen.add(value);
  Object.freeze(value);
  for (const item of Object.values(value)) deepFreeze(item);
  return value;
}

/** True for a value returned by {@link deepFreeze}: nothing in it can change. */
export function isDeepFrozen(value: object): boolean {
  return deeplyFrozen.has(value);
}
