/**
 * Model declarations: one object per table, dialect-free, carrying the metadata that
 * migrations, queries and serializers read.
 *
 * @example
 * ```ts
 * import { defineModel, models, type Row } from '@restframework/core';
 *
 * export const Book = defineModel({
 *   name: 'Book',
 *   fields: {
 *     title: models.CharField({ maxLength: 100 }),
 *     isbn: models.CharField({ maxLength: 100, unique: true }),
 *   },
 *   ordering: ['isbn'],
 * });
 * type BookRow = Row<typeof Book>; // { id: number; title: string; isbn: string }
 * const books = await Book.objects.filter({ title__icontains: 'river' }).orderBy('-id').execute();
 * ```
 * @module
 */
import { constraintName } from '../db/dialect/dialect-adapter.ts';
import { QuerySet } from '../db/query-set.ts';
import type { RelatedModel, RelationName } from '../db/typed-filter.ts';
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { fieldIndex } from '../migrations/schema-index.ts';
import { isIdentifier, snakeCase } from '../utils/text.ts';
import { type AnyManyToManyField, ManyToManyField } from './many-to-many-field.ts';
import { type AnyModelField, ModelField } from './model-field.ts';
import type { ModelProperty } from './model-property.ts';
import { RelatedSet, type RelatedSetPlan } from './related-set.ts';
import { ReverseRelations } from './reverse-relations.ts';
import type { UniqueConstraintSpec } from './unique-constraint.ts';

// `{}`, not `any`, for the options: a factory called inside a declaration would otherwise
// infer its options from this contextual type as `any` (and every column as nullable).
type DeclaredFields = Record<string, ModelField<any, {}> | ManyToManyField<any>>;
type DeclaredProperties = Record<string, ModelProperty<any>>;

/** What `defineModel` accepts. */
export interface ModelDefinition<F extends DeclaredFields, P extends DeclaredProperties> {
  /** The model's name, used in messages and view names (`Book`). */
  readonly name: string;
  /** The table; defaults to the snake-cased name (`BookProxy` → `book_proxy`). */
  readonly table?: string;
  /**
   * The app the model belongs to (Django's `Meta.app_label`), which labels its permissions
   * (`books.change_book`). Defaults to the table name up to its first underscore
   * (`books_book` → `books`, `auth_user` → `auth`), or the whole table name without one.
   */
  readonly appLabel?: string;
  /** The columns. An `id` auto primary key is added first unless a field is the primary key. */
  readonly fields: F;
  /** Computed properties, readable by serializers (`full_name`, nested proxy groups). */
  readonly properties?: P;
  /** Default ordering: field names or relation paths, `-` for descending. */
  readonly ordering?: readonly string[];
  /** Human name (`book`); defaults to the name split into lower-case words. */
  readonly verboseName?: string;
  /** Plural human name; defaults to the verbose name plus `s`. */
  readonly verboseNamePlural?: string;
  /** Indexes over one or more fields (Django's `Meta.indexes`). */
  readonly indexes?: readonly ModelIndex[];
  /** Sets of fields whose values together are unique (Django's `UniqueConstraint`). */
  readonly uniqueConstraints?: readonly ModelIndex[];
  /**
   * Constraints, as Django's `Meta.constraints`: `UniqueConstraint({ fields, name? })`. They
   * join `uniqueConstraints` (one list, in this order after it).
   */
  readonly constraints?: readonly UniqueConstraintSpec<keyof F & string>[];
  /**
   * A row's string form (Django's `__str__`): what `StringRelatedField` renders, and any text
   * naming a row. Without it, `Book object (1)`, as Django's default.
   *
   * @example
   * ```ts-fragment
   * defineModel({ name: 'Tag', fields: { name: models.CharField({ maxLength: 20 }) }, str: (tag) => tag.name });
   * ```
   */
  readonly str?: (row: Row<Model<F, P>>) => string;
}

/**
 * An index, or a unique constraint, over fields of a model. The name defaults to
 * `<table>_<columns>_idx` (`_uniq` for a unique constraint), bounded to 63 characters.
 *
 * @example
 * ```ts
 * const byTitle: ModelIndex = { fields: ['title', 'publication_date'] };
 * ```
 */
