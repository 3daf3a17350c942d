/**
 * Serializers built from a model: DRF's `ModelSerializer` and `HyperlinkedModelSerializer`.
 *
 * @example
 * ```ts
 * class BookSerializer extends ModelSerializer.with({
 *   model: Book,
 *   fields: ['id', 'title', 'isbn', 'price', 'publication_date'],
 *   extraKwargs: { isbn: { label: 'ISBN' } },
 * }) {}
 *
 * const serializer = new BookSerializer({
 *   data: { title: 'Dune', isbn: '1', price: '9.99', publication_date: '1965-08-01' },
 * });
 * if (await serializer.isValid()) await serializer.save();
 * serializer.data; // { id: 1, title: 'Dune', isbn: '1', price: '9.99', publication_date: '1965-08-01' }
 * ```
 * @module
 */

import { Database } from '../db/database.ts';
import {
  CheckViolationError,
  ForeignKeyViolationError,
  IntegrityError,
  NotNullViolationError,
  UniqueViolationError,
} from '../db/database-errors.ts';
import { type ErrorTree, ValidationError } from '../errors/api-exception.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyField, FieldOptions, RunContext, Validator } from '../fields/field.ts';
import { HyperlinkedIdentityField } from '../fields/hyperlinked-identity-field.ts';
import { ManyRelatedField } from '../fields/many-related-field.ts';
import { PrimaryKeyRelatedField } from '../fields/primary-key-related-field.ts';
import { ReadOnlyField } from '../fields/read-only-field.ts';
import { runUniqueTogether, uniqueTogetherValidator } from '../fields/unique-together-validator.ts';
import { deleteFilesOnCommit } from '../files/delete-files-on-commit.ts';
import type { Storage } from '../files/storage.ts';
import { UploadedFile } from '../files/uploaded-file.ts';
import type { AnyManyToManyField } from '../models/many-to-many-field.ts';
import { type AnyModel, Model } from '../models/model.ts';
import type { AnyModelField, ModelFieldKind } from '../models/model-field.ts';
import type { ModelProperty } from '../models/model-property.ts';
import { setPrefetched } from '../models/prefetched-rows.ts';
import { ownPlan } from '../utils/bounded-cache.ts';
import { isPromiseLike } from '../utils/maybe-promise.ts';
import {
  buildModelField,
  type FieldBuilder,
  MODEL_FIELD_MAPPING,
  uniqueMessage,
} from './model-field-mapping.ts';
import { type PreparedSerializer, Serializer } from './serializer.ts';

/** The undo of a write that stored no file. */
const NOTHING_STORED = async (): Promise<void> => {};

/**
 * Options add-ons add to model serializer declarations, by declaration merging (tricks adds
 * `nestedProxyField`). An add-on also lists its option in its class's `declarationOptions`,
 * so that start-up accepts it.
 *
 * @example
 * ```ts-fragment
 * declare module '@restframework/core' {
 *   interface ModelSerializerOptions {
 *     readonly cacheSeconds?: number;
 *   }
 * }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by add-ons through declaration merging.
export interface ModelSerializerOptions {}

/** What `ModelSerializer.with` accepts (DRF's `Meta`, plus the declared fields). */
export interface ModelSerializerDeclaration<
  M extends AnyModel = AnyModel,
  F extends readonly string[] | '__all__' = readonly string[] | '__all__',
  D extends Readonly<Record<string, AnyField>> = Readonly<Record<string, AnyField>>,
> extends ModelSerializerOptions {
  /** The model whose rows the serializer renders and writes. */
  readonly model: M;
  /** The fields, in output order, or `'__all__'`. */
  readonly fields: F;
  /** Fields left out of `'__all__'`. */
  readonly exclude?: readonly string[];
  /** Fields made read-only. */
  readonly readOnlyFields?: readonly string[];
  /** Options added to built fields (`{ price: { required: false } }`). */
  readonly extraKwargs?: Readonly<Record<string, FieldOptions<any> & Record<string, unknown>>>;
  /** Fields declared explicitly; they win over built ones and must be listed in `fields`. */
  readonly declaredFields?: D;
  /**
   * DRF's `Meta.depth`: relations built from the model (foreign keys, one-to-ones,
   * many-to-manys, and reverse relations listed in `fields`) are rendered as nested read-only
   * serializers of every field of the related model, to this many levels (0 to 10; default 0,
   * the related keys). Generic views load them with the query (`selectRelated` for one row,
   * `prefetchRelated` for many), never a statement per row.
   */
  readonly depth?: number;
}

