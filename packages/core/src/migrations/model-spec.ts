/**
 * A model as a migration file writes it, and the conversions between declared models and
 * specs (Django's `ModelState`): a spec renders back into a working model, so data migrations
 * query the history's models, not today's.
 * @module
 */
import { type AnyManyToManyField, ManyToManyField } from '../models/many-to-many-field.ts';
import { type AnyModel, defineModel, type NamedIndex } from '../models/model.ts';
import { type AnyModelField, ModelField, type ModelFieldExtra } from '../models/model-field.ts';
import { type FieldSpec, fieldSpecOf, manyToManySpecOf } from './field-spec.ts';

/** An index or unique constraint in a migration file: its name and its fields (by name). */
export interface IndexSpec {
  /** The index's (or constraint's) name in the database. */
  readonly name: string;
  /** The fields it covers, by name, in order. */
  readonly fields: readonly string[];
}

/**
 * One model in a migration file: its name, table and fields in order.
 *
 * @example
 * ```ts
 * const book: ModelSpec = {
 *   name: 'Book',
 *   table: 'books_book',
 *   fields: { id: { kind: 'auto', primaryKey: true }, title: { kind: 'char', maxLength: 100 } },
 * };
 * ```
 */
export interface ModelSpec {
  /** The model's name (`Book`): what other specs and operations refer to it by. */
  readonly name: string;
  /** Its table. */
  readonly table: string;
  /** Its fields by name, in declaration order. */
  readonly fields: Readonly<Record<string, FieldSpec>>;
  /** Its indexes over fields (`indexes` of the model). */
  readonly indexes?: readonly IndexSpec[];
  /** Its unique constraints over several fields (`constraints` of the model). */
  readonly uniqueConstraints?: readonly IndexSpec[];
}

/** The spec of a declared model. */
export function modelSpecOf(model: AnyModel): ModelSpec {
  const fields: Record<string, FieldSpec> = {};
  for (const field of model.fieldList) fields[field.name] = fieldSpecOf(field);
  // Many-to-manys after the columns: no column of the table, a join table (or a model's).
  for (const relation of Object.values(model.manyToMany))
    fields[relation.name] = manyToManySpecOf(relation);
  return {
    name: model.name,
    table: model.table,
    fields,
    ...(model.indexes.length ? { indexes: model.indexes.map(copyIndex) } : {}),
    ...(model.uniqueConstraints.length
      ? { uniqueConstraints: model.uniqueConstraints.map(copyIndex) }
      : {}),
  };
}

function copyIndex(index: NamedIndex): IndexSpec {
  return { name: index.name, fields: [...index.fields] };
}

/** A model field built from a spec; relations resolve through `resolve` on first use. */
export function fieldFromSpec(
  spec: FieldSpec,
  resolve: (name: string) => AnyModel,
  owner?: string,
): AnyModelField | AnyManyToManyField {
  if (spec.kind === 'many_to_many') {
    const to = spec.to as string;
    const through = spec.through;
    return new ManyToManyField(to === owner ? 'self' : () => resolve(to), {
      ...(through !== undefined ? { through: () => resolve(through) } : {}),
      ...(spec.throughFields ? { throughFields: spec.throughFields } : {}),
      ...(spec.dbTable !== undefined ? { dbTable: spec.dbTable } : {}),
      ...(spec.symmetrical !== undefined ? { symmetrical: spec.symmetrical } : {}),
      // The history's models keep no reverse names: none can clash.
      relatedName: '+',
    });
  }
  const extra: Record<string, unknown> = {};
  if (spec.maxLength !== undefined) extra.maxLength = spec.maxLength;
  if (spec.maxDigits !== undefined) extra.maxDigits = spec.maxDigits;
  if (spec.decimalPlaces !== undefined) extra.decimalPlaces = spec.decimalPlaces;
  if (spec.to !== undefined) {
    const to = spec.to;
    extra.to = () => resolve(to);
    extra.onDelete = spec.onDelete ?? 'CASCADE';
  }
  const options: Record<string, unknown> = {};
  if (spec.primaryKey) options.primaryKey = true;
  if (spec.null) options.null = true;
  if (spec.unique) options.unique = true;
  if (spec.dbIndex) options.dbIndex = true;
  if (spec.default !== undefined) options.default = spec.default;
  if (spec.choices) options.choices = spec.choices;
  if (spec.column !== undefined) options.dbColumn = spec.column;
  return new ModelField(spec.kind, options, extra as ModelFieldExtra);
}

/** A working model for a spec (its relations resolved through `resolve`). */
export function renderModel(spec: ModelSpec, resolve: (name: string) => AnyModel): AnyModel {
  const fields: Record<string, AnyModelField | AnyManyToManyField> = {};
  for (const [name, field] of Object.entries(spec.fields)) {
    fields[name] = fieldFromSpec(field, resolve, spec.name);
  }
  return defineModel({
    name: spec.name,
    table: spec.table,
    fields,
    ...(spec.indexes ? { indexes: spec.indexes } : {}),
    ...(spec.uniqueConstraints ? { uniqueConstraints: spec.uniqueConstraints } : {}),
  });
}
