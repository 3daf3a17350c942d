/**
 * Stack traces for errors that are answers, not bugs. A client's mistake (a field that fails
 * validation, a missing row, a refused permission) is thrown as an exception and becomes a
 * 4xx response; nobody reads its stack, and capturing one costs microseconds per error: a body
 * failing in many fields made each error on the way (the leaf's, then each nested
 * serializer's) capture one, and an invalid request cost several times a valid one.
 * @module
 */

/**
 * Turns stack capture off until {@link resumeStackTraces} is given the returned limit. Call
 * the two around `super(...)` in the constructor of an error class that is control flow.
 *
 * @example
 * ```ts
 * class Refused extends Error {
 *   constructor(message: string) {
 *     const limit = suspendStackTraces();
 *     super(message);
 *     resumeStackTraces(limit);
 *   }
 * }
 * ```
 */
export function suspendStackTraces(): number {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return limit;
}

/** Restores the limit {@link suspendStackTraces} returned. */
export function resumeStackTraces(limit: number): void {
  Error.stackTraceLimit = limit;
}
