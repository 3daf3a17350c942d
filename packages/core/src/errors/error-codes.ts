/**
 * Every `REST_ERR_*` code, with one line on what it means: the catalogue `ImproperlyConfigured`
 * and `MigrationError` take their code from, so that a misspelt code is a compile error. Each
 * has a row in `docs/errors.md` (what happens, what to change); a test keeps the two in step.
 * Keep the keys in alphabetical order, as the docs are.
 *
 * @example
 * ```ts
 * import { ERROR_CODES, type ErrorCode } from '@restframework/core';
 *
 * const code: ErrorCode = 'REST_ERR_SETTINGS';
 * console.log(ERROR_CODES[code]); // "A setting is unknown or of the wrong type."
 * ```
 * @module
 */

/** Each code and what it means, in one line. */
export const ERROR_CODES = Object.freeze({
  REST_ERR_AUTH_CONFIG: 'createAuth() got a user model or a permission it cannot use.',
  REST_ERR_BROWSABLE_API:
    'A routed view lists BrowsableAPIRenderer but the browsableApi plugin is not mounted.',
  /** A cache setting or a view's cache policy is wrong (docs/errors.md). */
  REST_ERR_CACHE:
    "CACHES, a cache backend or a view's cachePolicy is wrong (no default, a bad timeout, an unknown cache).",
  REST_ERR_CONDITIONAL:
    "A view's versionField or lastModifiedField names no field of the right kind, or a writable one.",
  REST_ERR_CONFIG: 'The command line found no usable restframework.config file.',
  REST_ERR_CORS: 'The corsHeaders plugin got an origin, a pattern or a max-age it cannot use.',
  REST_ERR_DATABASE_OPTION: 'A database option is out of range.',
  REST_ERR_DATABASE_URL: 'Database.connect() got a URL it does not support.',
  REST_ERR_DIALECT_LIMIT:
    'A model asks for more than the database can store, or it cannot fold case as the others.',
  REST_ERR_EXTRA_ACTION:
    "A view set's extraActions entry is wrong: no such method, an unknown method, a URL path twice.",
  REST_ERR_FIELD_CONTEXT: 'A hyperlinked field rendered without the request in its context.',
  REST_ERR_FIELD_MESSAGE: 'A field failed with an error key it has no message for.',
  REST_ERR_FIELD_NOT_COLUMN:
    "ModelSerializer's create() or update() got a value that is no field of the model.",
  REST_ERR_FIELD_OPTIONS: 'A field has contradictory or missing options.',
  REST_ERR_FIELD_SOURCE: "A field's source names nothing the model has, or an unloaded relation.",
  REST_ERR_FILTERSET: 'A filter set declaration is wrong.',
  REST_ERR_JWT_CONFIG: 'The JWT options are wrong or missing.',
  REST_ERR_MEDIA:
    'serveMedia ran without the restFramework plugin, got a bad prefix or no file-system storage.',
  REST_ERR_MIGRATION_DETECT: 'makemigrations cannot write a change without help.',
  REST_ERR_MIGRATION_FAILED: 'The database refused an operation of a migration.',
  REST_ERR_MIGRATION_FILE: 'A migration file does not load or has the wrong shape.',
  REST_ERR_MIGRATION_GRAPH: 'The migrations do not form a valid history.',
  REST_ERR_MIGRATION_HISTORY: 'The applied migrations and the files disagree.',
  REST_ERR_MIGRATION_IRREVERSIBLE: 'A rollback would undo an irreversible operation.',
  REST_ERR_MIGRATION_LOCKED: 'Another process held the migration lock too long.',
  REST_ERR_MIGRATION_PARTIAL:
    'A migration failed part-way on a database whose DDL commits at once.',
  REST_ERR_MIGRATION_TARGET: 'A migration name matches no migration, or several.',
  REST_ERR_MISSING_PACKAGE: 'An optional package that is needed is not installed.',
  REST_ERR_MODEL_FIELD: 'A model field declaration is wrong.',
  REST_ERR_MODEL_INDEX: 'An index or unique constraint of a model is wrong.',
  REST_ERR_MODEL_NAME: 'A model, table or column name is not a plain identifier.',
  REST_ERR_MODEL_ORDERING: "A model's default ordering names a field it does not have.",
  REST_ERR_MODEL_PATH: 'A query path does not resolve.',
  REST_ERR_MODEL_PROPERTY: 'A model declares one name as both a field and a property.',
  REST_ERR_MODEL_RELATED_NAME:
    'Two relations, or a relation and a field, claim one name on a model.',
  REST_ERR_MODEL_RELATION: 'A relation points to something that is not a model.',
  REST_ERR_MODEL_THROUGH: "A many-to-many relation's through model lacks its two keys.",
  REST_ERR_NESTED_PROXY: 'A nested proxy field or serializer is wrong.',
  REST_ERR_NESTED_WRITES:
    'A ModelSerializer would write a nested value its create()/update() cannot.',
  REST_ERR_NO_DATABASE: 'A query ran with no database.',
  REST_ERR_NO_STORAGE: 'A serializer saved a file without a storage.',
  REST_ERR_OPENAPI_DOCS: 'openApi was registered wrongly or lacks swagger-ui-dist.',
  REST_ERR_ORDERING_FIELDS: "A view set's orderingFields is malformed.",
  REST_ERR_PASSWORD_HASHER: 'The password hashers are misconfigured.',
  REST_ERR_PREFETCH: 'A prefetchRelated lookup or Prefetch is wrong.',
  REST_ERR_QUERY_EXPRESSION: 'A query expression is used where it cannot be, or names nothing.',
  REST_ERR_QUERY_LOOKUP: 'A lookup got a value of the wrong kind.',
  REST_ERR_QUERY_SLICE: 'slice() got a bound that is not an integer.',
  REST_ERR_ROUTER: 'A router registration is wrong, or the router came before restFramework.',
  REST_ERR_ROUTE_NAME: 'A route name is used twice, unknown, or reversed without its parameters.',
  REST_ERR_SEARCH_FIELDS: "A view's searchFields is wrong.",
  REST_ERR_SERIALIZER_FIELD: 'A ModelSerializer lists a field that does not exist.',
  REST_ERR_SERIALIZER_META: 'A ModelSerializer declaration is wrong.',
  REST_ERR_SERIALIZER_OPTION: 'A serializer declaration has an unknown option.',
  REST_ERR_SERIALIZER_USAGE: 'A serializer is used out of order.',
  /** `serve` or its probes got an option they cannot use (docs/errors.md). */
  REST_ERR_SERVE: 'serve got an option it cannot use, or the config file has no createApp for it.',
  REST_ERR_SESSION_STORE: 'RedisSessionStore got both url and client, or neither.',
  REST_ERR_SETTINGS: 'A setting is unknown or of the wrong type.',
  /** `S3Storage` or `s3StorageOptionsFromEnv` got an option it cannot use (docs/errors.md). */
  REST_ERR_STORAGE: 'A storage got a bucket, region, endpoint or limit it cannot use.',
  REST_ERR_THROTTLE_RATE: 'A throttle has no usable rate.',
  REST_ERR_THROTTLE_STORE: 'RedisThrottleStore got contradictory or missing options.',
  REST_ERR_TRANSACTION: 'A query that needs a transaction ran outside one.',
  REST_ERR_VIEW_CONFIG: 'A view lacks its query set or serializer, or its lookup parameter.',
} as const);

/** A `REST_ERR_*` code: one of {@link ERROR_CODES}. */
export type ErrorCode = keyof typeof ERROR_CODES;
