/**
 * `@restframework/core`: a Django REST framework-style toolkit for Fastify.
 * @module @restframework/core
 */

export { type Argon2Library, Argon2PasswordHasher } from './accounts/argon2-password-hasher.ts';
export {
  Auth,
  type AuthenticatedUser,
  type AuthFor,
  type AuthOptions,
  type CreateSuperuserOptions,
  changePassword,
  createAuth,
  createSuperuser,
  defaultAuth,
  MODEL_ACTIONS,
  type NewUser,
  permissionCodename,
  type UserRow,
} from './accounts/auth.ts';
export {
  type Authentication,
  type AuthenticationClass,
  type AuthenticationResult,
  BaseAuthentication,
} from './accounts/authentication/authentication.ts';
export { BasicAuthentication } from './accounts/authentication/basic-authentication.ts';
export { JWTAuthentication } from './accounts/authentication/jwt-authentication.ts';
export { SessionAuthentication } from './accounts/authentication/session-authentication.ts';
export { TokenAuthentication } from './accounts/authentication/token-authentication.ts';
export {
  BCryptPasswordHasher,
  BCryptSHA256PasswordHasher,
} from './accounts/bcrypt-password-hashers.ts';
export {
  Jwt,
  type JwtAlgorithm,
  type JwtClaims,
  type JwtOptions,
  type TokenPair,
} from './accounts/jwt.ts';
export { LoginRateThrottle } from './accounts/login-credentials.ts';
export {
  defaultPasswordHashers,
  MAX_PASSWORD_LENGTH,
  makeSalt,
  type PasswordCheck,
  type PasswordHasher,
  PasswordHashers,
  PBKDF2PasswordHasher,
  ScryptPasswordHasher,
  UNUSABLE_PASSWORD_PREFIX,
  unusablePassword,
} from './accounts/password-hashers.ts';
export {
  CommonPasswordValidator,
  defaultPasswordValidators,
  MinimumLengthValidator,
  NumericPasswordValidator,
  type PasswordValidator,
  UserAttributeSimilarityValidator,
  type UserAttributes,
  validatePassword,
} from './accounts/password-validators.ts';
export {
  RedisSessionStore,
  type RedisSessionStoreOptions,
} from './accounts/redis-session-store.ts';
export {
  DatabaseSessionStore,
  type SessionStore,
  type StoredSession,
} from './accounts/session-store.ts';
export { clearExpiredSessions, type SessionOptions } from './accounts/sessions.ts';
export { issueToken, obtainToken } from './accounts/tokens.ts';
export { defineUserModel, type UserModelDefinition, userFields } from './accounts/user-model.ts';
export {
  TokenBlacklistView,
  TokenObtainPairView,
  TokenRefreshView,
  TokenVerifyView,
} from './accounts/views/jwt-views.ts';
export { LoginSerializer, LoginView } from './accounts/views/login-view.ts';
export { ObtainAuthToken } from './accounts/views/obtain-auth-token.ts';
export { SessionLoginView, SessionLogoutView } from './accounts/views/session-views.ts';
export {
  BaseCache,
  type Cache,
  CacheKeyMissing,
  type CacheOptions,
  type CacheValue,
  type Timeout,
} from './cache/cache.ts';
export { MemoryCache, type MemoryCacheOptions } from './cache/memory-cache.ts';
export { RedisCache, type RedisCacheOptions } from './cache/redis-cache.ts';
export type { Command, CommandContext } from './cli/command.ts';
export {
  defineConfig,
  type LoadedConfig,
  loadConfig,
  type ProjectConfig,
} from './cli/project-config.ts';
export { type CliIo, runCli } from './cli/run-cli.ts';
export type { BulkCreateOptions } from './db/bulk-create.ts';
export {
  Database,
  type DatabaseOptions,
  type QueryEvent,
  type QueryRouting,
  type RequestWrites,
  type TransactionOptions,
} from './db/database.ts';
export {
  CheckViolationError,
  DatabaseError,
  DatabaseUnavailableError,
  DataError,
  DoesNotExist,
  ForeignKeyViolationError,
  IntegrityError,
  InvalidLookupValueError,
  MultipleObjectsReturned,
  NotNullViolationError,
  UNAVAILABLE_KINDS,
  type UnavailableKind,
  UniqueViolationError,
} from './db/database-errors.ts';
export {
  type DialectAdapter,
  DialectAdapterBase,
  type DialectCapabilities,
  type OpenTransaction,
  type RunStatement,
  type TextMatchMode,
  type ValueReader,
} from './db/dialect/dialect-adapter.ts';
export { MysqlAdapter, type MysqlAdapterOptions } from './db/dialect/mysql/mysql-adapter.ts';
export {
  PostgresAdapter,
  type PostgresAdapterOptions,
} from './db/dialect/postgres/postgres-adapter.ts';
export { SqliteAdapter, type SqliteAdapterOptions } from './db/dialect/sqlite/sqlite-adapter.ts';
export {
  Aggregate,
  type AggregateOptions,
  Avg,
  Count,
  Max,
  Min,
  Sum,
} from './db/expressions/aggregates.ts';
export {
  Exists,
  ExistsExpression,
  type InnerQuery,
  OuterRef,
  OuterReference,
  Subquery,
  SubqueryExpression,
} from './db/expressions/exists.ts';
export { F, FieldReference } from './db/expressions/f.ts';
export { Q, type QChild, QNode } from './db/expressions/q.ts';
export {
  type NullsPlacement,
  OrderBy,
  QueryExpression,
  Value,
  ValueExpression,
} from './db/expressions/query-expression.ts';
export type { AnnotatedRow } from './db/expressions/query-set-expressions.ts';
export { foldAccents } from './db/fold-accents.ts';
export { foldCase } from './db/fold-case.ts';
export { LOOKUPS, type Lookup, lookupsFor } from './db/lookups.ts';
export type { MigrationReport } from './db/migrate.ts';
export type { ResolvedColumn } from './db/plan/query-paths.ts';
export type { CompiledStatement, StatementSlot } from './db/plan/statement-cache.ts';
export { Prefetch, type PrefetchLookup, type PrefetchOptions } from './db/prefetch.ts';
export {
  type ColumnRef,
  type ConditionBuilder,
  type ConditionShape,
  type Filter,
  type OrderTerm,
  QuerySet,
} from './db/query-set.ts';
export type { DatabaseRouter, DatabaseSet, RouterHints } from './db/routing/database-router.ts';
export { Databases } from './db/routing/databases.ts';
export {
  PrimaryReplicaRouter,
  type PrimaryReplicaRouterOptions,
  type ReplicaStatus,
} from './db/routing/primary-replica-router.ts';
export { replicationLagSeconds } from './db/routing/replication-lag.ts';
export type {
  FilterValue,
  MAX_TYPED_RELATIONS,
  RelatedModel,
  RelationName,
  TypedFilter,
} from './db/typed-filter.ts';
export type { CreateValues, UpdateValues } from './db/write-values.ts';
export {
  API_EXCEPTIONS,
  APIException,
  AuthenticationFailed,
  DisallowedHost,
  type ErrorTree,
  InvalidToken,
  MethodNotAllowed,
  NotAcceptable,
  NotAuthenticated,
  NotFound,
  ParseError,
  PayloadTooLarge,
  PermissionDenied,
  PreconditionFailed,
  PreconditionRequired,
  RequestHeaderFieldsTooLarge,
  RequestTimeout,
  ServiceUnavailable,
  StorageUnavailable,
  Throttled,
  UnsupportedMediaType,
  ValidationError,
} from './errors/api-exception.ts';
export { ERROR_CODES, type ErrorCode } from './errors/error-codes.ts';
export { ImproperlyConfigured } from './errors/improperly-configured.ts';
export { BooleanField } from './fields/boolean-field.ts';
export { CharField, type CharFieldOptions } from './fields/char-field.ts';
export { ChoiceField, type ChoiceFieldOptions } from './fields/choice-field.ts';
export { CreateOnlyDefault, CurrentUserDefault } from './fields/context-defaults.ts';
export { DateField, type DateFieldOptions } from './fields/date-field.ts';
export { checkDateFormat, type DateFormat, formatDate } from './fields/date-format.ts';
export { DateTimeField, type DateTimeFieldOptions } from './fields/date-time-field.ts';
export { DecimalField, type DecimalFieldOptions } from './fields/decimal-field.ts';
export { DictField, type DictFieldOptions } from './fields/dict-field.ts';
export { DurationField, durationString, parseDuration } from './fields/duration-field.ts';
export { EmailField } from './fields/email-field.ts';
export {
  type AnyField,
  type ContextDefault,
  EMPTY,
  type Empty,
  Field,
  type FieldDescription,
  type FieldOptions,
  type JsonSchema,
  type JsonSchemaOptions,
  markQueriesDatabase,
  type OnlyKnown,
  type RequestLike,
  type RunContext,
  type SerializerContext,
  SKIPPED,
  SkipField,
  type Validator,
} from './fields/field.ts';
export { FileField, type FileFieldOptions } from './fields/file-field.ts';
export { FloatField, type FloatFieldOptions } from './fields/float-field.ts';
export {
  appendFormInput,
  createFormInput,
  formInputList,
  formInputUnder,
  isFormInput,
} from './fields/form-input.ts';
export { HiddenField, type HiddenFieldOptions } from './fields/hidden-field.ts';
export {
  HyperlinkedIdentityField,
  type HyperlinkedIdentityFieldOptions,
} from './fields/hyperlinked-identity-field.ts';
export {
  HyperlinkedRelatedField,
  type HyperlinkedRelatedFieldOptions,
} from './fields/hyperlinked-related-field.ts';
export { IntegerField, type IntegerFieldOptions } from './fields/integer-field.ts';
export { IPAddressField, type IPAddressFieldOptions } from './fields/ip-address-field.ts';
export { JSONField, type JSONFieldOptions } from './fields/json-field.ts';
export { ListField, type ListFieldOptions } from './fields/list-field.ts';
export {
  DEFAULT_MANY_MAX_LENGTH,
  ManyRelatedField,
  type ManyRelatedFieldOptions,
} from './fields/many-related-field.ts';
export {
  MultipleChoiceField,
  type MultipleChoiceFieldOptions,
} from './fields/multiple-choice-field.ts';
export {
  PrimaryKeyRelatedField,
  type PrimaryKeyRelatedFieldOptions,
} from './fields/primary-key-related-field.ts';
export { ReadOnlyField } from './fields/read-only-field.ts';
export { RegexField, type RegexFieldOptions } from './fields/regex-field.ts';
export {
  type HasRelatedChoices,
  HTML_CUTOFF,
  hasRelatedChoices,
  type RelatedChoice,
  relatedChoices,
} from './fields/related-choices.ts';
export {
  type MethodResult,
  SerializerMethodField,
  type SerializerMethodFieldOptions,
} from './fields/serializer-method-field.ts';
export { SlugField } from './fields/slug-field.ts';
export {
  SlugRelatedField,
  type SlugRelatedFieldOptions,
} from './fields/slug-related-field.ts';
export {
  StringRelatedField,
  type StringRelatedFieldOptions,
} from './fields/string-related-field.ts';
export { TimeField } from './fields/time-field.ts';
export {
  runUniqueTogether,
  type UniqueTogetherOptions,
  uniqueTogetherValidator,
} from './fields/unique-together-validator.ts';
export { uniqueValidator } from './fields/unique-validator.ts';
export { UnvalidatedField } from './fields/unvalidated-field.ts';
export { URLField } from './fields/url-field.ts';
export { UUIDField } from './fields/uuid-field.ts';
export {
  maxLengthValidator,
  maxValueValidator,
  minLengthValidator,
  minValueValidator,
} from './fields/validators.ts';
export {
  FileSystemStorage,
  type FileSystemStorageOptions,
  getValidFileName,
  SuspiciousFileOperation,
} from './files/file-system-storage.ts';
export { FileTooLarge } from './files/file-too-large.ts';
export { S3Storage, type S3StorageOptions, type StoredObject } from './files/s3-storage.ts';
export { s3StorageOptionsFromEnv } from './files/s3-storage-options-from-env.ts';
export { MEDIA_SECURITY_HEADERS, type ServeMediaOptions, serveMedia } from './files/serve-media.ts';
export { StagedUpload } from './files/staged-upload.ts';
export type { SaveOptions, Storage } from './files/storage.ts';
export { storedNameCandidates } from './files/stored-name.ts';
export { OversizedUpload, UploadedFile } from './files/uploaded-file.ts';
export {
  DjangoFilterBackend,
  type FilterParameters,
  type FilterView,
} from './filters/django-filter-backend.ts';
export {
  BooleanFilter,
  CharFilter,
  ChoiceFilter,
  DateFilter,
  DateTimeFilter,
  FieldFilter,
  type FieldFilterOptions,
  type FilterChoice,
  type FilterMethod,
  FilterValueError,
  ModelChoiceFilter,
  NumberFilter,
  type ValueSchema,
} from './filters/field-filter.ts';
export {
  BaseFilterBackend,
  type FilterBackend,
  type FilterBackendClass,
} from './filters/filter-backend.ts';
export {
  type BoundFilter,
  type FilterErrors,
  FilterSet,
  type FilterSetDeclaration,
  type FiltersetFields,
  type PreparedFilterSet,
} from './filters/filter-set.ts';
export {
  MAX_CHOICES,
  ModelMultipleChoiceFilter,
  type ModelMultipleChoiceFilterOptions,
} from './filters/model-multiple-choice-filter.ts';
export {
  type OrderingChoice,
  type OrderingDescription,
  OrderingFilter,
  type OrderingOption,
  type OrderingView,
} from './filters/ordering-filter.ts';
export { type SearchField, SearchFilter, type SearchView } from './filters/search-filter.ts';
export {
  type EntityTagList,
  evaluatePreconditions,
  formatHttpDate,
  type PreconditionOutcome,
  parseEntityTags,
  parseHttpDate,
  strongMatch,
  type Validators,
  weakMatch,
} from './http/conditional-headers.ts';
export { DefaultContentNegotiation } from './http/content-negotiation.ts';
export {
  ANONYMOUS_USER,
  type AnonymousUser,
  type QueryParams,
  Request,
  type RequestUser,
} from './http/request.ts';
export { type RenderedBody, Response } from './http/response.ts';
export { type Metadata, type MetadataClass, SimpleMetadata } from './metadata/simple-metadata.ts';
export { type ApplyMigrationsOptions, applyMigrations } from './migrations/apply-migrations.ts';
export { type AutodetectorOptions, detectChanges } from './migrations/autodetector.ts';
export type { FieldSpec, JsonValue } from './migrations/field-spec.ts';
export {
  type MadeMigration,
  type MakeMigrationOptions,
  makeMigration,
} from './migrations/make-migration.ts';
export type { LoadedMigration, Migration } from './migrations/migration.ts';
export { MigrationError } from './migrations/migration-error.ts';
export {
  type MigrateOptions,
  type MigrateResult,
  MigrationExecutor,
  type PlanStep,
} from './migrations/migration-executor.ts';
export { MigrationGraph } from './migrations/migration-graph.ts';
export { loadMigrations } from './migrations/migration-loader.ts';
export { type MigrationProgress, MigrationRecorder } from './migrations/migration-recorder.ts';
export { writeMigration } from './migrations/migration-writer.ts';
export type { IndexSpec, ModelSpec } from './migrations/model-spec.ts';
export type { OperationContext, OperationKind } from './migrations/operations/operation.ts';
export type { Operation } from './migrations/operations/operation-registry.ts';
export type { RunCodeContext } from './migrations/operations/run-code.ts';
export { ProjectState } from './migrations/project-state.ts';
export { SchemaEditor, type SchemaProgress } from './migrations/schema-editor.ts';
export {
  type AnyManyToManyField,
  ManyToManyField,
  type ManyToManyOptions,
} from './models/many-to-many-field.ts';
export {
  type AnyModel,
  type BoundProperties,
  defineModel,
  type FieldsOf,
  type GroupValue,
  Model,
  type ModelDefinition,
  type ModelIndex,
  type NamedIndex,
  type PrimaryKey,
  type PropertyValue,
  type Row,
} from './models/model.ts';
export {
  type AnyModelField,
  type Choice,
  ModelField,
  type ModelFieldExtra,
  type ModelFieldKind,
  type ModelFieldOptions,
  type OnDelete,
} from './models/model-field.ts';
export {
  type ChoiceValues,
  type ColumnValue,
  models,
  type NullableIf,
  type RelationField,
} from './models/model-fields.ts';
export type { ModelPath, OrderingTerm } from './models/model-path.ts';
export {
  computed,
  type GroupMember,
  type GroupProperty,
  type ModelProperty,
} from './models/model-property.ts';
export type { ModelRegistry, ReverseRelationsOf } from './models/model-registry.ts';
export { RelatedSet, type RelatedSetPlan, type RowOrKey } from './models/related-set.ts';
export { type ReverseRelation, ReverseRelations, reverseName } from './models/reverse-relations.ts';
export { UniqueConstraint, type UniqueConstraintSpec } from './models/unique-constraint.ts';
export {
  type AnnotationOrderTerm,
  type Cursor,
  type CursorOrderTerm,
  CursorPagination,
} from './pagination/cursor-pagination.ts';
export { LimitOffsetPagination } from './pagination/limit-offset-pagination.ts';
export {
  displayedPageNumbers,
  type PageLink,
  type PaginationHtmlContext,
  pageLinks,
} from './pagination/page-links.ts';
export { PageNumberPagination } from './pagination/page-number-pagination.ts';
export { clientPageSize, type Pagination, type PaginationClass } from './pagination/pagination.ts';
export { FormParser } from './parsers/form-parser.ts';
export { JSONParser } from './parsers/json-parser.ts';
export { DEFAULT_UPLOAD_TEMP_DIR, MultiPartParser } from './parsers/multi-part-parser.ts';
export { BaseParser, type Parser, type ParserClass, type ParserContext } from './parsers/parser.ts';
export { and, not, or } from './permissions/composition.ts';
export {
  DjangoModelPermissions,
  DjangoModelPermissionsOrAnonReadOnly,
} from './permissions/django-model-permissions.ts';
export {
  AllowAny,
  BasePermission,
  IsAdminUser,
  IsAuthenticated,
  IsAuthenticatedOrReadOnly,
  type Permission,
  type PermissionClass,
} from './permissions/permissions.ts';
export {
  type CorsHeadersOptions,
  corsHeaders,
  corsOptions,
  DEFAULT_CORS_HEADERS,
  DEFAULT_CORS_METHODS,
} from './plugin/cors-headers.ts';
export { defaultSettings, resolveSettings } from './plugin/default-settings.ts';
export {
  type RestFrameworkOptions,
  type RestFrameworkState,
  restFramework,
  SECURITY_HEADERS,
} from './plugin/rest-framework.ts';
export {
  type ServerOptionsInput,
  serverOptions,
  type ToolkitServerOptions,
} from './plugin/server-options.ts';
export { browsableApi } from './renderers/browsable-api/browsable-api-plugin.ts';
export { BrowsableAPIRenderer } from './renderers/browsable-api/browsable-api-renderer.ts';
export type {
  AccountLinks,
  Crumb,
  FilterControl,
  FilterFormField,
  FormsSpec,
  PageContext,
} from './renderers/browsable-api/page.ts';
export { attrs, escapeHtml, html, SafeHtml } from './renderers/html.ts';
export { JSONRenderer } from './renderers/json-renderer.ts';
export {
  BaseRenderer,
  type RenderContext,
  type Renderer,
  type RendererClass,
} from './renderers/renderer.ts';
export { DefaultRouter } from './routers/default-router.ts';
export type { Endpoint } from './routers/endpoint.ts';
export {
  LOOKUP_CONVERTERS,
  type LookupConverter,
  type ParamPattern,
} from './routers/lookup-patterns.ts';
export {
  type NestedRouterOptions,
  NestedSimpleRouter,
} from './routers/nested-simple-router.ts';
export type {
  ConverterValues,
  Kwargs,
  KwargsFit,
  PathKwargs,
} from './routers/path-kwargs.ts';
export {
  type PathOptions,
  type RegisterOptions,
  type RouterOptions,
  type RouteShape,
  SimpleRouter,
  type ViewSetClass,
} from './routers/simple-router.ts';
export { type NamedRoute, type ResolvedRoute, UrlRegistry } from './routers/url-registry.ts';
export {
  DOCS_CONTENT_SECURITY_POLICY,
  type OpenAPIOptions,
  openApi,
} from './schemas/openapi-plugin.ts';
export {
  type OpenAPIDocument,
  SchemaGenerator,
  type SchemaGeneratorOptions,
  type SchemaSource,
} from './schemas/schema-generator.ts';
export { type FieldBuilder, MODEL_FIELD_MAPPING } from './serializers/model-field-mapping.ts';
export {
  type FieldPath,
  HyperlinkedModelSerializer,
  ModelSerializer,
  type ModelSerializerDeclaration,
  type ModelSerializerOptions,
} from './serializers/model-serializer.ts';
export {
  type AnyDeclaration,
  type DeclarationTypes,
  type ListOptions,
  ListSerializer,
  type PreparedSerializer,
  Serializer,
  type SerializerClassWith,
  type SerializerDeclaration,
  type SerializerOptions,
} from './serializers/serializer.ts';
export type {
  CreateInput,
  DeepPartial,
  Input,
  PartialInput,
  Representation,
  UpdateInput,
} from './serializers/serializer-types.ts';
export {
  type CheckResult,
  type HealthChecksOptions,
  healthChecks,
} from './server/health-checks.ts';
export {
  type MetricsOptions,
  type MetricsRegistry,
  metrics,
  type PoolStats,
} from './server/metrics.ts';
export { genReqId, REQUEST_ID_PATTERN } from './server/request-id.ts';
export { type ServeOptions, type ServeResult, serve } from './server/serve.ts';
export type { APISettings, SettingsInput } from './settings/api-settings.ts';
export { parseRate, type Rate } from './throttling/parse-rate.ts';
export {
  RedisThrottleStore,
  type RedisThrottleStoreOptions,
  type WhenUnavailable,
} from './throttling/redis-throttle-store.ts';
export {
  MemoryThrottleStore,
  type MemoryThrottleStoreOptions,
  type ThrottleDecision,
  type ThrottleStore,
} from './throttling/throttle-store.ts';
export {
  AnonRateThrottle,
  BaseThrottle,
  ScopedRateThrottle,
  SimpleRateThrottle,
  type Throttle,
  type ThrottleClass,
  type ThrottledView,
  type ThrottleEvent,
  UserRateThrottle,
} from './throttling/throttles.ts';
export { isPromiseLike, type MaybePromise } from './utils/maybe-promise.ts';
export {
  AcceptHeaderVersioning,
  BaseVersioning,
  HostNameVersioning,
  NamespaceVersioning,
  QueryParameterVersioning,
  URLPathVersioning,
  type Versioning,
  type VersioningClass,
} from './versioning/versioning.ts';
export { APIView, HTTP_METHOD_NAMES } from './views/api-view.ts';
export {
  type CacheEvent,
  type CachePageOptions,
  type CachePolicy,
  cachePage,
} from './views/cache-page.ts';
export {
  type ExceptionContext,
  type ExceptionHandler,
  exceptionHandler,
} from './views/exception-handler.ts';
export type {
  ActionMethod,
  ActionName,
  ActionOptions,
  ExtraActions,
} from './views/extra-actions.ts';
export { GenericAPIView, type SerializerClass } from './views/generic-api-view.ts';
export {
  CreateAPIView,
  DestroyAPIView,
  ListAPIView,
  ListCreateAPIView,
  RetrieveAPIView,
  RetrieveDestroyAPIView,
  RetrieveUpdateAPIView,
  RetrieveUpdateDestroyAPIView,
  UpdateAPIView,
} from './views/generics.ts';
export {
  CreateModelMixin,
  DestroyModelMixin,
  type GenericViewClass,
  ListModelMixin,
  RetrieveModelMixin,
  UpdateModelMixin,
} from './views/mixins.ts';
export {
  GenericViewSet,
  ModelViewSet,
  ReadOnlyModelViewSet,
  ViewSet,
  type ViewSetState,
} from './views/viewsets.ts';
