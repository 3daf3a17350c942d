/**
 * decimal.js, typed for ES module use.
 * @module
 */
import DecimalModule from 'decimal.js';

// decimal.js's ES module exports the class as its default, but its typings describe a
// CommonJS module; this gives the class its own type. Under `moduleResolution: bundler` the
// default import is the class, whose static `Decimal` is optional: NonNullable keeps the
// declaration valid for a consumer's type check either way.
/** The `Decimal` class of decimal.js. */
export const Decimal = DecimalModule as unknown as NonNullable<typeof DecimalModule.Decimal>;
/** An instance of {@link Decimal}. */
export type Decimal = InstanceType<typeof Decimal>;
