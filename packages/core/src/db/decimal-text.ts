/**
 * Formatting of decimals read from a driver as numbers (SQLite's NUMERIC affinity).
 * @module
 */
import { Decimal } from '../utils/decimal.ts';

/**
 * Renders a number or numeric string with exactly `places` decimal places, exactly: the
 * shortest decimal form of a double is its value for up to 15 significant digits, so no
 * binary rounding leaks into the text.
 *
 * @example
 * ```ts
 * formatDecimal(12.5, 2); // '12.50'
 * formatDecimal(1, 2);    // '1.00'
 * ```
 */
export function formatDecimal(value: number | string, places: number): string {
  const text = typeof value === 'number' ? String(value) : value;
  if (!/[eE]/.test(text)) {
    const dot = text.indexOf('.');
    const fraction = dot === -1 ? 0 : text.length - dot - 1;
    if (fraction <= places) {
      if (places === 0) return dot === -1 ? text : text.slice(0, dot);
      const head = dot === -1 ? `${text}.` : text;
      return head + '0'.repeat(places - fraction);
    }
  }
  return new Decimal(text).toFixed(places);
}
