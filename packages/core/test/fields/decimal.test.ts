import { DecimalField, EMPTY } from '@restframework/core';
import { fieldValues } from '@restframework/core/testing';

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
