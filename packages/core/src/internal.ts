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

// For the toolkit's own tests only (see docs/use-in-your-project.md): units checked directly.
export { authorizationWords } from './accounts/authentication/authorization-header.ts';
export { authOf } from './accounts/authentication/basic-authentication.ts';
export { jwtOf } from './accounts/authentication/jwt-authentication.ts';
export { COMMON_PASSWORDS } from './accounts/common-passwords.ts';
export { UNABLE_TO_LOG_IN, userFromCredentials } from './accounts/login-credentials.ts';
export { randomKey } from './accounts/random-key.ts';
export { type ResolvedSessionOptions, requestCookie } from './accounts/sessions.ts';
export { tokenDigest } from './accounts/tokens.ts';
export { foldEach } from './db/fold-case.ts';
export { reverseTerm } from './db/order-term.ts';
export {
  logUnavailable,
  UNAVAILABLE_LOG_INTERVAL_MS,
  type WarningLog,
} from './db/unavailable-log.ts';
export { isRealDate } from './fields/date-field.ts';
export { type EmailAddressOptions, isEmailAddress } from './fields/email-address.ts';
export { allowNullIn, queriesDatabase } from './fields/field.ts';
export { codePointLength } from './fields/validators.ts';
export { DEFAULT_FILE_NAME } from './files/file-system-storage.ts';
export { filterClassFor, MAX_IN_VALUES } from './filters/field-filter.ts';
export { MAX_SEARCH_LENGTH, MAX_SEARCH_TERMS, searchTerms } from './filters/search-terms.ts';
export { parseAccept, requestMediaType } from './http/content-negotiation.ts';
export { sendResponse } from './http/send-response.ts';
export { renameCandidates } from './migrations/autodetector.ts';
export { FIELD_KINDS } from './migrations/field-spec.ts';
export { clearPrefetched, getPrefetched, setPrefetched } from './models/prefetched-rows.ts';
export {
  contentTypeCharset,
  decodeBody,
  decodeStrictly,
  jsonTooDeep,
} from './parsers/body-text.ts';
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
export { formSkeleton, hasFileField } from './renderers/browsable-api/form-skeleton.ts';
export { fallback, valueLookup } from './renderers/browsable-api/form-values.ts';
export { htmlForm } from './renderers/browsable-api/html-form.ts';
export { jsonToHtml } from './renderers/browsable-api/json-html.ts';
export { relatedOptions } from './renderers/browsable-api/related-options.ts';
export { staticUrl } from './renderers/browsable-api/static-assets.ts';
export { STATIC_ROUTE } from './renderers/browsable-api/static-route.ts';
export { parseRoute, routeKwargs } from './routers/lookup-patterns.ts';
export type { RoutePlan } from './routers/route-plan.ts';
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
export { Decimal } from './utils/decimal.ts';
export { deepFreeze, isDeepFrozen } from './utils/immutable.ts';
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
export { requireOptional } from './utils/optional-dependency.ts';
export { safeNextUrl } from './utils/safe-next-url.ts';
export { interpolate, labelFromName } from './utils/text.ts';
export { quotePlus, removeQueryParam, replaceQueryParam } from './utils/urls.ts';
export { httpMethodName } from './views/http-method-name.ts';
export { integerKey } from './views/integer-key.ts';