/** A path of serializer field names, from the root to a leaf. */
export type FieldPath = readonly string[];

/** Where a model serializer class keeps its source index (with `ownPlan`). */
const SOURCE_INDEX = Symbol('source index');
/** Where a model serializer class keeps its unique-together validators (with `ownPlan`). */
const TOGETHER_VALIDATORS = Symbol('unique together validators');

/** What a write of a model checks on every create and update, found once per model. */
interface ModelWritePlan {
  /** The file fields, whose uploads are stored and whose replaced files are removed. */
  readonly files: readonly AnyModelField[];
  /** The NOT NULL columns without a default that a create must supply. */
  readonly requiredOnCreate: readonly AnyModelField[];
}

/**
 * Where a model keeps its {@link ModelWritePlan} (with `ownPlan`); never invalidated, because
 * a model's field list is frozen when it is defined.
 */
const WRITE_PLAN = Symbol('model write plan');

/** Model field name → path of serializer fields, from a prepared serializer's writable fields. */
function buildSourceIndex(prepared: PreparedSerializer): ReadonlyMap<string, FieldPath> {
  const index = new Map<string, FieldPath>();
  const walk = (fields: readonly AnyField[], prefix: FieldPath) => {
    for (const field of fields) {
      if (field.readOnly) continue;
      const path = [...prefix, field.fieldName];
      if (field instanceof Serializer && field.sourceAttrs.length === 0) {
        walk(field.prepared.writable, path);
      } else if (field.sourceAttrs.length === 1) {
        index.set(field.sourceAttrs[0] as string, path);
      }
    }
  };
  walk(prepared.writable, []);
  return index;
}

/** The write plan of `model`, found on first use. */
function writePlanOf(model: AnyModel): ModelWritePlan {
  return ownPlan(model, WRITE_PLAN, () => ({
    files: Object.freeze(model.fieldList.filter((field) => field.kind === 'file')),
    requiredOnCreate: Object.freeze(model.fieldList.filter(requiredOnCreate)),
  }));
}

/**
 * A serializer whose fields come from a model. Saving inserts or updates one row; uniqueness
 * is validated before the write and, when two requests race, the database's unique
 * violation becomes the same field error, at the field's path.
 *
 * @example
 * ```ts
 * class BookTitleSerializer extends ModelSerializer.with({ model: Book, fields: ['id', 'title'] }) {}
 *
 * const serializer = new BookTitleSerializer({ data: { title: '' } });
 * await serializer.isValid(); // false: `title` is built from the model's CharField
 * serializer.errors; // { title: ['This field may not be blank.'] }
 * ```
 */
export class ModelSerializer<TValue = unknown, TRepr = unknown> extends Serializer<TValue, TRepr> {
  static override declarationOptions: readonly string[] = [
    'model',
    'fields',
    'exclude',
    'readOnlyFields',
    'extraKwargs',
    'declaredFields',
    'depth',
  ];

  /** The field class for each kind of model field; override to change a kind everywhere. */
  static fieldMapping: Readonly<Record<ModelFieldKind, FieldBuilder>> = MODEL_FIELD_MAPPING;

  /** The model declaration, or a start-up error naming the class. */
  static get meta(): ModelSerializerDeclaration {
    const declaration = this.declaration;
    if (!('model' in declaration) || !declaration.model) {
      throw new ImproperlyConfigured(
        'REST_ERR_SERIALIZER_META',
        `${this.name} has no model: declare it with ${this.name}.with({ model, fields }).`,
      );
    }
    return declaration;
  }

  protected static override serializerModel(): AnyModel {
    return this.meta.model;
  }

  /** The field names to build, in order. */
  protected static fieldNames(): string[] {
    const { model, fields, exclude } = this.meta;
    const declared = Object.keys(this.declaredFields);
    let names: string[];
    if (fields === '__all__') {
      // A declared field that is also a model field keeps its declared place, as in DRF.
      names = [...new Set(this.defaultFieldNames(model, declared))];
    } else if (Array.isArray(fields)) {
      names = [...fields];
      for (const name of declared) {
        if (!names.includes(name)) {
          throw new ImproperlyConfigured(
            'REST_ERR_SERIALIZER_META',
            `The field '${name}' was declared on serializer ${this.name}, but has not been included in the 'fields' option.`,
          );
        }
      }
    } else {
      throw new ImproperlyConfigured(
        'REST_ERR_SERIALIZER_META',
        `${this.name}: 'fields' must be a list of field names or '__all__'.`,
      );
    }
    for (const name of exclude ?? []) {
      if (!names.includes(name)) {
        throw new ImproperlyConfigured(
          'REST_ERR_SERIALIZER_META',
          `${this.name}: the field '${name}' in 'exclude' is not a field of the serializer.`,
        );
      }
    }
    return names.filter((n) => !exclude?.includes(n));
  }

