/**
 * "A value now, or a promise of it": the one convention for extension points that may wait.
 *
 * Most requests never wait on anything but the database, and an `await` on a value that is
 * already there still costs a microtask turn. So the request path calls a hook, and only when
 * the hook answered with a promise does it wait. Every site asks the same question the same
 * way, through {@link isPromiseLike}: any thenable counts, as it does for `await`, so a hook
 * may return a `Promise`, a Kysely builder's result or a library's own thenable.
 *
 * A stage that may wait is written once, continuing through the combinators below (Fastify's
 * `wrap-thenable` idea): {@link thenMaybe} for the next step, {@link catchMaybe} for its
 * errors, {@link eachMaybe}, {@link reduceMaybe}, {@link firstMaybe} and {@link allMaybe} over a
 * list of hooks.
 * Each calls on at once when nothing waited, so the stage costs no microtask turn then, and
 * no stage keeps a hand-written "resume from index i" copy of itself.
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

/**
 * Calls `run`; a throw, or the rejection of the thenable it returned, goes to `onError`,
 * whose answer stands instead. At once when `run` answered or threw at once.
 */
export function catchMaybe<T, U>(
  run: () => T | Promise<T>,
  onError: (error: unknown) => U | Promise<U>,
): T | U | Promise<T | U> {
  let value: MaybePromise<T>;
  try {
    value = run();
  } catch (error) {
    return onError(error);
  }
  return isPromiseLike(value) ? Promise.resolve(value).then(undefined, onError) : value;
}

/**
 * Runs `step` on each item in order, the next once the one before is done: at once while
 * every step answers at once, a promise from the first step that waits. The first throw or
 * rejection stops the walk and passes through.
 */
export function eachMaybe<T>(
  items: readonly T[],
  step: (item: T) => MaybePromise<unknown>,
  from = 0,
): void | Promise<void> {
  for (let i = from; i < items.length; i++) {
    const done = step(items[i] as T);
    if (isPromiseLike(done)) return Promise.resolve(done).then(() => eachMaybe(items, step, i + 1));
  }
}

/**
 * The first truthy answer of `ask` over the items in order (undefined when none), asking the
 * next item only once the one before answered: at once while every answer came at once.
 */
export function firstMaybe<T, R>(
  items: readonly T[],
  ask: (item: T) => MaybePromise<R | null | undefined | false>,
  from = 0,
): R | undefined | Promise<R | undefined> {
  for (let i = from; i < items.length; i++) {
    const answer = ask(items[i] as T);
    if (isPromiseLike(answer))
      return Promise.resolve(answer).then((found) => found || firstMaybe(items, ask, i + 1));
    if (answer) return answer;
  }
  return undefined;
}

/**
 * Runs `step` on every item at once, side by side, and waits for those that answered with a
 * thenable: undefined when none did. The first rejection passes through; a step whose error
 * must not hide the others' catches it itself (see {@link catchMaybe}).
 */
export function allMaybe<T>(
  items: readonly T[],
  step: (item: T) => MaybePromise<unknown>,
): void | Promise<void> {
  let pending: PromiseLike<unknown>[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const done = step(items[i] as T);
    if (isPromiseLike(done)) (pending ??= []).push(done);
  }
  if (pending !== undefined) return Promise.all(pending).then(ignore);
}

function ignore(): void {}

/**
 * Folds the items into one value, each step given the answer of the one before: at once
 * while every step answers at once, a promise from the first step that waits.
 */
export function reduceMaybe<T, A>(
  items: readonly T[],
  initial: A,
  step: (value: A, item: T) => MaybePromise<A>,
  from = 0,
): A | Promise<A> {
  let value = initial;
  for (let i = from; i < items.length; i++) {
    const next = step(value, items[i] as T);
    if (isPromiseLike(next))
      return Promise.resolve(next).then((settled) => reduceMaybe(items, settled, step, i + 1));
    value = next;
  }
  return value;
}
