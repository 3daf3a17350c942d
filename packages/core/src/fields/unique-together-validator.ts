/**
 * Uniqueness of a set of fields (DRF's `UniqueTogetherValidator`), checked before the write;
 * the database's unique index stays the last word.
 * @module
 */
import type { Filter, QuerySet } from '../db/query-set.ts';
import { ValidationError } from '../errors/api-exception.ts';
import { markQueriesDatabase, type RunContext, type Validator } from './field.ts';

/** Options of {@link uniqueTogetherValidator}. */
export interface UniqueTogetherOptions {
  /** The names shown in the message (the serializer's field names); default `fields`. */
  readonly labels?: readonly string[];
  /** The message; default "The fields a, b must make a unique set.". */
  readonly message?: string;
}

/**
 * A serializer validator refusing validated data whose values of `fields` another row already
 * has together (code `unique`, under `non_field_errors`). On update the row itself is excluded
 * and a field not sent keeps the row's value; on create a field not sent takes the model's
 * default (NULL for a nullable field), or is answered "This field is required.". A NULL among the values is never a
 * duplicate, as in SQL.
 *
 * @example
 * ```ts-fragment
 * const together = uniqueTogetherValidator(Favorite.objects.all(), ['user', 'article']);
 * ```
 */
export function uniqueTogetherValidator(
  queryset: QuerySet<any>,
  fields: readonly string[],
  options: UniqueTogetherOptions = {},
): Validator<Record<string, unknown>> {
  const model = queryset.model;
  const message =
    options.message ??
    `The fields ${(options.labels ?? fields).join(', ')} must make a unique set.`;
  const validator = async (attrs: Record<string, unknown>, ctx: RunContext) => {
    const instance = ctx.instance as Record<string, unknown> | undefined;
    const filter: Record<string, unknown> = {};
    let missing: Record<string, string[]> | undefined;
    for (const name of fields) {
      const field = model.getField(name);
      if (Object.hasOwn(attrs, name)) filter[name] = attrs[name];
      else if (instance && field) filter[name] = instance[field.attname];
      else if (field?.hasDefault && !field.isPrimaryKey) filter[name] = field.getDefault();
      else if (field?.nullable) filter[name] = null;
      else (missing ??= {})[name] = ['This field is required.'];
    }
    if (missing) throw new ValidationError(missing, 'required');
    for (const name of fields) if (filter[name] === null || filter[name] === undefined) return;
    const others = instance
      ? queryset.exclude({ pk: instance[model.pk.attname] } as Filter)
      : queryset;
    if (await others.exists(filter)) throw new ValidationError([message], 'unique');
  };
  return markQueriesDatabase(
    Object.assign(validator, { uniqueTogether: { queryset, fields, message } }),
  );
}

/**
 * Runs `validators` on `value` once `checked` (the serializer's other validators) accepted it,
 * one after another: a list of messages is collected, a per-field error is raised at once (as
 * DRF's `run_validators`).
 */
export async function runUniqueTogether<T>(
  checked: T | PromiseLike<T>,
  validators: readonly Validator<Record<string, unknown>>[],
  ctx: RunContext,
  field: unknown,
): Promise<T> {
  const value = await checked;
  const messages: string[] = [];
  let code: string | undefined;
  for (const validator of validators) {
    try {
      await validator(value as Record<string, unknown>, ctx, field as never);
    } catch (error) {
      if (!(error instanceof ValidationError) || !Array.isArray(error.detail)) throw error;
      messages.push(...(error.detail as string[]));
      code ??= error.code;
    }
  }
  if (messages.length) throw new ValidationError(messages, code);
  return value;
}
