/**
 * Writing a validated value at its source path.
 * @module
 */

/**
 * Writes `value` at `keys` of `target`; no keys (source `*`) merges an object into it.
 *
 * @example
 * ```ts
 * const target: Record<string, unknown> = {};
 * setValue(target, ['user', 'email'], 'ann@example.com'); // { user: { email: 'ann@example.com' } }
 * ```
 */
export function setValue(
  target: Record<string, unknown>,
  keys: readonly string[],
  value: unknown,
): void {
  if (keys.length === 0) {
    if (value && typeof value === 'object') Object.assign(target, value);
    return;
  }
  let node = target;
  for (let i = 0; i < keys.length - 1; i++) {
    const key = keys[i] as string;
    if (!Object.hasOwn(node, key) || typeof node[key] !== 'object' || node[key] === null)
      node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1] as string] = value;
}
