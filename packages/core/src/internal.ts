/**
 * `@restframework/core/internal`: the toolkit's own building blocks, exported for
 * `@restframework/tricks` and for the toolkit's tests.
 *
 * **No semver promise**: anything here may change or go in any release, minor and patch
 * included. An application imports from `@restframework/core` (and `@restframework/core/testing`
 * in its tests); what it finds only here is not meant for it. Why each name is internal is listed
 * in docs/use-in-your-project.md ("What is public").
 *
 * @example
 * ```ts
 * import { labelFromName } from '@restframework/core/internal';
 *
 * labelFromName('first_name'); // 'First name'
 * ```
 * @module
 */
export { COMMON_PASSWORDS } from './auth/common-passwords.ts';
export { UNABLE_TO_LOG_IN, userFromCredentials } from './auth/login-credentials.ts';
export { randomKey } from './auth/random-key.ts';
export { type ResolvedSessionOptions, requestCookie } from './auth/sessions.ts';
export { tokenDigest } from './auth/tokens.ts';
export { authOf } from './authentication/basic-authentication.ts';
export { jwtOf } from './authentication/jwt-authentication.ts';
export { foldEach } from './db/fold-case.ts';
export { reverseTerm } from './db/order-term.ts';
export {
  logUnavailable,
  UNAVAILABLE_LOG_INTERVAL_MS,
  type WarningLog,
} from './db/unavailable-log.ts';
export { type EmailAddressOptions, isEmailAddress } from './fields/email-address.ts';
export { allowNullIn, queriesDatabase } from './fields/field.ts';
export { codePointLength } from './fields/validators.ts';
export { DEFAULT_FILE_NAME } from './files/file-system-storage.ts';
export { filterClassFor, MAX_IN_VALUES } from './filters/field-filter.ts';
export { MAX_SEARCH_LENGTH, MAX_SEARCH_TERMS, searchTerms } from './filters/search-terms.ts';
export { parseAccept, requestMediaType } from './http/content-negotiation.ts';
export { sendResponse } from './http/send-response.ts';
export { MultipartError, type MultipartFailure } from './parsers/multipart-error.ts';
export {
  type PartHeader,
  type PartHeaderLimits,
  type RawPartHeader,
  readPartHeader,
} from './parsers/multipart-part-header.ts';
export {
  type MultipartLimits,
  type MultipartPart,
  multipartBoundary,
  multipartParts,
} from './parsers/multipart-parts.ts';
export { isAllowedHost } from './plugin/allowed-hosts.ts';
export { clientErrorHandler, frameworkErrors } from './plugin/server-options.ts';
export {
  buildModelField,
  INTEGER_RANGES,
  modelFieldOptions,
  uniqueMessage,
} from './serializers/model-field-mapping.ts';
export { setValue } from './serializers/set-value.ts';
export {
  BoundedCache,
  CacheSet,
  type CacheStats,
  ownPlan,
  processCaches,
} from './utils/bounded-cache.ts';
export {
  allMaybe,
  catchMaybe,
  eachMaybe,
  firstMaybe,
  isPromiseLike,
  type MaybePromise,
  reduceMaybe,
  thenMaybe,
} from './utils/maybe-promise.ts';
export { labelFromName } from './utils/text.ts';
export { removeQueryParam, replaceQueryParam } from './utils/urls.ts';
