/**
 * One column of a model, with the metadata serializers, migrations and queries read from it.
 *
 * Fields are declared with the factories of `models` (`models.CharField({ maxLength: 100 })`)
 * and bound to their model by `defineModel`, which fills in `name`, `column` and `model`.
 * @module
 */
import { ImproperlyConfigured } from '../errors/improperly-configured.ts';
import type { AnyModel } from './model.ts';

/** A choice: the stored value and the name shown to people. */
export type Choice = readonly [value: string | number, displayName: string];

/** What the database must do with a row whose foreign key points at a deleted row. */
export type OnDelete = 'CASCADE' | 'SET_NULL' | 'RESTRICT' | 'PROTECT' | 'NO_ACTION';

/** The kinds of column the toolkit knows; the dialects map each to a column type. */
export type ModelFieldKind =
  | 'auto'
  | 'char'
  | 'text'
  | 'email'
  | 'url'
  | 'integer'
  | 'positive_integer'
  | 'big_integer'
  | 'small_integer'
  | 'positive_small_integer'
  | 'float'
  | 'decimal'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'time'
  | 'duration'
  | 'slug'
  | 'uuid'
  | 'json'
  | 'foreign_key'
  | 'one_to_one'
  | 'file';

/** Options every model field accepts (Django's names, camel-cased). */
export interface ModelFieldOptions<T = unknown> {
  /** The column accepts NULL. */
  readonly null?: boolean;
  /** Serializers accept an empty string. */
  readonly blank?: boolean;
  /** A value, or a function giving one, used when a create supplies none. */
  readonly default?: T | (() => T);
  /** A unique index on the column; serializers validate uniqueness. */
  readonly unique?: boolean;
  /** Allowed values with their display names. */
  readonly choices?: readonly Choice[];
  /** An index on the column. */
  readonly dbIndex?: boolean;
  /** The column name when it is not the field name. */
  readonly dbColumn?: string;
  /** The human name used in messages; defaults to the field name with spaces. */
  readonly verboseName?: string;
  /** Help shown in forms and schemas. */
  readonly helpText?: string;
  /** This field is the primary key (instead of the automatic `id`). */
  readonly primaryKey?: boolean;
  /** False makes the field read-only in model serializers (DRF's `editable=False`). */
  readonly editable?: boolean;
}

/** Kind-specific options, kept together so one class serves every kind. */
export interface ModelFieldExtra {
  /**
   * The most characters of a text column (`CharField`, `SlugField`, `EmailField`, `URLField`,
   * `FileField`).
   */
  readonly maxLength?: number;
  /** The digits of a `DecimalField` in all, before and after the point. */
  readonly maxDigits?: number;
  /** The digits of a `DecimalField` after the point. */
  readonly decimalPlaces?: number;
  /**
   * The model a relation points to: the model, a function that returns it (a model declared later),
   * or `'self'`.
   */
  readonly to?: AnyModel | (() => AnyModel) | 'self';
  /**
   * What deleting the related row does to this one (`CASCADE`, `PROTECT`, `SET_NULL`, ...), as
   * Django's `on_delete`.
   */
  readonly onDelete?: OnDelete;
  /**
   * The name of the reverse relation on the related model (`books` for `Book.author`); default
   * `<model>_set`.
   */
  readonly relatedName?: string;
  /** The folder of the storage a `FileField`'s files go to (`resumes`), as Django's `upload_to`. */
  readonly uploadTo?: string;
  /** A date or date-time set to now at every save (and read-only in model serializers). */
  readonly autoNow?: boolean;
  /**
   * A date or date-time set to now when the row is created (and read-only in model serializers).
   */
  readonly autoNowAdd?: boolean;
}

/**
 * A declared column. `T` is the value type a row holds for it (used by `Row<Model>`); `O` the
 * declared options, kept for the types serializers infer (`null`, `default`, `blank`,
 * `choices`, `editable`, `autoNowAdd`: what a client may send and must send).
 *
 * @example
 * ```ts
 * const title = models.CharField({ maxLength: 100, unique: true });
 * title.kind; // 'char'
 * ```
 */
export class ModelField<T = unknown, O = {}> {
  /** Type-level only: the value a row holds for this field. */
  declare readonly valueType: T;
  /**
   * Type-level only: the options as declared (their literal types), read by the inferred
   * serializer types; `readOnly: true` for kinds serializers never write (`AutoField`).
   */
  declare readonly traits: O;

  /** The kind of column (`char`, `integer`, `foreign_key`, ...): what the field stores and how. */
  readonly kind: ModelFieldKind;
  /** The options common to every kind, as declared (frozen). */
  readonly options: ModelFieldOptions<T>;
  /** The options of its kind (`maxLength`, `to`, `onDelete`, ...), as declared (frozen). */
  readonly extra: ModelFieldExtra;

  /** The field's name in the model declaration (set by `defineModel`). */
  name = '';
  /** The key of this field in a row: the name, or `<name>_id` for relations. */
  attname = '';
  /** The database column. */
  column = '';
  /** The model that owns this field (set by `defineModel`). */
  model!: AnyModel;

  #related: AnyModel | undefined;

  constructor(kind: ModelFieldKind, options: ModelFieldOptions<T>, extra: ModelFieldExtra = {}) {
    this.kind = kind;
    this.options = Object.freeze({ ...options });
    this.extra = Object.freeze({ ...extra });
  }

  /** True for foreign keys and one-to-one fields. */
  get isRelation(): boolean {
    return this.kind === 'foreign_key' || this.kind === 'one_to_one';
  }