  /**
   * The fields `'__all__'` stands for, in DRF's order: the primary key, the declared fields,
   * then the model's other fields (duplicates are dropped after the first).
   */
  protected static defaultFieldNames(model: AnyModel, declared: readonly string[]): string[] {
    return [model.pk.name, ...declared, ...this.modelFieldNames(model)];
  }

  /** The model's fields but the primary key: columns first, relations last, as DRF lists them. */
  protected static modelFieldNames(model: AnyModel): string[] {
    const fields = model.fieldList.filter((f) => !f.isPrimaryKey);
    return [...fields.filter((f) => !f.isRelation), ...fields.filter((f) => f.isRelation)].map(
      (f) => f.name,
    );
  }

  /** The `depth` of the declaration, checked: an integer from 0 to 10, as DRF asserts. */
  protected static depth(): number {
    const { depth } = this.meta;
    if (depth === undefined) return 0;
    if (typeof depth !== 'number' || !Number.isInteger(depth) || depth < 0 || depth > 10) {
      throw new ImproperlyConfigured(
        'REST_ERR_SERIALIZER_META',
        `${this.name}: 'depth' must be an integer from 0 to 10 (got ${JSON.stringify(depth)}).`,
      );
    }
    return depth;
  }

  /** The class nested serializers of `depth` are made from (DRF's `build_nested_field`). */
  protected static nestedSerializerBase(): typeof ModelSerializer {
    return ModelSerializer;
  }

  /**
   * With `depth`, the relation `name` of `model` as a nested read-only serializer of every
   * field of the related model, one level less deep; undefined when `name` is no relation.
   */
  protected static buildNestedField(
    name: string,
    model: AnyModel,
    depth: number,
    extra: Record<string, unknown>,
  ): AnyField | undefined {
    let related: AnyModel;
    let many: boolean;
    const field = model.getField(name);
    if (field?.isRelation && field.name === name) {
      related = field.relatedModel;
      many = false;
    } else if (Object.hasOwn(model.manyToMany, name)) {
      related = (model.manyToMany[name] as AnyManyToManyField).relatedModel;
      many = true;
    } else {
      const plan = field ? undefined : model.relationPlan(name);
      if (plan === undefined) return undefined;
      if (plan.kind === 'many_to_many')
        related = plan.reverse ? plan.relation.model : plan.relation.relatedModel;
      else related = plan.field.model;
      many = plan.kind !== 'one_to_one';
    }
    const Base = this.nestedSerializerBase();
    // A class of its own per relation (DRF's `NestedSerializer`), prepared with its parent.
    const Nested = (Base as unknown as { with(declaration: object): typeof ModelSerializer }).with({
      model: related,
      fields: '__all__',
      depth: depth - 1,
    });
    Object.defineProperty(Nested, 'name', { value: `${related.name}NestedSerializer` });
    const options = { ...extra, readOnly: true };
    return many ? Nested.many(options) : new Nested(options);
  }

  protected static override buildFields(): Record<string, AnyField> {
    const { model, readOnlyFields, extraKwargs } = this.meta;
    const depth = this.depth();
    const fields: Record<string, AnyField> = {};
    for (const name of this.fieldNames()) {
      const declared = this.declaredFields[name];
      if (declared) {
        fields[name] = declared.clone();
        continue;
      }
      const extra: Record<string, unknown> = { ...(extraKwargs?.[name] ?? {}) };
      if (readOnlyFields?.includes(name)) extra.readOnly = true;
      else if (!extraKwargs || !Object.hasOwn(extraKwargs, name)) this.checkNotReverse(name, model);
      const nested = depth > 0 ? this.buildNestedField(name, model, depth, extra) : undefined;
      fields[name] = nested ?? this.buildField(name, model, extra);
    }
    return fields;
  }

