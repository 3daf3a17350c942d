/**
 * `@restframework/core/testing`: helpers for the tests of applications and add-ons.
 * @module
 */
export { type TestDialect, testDialects, testPostgresUrl } from './test-databases.ts';
