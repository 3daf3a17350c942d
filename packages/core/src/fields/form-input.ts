/**
 * Form input (url-encoded and multipart bodies): flat objects whose keys address nested
 * fields with dots (`stock_information.price`). DRF treats such input differently from JSON
 * (an unchecked checkbox is `false`, an empty value of a nullable field is `null`), so the
 * parsers mark it.
 * @module
 */

const kFormInput = Symbol.for('restframework.formInput');

/**
 * A new, prototype-less object marked as form input. Keys such as `__proto__` are plain
 * keys on it, so client input can never reach an object's prototype.
 */
export function createFormInput(
  entries: Iterable<readonly [string, unknown]> = [],
): Record<string, unknown> {
  const data = Object.create(null) as Record<string, unknown>;
  Object.defineProperty(data, kFormInput, { value: true, enumerable: false });
  for (const [key, value] of entries) data[key] = value;
  return data;
}

/** True for objects made by {@link createFormInput}. */
export function isFormInput(data: unknown): data is Record<string, unknown> {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as Record<symbol, unknown>)[kFormInput] === true
  );
}

/**
 * The part of form input under `prefix.` (`stock_information.price` → `price`), itself form
 * input, or undefined when no key has the prefix (the nested object was not sent).
 */
export function formInputUnder(
  data: Record<string, unknown>,
  prefix: string,
): Record<string, unknown> | undefined {
  const start = `${prefix}.`;
  let found: Record<string, unknown> | undefined;
  for (const key of Object.keys(data)) {
    if (!key.startsWith(start)) continue;
    found ??= createFormInput();
    found[key.slice(start.length)] = data[key];
  }
  return found;
}
