/**
 * Relations written and shown as the related row's primary key.
 * @module
 */
import { DoesNotExist } from '../db/database-errors.ts';
import type { QuerySet } from '../db/query-set.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { pythonTypeName } from '../utils/text.ts';
import { Field, type FieldOptions, type RunContext } from './field.ts';

/** Options of {@link PrimaryKeyRelatedField}. */
export interface PrimaryKeyRelatedFieldOptions extends FieldOptions<unknown> {
  /** Where valid targets are looked up (required unless read-only). */
  readonly queryset?: QuerySet<any>;
}

/**
 * A relation as the related row's primary key: renders `user_id`, accepts a key and checks
 * that the row exists (its validated value is the related row).
 *
 * @example
 * ```ts
 * const user = new PrimaryKeyRelatedField({ queryset: User.objects.all() });
 * ```
 */
export class PrimaryKeyRelatedField<
  const O extends PrimaryKeyRelatedFieldOptions = PrimaryKeyRelatedFieldOptions,
> extends Field<Record<string, unknown>, number | string, O> {
  static override defaultErrorMessages: Readonly<Record<string, string>> = {
    does_not_exist: 'Invalid pk "{pk_value}" - object does not exist.',
    incorrect_type: 'Incorrect type. Expected pk value, received {data_type}.',
  };

  constructor(options: O = {} as O) {
    super(options);
    if (!options.queryset && !options.readOnly) {
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_OPTIONS',
        'PrimaryKeyRelatedField needs a queryset (where valid targets are found), or readOnly: true.',
      );
    }
  }

  protected override get relationValue(): 'row' | 'key' {
    return 'key';
  }

  async toInternalValue(data: unknown, _ctx?: RunContext): Promise<Record<string, unknown>> {
    let pk: unknown = data;
    if (typeof data === 'string' && /^\s*-?\d+\s*$/.test(data)) pk = Number(data);
    if ((typeof pk !== 'number' || !Number.isSafeInteger(pk)) && typeof pk !== 'string') {
      return this.fail('incorrect_type', { data_type: pythonTypeName(data) });
    }
    const queryset = this.options.queryset as QuerySet<any>;
    try {
      return (await queryset.get({ pk })) as Record<string, unknown>;
    } catch (error) {
      if (error instanceof DoesNotExist)
        return this.fail('does_not_exist', { pk_value: String(data) });
      throw error;
    }
  }

  toRepresentation(value: unknown): number | string {
    if (value !== null && typeof value === 'object') {
      const row = value as Record<string, unknown>;
      return (row.id ?? row.pk) as number;
    }
    return value as number | string;
  }
}