  /** True for the primary key: `primaryKey: true`, or the automatic `id`. */
  get isPrimaryKey(): boolean {
    return this.options.primaryKey === true || this.kind === 'auto';
  }

  /** True for the kinds whose column has a `>= 0` check (the positive integers). */
  get isPositive(): boolean {
    return this.kind === 'positive_integer' || this.kind === 'positive_small_integer';
  }

  /** True when the column may hold NULL (`null: true`). */
  get nullable(): boolean {
    return this.options.null === true;
  }

  /**
   * True when no two rows may share a value: `unique: true`, the primary key, a one-to-one field.
   */
  get unique(): boolean {
    return this.options.unique === true || this.isPrimaryKey || this.kind === 'one_to_one';
  }

  /**
   * True when a new row gets a value without one given: a `default`, or the database's (an
   * automatic key).
   */
  get hasDefault(): boolean {
    return this.options.default !== undefined || this.kind === 'auto';
  }

  /** True for text-like kinds, which sort by byte order on every dialect. */
  get isText(): boolean {
    return (
      this.kind === 'char' ||
      this.kind === 'text' ||
      this.kind === 'email' ||
      this.kind === 'url' ||
      this.kind === 'slug' ||
      this.kind === 'file'
    );
  }

  /**
   * The name people read (forms, messages): `verboseName`, else the name with spaces (`stock
   * level`).
   */
  get verboseName(): string {
    return this.options.verboseName ?? this.name.replaceAll('_', ' ');
  }

  /** The default value for a new row, calling the factory when the default is a function. */
  getDefault(): T | undefined {
    const value = this.options.default;
    return typeof value === 'function' ? (value as () => T)() : value;
  }

  /** The model a relation points to, resolved on first use (so models may refer forward). */
  get relatedModel(): AnyModel {
    if (!this.isRelation) {
      throw new ImproperlyConfigured(
        'REST_ERR_MODEL_RELATION',
        `${this.model.name}.${this.name} is not a relation.`,
      );
    }
    if (this.#related) return this.#related;
    const to = this.extra.to;
    const resolved = to === 'self' ? this.model : typeof to === 'function' ? to() : to;
    if (!resolved || typeof resolved !== 'object' || !('table' in resolved)) {
      throw new ImproperlyConfigured(
        'REST_ERR_MODEL_RELATION',
        `${this.model.name}.${this.name} relates to an unknown model (${String(resolved)}). ` +
          'Pass the model defined with defineModel(), a function returning it (for models defined later), or "self".',
      );
    }
    this.#related = resolved as AnyModel;
    return this.#related;
  }

  /** Called by `defineModel`: names the field and checks its options. */
  bind(model: AnyModel, name: string): void {
    this.model = model;
    this.name = name;
    this.attname = this.isRelation ? `${name}_id` : name;
    this.column = this.options.dbColumn ?? this.attname;
    this.#check();
  }

  #check(): void {
    const where = `${this.model.name}.${this.name}`;
    const fail = (fix: string): never => {
      throw new ImproperlyConfigured('REST_ERR_MODEL_FIELD', `${where}: ${fix}`);
    };
    const { maxLength, maxDigits, decimalPlaces } = this.extra;
    if (
      (this.kind === 'char' ||
        this.kind === 'email' ||
        this.kind === 'url' ||
        this.kind === 'slug') &&
      maxLength === undefined
    ) {
      fail('a CharField needs maxLength, for example models.CharField({ maxLength: 100 }).');
    }
    if (maxLength !== undefined && (!Number.isInteger(maxLength) || maxLength < 1)) {
      fail(`maxLength must be a positive integer, got ${String(maxLength)}.`);
    }
    if (this.kind === 'decimal') {
      if (!Number.isInteger(maxDigits) || (maxDigits as number) < 1) {
        fail(
          'a DecimalField needs maxDigits, a positive integer (for example { maxDigits: 10, decimalPlaces: 2 }).',
        );
      }
      if (!Number.isInteger(decimalPlaces) || (decimalPlaces as number) < 0) {
        fail('a DecimalField needs decimalPlaces, a non-negative integer.');
      }
      if ((decimalPlaces as number) > (maxDigits as number)) {
        fail(`decimalPlaces (${decimalPlaces}) cannot exceed maxDigits (${maxDigits}).`);
      }
    }
    const choices = this.options.choices;
    if (choices) {
      if (!Array.isArray(choices) || choices.length === 0) {
        fail('choices must be a non-empty list of [value, displayName] pairs.');
      }
      for (const choice of choices) {
        if (!Array.isArray(choice) || choice.length !== 2 || typeof choice[1] !== 'string') {
          fail(`each choice must be a [value, displayName] pair, got ${JSON.stringify(choice)}.`);
        }
      }
      const def = this.options.default;
      if (
        def !== undefined &&
        typeof def !== 'function' &&
        !choices.some(([value]) => value === def)
      ) {
        fail(
          `the default ${JSON.stringify(def)} is not among the choices (${choices.map(([v]) => JSON.stringify(v)).join(', ')}). ` +
            'Change the default or add it to the choices.',
        );
      }
    }
    if (
      this.kind === 'json' &&
      (this.options.unique || this.options.dbIndex || this.isPrimaryKey)
    ) {
      fail(
        'a JSONField cannot be unique, indexed or a primary key (its values compare as text on some databases and as documents on others). Remove unique/dbIndex/primaryKey.',
      );
    }
    if (this.isRelation && this.extra.onDelete === 'SET_NULL' && !this.nullable) {
      fail("onDelete: 'SET_NULL' needs null: true on the field.");
    }
  }
}

/** Any model field, whatever its value type. */
export type AnyModelField = ModelField<any, any>;