  /**
   * Refuses a reverse relation listed in `fields` with nothing else saying what it is: the
   * model's type does not know the names other models give their relations to it, so the
   * declaration's types accept such a name only when `readOnlyFields` (or `extraKwargs`) lists
   * it too, and the run time asks the same (the types and the start-up check agree).
   */
  protected static checkNotReverse(name: string, model: AnyModel): void {
    const own = model.getField(name);
    if (
      (own && own.name === name) ||
      Object.hasOwn(model.properties, name) ||
      Object.hasOwn(model.manyToMany, name)
    )
      return;
    if (!model.reverseRelations.find(name)) Model.registerPendingRelations();
    if (!model.reverseRelations.find(name)) return;
    throw new ImproperlyConfigured(
      'REST_ERR_SERIALIZER_FIELD',
      `${this.name}: '${name}' is a reverse relation of ${model.name} (named by another model), ` +
        `which the types of ${model.name} do not know. List it in readOnlyFields too ` +
        `(readOnlyFields: ['${name}']: it is read-only, its related keys), or give it extraKwargs, ` +
        `or declare its field (${name}: PrimaryKeyRelatedField.many({ readOnly: true })).`,
    );
  }

  /**
   * Builds the field called `name`: a model field, a computed property, or what a subclass
   * knows (`url`). Throws on a name the model does not have.
   */
  protected static buildField(
    name: string,
    model: AnyModel,
    extra: Record<string, unknown>,
  ): AnyField {
    const modelField = model.getField(name);
    if (modelField && modelField.name === name)
      return buildModelField(modelField, this.fieldMapping, extra);
    if (Object.hasOwn(model.properties, name)) {
      return this.buildPropertyField(name, model.properties[name] as ModelProperty, extra);
    }
    if (Object.hasOwn(model.manyToMany, name)) {
      // DRF's mapping of a many-to-many: the related keys; required and not empty unless blank.
      const relation = model.manyToMany[name] as AnyManyToManyField;
      const blank = relation.options.blank === true;
      const options: Record<string, unknown> = { queryset: relation.relatedModel.objects };
      if (relation.options.verboseName)
        options.label =
          relation.options.verboseName.charAt(0).toUpperCase() +
          relation.options.verboseName.slice(1);
      if (relation.options.helpText) options.helpText = relation.options.helpText;
      if (blank) options.required = false;
      else options.allowEmpty = false;
      return PrimaryKeyRelatedField.many({ ...options, ...extra } as never);
    }
    if (!model.reverseRelations.find(name)) Model.registerPendingRelations();
    const reverse = model.reverseRelations.find(name);
    if (reverse) {
      // DRF lists a reverse relation only when asked, and (here) reads it: read-only by default.
      return PrimaryKeyRelatedField.many({
        queryset: reverse.model.objects,
        readOnly: true,
        ...extra,
      } as never);
    }
    throw new ImproperlyConfigured(
      'REST_ERR_SERIALIZER_FIELD',
      `Field name '${name}' is not valid for model '${model.name}' in '${this.name}'. ` +
        `Model fields: ${Object.keys(model.fields).join(', ')}.`,
    );
  }

  /** The field for a computed property: read-only by default. */
  protected static buildPropertyField(
    _name: string,
    _property: ModelProperty,
    extra: Record<string, unknown>,
  ): AnyField {
    return new ReadOnlyField(extra as FieldOptions);
  }

  /**
   * True when this class's `create()` and `update()` write nested serializers over relations
   * and dotted sources themselves. Without it, such a writable field fails at start-up
   * (`REST_ERR_NESTED_WRITES`), as DRF's "writable nested fields" assertion: ModelSerializer's
   * own `create()`/`update()` write one row. A declaration, not a guess from which methods a
   * class defines: an override that only calls `super` writes no more than ModelSerializer.
   *
   * @example
   * ```ts-fragment
   * class ProfileSerializer extends ModelSerializer.with({ model: Profile, fields: ['id', 'user'], declaredFields: { user: new UserSerializer() } }) {
   *   static override handlesNestedWrites = true;
   *   override async create(validated: any) { ... }
   *   override async update(instance: any, validated: any) { ... }
   * }
   * ```
   */
  static handlesNestedWrites = false;

  protected static override checkDeclaration(prepared: PreparedSerializer): void {
    if (this.handlesNestedWrites) return;
    for (const field of prepared.writable) {
      const nested = field instanceof Serializer && field.sourceAttrs.length > 0;
      const dotted = field.sourceAttrs.length > 1;
      if (!nested && !dotted) continue;
      throw new ImproperlyConfigured(
        'REST_ERR_NESTED_WRITES',
        `${this.name}: the field '${field.fieldName}' writes ${nested ? 'a nested object' : `through '${field.source}'`}, ` +
          `which ModelSerializer's create() and update() do not support. Write create() and update() ` +
          `for ${this.name} and declare 'static override handlesNestedWrites = true', or set readOnly: true on ` +
          `'${field.fieldName}'. For nested objects over the model's own columns, use ModelSerializer from ` +
          "'@restframework/tricks' with nestedProxyField: true.",
      );
    }
  }

