import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DecimalField, EMPTY, ValidationError } from '@restframework/core';
import { Decimal } from '@restframework/core/internal';
import { fieldValues } from '@restframework/core/testing';
import fc from 'fast-check';

fieldValues('DecimalField (maxDigits 10, decimalPlaces 2)', {
  field: () => new DecimalField({ maxDigits: 10, decimalPlaces: 2 }),
  validInputs: [
    ['12.5', '12.50'],
    [12.5, '12.50'],
    [7, '7.00'],
    ['1e3', '1000.00'],
    ['1E+3', '1000.00'],
    ['1.5e-1', '0.15'],
    [' 7 ', '7.00'],
    ['-5.00', '-5.00'],
    ['+5', '5.00'],
    ['.5', '0.50'],
    ['5.', '5.00'],
    ['0', '0.00'],
    ['-0', '0.00'],
    ['-0.00', '0.00'],
    ['0.01', '0.01'],
    ['00012.30', '12.30'],
    ['99999999.99', '99999999.99'],
    ['-99999999.99', '-99999999.99'],
    // 0.1 + 0.2 is not exact in binary; the text of a JSON number is what counts.
    [0.3, '0.30'],
  ],
  invalidInputs: [
    ['abc', ['A valid number is required.']],
    ['NaN', ['A valid number is required.']],
    ['nan', ['A valid number is required.']],
    ['Infinity', ['A valid number is required.']],
    ['-Infinity', ['A valid number is required.']],
    ['inf', ['A valid number is required.']],
    [Number.NaN, ['A valid number is required.']],
    [Number.POSITIVE_INFINITY, ['A valid number is required.']],
    ['', ['A valid number is required.']],
    ['1,5', ['A valid number is required.']],
    ['1.2.3', ['A valid number is required.']],
    ['0x10', ['A valid number is required.']],
    [true, ['A valid number is required.']],
    [[1], ['A valid number is required.']],
    [{ amount: 1 }, ['A valid number is required.']],
    ['1.234', ['Ensure that there are no more than 2 decimal places.']],
    ['0.001', ['Ensure that there are no more than 2 decimal places.']],
    [0.125, ['Ensure that there are no more than 2 decimal places.']],
    ['12345678901', ['Ensure that there are no more than 10 digits in total.']],
    ['123456789.1', ['Ensure that there are no more than 8 digits before the decimal point.']],
    ['123456789', ['Ensure that there are no more than 8 digits before the decimal point.']],
    ['1e8', ['Ensure that there are no more than 8 digits before the decimal point.']],
    ['1e10', ['Ensure that there are no more than 10 digits in total.']],
    // Trailing zeros count, as in Python's Decimal.
    ['1.000', ['Ensure that there are no more than 2 decimal places.']],
    ['1'.repeat(1001), ['String value too large.']],
    [null, ['This field may not be null.']],
    [EMPTY, ['This field is required.']],
  ],
  outputs: [
    [12.5, '12.50'],
    ['1', '1.00'],
    [1, '1.00'],
    // Rounded half to even, as Python's Decimal.quantize does.
    ['12.345', '12.34'],
    ['12.355', '12.36'],
    ['0.125', '0.12'],
    ['-2.675', '-2.68'],
    [1.005, '1.00'],
    ['1.23456e2', '123.46'],
    ['-0.001', '0.00'],
    ['0', '0.00'],
    ['-3.1', '-3.10'],
    ['99999999.99', '99999999.99'],
    // Already with exactly 2 places: as they are; anything else is reformatted.
    ['968.37', '968.37'],
    ['-0.50', '-0.50'],
    ['.50', '.50'],
    ['1.2e1', '12.00'],
    ['1e+21', '1000000000000000000000.00'],
    ['12.5', '12.50'],
    ['12.500', '12.50'],
  ],
});

fieldValues('DecimalField with a range', {
  field: () =>
    new DecimalField({ maxDigits: 5, decimalPlaces: 2, minValue: '0.50', maxValue: 100 }),
  validInputs: [
    ['0.50', '0.50'],
    ['100', '100.00'],
  ],
  invalidInputs: [
    ['0.49', ['Ensure this value is greater than or equal to 0.50.']],
    ['100.01', ['Ensure this value is less than or equal to 100.']],
  ],
});

fieldValues('DecimalField without limits', {
  field: () => new DecimalField({ maxDigits: undefined, decimalPlaces: undefined }),
  validInputs: [
    ['1.23456789', '1.23456789'],
    ['1e3', '1000'],
    ['123456789012345678901234567890', '123456789012345678901234567890'],
  ],
  invalidInputs: [['1e1001', ['A valid number is required.']]],
  outputs: [
    ['1.50', '1.50'],
    [2, '2'],
  ],
});