export interface ModelIndex {
  /** The fields indexed, in the index's order (names of the model's fields). */
  readonly fields: readonly string[];
  /**
   * The index's name in the database; default `<table>_<columns>_idx` (`_uniq` for a unique
   * constraint).
   */
  readonly name?: string;
}

/** A {@link ModelIndex} with its name resolved. */
export interface NamedIndex {
  /** The index's name in the database, given or made. */
  readonly name: string;
  /** The fields indexed, in order. */
  readonly fields: readonly string[];
}

type FieldValue<X> = X extends { readonly valueType: infer T } ? T : never;

/** The keys of a group's inner groups declared in place (`{ inner: [...] }` members). */
type InlineKeys<N> = N extends string ? never : keyof N & string;
/** The members of the inner group `K` declared in place. */
type InlineMembers<N, K> = N extends Readonly<Record<K & string, readonly (infer I)[]>> ? I : never;

/**
 * The value of a group property whose members are `N`: an object of the members, each a
 * field's value or an inner group's object, to any depth.
 *
 * @example
 * ```ts-fragment
 * // Book.properties.stock_information = NestedProxyField('stock_count', 'price')
 * const stock = Book.properties.stock_information.get(row); // { stock_count: number; price: string }
 * ```
 */
export type GroupValue<F, P, N> = {
  -readonly [K in Extract<N, string> | InlineKeys<N>]: K extends InlineKeys<N>
    ? GroupValue<F, P, InlineMembers<N, K>>
    : MemberValue<F, P, K>;
};

type MemberValue<F, P, K> = K extends keyof F
  ? FieldValue<F[K]>
  : K extends keyof P
    ? PropertyValue<F, P, P[K]>
    : unknown;

/** The value of a property: a group's object typed from its members, else what `get` returns. */
export type PropertyValue<F, P, X> = X extends {
  /** A group property's members (type-level only). */
  readonly memberTypes: infer N;
}
  ? GroupValue<F, P, N>
  : X extends {
        /** A computed property's getter. */
        get(row: any): infer T;
      }
    ? T
    : unknown;

/** A model's properties as the model holds them: a group's `get` typed from its members. */
export type BoundProperties<F, P> = {
  readonly [K in keyof P]: P[K] extends {
    /** A group property's members (type-level only). */
    readonly memberTypes: infer N;
  }
    ? {
        /** The group's value of `row`: an object of its members' values. */
        get(row: any): GroupValue<F, P, N>;
      } & P[K]
    : P[K];
};

/** The names a group may list: the model's fields and its other groups. */
type GroupMemberName<F, P> =
  | (keyof F & string)
  | { [K in keyof P]: P[K] extends { readonly memberTypes: unknown } ? K : never }[keyof P];

/** A member a group of this model may hold: a field or group name, or inner groups. */
type AllowedMember<F, P> =
  | GroupMemberName<F, P>
  | { readonly [inner: string]: readonly AllowedMember<F, P>[] };

/**
 * Checks the groups of `properties` against the model at compile time: a member that names
 * no field and no group of the model is a type error at the group (`defineModel` says the same
 * at start-up).
 */
type CheckedProperties<F, P> = {
  readonly [K in keyof P]: P[K] extends { readonly memberTypes: unknown }
    ? { readonly memberTypes: AllowedMember<F, P> }
    : unknown;
};

/** The row type of a model: every column by attribute name (`user_id` for a relation `user`). */
export type Row<M> =
  M extends Model<infer F, any>
    ? ([DeclaredKey<F>] extends [never]
        ? {
            /** The automatic primary key, when no field is declared `primaryKey: true`. */
            id: number;
          }
        : {}) & {
        -readonly [K in keyof F as K extends string
          ? F[K] extends {
              /** A many-to-many field (type-level mark): its rows are not in the row. */
              readonly __manyToMany: any;
            }
            ? never
            : F[K] extends {
                  /** A foreign key or one-to-one (type-level mark): the row holds `<name>_id`. */
                  readonly __relatedModel: any;
                }
              ? `${K}_id`
              : K
          : never]: FieldValue<F[K]>;
      }
    : never;

/**
 * The type of a model's primary key: the value of the field declared `primaryKey: true`, else
 * `number` (the automatic `id`).
 *
 * @example
 * ```ts-fragment
 * type BookKey = PrimaryKey<typeof Book>; // number
 * ```
 */
