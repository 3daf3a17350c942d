/**
 * "A value now, or a promise of it": the one convention for extension points that may wait.
 *
 * Most requests never wait on anything but the database, and an `await` on a value that is
 * already there still costs a microtask turn. So the request path calls a hook, and only when
 * the hook answered with a promise does it wait. Every site asks the same question the same
 * way, through {@link isPromiseLike}: any thenable counts, as it does for `await`, so a hook
 * may return a `Promise`, a Kysely builder's result or a library's own thenable.
 *
 * @example
 * ```ts
 * import { type MaybePromise, isPromiseLike, thenMaybe } from '@restframework/core/internal';
 *
 * function double(value: MaybePromise<number>): MaybePromise<number> {
 *   return thenMaybe(value, (n) => n * 2);
 * }
 * double(2); // 4, at once
 * await double(Promise.resolve(2)); // 4, after the promise
 * isPromiseLike(4); // false
 * ```
 * @module
 */

/** A value, or something `await` would wait on for it. */
export type MaybePromise<T> = T | PromiseLike<T>;

/** True when `value` is a thenable: something the caller must wait on before using. */
export function isPromiseLike<T>(value: MaybePromise<T>): value is PromiseLike<T> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * Runs `next` on `value` at once when it is there, or after it settles when it is a thenable.
 * A rejection passes through untouched; `next` is never called for it.
 */
export function thenMaybe<T, U>(
  value: MaybePromise<T>,
  next: (value: T) => U | Promise<U>,
): U | Promise<U> {
  // A thenable is adopted into a real promise, so callers get `catch`/`finally` either way.
  return isPromiseLike(value) ? Promise.resolve(value).then(next) : next(value);
}
