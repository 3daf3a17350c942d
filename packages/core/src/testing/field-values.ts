/**
 * Table-driven field tests, modelled on Django REST framework's `FieldValues`
 * (`tests/test_fields.py`): one table of accepted inputs, one of refused inputs with their
 * exact messages, one of rendered outputs. Core tests its own fields with it; add-on packages
 * reuse it for theirs.
 *
 * @example
 * ```ts
 * import { EMPTY, IntegerField } from '@restframework/core';
 * import { fieldValues } from '@restframework/core/testing';
 *
 * fieldValues('IntegerField with minValue', {
 *   field: () => new IntegerField({ minValue: 0 }),
 *   validInputs: [
 *     ['12', 12],
 *     [0, 0],
 *   ],
 *   invalidInputs: [
 *     [-1, ['Ensure this value is greater than or equal to 0.']],
 *     [EMPTY, ['This field is required.']],
 *   ],
 *   outputs: [['7', 7]],
 * });
 * ```
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inspect } from 'node:util';
import { type ErrorTree, ValidationError } from '../errors/api-exception.ts';
import { type AnyField, EMPTY, type RunContext, SKIPPED, SkipField } from '../fields/field.ts';

/**
 * The expected result of an input the field leaves out of the validated data (it answers
 * `SKIPPED` or throws `SkipField`): a read-only field, or an optional field without a default
 * that was not sent. The same symbol as core's `SKIPPED`.
 */
export { SKIPPED };

/** An accepted input and the validated value it gives (or {@link SKIPPED}). */
export type ValidInput = readonly [input: unknown, expected: unknown];
/** A refused input and the exact `ValidationError.detail` it gives (a list of messages). */
export type InvalidInput = readonly [input: unknown, messages: ErrorTree];
/** A stored value and its representation. */
export type Output = readonly [value: unknown, expected: unknown];

/** The tables of {@link fieldValues}. */
export interface FieldValuesSpec {
  /**
   * Builds the field under test. Called once per case, inside the test, so the field may
   * use what `before` hooks set up (a database for a queryset, say). An unbound field is
   * bound as `f` of `TestSerializer`, without a model.
   */
  readonly field: () => AnyField;
  /** Inputs the field accepts, with the validated value (compared with `deepStrictEqual`). */
  readonly validInputs?: readonly ValidInput[];
  /** Inputs the field refuses, with the exact messages (`ValidationError.detail`). */
  readonly invalidInputs?: readonly InvalidInput[];
  /** Values and what `toRepresentation` gives for them. */
  readonly outputs?: readonly Output[];
  /**
   * What runs see instead of the default `{ partial: false, context: {}, instance: undefined }`
   * (a request in `context`, `partial: true`, ...).
   */
  readonly runContext?: Partial<RunContext>;
}

/** The context of a root run that is not partial, with an empty serializer context. */
export function testRunContext(overrides: Partial<RunContext> = {}): RunContext {
  return { partial: false, context: {}, instance: undefined, ...overrides };
}

/**
 * Binds `field` as `name` of `TestSerializer` (no model) unless it is bound already, and
 * returns it. Fields must be bound before they validate or render.
 */
export function bindField<F extends AnyField>(field: F, name = 'f'): F {
  if (field.fieldName === '') field.bind(name, 'TestSerializer', null);
  return field;
}

/**
 * Validates `input` with `field` (bound if needed): the validated value, {@link SKIPPED}
 * when the field answers it or throws `SkipField`; a `ValidationError` rejects the promise.
 */
export async function validateField(
  field: AnyField,
  input: unknown,
  runContext: RunContext = testRunContext(),
): Promise<unknown> {
  bindField(field);
  try {
    // runValidation may throw at once or return a promise: await both the same way.
    return await field.runValidation(input, runContext);
  } catch (error) {
    if (error instanceof SkipField) return SKIPPED;
    throw error;
  }
}

/** The messages of the `ValidationError` that validating `input` throws; fails if it passes. */
export async function fieldErrors(
  field: AnyField,
  input: unknown,
  runContext: RunContext = testRunContext(),
): Promise<ErrorTree> {
  let value: unknown;
  try {
    value = await validateField(field, input, runContext);
  } catch (error) {
    if (error instanceof ValidationError) return error.detail;
    throw error;
  }
  return assert.fail(`expected a ValidationError for ${show(input)}, got ${show(value)}`);
}

/** How an input or value is named in test titles: `'12'`, `12`, `EMPTY`, `UploadedFile {...}`. */
export function show(value: unknown): string {
  if (value === EMPTY) return 'EMPTY';
  if (value === SKIPPED) return 'SKIPPED';
  return inspect(value, { depth: 2, breakLength: Number.POSITIVE_INFINITY, maxStringLength: 40 });
}

/**
 * Registers a `describe` block named `name` with one `it` per table row:
 *
 * - `validInputs`: `runValidation(input)` gives `expected` (or throws `SkipField` for
 *   {@link SKIPPED});
 * - `invalidInputs`: `runValidation(input)` throws a `ValidationError` whose `detail` is
 *   exactly `messages`;
 * - `outputs`: `toRepresentation(value)` gives `expected`.
 *
 * Use {@link EMPTY} as the input for "not sent". Call it at the top level of a test file or
 * inside a `describe` (its `before` hooks run first).
 */
export function fieldValues(name: string, spec: FieldValuesSpec): void {
  const ctx = () => testRunContext(spec.runContext);
  describe(name, () => {
    for (const [input, expected] of spec.validInputs ?? []) {
      it(`accepts ${show(input)} as ${show(expected)}`, async () => {
        const field = spec.field();
        let value: unknown;
        try {
          value = await validateField(field, input, ctx());
        } catch (error) {
          if (error instanceof ValidationError) {
            assert.fail(`${show(input)} was refused: ${JSON.stringify(error.detail)}`);
          }
          throw error;
        }
        assert.deepStrictEqual(value, expected);
      });
    }
    for (const [input, messages] of spec.invalidInputs ?? []) {
      it(`refuses ${show(input)}: ${JSON.stringify(messages)}`, async () => {
        const detail = await fieldErrors(spec.field(), input, ctx());
        assert.deepStrictEqual(detail, messages);
      });
    }
    for (const [value, expected] of spec.outputs ?? []) {
      it(`renders ${show(value)} as ${show(expected)}`, () => {
        const field = bindField(spec.field());
        assert.deepStrictEqual(field.toRepresentation(value, ctx()), expected);
      });
    }
  });
}