export type PrimaryKey<M> =
  M extends Model<infer F, any>
    ? [DeclaredKey<F>] extends [never]
      ? number
      : DeclaredKey<F>
    : never;

type DeclaredKey<F> = {
  [K in keyof F]: F[K] extends { readonly traits: { readonly primaryKey: true } }
    ? Exclude<FieldValue<F[K]>, null>
    : never;
}[keyof F];

/** Any model, whatever its fields. */
export type AnyModel = Model<any, any>;

/**
 * Models with relations given as functions, not yet registered on their targets (see
 * `Model.registerPendingRelations`); a model leaves once checked.
 */
const unregistered = new Set<AnyModel>();

/** The names of a model's many-to-many relations. */
export type ManyToManyName<F> = {
  [K in keyof F]: F[K] extends { readonly __manyToMany: any } ? K : never;
}[keyof F] &
  string;

/** The target model of a many-to-many relation's declaration. */
export type TargetOf<X> = X extends { readonly __manyToMany: infer M extends AnyModel }
  ? M
  : AnyModel;

/** The fields of a model as declared (without the automatic `id`). */
export type FieldsOf<M> = M extends Model<infer F, any> ? F : never;

/**
 * A model: its table, its fields (bound, in declaration order with `id` first), its computed
 * properties and its default ordering. Create models with {@link defineModel}.
 *
 * @example
 * ```ts
 * const Note = defineModel({
 *   name: 'Note',
 *   fields: { text: models.TextField(), created: models.DateTimeField({ autoNowAdd: true }) },
 *   ordering: ['-created'],
 * });
 * Note.table; // 'note'
 * const latest = await Note.objects.using(db).first();
 * ```
 */
export class Model<
  F extends DeclaredFields = DeclaredFields,
  P extends DeclaredProperties = DeclaredProperties,
