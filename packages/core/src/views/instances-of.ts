/**
 * One instance of each class of a list, as views make their renderers, permissions and
 * filter backends per request.
 * @module
 */

/**
 * One new instance of each class, in order: a plain loop, where `classes.map((C) => new C())`
 * made a closure per call on the request path.
 *
 * @example
 * ```ts
 * const renderers = instancesOf<Renderer>([JSONRenderer, BrowsableAPIRenderer]);
 * renderers[0]?.mediaType; // 'application/json'
 * ```
 */
export function instancesOf<T>(classes: readonly (new () => T)[]): T[] {
  const made = new Array<T>(classes.length);
  for (let i = 0; i < classes.length; i++) made[i] = new (classes[i] as new () => T)();
  return made;
}
