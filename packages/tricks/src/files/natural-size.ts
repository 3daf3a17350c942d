/**
 * Byte sizes as the original library writes them: Python humanize's
 * `naturalsize(value, gnu=True)`.
 * @module
 */

/** GNU suffixes, powers of 1024. */
const SUFFIXES = 'KMGTPEZYRQ';
const BASE = 1024n;

/**
 * A byte count in humanize's GNU style: `512B` below 1 KiB, else one decimal and a suffix of
 * powers of 1024 (`1.0K`, `1.5K`, `5.0M`, `10.0M`, `1.0G`). Rounds as Python's `%.1f` does
 * (half to even on the exact value, so 1280 bytes is `1.2K`), and a value that would round to
 * `1024.0` takes the next suffix (`1.0M`, as humanize 4.10 and later write it).
 *
 * @example
 * ```ts
 * naturalSize(5 * 1024 * 1024); // '5.0M'
 * naturalSize(5 * 1024 * 1024 + 1); // '5.0M'
 * naturalSize(1023); // '1023B'
 * ```
 */
export function naturalSize(bytes: number): string {
  const negative = bytes < 0;
  const value = BigInt(Math.trunc(Math.abs(bytes)));
  if (value < BASE) return `${negative ? '-' : ''}${value}B`;
  let power = 1;
  while (power < SUFFIXES.length && value >= BASE ** BigInt(power + 1)) power++;
  let tenths = roundedTenths(value, BASE ** BigInt(power));
  if (power < SUFFIXES.length && tenths >= 10240n) {
    power++;
    tenths = roundedTenths(value, BASE ** BigInt(power));
  }
  const sign = negative ? '-' : '';
  return `${sign}${tenths / 10n}.${tenths % 10n}${SUFFIXES[power - 1]}`;
}

/** `value / divisor` in tenths, rounded half to even. */
function roundedTenths(value: bigint, divisor: bigint): bigint {
  const scaled = value * 10n;
  let quotient = scaled / divisor;
  const twice = (scaled % divisor) * 2n;
  if (twice > divisor || (twice === divisor && quotient % 2n === 1n)) quotient++;
  return quotient;
}
