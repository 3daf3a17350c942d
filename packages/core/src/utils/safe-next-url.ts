/**
 * Where a login or logout may send a browser on to (`?next=`): only a path of this service.
 * Django's `url_has_allowed_host_and_scheme`, narrowed to relative URLs, so that a link to the
 * login page can never send a person to another site (an open redirect).
 * @module
 */

/** Longer than any page of this service needs; a longer value is refused, not cut. */
const MAX_LENGTH = 2048;

/**
 * `value` when it is a same-origin relative URL (`/books/api/books/?page=2`), else undefined:
 * no scheme, no host (`//evil.example`, `/\evil.example`), no backslash, no control character
 * or space (browsers strip some of them, turning `/\t/evil` into `//evil`).
 *
 * @example
 * ```ts
 * safeNextUrl('/manage/api/books/'); // '/manage/api/books/'
 * safeNextUrl('//evil.example/'); // undefined
 * safeNextUrl('https://evil.example/'); // undefined
 * ```
 */
export function safeNextUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LENGTH)
    return undefined;
  if (value[0] !== '/' || value[1] === '/' || value[1] === '\\') return undefined;
  // Backslashes, controls, spaces: any of them may be read as part of a host by some browser.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\\\u0000-\u0020\u007f-\u00a0\u2028\u2029]/.test(value)) return undefined;
  const base = 'http://service.invalid';
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return undefined;
  }
  return url.origin === base ? value : undefined;
}
