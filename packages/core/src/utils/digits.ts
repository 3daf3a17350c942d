/**
 * Reading ASCII digits without a regular expression or `Number()`, each a call into the engine
 * on paths that run per request (a URL's key, a date's parts).
 * @module
 */

/**
 * The number the ASCII digits of `text` from `start` to `end` write, or -1 when a character
 * there is not a digit (a sign, a space, a point). The caller bounds the length: fifteen digits
 * or fewer stay a safe integer.
 *
 * @example
 * ```ts
 * digitsAt('2024-02-29', 0, 4); // 2024
 * digitsAt('2024-02-29', 5, 7); // 2
 * digitsAt('20x4', 0, 4); // -1
 * ```
 */
export function digitsAt(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}