  /**
   * Where each model field is written from: model field name → path of serializer fields
   * (`isbn` → `['publishing_information', 'isbn']` when a `*`-sourced nested serializer holds it).
   */
  static sourceIndex(): ReadonlyMap<string, FieldPath> {
    return ownPlan(this, SOURCE_INDEX, () => buildSourceIndex(this.prepare()));
  }

  /**
   * DRF's `get_unique_together_validators`: one {@link uniqueTogetherValidator} per unique
   * constraint of the model whose fields this serializer all writes (top-level fields), named
   * by the serializer's field names. Made once per class.
   */
  static uniqueTogetherValidators(): readonly Validator<Record<string, unknown>>[] {
    return ownPlan(this, TOGETHER_VALIDATORS, () => {
      const { model } = this.meta;
      const sources = this.sourceIndex();
      return model.uniqueConstraints
        .filter((constraint) => constraint.fields.every((f) => sources.get(f)?.length === 1))
        .map((constraint) =>
          uniqueTogetherValidator(model.objects, constraint.fields, {
            labels: constraint.fields.map((f) => sources.get(f)?.[0] as string),
          }),
        );
    });
  }

  /** The serializer's validators, then (unless `validators` were given) the unique constraints'. */
  override runValidators(value: TValue, ctx: RunContext): TValue | Promise<TValue> {
    const checked = super.runValidators(value, ctx);
    if (this.options.validators !== undefined) return checked;
    const together = (this.constructor as typeof ModelSerializer).uniqueTogetherValidators();
    return together.length === 0 ? checked : runUniqueTogether(checked, together, ctx, this);
  }

  /** The model of this serializer. */
  get model(): AnyModel {
    return (this.constructor as typeof ModelSerializer).meta.model;
  }

  /**
   * Inserts one row from the validated data (nested `*` groups are already flat), then sets its
   * many-to-manys (and writable reverse relations) to the rows sent, in the same transaction,
   * as DRF's `ModelSerializer.create`.
   */
  override async create(validated: TValue): Promise<unknown> {
    const data = { ...(validated as Record<string, unknown>) };
    const many = this.takeManyRelations(data);
    this.assertColumns(data, 'create');
    this.assertRequiredColumns(data);
    let unstore = this.storeFiles(data);
    if (isPromiseLike(unstore)) unstore = await unstore;
    try {
      return await this.atomic(async () => {
        const row = await this.model.objects.create(data);
        await this.setManyRelations(row, many);
        return this.withRelated(row, many);
      });
    } catch (error) {
      await unstore();
      throw this.integrityError(error, data);
    }
  }

  /** Runs `fn` in a transaction of the model's database, unless one is open already. */
  protected atomic<T>(fn: () => Promise<T>): Promise<T> {
    const db = Database.current() ?? this.model.objects.db;
    return db.inTransaction ? fn() : db.transaction(fn);
  }

  /**
   * Takes the values of writable many relations (many-to-manys, reverse relations) out of
   * `data`: they are set after the row is written (DRF's `many_to_many` of `create`/`update`).
   */
  protected takeManyRelations(data: Record<string, unknown>): Map<string, readonly unknown[]> {
    const taken = new Map<string, readonly unknown[]>();
    for (const name of manyRelationsOf(this.constructor as typeof ModelSerializer).writable) {
      if (!Object.hasOwn(data, name)) continue;
      taken.set(name, (data[name] ?? []) as readonly unknown[]);
      delete data[name];
    }
    return taken;
  }

  /** Sets each relation of `many` on `row` to its rows (`Model.related(row, name).set()`). */
  protected async setManyRelations(
    row: Record<string, unknown>,
    many: ReadonlyMap<string, readonly unknown[]>,
  ): Promise<void> {
    for (const [name, rows] of many)
      await this.model.related(row, name).set(rows as Record<string, unknown>[]);
  }

  /**
   * Updates the instance's row, writing only columns the request sent: for a PATCH all of
   * them, for a PUT (which sends every field) only those whose value changed.
   */
  override async update(instance: unknown, validated: TValue): Promise<unknown> {
    const data = { ...(validated as Record<string, unknown>) };
    const many = this.takeManyRelations(data);
    this.assertColumns(data, 'update');
    let unstore = this.storeFiles(data);
    if (isPromiseLike(unstore)) unstore = await unstore;
    try {
      const written = await this.atomic(async () => {
        // PATCH writes what it sends; PUT sends everything and writes only what changed.
        const row = await this.model.objects.updateRow(instance as never, data, {
          skipUnchanged: !this.partial,
        });
        await this.setManyRelations(row, many);
        return row;
      });
      const deleted = this.deleteReplacedFiles(instance as Record<string, unknown>, data);
      if (isPromiseLike(deleted)) await deleted;
      return await this.withRelated(written, many);
    } catch (error) {
      await unstore();
      throw this.integrityError(error, data);
    }
  }

