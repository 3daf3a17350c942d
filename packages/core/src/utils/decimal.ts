/**
 * decimal.js, typed for ES module use.
 * @module
 */
import DecimalModule from 'decimal.js';

// decimal.js's ES module exports the class as its default, but its typings describe a
// CommonJS module; this gives the class its own type.
/** The `Decimal` class of decimal.js. */
export const Decimal = DecimalModule as unknown as typeof DecimalModule.Decimal;
/** An instance of {@link Decimal}. */
export type Decimal = InstanceType<typeof Decimal>;
