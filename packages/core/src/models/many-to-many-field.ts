/**
 * Many-to-many relations (Django's `ManyToManyField`): no column of the model, but a join
 * table with a foreign key to each side, made for you (`<table>_<field>`) or given as a
 * `through` model of your own.
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import { isIdentifier, snakeCase } from '../utils/text.ts';
import { type AnyModel, defineModel } from './model.ts';
import { type AnyModelField, ModelField } from './model-field.ts';
import { UniqueConstraint } from './unique-constraint.ts';

/** Options of {@link ManyToManyField}. */
export interface ManyToManyOptions {
  /**
   * The name of the reverse relation on the target (`Tag.related(tag, 'articles')`); `'+'`
   * for none. Defaults to `<model>_set`.
   */
  readonly relatedName?: string;
  /** A model of your own for the join table, with a foreign key to each side. */
  readonly through?: AnyModel | (() => AnyModel);
  /**
   * The through model's two foreign keys, `[to this model, to the target]`, when it has more
   * than one to either (a self-referencing through model always needs them).
   */
  readonly throughFields?: readonly [string, string];
  /** The automatic join table's name; defaults to `<table>_<field>`. */
  readonly dbTable?: string;
  /**
   * For a relation to `'self'` without a through model: adding b to a's set adds a to b's
   * (friends). Django's default for `'self'` is true; say false for follows.
   */
  readonly symmetrical?: boolean;
  /** Serializers accept an empty list. */
  readonly blank?: boolean;
  /** The name people read (forms, messages); default the field's name with spaces. */
  readonly verboseName?: string;
  /** Help shown in forms and schemas. */
  readonly helpText?: string;
}

type Target = AnyModel | (() => AnyModel) | 'self';

/**
 * A many-to-many relation of a model, declared among its fields with
 * `models.ManyToManyField(Target, options)`. It has no column: rows do not hold it. Read and
 * change a row's set with `Model.related(row, name)`.
 *
 * @example
 * ```ts
 * import { defineModel, models } from '@restframework/core';
 *
 * const Tag = defineModel({ name: 'Tag', fields: { name: models.CharField({ maxLength: 20 }) } });
 * const Article = defineModel({
 *   name: 'Article',
 *   fields: {
 *     title: models.CharField({ maxLength: 100 }),
 *     tags: models.ManyToManyField(Tag, { relatedName: 'articles' }),
 *   },
 * });
 * Article.manyToMany.tags?.through.table; // 'article_tags'
 * ```
 */
export class ManyToManyField<M extends AnyModel = AnyModel, N = string | undefined> {
  /** Type-level only: the target model. */
  declare readonly __manyToMany: M;
  /** Type-level only: the `relatedName` as declared (its reverse name on the target). */
  declare readonly __relatedName: N;
  /** Always `many_to_many`: tells a relation apart from a column (`ModelField.kind`). */
  readonly kind = 'many_to_many' as const;
  /** The options as declared. */
  readonly options: ManyToManyOptions;
  /**
   * The target as declared: a model, a function that returns one (declared later), or `'self'`;
   * {@link relatedModel} resolves it.
   */
  readonly to: Target;
  /** The field's name in the model declaration (set by `defineModel`). */
  name = '';
  /** The model that declares the relation (set by `defineModel`). */
  model!: AnyModel;

  #related: AnyModel | undefined;
  #through: AnyModel | undefined;
  #keys: { source: AnyModelField; target: AnyModelField } | undefined;

  constructor(to: Target, options: ManyToManyOptions = {}) {
    this.to = to;
    this.options = Object.freeze({ ...options });
  }

  /** True when a row added to one side's set is added to the other's too. */
  get symmetrical(): boolean {
    return this.options.symmetrical ?? (this.to === 'self' && !this.options.through);
  }

  /** True when the join table is made for this relation (no `through` model). */
  get autoCreated(): boolean {
    return this.options.through === undefined;
  }

  /** The name people read: `verboseName`, else the name with spaces (`favorite books`). */
  get verboseName(): string {
    return this.options.verboseName ?? this.name.replaceAll('_', ' ');
  }

