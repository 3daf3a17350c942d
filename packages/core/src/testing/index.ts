/**
 * `@restframework/core/testing`: helpers for the tests of applications and add-ons.
 * @module @restframework/core/testing
 */

export {
  APIClient,
  APIRequestFactory,
  type APIRequestFactoryOptions,
  type RequestFormat,
  type RequestOptions,
} from './api-client.ts';
export { assertImproperlyConfigured } from './assert-improperly-configured.ts';
export {
  bindField,
  type FieldValuesSpec,
  fieldErrors,
  fieldValues,
  type InvalidInput,
  type Output,
  SKIPPED,
  show,
  testRunContext,
  type ValidInput,
  validateField,
} from './field-values.ts';
export {
  MULTIPART_BOUNDARY,
  type MultipartFilePart,
  type MultipartPart,
  type MultipartValuePart,
  multipartBody,
} from './multipart.ts';
export { type TestDialect, testDialects, testMysqlUrl, testPostgresUrl } from './test-databases.ts';
