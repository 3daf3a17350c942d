/**
 * Where the browsable API's own files are served. Apart from `static-assets.ts` (which reads
 * the files) so that the plugin can look for the route without loading them.
 * @module
 */

/** Where the toolkit serves its files. */
export const STATIC_PREFIX = '/__restframework/static/';

/** The route of the files (`/__restframework/static/browsable-api.<hash>.css`). */
export const STATIC_ROUTE = `${STATIC_PREFIX}:file`;