  /**
   * Removes, once the transaction commits, the stored files `data` replaced or cleared in
   * `instance`; nothing when the context says `deleteOrphanedFiles: false` (the view passes
   * the `DELETE_ORPHANED_FILES` setting). A promise only when there is something to remove
   * (a model without file fields costs an update no promise).
   */
  protected deleteReplacedFiles(
    instance: Record<string, unknown>,
    data: Record<string, unknown>,
  ): void | Promise<void> {
    if (this.context.deleteOrphanedFiles === false) return;
    const files = writePlanOf(this.model).files;
    if (files.length === 0) return;
    const replaced = files
      .filter(
        (field) => Object.hasOwn(data, field.name) && data[field.name] !== instance[field.attname],
      )
      .map((field) => instance[field.attname]);
    if (replaced.length === 0) return;
    return deleteFilesOnCommit(this.context.storage as Storage | undefined, replaced);
  }

  /**
   * The saved row with the related rows this serializer reads, as a GET of it reads them: a
   * write returns the row alone, so it is read again, once, with the serializer's related paths
   * (`user` for `user.username`) and prefetched paths (`tags`, `entries__tags` for nested
   * entries with their tags), one statement per path whatever the number of related rows. The
   * many relations just set keep the rows sent (in the client's order, each once, with no
   * statement), unless the serializer reads further through them.
   */
  protected async withRelated(
    row: Record<string, unknown>,
    written: ReadonlyMap<string, readonly unknown[]> = new Map(),
  ): Promise<Record<string, unknown>> {
    const { relatedPaths, prefetchPaths } = this.prepared;
    const kept = [...written.keys()].filter(
      (name) => !prefetchPaths.some((path) => path.startsWith(`${name}__`)),
    );
    const prefetch = prefetchPaths.filter((path) => !kept.includes(path));
    // A key sent twice is one related row, as a GET reads it (the rows of a key sent twice are
    // the same object: the relation fields look each key up once).
    const rowsOf = (name: string) => [...new Set(written.get(name) as readonly unknown[])];
    if (relatedPaths.length === 0 && prefetch.length === 0) {
      for (const name of kept) setPrefetched(row, name, rowsOf(name));
      return row;
    }
    let query = this.model.objects.selectRelated(...relatedPaths);
    if (prefetch.length !== 0) query = query.prefetchRelated(...prefetch);
    const saved = await query.get({ pk: row[this.model.pk.attname] });
    for (const name of kept) setPrefetched(saved, name, rowsOf(name));
    return saved;
  }

  /**
   * A create must also send a field that writes a NOT NULL column without a default (see
   * {@link assertRequiredColumns}), and a nested serializer over this row (`source: '*'`)
   * holding one: the OpenAPI create body and `CreateInput` say so.
   */
  override requiredInCreate(field: AnyField): boolean {
    return field.required || this.#suppliesRequiredColumn(field);
  }

  /**
   * Whether `field` writes a column a create must supply, itself or (a group over this row)
   * through one of its fields. A field a group marks `required` is required only when the
   * group is sent: it makes the group required only when its column must be supplied, as
   * {@link assertRequiredColumns} checks at run time.
   */
  #suppliesRequiredColumn(field: AnyField): boolean {
    if (field.readOnly) return false;
    if (field instanceof Serializer) {
      return (
        field.sourceAttrs.length === 0 &&
        field.prepared.writable.some((inner) => this.#suppliesRequiredColumn(inner))
      );
    }
    if (field.sourceAttrs.length !== 1) return false;
    const name = field.sourceAttrs[0] as string;
    const column = this.model.getField(name);
    return column !== undefined && column.name === name && requiredOnCreate(column);
  }

