/**
 * `@restframework/core`: a Django REST framework-style toolkit for Fastify.
 * @module
 */
export { Database, type DatabaseOptions, type QueryEvent } from './db/database.ts';
export {
  CheckViolationError,
  DatabaseError,
  DatabaseUnavailableError,
  DoesNotExist,
  ForeignKeyViolationError,
  IntegrityError,
  MultipleObjectsReturned,
  NotNullViolationError,
  UniqueViolationError,
} from './db/database-errors.ts';
export { type DialectAdapter, DialectAdapterBase, type ValueReader } from './db/dialect-adapter.ts';
export type { MigrationReport } from './db/migrate.ts';
export { PostgresAdapter, type PostgresAdapterOptions } from './db/postgres-adapter.ts';
export type { ResolvedColumn } from './db/query-paths.ts';
export { type ColumnRef, type Filter, type OrderTerm, QuerySet } from './db/query-set.ts';
export { SqliteAdapter, type SqliteAdapterOptions } from './db/sqlite-adapter.ts';
export {
  API_EXCEPTIONS,
  APIException,
  AuthenticationFailed,
  DisallowedHost,
  type ErrorTree,
  MethodNotAllowed,
  NotAcceptable,
  NotAuthenticated,
  NotFound,
  ParseError,
  PayloadTooLarge,
  PermissionDenied,
  RequestTimeout,
  ServiceUnavailable,
  Throttled,
  UnsupportedMediaType,
  ValidationError,
} from './errors/api-exception.ts';
export { ImproperlyConfigured } from './errors/improperly-configured.ts';
export { BooleanField } from './fields/boolean-field.ts';
export { CharField, type CharFieldOptions } from './fields/char-field.ts';
export { ChoiceField, type ChoiceFieldOptions } from './fields/choice-field.ts';
export { DateField } from './fields/date-field.ts';
export { DateTimeField } from './fields/date-time-field.ts';
export { DecimalField, type DecimalFieldOptions } from './fields/decimal-field.ts';
export { EmailField } from './fields/email-field.ts';
export {
  type AnyField,
  EMPTY,
  type Empty,
  Field,
  type FieldDescription,
  type FieldOptions,
  type RequestLike,
  type RunContext,
  type SerializerContext,
  SkipField,
  type Validator,
} from './fields/field.ts';
export { FileField, type FileFieldOptions } from './fields/file-field.ts';
export { createFormInput, formInputUnder, isFormInput } from './fields/form-input.ts';
export {
  HyperlinkedIdentityField,
  type HyperlinkedIdentityFieldOptions,
} from './fields/hyperlinked-identity-field.ts';
export { IntegerField, type IntegerFieldOptions } from './fields/integer-field.ts';
export {
  PrimaryKeyRelatedField,
  type PrimaryKeyRelatedFieldOptions,
} from './fields/primary-key-related-field.ts';
export { ReadOnlyField } from './fields/read-only-field.ts';
export { uniqueValidator } from './fields/unique-validator.ts';
export { URLField } from './fields/url-field.ts';
export {
  codePointLength,
  maxLengthValidator,
  maxValueValidator,
  minLengthValidator,
  minValueValidator,
} from './fields/validators.ts';
export type { Storage } from './files/storage.ts';
export { UploadedFile } from './files/uploaded-file.ts';
export {
  type AnyModel,
  defineModel,
  type FieldsOf,
  Model,
  type ModelDefinition,
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
export { models, type NullableIf, type RelationField } from './models/model-fields.ts';
export { computed, type ModelProperty } from './models/model-property.ts';
export {
  buildModelField,
  type FieldBuilder,
  INTEGER_RANGES,
  MODEL_FIELD_MAPPING,
  modelFieldOptions,
  uniqueMessage,
} from './serializers/model-field-mapping.ts';
export {
  type FieldPath,
  HyperlinkedModelSerializer,
  ModelSerializer,
  type ModelSerializerDeclaration,
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
  setValue,
} from './serializers/serializer.ts';
export type {
  DeclaredInput,
  DeclaredRepresentation,
  DeepPartial,
  FieldInput,
  FieldRepresentation,
  Input,
  ModelInput,
  ModelRepresentation,
  Representation,
} from './serializers/serializer-types.ts';
export { labelFromName } from './utils/text.ts';
