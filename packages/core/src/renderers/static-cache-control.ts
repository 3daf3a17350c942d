/**
 * The `Cache-Control` of files the toolkit serves under names that carry their content (the
 * browsable API's stylesheet and script, Swagger UI's files under its version). Its own module
 * so that the OpenAPI plugin can use it without loading the browsable API.
 * @module
 */

/** Cached for a year, never re-validated: a new content comes under a new name. */
export const STATIC_CACHE_CONTROL = 'public, max-age=31536000, immutable';
