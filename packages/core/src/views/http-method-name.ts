/**
 * The lower-case name of a request method, as handlers and action maps are named.
 * @module
 */

/**
 * `method` in lower case (`GET` → `get`): Fastify's upper-case methods by a `switch`, where
 * `toLowerCase()` made a new string on every request; any other text as `toLowerCase()` has it.
 *
 * @example
 * ```ts
 * httpMethodName('PATCH'); // 'patch'
 * httpMethodName('Get'); // 'get'
 * ```
 */
export function httpMethodName(method: string): string {
  switch (method) {
    case 'GET':
      return 'get';
    case 'HEAD':
      return 'head';
    case 'POST':
      return 'post';
    case 'PUT':
      return 'put';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return 'delete';
    case 'OPTIONS':
      return 'options';
    case 'TRACE':
      return 'trace';
    default:
      return method.toLowerCase();
  }
}
