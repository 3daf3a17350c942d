/**
 * Booleans.
 * @module
 */
import {
  Field,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  type RunContext,
} from './field.ts';
import { isFormInput } from './form-input.ts';

const TRUE_VALUES = new Set<unknown>([
  't',
  'T',
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'true',
  'True',
  'TRUE',
  'on',
  'On',
  'ON',
  '1',
  1,
  true,
]);
const FALSE_VALUES = new Set<unknown>([
  'f',
  'F',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'false',
  'False',
  'FALSE',
  'off',
  'Off',
  'OFF',
  '0',
  0,
  false,
]);
const NULL_VALUES = new Set<unknown>(['null', 'Null', 'NULL', '', null]);

/**
 * A boolean. Accepts DRF's spellings (`true`, `"yes"`, `"on"`, `1`, ...); in forms an absent
 * checkbox means `false`.
 *
 * @example
 * ```ts
 * const inPrint = new BooleanField({ default: true });
 * ```
 */
export class BooleanField<
  const O extends FieldOptions<boolean> = FieldOptions<boolean>,
> extends Field<boolean, boolean, O> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    invalid: 'Must be a valid boolean.',
  };
  static override metadataType = 'boolean';
  static override defaultEmptyHtml: unknown = false;

  override getValue(data: Readonly<Record<string, unknown>>, ctx: RunContext): unknown {
    const value = super.getValue(data, ctx);
    // DRF: a nullable boolean missing from a form is unknown (null), not an unchecked box.
    if (
      value === false &&
      this.allowNull &&
      isFormInput(data) &&
      !Object.hasOwn(data, this.fieldName)
    )
      return null;
    return value;
  }

  override validateEmptyValues(data: unknown, ctx: RunContext): [boolean, unknown] {
    if (this.allowNull && NULL_VALUES.has(data)) return [true, null];
    return super.validateEmptyValues(data, ctx);
  }

  protected override valueSchema(_options: JsonSchemaOptions): JsonSchema {
    return { type: 'boolean' };
  }

  toInternalValue(data: unknown): boolean {
    if (TRUE_VALUES.has(data)) return true;
    if (FALSE_VALUES.has(data)) return false;
    return this.fail('invalid');
  }

  toRepresentation(value: unknown): boolean {
    if (TRUE_VALUES.has(value)) return true;
    if (FALSE_VALUES.has(value)) return false;
    return Boolean(value);
  }
}