  #where(): string {
    return `${this.model.name}.${this.name}`;
  }

  /** Called by `defineModel`: names the relation, checks its options, makes its join model. */
  bind(model: AnyModel, name: string): void {
    this.model = model;
    this.name = name;
    const { relatedName, dbTable, through, throughFields, symmetrical } = this.options;
    const fail = (code: 'REST_ERR_MODEL_FIELD' | 'REST_ERR_MODEL_THROUGH', fix: string): never => {
      throw new ImproperlyConfigured(code, `${this.#where()}: ${fix}`);
    };
    if (relatedName !== undefined && relatedName !== '+' && !isIdentifier(relatedName))
      fail(
        'REST_ERR_MODEL_FIELD',
        `relatedName ${JSON.stringify(relatedName)} must be a plain identifier, or '+' for no reverse relation.`,
      );
    if (through !== undefined && dbTable !== undefined)
      fail(
        'REST_ERR_MODEL_FIELD',
        'dbTable names the automatic join table; with a through model, name its table there instead.',
      );
    if (
      through !== undefined &&
      (typeof through !== 'object' || through === null) &&
      typeof through !== 'function'
    )
      fail(
        'REST_ERR_MODEL_THROUGH',
        'through must be a model from defineModel(), or a function returning one.',
      );
    if (throughFields !== undefined && through === undefined)
      fail(
        'REST_ERR_MODEL_THROUGH',
        'throughFields needs a through model; remove it, or add through.',
      );
    if (symmetrical && (this.to !== 'self' || through !== undefined))
      fail(
        'REST_ERR_MODEL_FIELD',
        "symmetrical applies to a relation to 'self' without a through model only.",
      );
    if (this.autoCreated) {
      const table = dbTable ?? `${model.table}_${name}`;
      if (!isIdentifier(table))
        fail(
          'REST_ERR_MODEL_FIELD',
          `the join table name ${JSON.stringify(table)} is not a plain identifier of at most 63 characters. Give dbTable.`,
        );
    }
  }

  /** The automatic join model: a key to each side, unique together, no reverse relations. */
  #autoThrough(table: string): AnyModel {
    const source = snakeCase(this.model.name);
    const self = this.to === 'self';
    const from = self ? `from_${source}` : source;
    const to = self ? `to_${source}` : snakeCase(this.relatedModel.name);
    const owner = this.model;
    return defineModel({
      name: `${owner.name}_${this.name}`,
      table,
      fields: {
        [from]: new ModelField(
          'foreign_key',
          {},
          { to: owner, onDelete: 'CASCADE', relatedName: '+' },
        ),
        [to]: new ModelField(
          'foreign_key',
          {},
          { to: () => this.relatedModel, onDelete: 'CASCADE', relatedName: '+' },
        ),
      },
      constraints: [UniqueConstraint({ fields: [from, to] })],
    });
  }

  /** The target model, resolved on first use (so models may refer forward). */
  get relatedModel(): M {
    if (this.#related) return this.#related as M;
    const to = this.to;
    let resolved: unknown;
    try {
      resolved = to === 'self' ? this.model : typeof to === 'function' ? to() : to;
    } catch {
      resolved = undefined;
    }
    if (!resolved || typeof resolved !== 'object' || !('table' in resolved)) {
      throw new ImproperlyConfigured(
        'REST_ERR_MODEL_RELATION',
        `${this.#where()} relates to an unknown model (${String(resolved)}). ` +
          'Pass the model defined with defineModel(), a function returning it (for models defined later), or "self".',
      );
    }
    this.#related = resolved as AnyModel;
    return this.#related as M;
  }

  /** The join model: the automatic one, or the `through` model. */
  get through(): AnyModel {
    if (this.#through) return this.#through;
    if (this.autoCreated) {
      // Made on first use: its key's name comes from the target, which may be defined later.
      this.#through = this.#autoThrough(this.options.dbTable ?? `${this.model.table}_${this.name}`);
      return this.#through;
    }
    const given = this.options.through as AnyModel | (() => AnyModel);
    const resolved = typeof given === 'function' ? given() : given;
    if (!resolved || typeof resolved !== 'object' || !('table' in resolved)) {
      throw new ImproperlyConfigured(
        'REST_ERR_MODEL_THROUGH',
        `${this.#where()}: through is not a model (${String(resolved)}). Pass the model defined with defineModel(), or a function returning it.`,
      );
    }
    this.#through = resolved;
    return resolved;
  }

  /** The join model's key to the declaring model. */
  get sourceField(): AnyModelField {
    return this.#joinKeys().source;
  }

  /** The join model's key to the target model. */
  get targetField(): AnyModelField {
    return this.#joinKeys().target;
  }

  /** Resolves the target, the join model and its two keys, or fails naming the fix. */
  check(): void {
    void this.relatedModel;
    void this.#joinKeys();
  }

  #joinKeys(): { source: AnyModelField; target: AnyModelField } {
    if (this.#keys) return this.#keys;
    const through = this.through;
    const source = this.model;
    const target = this.relatedModel;
    const keysTo = (model: AnyModel) =>
      through.fieldList.filter((f) => f.kind === 'foreign_key' && f.relatedModel === model);
    const fail = (fix: string): never => {
      throw new ImproperlyConfigured(
        'REST_ERR_MODEL_THROUGH',
        `${this.#where()}: the through model ${through.name} ${fix}`,
      );
    };
    let keys: { source: AnyModelField; target: AnyModelField };
    const named = this.options.throughFields;
    if (named) {
      const [from, to] = named.map((n) => through.getField(n));
      if (from?.kind !== 'foreign_key' || from.relatedModel !== source)
        fail(
          `has no foreign key "${named[0]}" to ${source.name}. throughFields is [key to ${source.name}, key to ${target.name}].`,
        );
      if (to?.kind !== 'foreign_key' || to.relatedModel !== target)
        fail(
          `has no foreign key "${named[1]}" to ${target.name}. throughFields is [key to ${source.name}, key to ${target.name}].`,
        );
      keys = { source: from as AnyModelField, target: to as AnyModelField };
    } else if (this.autoCreated) {
      const [from, to] = through.fieldList.filter((f) => f.kind === 'foreign_key');
      keys = { source: from as AnyModelField, target: to as AnyModelField };
    } else {
      const from = keysTo(source);
      const to = keysTo(target);
      if (source === target)
        fail(
          `relates ${source.name} to itself: say which key is which with throughFields: ['<key to the follower>', '<key to the followed>'].`,
        );
      if (from.length !== 1)
        fail(
          `needs exactly one foreign key to ${source.name} (it has ${from.length}). Add one, or name the two keys with throughFields.`,
        );
      if (to.length !== 1)
        fail(
          `needs exactly one foreign key to ${target.name} (it has ${to.length}). Add one, or name the two keys with throughFields.`,
        );
      keys = { source: from[0] as AnyModelField, target: to[0] as AnyModelField };
    }
    this.#keys = keys;
    return keys;
  }
}

/** Any many-to-many relation. */
export type AnyManyToManyField = ManyToManyField<any>;
