/**
 * Form input (url-encoded and multipart bodies): flat objects whose keys address nested
 * fields with dots (`stock_information.price`). DRF treats such input differently from JSON
 * (an unchecked checkbox is `false`, an empty value of a nullable field is `null`), so the
 * parsers mark it. A key sent more than once (`tags=1&tags=2`, what a `<select multiple>`
 * sends) holds its last value, as Django's `QueryDict[key]`; {@link formInputList} gives all
 * of them, as `QueryDict.getlist`, for the fields that take lists.
 * @module
 */

const kFormInput = Symbol.for('restframework.formInput');
/** The values of the keys sent more than once, in the order sent (others have one value). */
const kRepeated = Symbol('repeated form keys');

/**
 * A new, prototype-less object marked as form input. Keys such as `__proto__` are plain
 * keys on it, so client input can never reach an object's prototype. A key given twice keeps
 * its last value, and every value for {@link formInputList}.
 *
 * @example
 * ```ts
 * const data = createFormInput([['title', 'Dune'], ['tags', '1'], ['tags', '2']]);
 * data.tags; // '2'
 * formInputList(data, 'tags'); // ['1', '2']
 * ```
 */
export function createFormInput(
  entries: Iterable<readonly [string, unknown]> = [],
): Record<string, unknown> {
  const data = Object.create(null) as Record<string, unknown>;
  Object.defineProperty(data, kFormInput, { value: true, enumerable: false });
  for (const [key, value] of entries) appendFormInput(data, key, value);
  return data;
}

/**
 * Adds a value sent for `key` to form input made by {@link createFormInput}: the key's
 * value becomes `value`, and a key already there keeps its earlier values for
 * {@link formInputList} (what the parsers call for each pair or part).
 *
 * @example
 * ```ts
 * const data = createFormInput();
 * appendFormInput(data, 'tags', '1');
 * appendFormInput(data, 'tags', '2');
 * formInputList(data, 'tags'); // ['1', '2']
 * ```
 */
export function appendFormInput(data: Record<string, unknown>, key: string, value: unknown): void {
  if (Object.hasOwn(data, key)) {
    const holder = data as { [kRepeated]?: Map<string, unknown[]> };
    let repeated = holder[kRepeated];
    if (repeated === undefined) {
      repeated = new Map();
      Object.defineProperty(data, kRepeated, { value: repeated, enumerable: false });
    }
    const values = repeated.get(key);
    if (values === undefined) repeated.set(key, [data[key], value]);
    else values.push(value);
  }
  data[key] = value;
}

/**
 * Every value form input holds for `key`, in the order sent: `[]` when the key was not sent
 * (Django's `QueryDict.getlist`). Only form input has repeated keys; for any other object,
 * the key's one value.
 *
 * @example
 * ```ts
 * formInputList(createFormInput([['tags', '1'], ['tags', '3']]), 'tags'); // ['1', '3']
 * formInputList(createFormInput([['title', 'Dune']]), 'tags'); // []
 * ```
 */
export function formInputList(data: Readonly<Record<string, unknown>>, key: string): unknown[] {
  if (!Object.hasOwn(data, key)) return [];
  const repeated = (data as { [kRepeated]?: Map<string, unknown[]> })[kRepeated];
  const values = repeated?.get(key);
  return values ? [...values] : [data[key]];
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
    // Every value of a repeated key goes along: a list field of the nested serializer reads them.
    const inner = key.slice(start.length);
    for (const value of formInputList(data, key)) appendFormInput(found, inner, value);
  }
  return found;
}
