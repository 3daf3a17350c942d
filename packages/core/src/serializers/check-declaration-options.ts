/**
 * The start-up check of a serializer declaration's option names.
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';

/**
 * Fails at start-up (`REST_ERR_SERIALIZER_OPTION`) on an option of `declaration` that is not
 * in `known` (a typo, mostly), naming the class `className`.
 *
 * @example
 * ```ts-fragment
 * checkDeclarationOptions('BookSerializer', { model: Book, feilds: [] }, ['model', 'fields']);
 * // throws: BookSerializer: the declaration option 'feilds' is not one BookSerializer knows. ...
 * ```
 */
export function checkDeclarationOptions(
  className: string,
  declaration: object,
  known: readonly string[],
): void {
  for (const option of Object.keys(declaration)) {
    if (known.includes(option)) continue;
    throw new ImproperlyConfigured(
      'REST_ERR_SERIALIZER_OPTION',
      `${className}: the declaration option '${option}' is not one ${className} knows. ` +
        `Known options: ${known.join(', ')}.`,
    );
  }
}