fieldValues('DecimalField with decimalPlaces 0', {
  field: () => new DecimalField({ maxDigits: 3, decimalPlaces: 0 }),
  validInputs: [
    ['123', '123'],
    ['1.', '1'],
  ],
  invalidInputs: [
    ['1.0', ['Ensure that there are no more than 0 decimal places.']],
    ['1234', ['Ensure that there are no more than 3 digits in total.']],
  ],
  outputs: [
    ['7', '7'],
    ['-7', '-7'],
    ['7.4', '7'],
    ['1e1', '10'],
  ],
});

/**
 * Generated inputs: DecimalField's one-scan reading of plain decimals gives what the regular
 * expression alone gave (the reference below is the field's earlier `toInternalValue`), the
 * same value or the same messages, for every kind of field.
 */
describe('DecimalField on generated inputs', () => {
  const DECIMAL_TEXT = /^([+-])?(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?$/;
  /** The earlier implementation, regular expressions and all: a value or the messages. */
  function reference(data: unknown, maxDigits?: number, decimalPlaces?: number): unknown {
    const fail = (message: string) => ({ error: [message] });
    let text: string;
    if (typeof data === 'number') {
      if (!Number.isFinite(data)) return fail('A valid number is required.');
      text = String(data);
    } else if (typeof data === 'string') text = data.trim();
    else return fail('A valid number is required.');
    if (text.length > 1000) return fail('String value too large.');
    const match = DECIMAL_TEXT.exec(text);
    if (!match) return fail('A valid number is required.');
    const [, sign, intPart = '', fractionPart, onlyFraction, exponentText] = match;
    const fraction = fractionPart ?? onlyFraction ?? '';
    const coefficient = (intPart + fraction).replace(/^0+(?=\d)/, '');
    const exponent = Number(exponentText ?? 0) - fraction.length;
    const digits = coefficient.length;
    const precision =
      exponent >= 0
        ? { total: digits + exponent, whole: digits + exponent, places: 0 }
        : digits > -exponent
          ? { total: digits, whole: digits + exponent, places: -exponent }
          : { total: -exponent, whole: 0, places: -exponent };
    if (maxDigits !== undefined && precision.total > maxDigits)
      return fail(`Ensure that there are no more than ${maxDigits} digits in total.`);
    if (decimalPlaces !== undefined && precision.places > decimalPlaces)
      return fail(`Ensure that there are no more than ${decimalPlaces} decimal places.`);
    if (
      maxDigits !== undefined &&
      decimalPlaces !== undefined &&
      precision.whole > maxDigits - decimalPlaces
    )
      return fail(
        `Ensure that there are no more than ${maxDigits - decimalPlaces} digits before the decimal point.`,
      );
    if (maxDigits === undefined && Math.abs(Number(exponentText ?? 0)) > 1000)
      return fail('A valid number is required.');
    if (exponentText === undefined && decimalPlaces !== undefined) {
      const whole = intPart.replace(/^0+(?=\d)/, '') || '0';
      const out = decimalPlaces > 0 ? `${whole}.${fraction.padEnd(decimalPlaces, '0')}` : whole;
      return { ok: sign === '-' && /[1-9]/.test(intPart + fraction) ? `-${out}` : out };
    }
    const value = new Decimal(text);
    const fixed = decimalPlaces === undefined ? value.toFixed() : value.toFixed(decimalPlaces);
    return { ok: value.isZero() ? fixed.replace(/^-/, '') : fixed };
  }

  function actual(field: DecimalField, data: unknown): unknown {
    try {
      return { ok: field.toInternalValue(data) };
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return { error: error.detail };
    }
  }

  const digits = (max: number) =>
    fc.array(fc.constantFrom('0', '0', '1', '5', '9'), { maxLength: max }).map((d) => d.join(''));
  const decimalText = fc
    .tuple(
      fc.constantFrom('', '', '+', '-', ' '),
      digits(12),
      fc.constantFrom('', '.', '.', 'e', ',', 'x'),
      digits(5),
      fc.constantFrom('', '', '', 'e3', 'E-2', 'e+1', '.', '.1', ' '),
    )
    .map((parts) => parts.join(''));
  const input = fc.oneof(
    decimalText,
    fc.string({ maxLength: 8 }),
    fc.double(),
    fc.integer(),
    fc.constantFrom('-', '+', '.', '', '-.5', '+.', '0.', '-0', '-0.000'),
  );
  const shapes: [number | undefined, number | undefined][] = [
    [10, 2],
    [5, 0],
    [3, 3],
    [undefined, undefined],
    [undefined, 2],
    [12, undefined],
  ];

  for (const [maxDigits, decimalPlaces] of shapes) {
    it(`answers as the regular expression did (maxDigits ${maxDigits}, decimalPlaces ${decimalPlaces})`, () => {
      const field = new DecimalField({ maxDigits, decimalPlaces });
      fc.assert(
        fc.property(input, (data) => {
          assert.deepEqual(actual(field, data), reference(data, maxDigits, decimalPlaces));
        }),
        { numRuns: 3000 },
      );
    });
  }
});
