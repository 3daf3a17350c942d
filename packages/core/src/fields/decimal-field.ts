/**
 * Exact decimals.
 * @module
 */
import { formatDecimal } from '../db/dialect/decimal-text.ts';
import { Decimal } from '../utils/decimal.ts';
import {
  Field,
  type FieldDescription,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  type RunContext,
} from './field.ts';
import { maxValueValidator, minValueValidator } from './validators.ts';

/** Options of {@link DecimalField}. */
export interface DecimalFieldOptions extends FieldOptions<string> {
  /** Digits in total, or undefined for no limit. */
  readonly maxDigits: number | undefined;
  /** Digits after the point, or undefined for no limit. */
  readonly decimalPlaces: number | undefined;
  /**
   * The largest value accepted (a number, or decimal text for exactness); larger is `Ensure this
   * value is less than or equal to {max_value}.`
   */
  readonly maxValue?: number | string;
  /**
   * The smallest value accepted; smaller is `Ensure this value is greater than or equal to
   * {min_value}.`
   */
  readonly minValue?: number | string;
}

const DECIMAL_TEXT = /^([+-])?(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?$/;
const MAX_STRING_LENGTH = 1000;

/** Digits of a decimal as Python's `Decimal.as_tuple()` counts them. */
interface Precision {
  readonly total: number;
  readonly whole: number;
  readonly places: number;
}

function precisionOf(
  intPart: string,
  fraction: string,
  exponentText: string | undefined,
): Precision {
  const exponent = (exponentText === undefined ? 0 : Number(exponentText)) - fraction.length;
  // The coefficient's digits without its leading zeros (one digit stays), counted in place.
  const digits = intPart.length + fraction.length - leadingZeros(intPart + fraction);
  if (exponent >= 0) return { total: digits + exponent, whole: digits + exponent, places: 0 };
  if (digits > -exponent) return { total: digits, whole: digits + exponent, places: -exponent };
  return { total: -exponent, whole: 0, places: -exponent };
}

/**
 * `decimal.js`'s `toFixed(places)` of a decimal in plain notation that has at most `places`
 * places, without parsing it into a decimal: leading zeros go, places are padded, and zero
 * has no sign.
 */
function plainFixed(
  sign: string | undefined,
  whole: string,
  fraction: string,
  places: number,
): string {
  const zeros = leadingZeros(whole);
  const digits = whole.length === 0 ? '0' : zeros === 0 ? whole : whole.slice(zeros);
  const text = places > 0 ? `${digits}.${fraction.padEnd(places, '0')}` : digits;
  return sign === '-' && (hasNonZeroDigit(whole) || hasNonZeroDigit(fraction)) ? `-${text}` : text;
}

/** How many of the leading zeros of the digits `digits` go, keeping one digit (`'007'`: 2). */
function leadingZeros(digits: string): number {
  let zeros = 0;
  while (zeros < digits.length - 1 && digits.charCodeAt(zeros) === 48) zeros++;
  return zeros;
}

/** True when the digits `digits` hold one other than 0. */
function hasNonZeroDigit(digits: string): boolean {
  for (let i = 0; i < digits.length; i++) {
    const code = digits.charCodeAt(i);
    if (code > 48 && code <= 57) return true;
  }
  return false;
}

/**
 * The groups {@link DECIMAL_TEXT} gives for `text` (sign, whole digits, places, places without
 * whole digits, exponent), found by one scan when `text` is plain (`-12.50`, the usual input);
 * the regular expression decides any other text.
 */
function decimalParts(text: string): (string | undefined)[] | null {
  const length = text.length;
  const first = text.charCodeAt(0);
  const start = first === 43 || first === 45 ? 1 : 0;
  let i = start;
  while (i < length && isDigit(text.charCodeAt(i))) i++;
  const dot = i;
  if (dot > start && dot < length - 1 && text.charCodeAt(dot) === 46) {
    i++;
    while (i < length && isDigit(text.charCodeAt(i))) i++;
  }
  if (dot === start || (i !== length && dot !== length)) return DECIMAL_TEXT.exec(text);
  if (dot === length) return [text, start ? text[0] : undefined, text.slice(start), undefined];
  return [
    text,
    start ? text[0] : undefined,
    text.slice(start, dot),
    text.slice(dot + 1),
    undefined,
    undefined,
  ];
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * An exact decimal, validated and held as a string (`"12.50"`), never a binary float.
 * Accepts JSON numbers and numeric strings with exponents (`"1e3"`); refuses NaN and
 * infinities; renders exactly `decimalPlaces` places.
 *
 * @example
 * ```ts
 * const price = new DecimalField({ maxDigits: 10, decimalPlaces: 2 });
 * ```
 */
export class DecimalField<const O extends DecimalFieldOptions = DecimalFieldOptions> extends Field<
  string,
  string,
  O
> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid: 'A valid number is required.',
    max_value: 'Ensure this value is less than or equal to {max_value}.',
    min_value: 'Ensure this value is greater than or equal to {min_value}.',
    max_digits: 'Ensure that there are no more than {max_digits} digits in total.',
    max_decimal_places: 'Ensure that there are no more than {max_decimal_places} decimal places.',
    max_whole_digits:
      'Ensure that there are no more than {max_whole_digits} digits before the decimal point.',
    max_string_length: 'String value too large.',
  };
  static override metadataType = 'decimal';

  /** The most digits a value may have (before and after the point). */
  readonly maxDigits: number | undefined;
  /** The most digits after the point. */
  readonly decimalPlaces: number | undefined;
  /** The largest value accepted. */
  readonly maxValue: number | string | undefined;
  /** The smallest value accepted. */
  readonly minValue: number | string | undefined;

  constructor(options: O) {
    super(options);
    this.maxDigits = options.maxDigits;
    this.decimalPlaces = options.decimalPlaces;
    this.maxValue = options.maxValue;
    this.minValue = options.minValue;
    if (this.maxValue !== undefined) this.validators.push(maxValueValidator(this.maxValue));
    if (this.minValue !== undefined) this.validators.push(minValueValidator(this.minValue));
  }

  toInternalValue(data: unknown, _ctx?: RunContext): string {
    let text: string;
    if (typeof data === 'number') {
      if (!Number.isFinite(data)) this.fail('invalid');
      text = String(data);
    } else if (typeof data === 'string') {
      text = data.trim();
    } else {
      return this.fail('invalid');
    }
    if (text.length > MAX_STRING_LENGTH) this.fail('max_string_length');
    const match = decimalParts(text);
    if (!match) this.fail('invalid');
    const [, , intPart, fraction, onlyFraction, exponent] = match;
    const precision = precisionOf(intPart ?? '', fraction ?? onlyFraction ?? '', exponent);
    const { maxDigits, decimalPlaces } = this;
    if (maxDigits !== undefined && precision.total > maxDigits)
      this.fail('max_digits', { max_digits: maxDigits });
    if (decimalPlaces !== undefined && precision.places > decimalPlaces) {
      this.fail('max_decimal_places', { max_decimal_places: decimalPlaces });
    }
    if (
      maxDigits !== undefined &&
      decimalPlaces !== undefined &&
      precision.whole > maxDigits - decimalPlaces
    ) {
      this.fail('max_whole_digits', { max_whole_digits: maxDigits - decimalPlaces });
    }
    if (maxDigits === undefined && Math.abs(Number(exponent ?? 0)) > 1000) this.fail('invalid');
    if (exponent === undefined && decimalPlaces !== undefined) {
      // Plain notation with no more places than allowed (checked above): pad, no arithmetic.
      return plainFixed(match[1], intPart ?? '', fraction ?? onlyFraction ?? '', decimalPlaces);
    }
    const value = new Decimal(text);
    const fixed = decimalPlaces === undefined ? value.toFixed() : value.toFixed(decimalPlaces);
    // -0 is 0: keep "-0.00" out of the database and the output.
    return value.isZero() ? fixed.replace(/^-/, '') : fixed;
  }

  toRepresentation(value: unknown): string {
    const text = String(value);
    const places = this.decimalPlaces;
    if (places === undefined) return text;
    // Stored decimals arrive with exactly their places (the readers format them): as they
    // are, found by one scan (three indexOf() calls were most of a decimal's cost in a list).
    if (hasExactPlaces(text, places)) return text;
    // DRF renders with Python's Decimal.quantize, which rounds half to even ('12.345' is
    // '12.34'); formatDecimal rounds half up, so values with more places are rounded here.
    const dot = text.indexOf('.');
    const exponent = text.indexOf('e') !== -1 || text.indexOf('E') !== -1;
    if (!exponent && (places === 0 ? dot === -1 : dot !== -1 && text.length - dot - 1 === places))
      return text;
    if (exponent || (dot !== -1 && text.length - dot - 1 > places)) {
      const rounded = new Decimal(text).toFixed(places, Decimal.ROUND_HALF_EVEN);
      // -0 is 0, as toInternalValue has it.
      return rounded.replace(/^-(?=0(?:\.0*)?$)/, '');
    }
    return formatDecimal(text, places);
  }

  /**
   * A string (decimals never travel as binary floats) whose pattern gives the digits allowed
   * before and after the point: `^-?\d{0,8}(?:\.\d{0,2})?$` for 10 digits with 2 places.
   */
  protected override valueSchema(_options: JsonSchemaOptions): JsonSchema {
    const { maxDigits, decimalPlaces } = this;
    const whole =
      maxDigits === undefined ? '\\d*' : `\\d{0,${Math.max(maxDigits - (decimalPlaces ?? 0), 0)}}`;
    const places =
      decimalPlaces === undefined
        ? '(?:\\.\\d*)?'
        : decimalPlaces === 0
          ? ''
          : `(?:\\.\\d{0,${decimalPlaces}})?`;
    return { type: 'string', format: 'decimal', pattern: `^-?${whole}${places}$` };
  }

  override describe(): FieldDescription {
    const description = super.describe();
    if (this.minValue !== undefined) description.min_value = this.minValue;
    if (this.maxValue !== undefined) description.max_value = this.maxValue;
    if (this.maxDigits !== undefined) description.max_digits = this.maxDigits;
    if (this.decimalPlaces !== undefined) description.decimal_places = this.decimalPlaces;
    return description;
  }
}

/** True when `text` is digits (after an optional `-`) with exactly `places` after one point. */
function hasExactPlaces(text: string, places: number): boolean {
  const dot = places === 0 ? text.length : text.length - places - 1;
  if (places > 0 && text.charCodeAt(dot) !== 46) return false;
  let i = text.charCodeAt(0) === 45 ? 1 : 0;
  if (i >= dot) return false;
  for (; i < text.length; i++) {
    if (i === dot) continue;
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}
