/**
 * A field as a migration file writes it: plain data (no functions, no model objects), so the
 * state a migration produces can be replayed from the files alone, compared, and written back.
 * @module
 */
import type { AnyManyToManyField } from '../models/many-to-many-field.ts';
import type { AnyModelField, Choice, ModelFieldKind, OnDelete } from '../models/model-field.ts';

/** A field kind in a migration file: a column's, or `many_to_many` (a join table). */
export type FieldSpecKind = ModelFieldKind | 'many_to_many';

/** Every field kind, for checking migration files written by hand. */
export const FIELD_KINDS: readonly FieldSpecKind[] = [
  'auto',
  'char',
  'text',
  'email',
  'url',
  'integer',
  'positive_integer',
  'big_integer',
  'small_integer',
  'positive_small_integer',
  'float',
  'decimal',
  'boolean',
  'date',
  'datetime',
  'time',
  'duration',
  'slug',
  'uuid',
  'json',
  'foreign_key',
  'one_to_one',
  'file',
  'many_to_many',
];

/** A JSON value: what a default can be in a migration file. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue };

/**
 * One column in a migration file. Only what the database or the history needs: a field's
 * serializer-only options (`blank`, `verboseName`, `helpText`, `editable`) are not part of it.
 *
 * @example
 * ```ts
 * const title: FieldSpec = { kind: 'char', maxLength: 100, unique: true };
 * ```
 */
export interface FieldSpec {
  /** The kind of column (`char`, `integer`, `foreign_key`, `many_to_many`, ...). */
  readonly kind: FieldSpecKind;
  /** The column when it is not the field name (`<name>_id` for a relation). */
  readonly column?: string;
  /** The column is the primary key. */
  readonly primaryKey?: boolean;
  /** The column may hold NULL. */
  readonly null?: boolean;
  /** The column has a unique constraint. */
  readonly unique?: boolean;
  /** The column has an index of its own (`dbIndex: true` on the field). */
  readonly dbIndex?: boolean;
  /** The model's default when it is a plain value (a function default is not recorded). */
  readonly default?: JsonValue;
  /** The field's choices: recorded so that a change of them is a migration, as in Django. */
  readonly choices?: readonly Choice[];
  /** The most characters of a text column. */
  readonly maxLength?: number;
  /** The digits of a decimal column in all. */
  readonly maxDigits?: number;
  /** The digits of a decimal column after the point. */
  readonly decimalPlaces?: number;
  /** The related model's name, for a relation. */
  readonly to?: string;
  /** What deleting the related row does (`CASCADE`, `PROTECT`, ...), for a relation. */
  readonly onDelete?: OnDelete;
  /** A many-to-many's own join model, by name (none: the join table is made for it). */
  readonly through?: string;
  /** A many-to-many's join model keys, when the through model names them. */
  readonly throughFields?: readonly [string, string];
  /** The automatic join table's name, when it is not `<table>_<field>`. */
  readonly dbTable?: string;
  /** A many-to-many to 'self' that is not symmetrical (Django's default is). */
  readonly symmetrical?: boolean;
}

/** The field spec of a many-to-many relation. */
export function manyToManySpecOf(relation: AnyManyToManyField): FieldSpec {
  const spec: Record<string, unknown> = { kind: 'many_to_many' };
  spec.to = relation.to === 'self' ? relation.model.name : relation.relatedModel.name;
  const { through, throughFields, dbTable } = relation.options;
  if (through !== undefined) spec.through = relation.through.name;
  if (throughFields !== undefined) spec.throughFields = [...throughFields];
  if (dbTable !== undefined) spec.dbTable = dbTable;
  // Written only where it differs from the default ('self' without a through model is).
  const byDefault = relation.to === 'self' && through === undefined;
  if (relation.symmetrical !== byDefault) spec.symmetrical = relation.symmetrical;
  return spec as unknown as FieldSpec;
}

/** The field spec of a declared model field. */
export function fieldSpecOf(field: AnyModelField): FieldSpec {
  // Written in this order: what the column is first, then its options.
  const spec: Record<string, unknown> = { kind: field.kind };
  const { maxLength, maxDigits, decimalPlaces, onDelete } = field.extra;
  if (maxLength !== undefined) spec.maxLength = maxLength;
  if (maxDigits !== undefined) spec.maxDigits = maxDigits;
  if (decimalPlaces !== undefined) spec.decimalPlaces = decimalPlaces;
  if (field.isRelation) {
    spec.to = field.relatedModel.name;
    spec.onDelete = onDelete ?? 'CASCADE';
  }
  const defaultColumn = field.isRelation ? `${field.name}_id` : field.name;
  if (field.column !== defaultColumn) spec.column = field.column;
  if (field.isPrimaryKey) spec.primaryKey = true;
  if (field.options.null) spec.null = true;
  if (field.options.unique && !field.isPrimaryKey) spec.unique = true;
  if (field.options.dbIndex) spec.dbIndex = true;
  const def = field.options.default;
  if (def !== undefined && typeof def !== 'function') spec.default = def;
  if (field.options.choices) spec.choices = field.options.choices.map(([v, l]) => [v, l]);
  return spec as unknown as FieldSpec;
}

/** The column a field spec stores into. */
export function columnOf(name: string, spec: FieldSpec): string {
  // A many-to-many has no column; its name stands for it (no index names one).
  return (
    spec.column ?? (spec.kind === 'foreign_key' || spec.kind === 'one_to_one' ? `${name}_id` : name)
  );
}

/** True when two specs describe the same field (key order does not matter). */
export function sameFieldSpec(a: FieldSpec, b: FieldSpec): boolean {
  return canonical(a) === canonical(b);
}

/** Whether a change from `a` to `b` touches the column itself (type, NULL, relation, check). */
export function columnChanged(a: FieldSpec, b: FieldSpec): boolean {
  return (
    a.kind !== b.kind ||
    a.maxLength !== b.maxLength ||
    a.maxDigits !== b.maxDigits ||
    a.decimalPlaces !== b.decimalPlaces ||
    Boolean(a.null) !== Boolean(b.null) ||
    Boolean(a.primaryKey) !== Boolean(b.primaryKey) ||
    a.to !== b.to ||
    a.onDelete !== b.onDelete ||
    a.through !== b.through ||
    a.dbTable !== b.dbTable ||
    a.symmetrical !== b.symmetrical ||
    String(a.throughFields) !== String(b.throughFields)
  );
}

/** JSON with sorted keys, for comparisons. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : v,
  );
}
