/**
 * The `errors` of a root serializer run.
 * @module
 */
import type { ErrorTree, ValidationError } from '../errors/api-exception.ts';

/**
 * The errors of a root run as DRF's `errors` has them: messages become `non_field_errors`,
 * a lone "may not be null" (the data was null) becomes "No data provided", and a list
 * serializer's item-by-item errors stay a list.
 *
 * @example
 * ```ts-fragment
 * rootErrors(new ValidationError(['Bad.'])); // { non_field_errors: ['Bad.'] }
 * ```
 */
export function rootErrors(error: ValidationError): ErrorTree {
  const detail = error.detail;
  if (!Array.isArray(detail)) return detail;
  if (error.code === 'null' && detail.length === 1) {
    return { non_field_errors: ['No data provided'] };
  }
  if (detail.some((item) => typeof item !== 'string')) return detail;
  return { non_field_errors: detail };
}