  /**
   * Every key of the validated data must be a field of the model: a declared field that is no
   * column (a write-only `tagList`, say) reaches the validated data as in DRF, and the
   * serializer's own `create()`/`update()` must take it out before calling these (DRF fails
   * there too, with a `TypeError`). Said here, naming the serializer field, rather than by
   * the query's "has no field".
   */
  protected assertColumns(data: Record<string, unknown>, method: 'create' | 'update'): void {
    for (const key in data) {
      if (!Object.hasOwn(data, key) || this.model.getField(key)) continue;
      const name = this.constructor.name;
      const field = this.prepared.fields.find((f) => f.sourceAttrs[0] === key);
      throw new ImproperlyConfigured(
        'REST_ERR_FIELD_NOT_COLUMN',
        `${name}.${method}(): the validated data holds '${key}'${field ? ` (from the field '${field.fieldName}')` : ''}, ` +
          `which is no field of ${this.model.name}, so ModelSerializer.${method}() cannot save it. ` +
          `Override ${method}() in ${name}: take '${key}' out of the validated data, call super.${method}() ` +
          'with the rest, then use the value.',
      );
    }
  }

  /**
   * A create must supply every NOT NULL column without a default; a serializer may declare
   * such a field optional (a nested group, say), so check before the database refuses.
   */
  protected assertRequiredColumns(data: Record<string, unknown>): void {
    let errors: Record<string, ErrorTree> | undefined;
    for (const field of writePlanOf(this.model).requiredOnCreate) {
      if (Object.hasOwn(data, field.name) || Object.hasOwn(data, field.attname)) continue;
      errors = mergeErrors(errors ?? {}, this.errorAt(field.name, ['This field is required.']));
    }
    if (errors) throw new ValidationError(errors);
  }

  /**
   * Saves uploaded files to the context's storage and puts their stored names in `data`.
   * Stored files never outlive a failed write: a rollback of the request's transaction
   * removes them, and so does the returned function, which `create` and `update` call when
   * the write fails (also outside a transaction). A failure half-way removes those already
   * stored. The client's file name counts only by its last part (no folders from a client);
   * the storage makes it safe and unused, within the model field's `maxLength`. The undo
   * comes at once, without a promise, when nothing was uploaded.
   */
  protected storeFiles(
    data: Record<string, unknown>,
  ): (() => Promise<void>) | Promise<() => Promise<void>> {
    const files = writePlanOf(this.model).files;
    if (files.length === 0) return NOTHING_STORED;
    const uploads = files.filter((field) => data[field.name] instanceof UploadedFile);
    if (uploads.length === 0) return NOTHING_STORED;
    return this.#store(data, uploads);
  }

  /** {@link storeFiles} of the file fields `uploads`, which hold uploads. */
  async #store(
    data: Record<string, unknown>,
    uploads: readonly AnyModelField[],
  ): Promise<() => Promise<void>> {
    const stored: (() => Promise<void>)[] = [];
    const unstore = async () => {
      await Promise.all(stored.splice(0).map((remove) => remove().catch(() => {})));
    };
    try {
      for (const field of uploads) {
        const value = data[field.name] as UploadedFile;
        const storage = this.context.storage as Storage | undefined;
        if (!storage) {
          throw new ImproperlyConfigured(
            'REST_ERR_NO_STORAGE',
            `${this.constructor.name}: saving ${this.model.name}.${field.name} needs a storage in the serializer context.`,
          );
        }
        const uploadTo = field.extra.uploadTo as string | undefined;
        const prefix = uploadTo ? `${uploadTo.replace(/\/+$/, '')}/` : '';
        const maxLength = field.extra.maxLength as number | undefined;
        const name = await storage.save(
          prefix + value.basename,
          value,
          maxLength === undefined ? {} : { maxLength },
        );
        const remove = () => storage.delete(name);
        stored.push(remove);
        Database.current()?.onRollback(remove);
        data[field.name] = name;
      }
    } catch (error) {
      await unstore();
      throw error;
    }
    return unstore;
  }

  /** The nested error object that puts `messages` at the serializer path of a model field. */
  errorAt(modelFieldName: string, messages: string[]): Record<string, ErrorTree> {
    const path = (this.constructor as typeof ModelSerializer).sourceIndex().get(modelFieldName) ?? [
      modelFieldName,
    ];
    let tree: ErrorTree = messages;
    for (let i = path.length - 1; i >= 0; i--) tree = { [path[i] as string]: tree };
    return tree as Record<string, ErrorTree>;
  }

  /** Turns a constraint violation into the field error a client can act on (400, not 500). */
  protected integrityError(error: unknown, data: Record<string, unknown>): unknown {
    if (!(error instanceof IntegrityError) || (error.model && error.model !== this.model))
      return error;
    let errors: Record<string, ErrorTree> = {};
    // Two requests raced past the check of a unique constraint over several fields.
    if (error instanceof UniqueViolationError && error.fields.length > 1) {
      const together = (this.constructor as typeof ModelSerializer)
        .uniqueTogetherValidators()
        .map(
          (v) =>
            (v as { uniqueTogether?: { fields: readonly string[]; message: string } })
              .uniqueTogether,
        )
        .find(
          (t) =>
            t &&
            t.fields.length === error.fields.length &&
            t.fields.every((f) => error.fields.includes(f)),
        );
      if (together) return new ValidationError({ non_field_errors: [together.message] }, 'unique');
    }
    for (const name of error.fields) {
      const field = this.model.getField(name);
      if (!field) continue;
      let message: string;
      if (error instanceof UniqueViolationError) message = uniqueMessage(field);
      else if (error instanceof NotNullViolationError)
        message =
          data[field.name] === null ? 'This field may not be null.' : 'This field is required.';
      else if (error instanceof ForeignKeyViolationError)
        message = `Invalid pk "${String(data[field.attname] ?? data[field.name])}" - object does not exist.`;
      else if (error instanceof CheckViolationError)
        message = field.isPositive
          ? 'Ensure this value is greater than or equal to 0.'
          : 'Invalid value.';
      else message = 'Invalid value.';
      errors = mergeErrors(errors, this.errorAt(field.name, [message]));
    }
    if (Object.keys(errors).length === 0) {
      errors = {
        non_field_errors: [
          error instanceof ForeignKeyViolationError
            ? 'A related object does not exist.'
            : 'The data conflicts with stored data.',
        ],
      };
    }
    return new ValidationError(errors);
  }
}

