/**
 * Validators shared by the field kinds. Each takes its message from the field's error
 * messages, so `errorMessages` overrides reach them.
 * @module
 */
import { ValidationError } from '../errors/api-exception.ts';
import { Decimal } from '../utils/decimal.ts';
import { interpolate } from '../utils/text.ts';
import type { AnyField, Validator } from './field.ts';

function message(field: AnyField, code: string, params: Readonly<Record<string, unknown>>): string {
  return interpolate(field.errorMessages[code] ?? code, params);
}

/** The number of Unicode code points of a string (what Python's `len` counts). */
export function codePointLength(value: string): number {
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** At most `max` code points (`max_length`). */
export function maxLengthValidator(max: number): Validator<string> {
  return (value, _ctx, field) => {
    // UTF-16 length bounds the code point count from above, so most values need no count.
    if (value.length > max && codePointLength(value) > max) {
      throw new ValidationError([message(field, 'max_length', { max_length: max })], 'max_length');
    }
  };
}

/** At least `min` code points (`min_length`). */
export function minLengthValidator(min: number): Validator<string> {
  return (value, _ctx, field) => {
    if (codePointLength(value) < min) {
      throw new ValidationError([message(field, 'min_length', { min_length: min })], 'min_length');
    }
  };
}

/** No NUL character, which PostgreSQL cannot store in text. */
export const prohibitNullCharacters: Validator<string> = (value, _ctx, field) => {
  if (value.includes('\0')) {
    throw new ValidationError(
      [message(field, 'null_characters_not_allowed', {})],
      'null_characters_not_allowed',
    );
  }
};

/** No lone surrogate (JSON can carry `"\ud800"`; no database stores it faithfully). */
export const prohibitSurrogateCharacters: Validator<string> = (value, _ctx, field) => {
  if (value.isWellFormed()) return;
  const lone = /[\uD800-\uDFFF]/u.exec(value)?.[0] ?? '\uD800';
  const codePoint = (lone.codePointAt(0) as number).toString(16).toUpperCase();
  throw new ValidationError(
    [message(field, 'surrogate_characters_not_allowed', { code_point: codePoint })],
    'surrogate_characters_not_allowed',
  );
};

/** A number or decimal string no greater than `max` (`max_value`). */
export function maxValueValidator(max: number | string): Validator<number | string> {
  const limit = new Decimal(max);
  return (value, _ctx, field) => {
    if (new Decimal(value).greaterThan(limit)) {
      throw new ValidationError([message(field, 'max_value', { max_value: max })], 'max_value');
    }
  };
}

/** A number or decimal string no smaller than `min` (`min_value`). */
export function minValueValidator(min: number | string): Validator<number | string> {
  const limit = new Decimal(min);
  return (value, _ctx, field) => {
    if (new Decimal(value).lessThan(limit)) {
      throw new ValidationError([message(field, 'min_value', { min_value: min })], 'min_value');
    }
  };
}