> {
  /** The model's name as declared (`Book`): in messages, the schema, the migrations. */
  readonly name: string;
  /**
   * The database table: the declared `table`, else the name in snake case (`book`, `order_line`).
   */
  readonly table: string;
  /** See {@link ModelDefinition.appLabel}. */
  readonly appLabel: string;
  /** Every field by name, `id` first. */
  readonly fields: Readonly<Record<string, AnyModelField>>;
  /** Every field, in order. */
  readonly fieldList: readonly AnyModelField[];
  /** Every field by attribute name (`user_id`) and by name (`user`). */
  readonly #byKey: Map<string, AnyModelField>;
  /** Computed properties by name (a group's `get` returns an object typed from its members). */
  readonly properties: BoundProperties<F, P>;
  /** The default order of its query sets (paths, `-` for descending); empty for none. */
  readonly ordering: readonly string[];
  /** The declared string form of a row, if any (see {@link Model.str}). */
  readonly #str: ((row: never) => string) | undefined;
  /**
   * The name people read for one row: the declared `verboseName`, else the name with spaces (`order
   * line`).
   */
  readonly verboseName: string;
  /**
   * The name people read for several rows: the declared `verboseNamePlural`, else the `verboseName`
   * plus `s`.
   */
  readonly verboseNamePlural: string;
  /** The primary key field. */
  readonly pk: AnyModelField;
  /** The model's indexes over fields, named. */
  readonly indexes: readonly NamedIndex[];
  /** The model's unique constraints over fields, named. */
  readonly uniqueConstraints: readonly NamedIndex[];
  /** The many-to-many relations the model declares, by name (no columns of its table). */
  readonly manyToMany: Readonly<Record<string, AnyManyToManyField>>;
  /** The relations of other models that point at this one, by their reverse name. */
  readonly reverseRelations: ReverseRelations;
  /** Type-level only: the declared fields. */
  declare readonly declared: F;

  #checked = false;

  constructor(definition: ModelDefinition<F, P>) {
    const { name } = definition;
    if (!name || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new ImproperlyConfigured(
        'REST_ERR_MODEL_NAME',
        `defineModel: the name ${JSON.stringify(name)} must be an identifier such as "Book".`,
      );
    }
    this.name = name;
    this.table = definition.table ?? snakeCase(name);
    this.#assertIdentifier(this.table, 'its table name');
    this.appLabel = definition.appLabel ?? (this.table.split('_', 1)[0] || this.table);
    this.#assertIdentifier(this.appLabel, 'its app label');
    this.verboseName = definition.verboseName ?? snakeCase(name).replaceAll('_', ' ');
    this.verboseNamePlural = definition.verboseNamePlural ?? `${this.verboseName}s`;

    const allDeclared = definition.fields ?? {};
    const declared: Record<string, AnyModelField> = {};
    const manyToMany: Record<string, AnyManyToManyField> = {};
    for (const [fieldName, field] of Object.entries(allDeclared)) {
      if (field instanceof ManyToManyField) manyToMany[fieldName] = field;
      else declared[fieldName] = field as AnyModelField;
    }
    const fields: Record<string, AnyModelField> = {};
    const declaredPk = Object.values(declared).filter((f) => f.isPrimaryKey);
    if (declaredPk.length > 1) {
      throw new ImproperlyConfigured(
        'REST_ERR_MODEL_FIELD',
        `${name} declares more than one primary key (${Object.entries(declared)
          .filter(([, f]) => f.isPrimaryKey)
          .map(([n]) => n)
          .join(', ')}). Keep one.`,
      );
    }
    if (declaredPk.length === 0) {
      if ('id' in declared) {
        throw new ImproperlyConfigured(
          'REST_ERR_MODEL_FIELD',
          `${name}.id is declared but is not a primary key. Rename it, or declare it with primaryKey: true.`,
        );
      }
      fields.id = new ModelField<number>('auto', { primaryKey: true });
    }
    for (const [fieldName, field] of Object.entries(declared)) {
      if (!(field instanceof ModelField)) {
        throw new ImproperlyConfigured(
          'REST_ERR_MODEL_FIELD',
          `${name}.${fieldName} is not a model field. Declare it with models.*, for example models.CharField({ maxLength: 100 }).`,
        );
      }
      if (field.model) {
        throw new ImproperlyConfigured(
          'REST_ERR_MODEL_FIELD',
          `${name}.${fieldName} reuses a field object already bound to ${field.model.name}.${field.name}. Declare a new one.`,
        );
      }
      fields[fieldName] = field;
    }
    this.#byKey = new Map();
    for (const [fieldName, field] of Object.entries(fields)) {
      this.#assertIdentifier(fieldName, `the field name ${JSON.stringify(fieldName)}`);
      if (fieldName.includes('__')) {
        throw new ImproperlyConfigured(
          'REST_ERR_MODEL_FIELD',
          `${name}.${fieldName}: field names may not contain "__", which separates relation paths.`,
        );
      }
      field.bind(this, fieldName);
      this.#assertIdentifier(field.column, `the column of ${fieldName}`);
      this.#byKey.set(fieldName, field);
      this.#byKey.set(field.attname, field);
    }
    this.fields = Object.freeze(fields);
    this.fieldList = Object.freeze(Object.values(fields));
    this.reverseRelations = new ReverseRelations(this as AnyModel);
    for (const [fieldName, relation] of Object.entries(manyToMany)) {
      this.#assertIdentifier(fieldName, `the field name ${JSON.stringify(fieldName)}`);
      if (fieldName.includes('__')) {
        throw new ImproperlyConfigured(
          'REST_ERR_MODEL_FIELD',
          `${name}.${fieldName}: field names may not contain "__", which separates relation paths.`,
        );
      }
      if (relation.model) {
        throw new ImproperlyConfigured(
          'REST_ERR_MODEL_FIELD',
          `${name}.${fieldName} reuses a relation already bound to ${relation.model.name}.${relation.name}. Declare a new one.`,
        );
      }
      relation.bind(this as AnyModel, fieldName);
    }
    this.manyToMany = Object.freeze(manyToMany);
    this.pk = this.fieldList.find((f) => f.isPrimaryKey) as AnyModelField;

    const properties = (definition.properties ?? {}) as P;
    for (const propName of Object.keys(properties)) {
      if (this.#byKey.has(propName)) {
        throw new ImproperlyConfigured(
          'REST_ERR_MODEL_PROPERTY',
          `${name}.${propName} is both a field and a property. Rename one of them.`,
        );
      }
    }
    this.properties = Object.freeze({ ...properties }) as BoundProperties<F, P>;

    // Every index of the table needs its own name: the fields' own first, then the model's.
    const taken = new Map<string, string>();
    for (const field of this.fieldList) {
      const index = fieldIndex(this.table, field);
      if (index) taken.set(index.name, `the index of field ${field.name}`);
    }
    this.indexes = this.#namedIndexes(definition.indexes, 'indexes', 'idx', taken);
    for (const constraint of definition.constraints ?? []) {
      if (constraint?.kind !== 'unique') {
        throw new ImproperlyConfigured(
          'REST_ERR_MODEL_INDEX',
          `${name}.constraints: each entry must be a UniqueConstraint({ fields, name? }), got ${JSON.stringify(constraint)}.`,
        );
      }
    }
    this.uniqueConstraints = this.#namedIndexes(
      [...(definition.uniqueConstraints ?? []), ...(definition.constraints ?? [])],
      'uniqueConstraints',
      'uniq',
      taken,
    );

    this.ordering = Object.freeze([...(definition.ordering ?? [])]);
    this.#str = definition.str as ((row: never) => string) | undefined;
    for (const term of this.ordering) {
      const path = term.startsWith('-') ? term.slice(1) : term;
      const head = path.split('__')[0] as string;
      if (head !== 'pk' && !this.#byKey.has(head)) {
        throw new ImproperlyConfigured(
          'REST_ERR_MODEL_ORDERING',
          `${name}: ordering refers to the unknown field "${path}". Use one of: ${Object.keys(fields).join(', ')}.`,
        );
      }
    }
    // Properties see the finished model, so they can check the fields and their siblings.
    for (const [propName, property] of Object.entries(properties) as [string, ModelProperty][]) {
      property.bind?.(this as AnyModel, propName);
    }
    // Relations to a model given as it is (or 'self') are known on their target now; those
    // given as functions when the model is checked.
    for (const relation of this.#relations()) {
      const to = relation.kind === 'many_to_many' ? relation.to : relation.extra.to;
      if (to === 'self' || (typeof to === 'object' && to !== null))
        relation.relatedModel.reverseRelations.add(relation);
      else unregistered.add(this as AnyModel);
    }
  }

  /**
   * Registers on their targets the relations of every model not checked yet whose target
   * resolves now (given as functions), so that a reverse name is found before `check()`.
   */
  static registerPendingRelations(): void {
    for (const model of [...unregistered]) {
      let pending = false;
      for (const relation of model.#relations()) {
        let target: AnyModel;
        try {
          target = relation.relatedModel;
        } catch {
          pending = true; // not defined yet, or a mistake check() reports
          continue;
        }
        target.reverseRelations.add(relation);
      }
      if (!pending) unregistered.delete(model);
    }
  }

  /** The model's relations: foreign keys, one-to-ones and many-to-manys. */
  #relations(): (AnyModelField | AnyManyToManyField)[] {
    return [...this.fieldList.filter((f) => f.isRelation), ...Object.values(this.manyToMany)];
  }

  /**
   * The rows related to `row` through the relation `name`: a many-to-many of this model
   * (`Article.related(article, 'tags')`), or the reverse name of a relation pointing here
   * (`Tag.related(tag, 'articles')`, `Author.related(author, 'books')`). See
   * {@link RelatedSet} for reading and changing them. The set is typed by the relation: a
   * many-to-many's target (this model for `'self'`), and for a reverse name the model declaring
   * the relation when that model is in the `ModelRegistry`; a name the types do not know (a
   * model left out of the registry) gives a set of any model, checked at run time.
   *
   * @example
   * ```ts-fragment
   * await Article.related(article, 'tags').add(python);
   * const articles = await Tag.related(python, 'articles').execute(); // Row<typeof Article>[]
   * ```
   */
  related<S extends AnyModel, K extends RelationName<S>>(
    this: S,
    row: Readonly<Record<string, unknown>> | string | number,
    name: K,
  ): RelatedSet<RelatedModel<S, K>>;
  related(
    row: Readonly<Record<string, unknown>> | string | number,
    name: string,
  ): RelatedSet<AnyModel>;
  related(
    row: Readonly<Record<string, unknown>> | string | number,
    name: string,
  ): RelatedSet<AnyModel> {
    const key = row !== null && typeof row === 'object' ? row[this.pk.attname] : row;
    if (!Object.hasOwn(this.manyToMany, name)) this.check();
    const plan = this.relationPlan(name);
    if (plan === undefined) {
      // Throws, naming the relations there are (or the two a default name is shared by).
      this.reverseRelations.get(name);
    }
    const set = plan as RelatedSetPlan;
    const model =
      set.kind !== 'many_to_many'
        ? set.field.model
        : set.reverse
          ? set.relation.model
          : set.relation.relatedModel;
    const source = row !== null && typeof row === 'object' ? { row, name } : undefined;
    return new RelatedSet(model, this as AnyModel, key, set, undefined, source);
  }

  /**
   * How the rows of the relation `name` that is no column of this model are found: a
   * many-to-many of its own (`tags`), or the reverse name of a relation pointing here
   * (`articles`, `profile`); undefined when there is none. What query paths (`tags__name`),
   * prefetches and related sets follow.
   *
   * @example
   * ```ts-fragment
   * Article.relationPlan('tags'); // { kind: 'many_to_many', relation: Article.manyToMany.tags, reverse: false }
   * Author.relationPlan('books'); // { kind: 'foreign_key', field: Book.fields.author }
   * ```
   */
  relationPlan(name: string): RelatedSetPlan | undefined {
    const forward = Object.hasOwn(this.manyToMany, name) ? this.manyToMany[name] : undefined;
    if (forward) {
      forward.check();
      return { kind: 'many_to_many', relation: forward, reverse: false };
    }
    let reverse = this.reverseRelations.find(name);
    if (!reverse) {
      Model.registerPendingRelations();
      reverse = this.reverseRelations.find(name);
      if (!reverse) return undefined;
    }
    if (reverse.kind === 'many_to_many') {
      const relation = reverse.field as AnyManyToManyField;
      relation.check();
      return { kind: 'many_to_many', relation, reverse: true };
    }
    return { kind: reverse.kind, field: reverse.field as AnyModelField };
  }

  /** A query over every row (`Book.objects.filter(...)`); one per model, as a query set never changes. */
  get objects(): QuerySet<this> {
    // Made once: writes ask for it on every request (create, update, the row read back).
    this.#objects ??= new QuerySet(this);
    return this.#objects as QuerySet<this>;
  }

  #objects: QuerySet<AnyModel> | undefined;

  /** The field with this name or attribute name (`user` or `user_id`); `pk` gives the primary key. */
  /**
   * The string form of a row of this model (Django's `str(instance)`): the definition's `str`,
   * else `<Model> object (<pk>)`.
   *
   * @example
   * ```ts-fragment
   * Tag.str({ id: 3, name: 'python' }); // 'python' with str: (tag) => tag.name, else 'Tag object (3)'
   * ```
   */
  str(row: Readonly<Record<string, unknown>>): string {
    if (this.#str !== undefined) return String(this.#str(row as never));
    return `${this.name} object (${String(row[this.pk.attname] ?? 'None')})`;
  }

  /** The field of that name (Django's `_meta.get_field`), or undefined. */
  getField(name: string): AnyModelField | undefined {
    if (name === 'pk') return this.pk;
    return this.#byKey.get(name);
  }

  /** True when `name` is a field or a property of the model. */
  has(name: string): boolean {
    return this.#byKey.has(name) || Object.hasOwn(this.properties, name);
  }

  /**
   * Resolves what only start-up can: relations given as functions, ordering paths across
   * them. Called by migrations and by the Fastify plugin; safe to call more than once.
   */
  check(): void {
    if (this.#checked) return;
    for (const relation of this.#relations()) {
      relation.relatedModel.reverseRelations.add(relation);
      if (relation.kind === 'many_to_many') relation.check();
    }
    for (const term of this.ordering) {
      this.resolvePath(term.startsWith('-') ? term.slice(1) : term, `${this.name}.ordering`);
    }
    unregistered.delete(this as AnyModel);
    this.#checked = true;
  }

  /**
   * Follows a `relation__field` path from this model to a column, across relations of every
   * kind: foreign keys and one-to-ones both ways, many-to-manys both ways (`tags__name`,
   * `favorites__title`). A path ending on a relation refers to the related row's key.
   * `multiValued` is true when the path crosses a relation that holds many rows for one.
   * Throws `ImproperlyConfigured` naming `where` when the path does not resolve.
   */
  resolvePath(
    path: string,
    where: string,
  ): {
    /** The relations crossed, by name, in order (`['author']` for `author__name`). */
    relations: string[];
    /** The field at the end of the path (the related row's key for a path ending on a relation). */
    field: AnyModelField;
    /** True when a relation crossed holds many rows for one (many-to-many, reverse foreign key). */
    multiValued: boolean;
  } {
    const parts = path.split('__');
    const relations: string[] = [];
    let model: AnyModel = this as AnyModel;
    let multiValued = false;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as string;
      const last = i === parts.length - 1;
      const field = model.getField(part);
      if (field) {
        if (last) return { relations, field, multiValued };
        if (!field.isRelation) {
          throw new ImproperlyConfigured(
            'REST_ERR_MODEL_PATH',
            `${where}: "${path}" does not resolve: ${model.name}.${part} is not a relation.`,
          );
        }
        relations.push(part);
        model = field.relatedModel;
        continue;
      }
      const plan = model.relationPlan(part);
      if (!plan) {
        throw new ImproperlyConfigured(
          'REST_ERR_MODEL_PATH',
          `${where}: "${path}" does not resolve: ${model.name} has no field "${part}".`,
        );
      }
      relations.push(part);
      if (plan.kind === 'many_to_many') {
        multiValued = true;
        model = plan.reverse ? plan.relation.model : plan.relation.relatedModel;
      } else {
        if (plan.kind === 'foreign_key') multiValued = true;
        model = plan.field.model;
      }
      if (last) return { relations, field: model.pk, multiValued };
    }
    throw new ImproperlyConfigured('REST_ERR_MODEL_PATH', `${where}: the path is empty.`);
  }

  #namedIndexes(
    declared: readonly ModelIndex[] | undefined,
    option: string,
    suffix: string,
    taken: Map<string, string>,
  ): readonly NamedIndex[] {
    const result: NamedIndex[] = [];
    for (const index of declared ?? []) {
      const fields = Array.isArray(index?.fields) ? index.fields : [];
      if (fields.length === 0) {
        throw new ImproperlyConfigured(
          'REST_ERR_MODEL_INDEX',
          `${this.name}.${option}: each entry needs fields, a non-empty list of field names, for example { fields: ['title'] }.`,
        );
      }
      const columns = fields.map((name) => {
        const field = this.#byKey.get(name);
        if (!field || field.name !== name) {
          throw new ImproperlyConfigured(
            'REST_ERR_MODEL_INDEX',
            `${this.name}.${option}: unknown field "${name}". Use one of: ${Object.keys(this.fields).join(', ')}.`,
          );
        }
        if (field.kind === 'json') {
          throw new ImproperlyConfigured(
            'REST_ERR_MODEL_INDEX',
            `${this.name}.${option}: "${name}" is a JSONField, which no index can hold alike on every database. Remove it from the entry.`,
          );
        }
        return field.column;
      });
      const name = index.name ?? constraintName(this.table, columns, suffix);
      if (!isIdentifier(name)) {
        throw new ImproperlyConfigured(
          'REST_ERR_MODEL_INDEX',
          `${this.name}.${option}: the name ${JSON.stringify(name)} must be a plain identifier ` +
            '(letters, digits and _, not starting with a digit, at most 63 characters).',
        );
      }
      const owner = taken.get(name);
      if (owner) {
        throw new ImproperlyConfigured(
          'REST_ERR_MODEL_INDEX',
          `${this.name}.${option}: the index ${name} (on ${fields.join(', ')}) has the name of ${owner}. ` +
            'Remove the duplicate, or give this one a name of its own ({ fields, name }).',
        );
      }
      taken.set(name, `the entry of ${option} on ${fields.join(', ')}`);
      result.push(Object.freeze({ name, fields: Object.freeze([...fields]) }));
    }
    return Object.freeze(result);
  }

  #assertIdentifier(value: string, what: string): void {
    if (!isIdentifier(value)) {
      throw new ImproperlyConfigured(
        'REST_ERR_MODEL_NAME',
        `${this.name ?? 'defineModel'}: ${what} (${JSON.stringify(value)}) must be a plain identifier ` +
          '(letters, digits and _, not starting with a digit, at most 63 characters).',
      );
    }
  }
}

/**
 * Declares a model. See the module example.
 * Declaration mistakes throw `ImproperlyConfigured` naming the model, the field and the fix.
 */
export function defineModel<
  const F extends DeclaredFields,
  const P extends DeclaredProperties = {},
>(
  definition: ModelDefinition<F, P> & { readonly properties?: CheckedProperties<F, P> },
): Model<F, P> {
  return new Model(definition);
}
