/**
 * Formatting of decimals read from a driver as numbers (SQLite's NUMERIC affinity).
 * @module
 */
import { Decimal } from '../../utils/decimal.ts';

const MAX_FAST_PLACES = 15;
const FAST_LIMIT = 2 ** 51;
const POWERS_OF_TEN = Array.from({ length: MAX_FAST_PLACES + 1 }, (_, i) => 10 ** i);

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
  if (typeof value === 'number' && places <= MAX_FAST_PLACES) {
    // The nearest double to a decimal of at most `places` places (what a NUMERIC column
    // gives for a stored price): toFixed writes that decimal back, and does it fastest.
    const scale = POWERS_OF_TEN[places] as number;
    const scaled = Math.round(value * scale);
    // Below 2^51 in units of the last place, the doubles are closer together than those
    // units, so the decimal is the only one of its places that rounds to this double: its
    // shortest form too. Above, toFixed could pick a neighbour (2^46 + 0.09375 is '...664.1').
    if (Math.abs(scaled) < FAST_LIMIT && scaled / scale === value) {
      return value.toFixed(places);
    }
  }
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