/** Where a model serializer class keeps its many relations (with `ownPlan`). */
const MANY_RELATIONS = Symbol('many relations');

/**
 * The many relations (many-to-manys, reverse relations) a model serializer class writes
 * through its top-level `ManyRelatedField`s, by relation name; found once per class. (What it
 * reads is in the prepared plan's `prefetchPaths`.)
 */
function manyRelationsOf(cls: typeof ModelSerializer): { readonly writable: readonly string[] } {
  return ownPlan(cls, MANY_RELATIONS, () => {
    const fields = cls
      .prepare()
      .fields.filter((field): field is ManyRelatedField => field instanceof ManyRelatedField);
    const names = (list: ManyRelatedField[]) =>
      Object.freeze(list.map((field) => field.relationName as string));
    return Object.freeze({
      writable: names(fields.filter((field) => !field.readOnly && field.relationName)),
    });
  });
}

/** NOT NULL, no default, and not a field the database or Django fills (blank text, auto times). */
function requiredOnCreate(field: AnyModelField): boolean {
  if (field.isPrimaryKey || field.nullable || field.hasDefault) return false;
  if (field.isText && field.options.blank) return false;
  if (field.kind === 'datetime' && (field.extra.autoNow || field.extra.autoNowAdd)) return false;
  return true;
}

function mergeErrors(
  target: Record<string, ErrorTree>,
  source: Record<string, ErrorTree>,
): Record<string, ErrorTree> {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (existing && !Array.isArray(existing) && !Array.isArray(value)) {
      target[key] = mergeErrors(
        existing as Record<string, ErrorTree>,
        value as Record<string, ErrorTree>,
      );
    } else {
      target[key] = value;
    }
  }
  return target;
}

/**
 * A model serializer with a `url` field: the absolute link to the record's detail route
 * (`<model>-detail`, `book-detail` for Book).
 *
 * @example
 * ```ts
 * class BookSerializer extends HyperlinkedModelSerializer.with({ model: Book, fields: ['url', 'id', 'title'] }) {}
 * ```
 */
export class HyperlinkedModelSerializer<TValue = unknown, TRepr = unknown> extends ModelSerializer<
  TValue,
  TRepr
> {
  /** The name of the link field. */
  static urlFieldName = 'url';

  /** DRF's order for `'__all__'`: the link instead of the primary key, then as usual. */
  protected static override defaultFieldNames(
    model: AnyModel,
    declared: readonly string[],
  ): string[] {
    return [this.urlFieldName, ...declared, ...this.modelFieldNames(model)];
  }

  protected static override nestedSerializerBase(): typeof ModelSerializer {
    return HyperlinkedModelSerializer;
  }

  protected static override buildField(
    name: string,
    model: AnyModel,
    extra: Record<string, unknown>,
  ): AnyField {
    if (name === this.urlFieldName && !model.has(name)) {
      return new HyperlinkedIdentityField({
        viewName: `${model.name.toLowerCase()}-detail`,
        ...extra,
      });
    }
    return super.buildField(name, model, extra);
  }
}
