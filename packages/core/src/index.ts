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
export { ImproperlyConfigured } from './errors/improperly-configured.ts';
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
export { labelFromName } from './utils/text.ts';
