/**
 * Uniqueness, checked before the write (the database constraint stays the last word).
 * @module
 */
import type { Filter, QuerySet } from '../db/query-set.ts';
import { ValidationError } from '../errors/api-exception.ts';
import { markQueriesDatabase, type RunContext, type Validator } from './field.ts';

/**
 * Refuses a value another row already has. On update the row itself is excluded. It runs
 * after the field's other validators, and only when they accepted the value. Two
 * requests may still race past this check; the model serializer then turns the database's
 * unique violation into the same message.
 *
 * @example
 * ```ts
 * const isbn = new CharField({ validators: [uniqueValidator(Book.objects.all(), 'isbn', 'book with this isbn already exists.')] });
 * ```
 */
export function uniqueValidator(
  queryset: QuerySet<any>,
  fieldName: string,
  message: string,
): Validator<unknown> {
  const validator = async (value: unknown, ctx: RunContext) => {
    const instance = ctx.instance as Record<string, unknown> | undefined;
    const others = instance
      ? queryset.exclude({ pk: instance[queryset.model.pk.attname] } as Filter)
      : queryset;
    // exists(filter): one SELECT of a key, LIMIT 1, its query planned once per shape.
    if (await others.exists({ [fieldName]: value })) throw new ValidationError([message], 'unique');
  };
  // It queries: run after the field's other checks, on a value they accepted.
  return markQueriesDatabase(
    Object.assign(validator, { unique: { queryset, fieldName, message } }),
  );
}
