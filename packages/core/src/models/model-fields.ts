/**
 * The factories that declare model fields, under the names Django users know.
 *
 * @example
 * ```ts
 * import { defineModel, models } from '@restframework/core';
 *
 * const Book = defineModel({
 *   name: 'Book',
 *   fields: {
 *     title: models.CharField({ maxLength: 100 }),
 *     price: models.DecimalField({ maxDigits: 10, decimalPlaces: 2 }),
 *     pages: models.PositiveIntegerField({ default: 200 }),
 *   },
 * });
 * ```
 * @module
 */
import type { JsonValue } from '../migrations/field-spec.ts';
import { ManyToManyField, type ManyToManyOptions } from './many-to-many-field.ts';
import type { AnyModel, PrimaryKey } from './model.ts';
import { type Choice, ModelField, type ModelFieldOptions, type OnDelete } from './model-field.ts';

/** `T`, or `T | null` when the options say `null: true`. */
export type NullableIf<T, O> = O extends {
  /** The column may hold NULL. */
  readonly null: true;
}
  ? T | null
  : T;

/**
 * The values of the options' `choices` (declared `as const` or inline), as a union; `T` when
 * there are none.
 *
 * @example
 * ```ts-fragment
 * type State = ChoiceValues<string, { choices: readonly [readonly ['a', 'A'], readonly ['b', 'B']] }>; // 'a' | 'b'
 * ```
 */
export type ChoiceValues<T, O> = O extends {
  /** The field's choices, `[value, label]` pairs. */
  readonly choices: readonly (infer C)[];
}
  ? C extends readonly [infer V, string]
    ? Extract<V, T>
    : T
  : T;

/**
 * The value a row holds for a column of type `T` declared with options `O`: its choices, or
 * `T`, with `| null` for `null: true`.
 *
 * @example
 * ```ts-fragment
 * type Summary = ColumnValue<string, { null: true }>; // string | null
 * ```
 */
export type ColumnValue<T, O> = NullableIf<ChoiceValues<T, O>, O>;

/** Options of a text column with a length limit. */
export interface CharFieldOptions extends ModelFieldOptions<string> {
  readonly maxLength: number;
}

/** Options of a decimal column. */
export interface DecimalFieldOptions extends ModelFieldOptions<string> {
  readonly maxDigits: number;
  readonly decimalPlaces: number;
}

/** Options of a date-time column. */
export interface DateTimeFieldOptions extends ModelFieldOptions<string> {
  /** Set to now on every save. */
  readonly autoNow?: boolean;
  /** Set to now when the row is created. */
  readonly autoNowAdd?: boolean;
}

/** Options of a relation. */
export interface RelationOptions extends ModelFieldOptions<number> {
  readonly onDelete: OnDelete;
  /** Name of the reverse accessor (informational). */
  readonly relatedName?: string;
}

/** Options of a file column, which stores the file's name in storage. */
export interface FileFieldOptions extends ModelFieldOptions<string> {
  /** A folder inside the storage for this field's files. */
  readonly uploadTo?: string;
  readonly maxLength?: number;
}

/**
 * A relation field. `__relatedModel` exists only in the type: it marks the field as a relation
 * (so rows get a `<name>_id` key) and carries the related model's type.
 */
export type RelationField<M extends AnyModel, T, O = {}> = ModelField<T, O> & {
  /** Type-level only: the related model. */
  readonly __relatedModel: M;
};

/** A one-to-one relation field: a {@link RelationField} whose reverse name holds one row. */
export type OneToOneRelationField<M extends AnyModel, T, O = {}> = RelationField<M, T, O> & {
  /** Type-level only: marks the relation as a one-to-one. */
  readonly __oneToOne: true;
};

/** The `relatedName` of a many-to-many's options as declared (its literal type), if any. */
type RelatedNameOf<O> = O extends { readonly relatedName: infer N } ? N : undefined;

type Target<M extends AnyModel> = M | (() => M) | 'self';

function charLike<O extends CharFieldOptions>(
  kind: 'char' | 'email' | 'url' | 'slug',
  options: O,
): ModelField<ColumnValue<string, O>, O> {
  return new ModelField(kind, options as ModelFieldOptions<any>, {
    maxLength: options.maxLength,
  });
}

/** The model field factories (`models.CharField(...)`, ...). */
export const models = {
  /** An auto-incrementing integer primary key; added as `id` when no field is the primary key. */
  AutoField(options: ModelFieldOptions<number> = {}): ModelField<
    number,
    {
      /** Always: it is the primary key. */
      readonly primaryKey: true;
      /** Always: the database numbers the rows; serializers never write it. */
      readonly readOnly: true;
    }
  > {
    return new ModelField('auto', { ...options, primaryKey: true });
  },

  /** A string with a maximum length (`maxLength` is required). */
  CharField<const O extends CharFieldOptions>(options: O): ModelField<ColumnValue<string, O>, O> {
    return charLike('char', options);
  },

  /** A string without a length limit. */
  TextField<const O extends ModelFieldOptions<string>>(
    options?: O,
  ): ModelField<ColumnValue<string, O>, O> {
    return new ModelField('text', (options ?? {}) as ModelFieldOptions<any>);
  },

  /** A string validated as an e-mail address (`maxLength` defaults to 254, as Django's). */
  EmailField<const O extends Partial<CharFieldOptions>>(
    options?: O,
  ): ModelField<ColumnValue<string, O>, O> {
    return charLike('email', { maxLength: 254, ...(options ?? {}) } as CharFieldOptions) as never;
  },

  /** A string validated as a URL (`maxLength` defaults to 200, as Django's). */
  URLField<const O extends Partial<CharFieldOptions>>(
    options?: O,
  ): ModelField<ColumnValue<string, O>, O> {
    return charLike('url', { maxLength: 200, ...(options ?? {}) } as CharFieldOptions) as never;
  },

  /** A 32-bit signed integer. */
  IntegerField<const O extends ModelFieldOptions<number>>(
    options?: O,
  ): ModelField<ColumnValue<number, O>, O> {
    return new ModelField('integer', (options ?? {}) as ModelFieldOptions<any>);
  },

  /** A 32-bit integer that cannot be negative (a CHECK constraint in the database). */
  PositiveIntegerField<const O extends ModelFieldOptions<number>>(
    options?: O,
  ): ModelField<ColumnValue<number, O>, O> {
    return new ModelField('positive_integer', (options ?? {}) as ModelFieldOptions<any>);
  },

  /** A 64-bit integer, read as a number (exact up to 2^53). */
  BigIntegerField<const O extends ModelFieldOptions<number>>(
    options?: O,
  ): ModelField<ColumnValue<number, O>, O> {
    return new ModelField('big_integer', (options ?? {}) as ModelFieldOptions<any>);
  },

  /** A 16-bit signed integer (-32768 to 32767). */
  SmallIntegerField<const O extends ModelFieldOptions<number>>(
    options?: O,
  ): ModelField<ColumnValue<number, O>, O> {
    return new ModelField('small_integer', (options ?? {}) as ModelFieldOptions<any>);
  },

  /** A 16-bit integer that cannot be negative (0 to 32767, a CHECK constraint in the database). */
  PositiveSmallIntegerField<const O extends ModelFieldOptions<number>>(
    options?: O,
  ): ModelField<ColumnValue<number, O>, O> {
    return new ModelField('positive_small_integer', (options ?? {}) as ModelFieldOptions<any>);
  },

  /** A double-precision floating-point number (`real`, `double precision`, `double`). */
  FloatField<const O extends ModelFieldOptions<number>>(
    options?: O,
  ): ModelField<ColumnValue<number, O>, O> {
    return new ModelField('float', (options ?? {}) as ModelFieldOptions<any>);
  },

  /** An exact decimal, held as a string with exactly `decimalPlaces` places. */
  DecimalField<const O extends DecimalFieldOptions>(
    options: O,
  ): ModelField<ColumnValue<string, O>, O> {
    return new ModelField('decimal', options as ModelFieldOptions<any>, {
      maxDigits: options.maxDigits,
      decimalPlaces: options.decimalPlaces,
    });
  },

  /** A boolean. */
  BooleanField<const O extends ModelFieldOptions<boolean>>(
    options?: O,
  ): ModelField<ColumnValue<boolean, O>, O> {
    return new ModelField('boolean', (options ?? {}) as ModelFieldOptions<any>);
  },

  /** A calendar date, held as `YYYY-MM-DD`. */
  DateField<const O extends ModelFieldOptions<string>>(
    options?: O,
  ): ModelField<ColumnValue<string, O>, O> {
    return new ModelField('date', (options ?? {}) as ModelFieldOptions<any>);
  },

  /** An instant, held as an ISO 8601 string in UTC (`2024-01-02T03:04:05.000Z`). */
  DateTimeField<const O extends DateTimeFieldOptions>(
    options?: O,
  ): ModelField<ColumnValue<string, O>, O> {
    const o = (options ?? {}) as DateTimeFieldOptions;
    return new ModelField('datetime', o as ModelFieldOptions<any>, {
      ...(o.autoNow ? { autoNow: true } : {}),
      ...(o.autoNowAdd ? { autoNowAdd: true } : {}),
    });
  },

  /**
   * A time of day, held as `HH:MM:SS`, or `HH:MM:SS.ffffff` when it has a fraction of a second
   * (to the microsecond, as Django's).
   */
  TimeField<const O extends ModelFieldOptions<string>>(
    options?: O,
  ): ModelField<ColumnValue<string, O>, O> {
    return new ModelField('time', (options ?? {}) as ModelFieldOptions<any>);
  },

  /**
   * A length of time, held as a whole number of microseconds (a `bigint` column on every
   * database, so sums and comparisons agree); serializers read and write Django's
   * `[-][DD ][HH:[MM:]]ss[.uuuuuu]` text.
   */
  DurationField<const O extends ModelFieldOptions<number>>(
    options?: O,
  ): ModelField<
    ColumnValue<number, O>,
    O & {
      /** Type-level mark: serializers read and write it as duration text. */
      readonly duration: true;
    }
  > {
    return new ModelField('duration', (options ?? {}) as ModelFieldOptions<any>);
  },

  /**
   * A slug: letters, digits, `-` and `_` (`maxLength` defaults to 50 and `dbIndex` to true,
   * as Django's).
   */
  SlugField<const O extends Partial<CharFieldOptions>>(
    options?: O,
  ): ModelField<ColumnValue<string, O>, O> {
    const o = { maxLength: 50, dbIndex: true, ...(options ?? {}) } as CharFieldOptions;
    if (o.unique || o.primaryKey) (o as { dbIndex?: boolean }).dbIndex = false;
    return charLike('slug', o) as never;
  },

  /**
   * A UUID, held as lower-case text with dashes (`6f1c…-…`); a `uuid` column on PostgreSQL,
   * `char(36)` elsewhere. As a primary key give it a default: `default: () => crypto.randomUUID()`.
   */
  UUIDField<const O extends ModelFieldOptions<string>>(
    options?: O,
  ): ModelField<ColumnValue<string, O>, O> {
    return new ModelField('uuid', (options ?? {}) as ModelFieldOptions<any>);
  },

  /**
   * Any JSON value (object, array, string, number, boolean), stored as JSON text (`jsonb` on
   * PostgreSQL, which does not keep the order of an object's keys). `null` is SQL NULL.
   * Filters accept `isnull` only.
   */
  JSONField<const O extends ModelFieldOptions<JsonValue>>(
    options?: O,
  ): ModelField<NullableIf<JsonValue, O>, O> {
    return new ModelField('json', (options ?? {}) as ModelFieldOptions<any>);
  },

  /** A many-to-one relation; the row holds `<name>_id`. */
  ForeignKey<M extends AnyModel, const O extends RelationOptions>(
    to: Target<M>,
    options: O,
  ): RelationField<M, NullableIf<PrimaryKey<M>, O>, O> {
    return new ModelField('foreign_key', options as ModelFieldOptions<any>, {
      to: to as Target<AnyModel>,
      onDelete: options.onDelete,
      ...(options.relatedName ? { relatedName: options.relatedName } : {}),
    }) as RelationField<M, NullableIf<PrimaryKey<M>, O>, O>;
  },

  /** A one-to-one relation (a unique foreign key). */
  OneToOneField<M extends AnyModel, const O extends RelationOptions>(
    to: Target<M>,
    options: O,
  ): OneToOneRelationField<M, NullableIf<PrimaryKey<M>, O>, O> {
    return new ModelField('one_to_one', options as ModelFieldOptions<any>, {
      to: to as Target<AnyModel>,
      onDelete: options.onDelete,
      ...(options.relatedName ? { relatedName: options.relatedName } : {}),
    }) as OneToOneRelationField<M, NullableIf<PrimaryKey<M>, O>, O>;
  },

  /**
   * A many-to-many relation: no column, but a join table with a key to each side (made for
   * you, or your `through` model). `'self'` relates a model to itself (symmetrical unless
   * `symmetrical: false`, Django's rule). Read and change a row's set with
   * `Model.related(row, name)`.
   *
   * @example
   * ```ts-fragment
   * tags: models.ManyToManyField(Tag, { relatedName: 'articles' }),
   * follows: models.ManyToManyField('self', { symmetrical: false, relatedName: 'followers' }),
   * ```
   */
  ManyToManyField<M extends AnyModel, const O extends ManyToManyOptions = {}>(
    to: Target<M>,
    options?: O,
  ): ManyToManyField<M, RelatedNameOf<O>> {
    return new ManyToManyField<M, RelatedNameOf<O>>(to as Target<AnyModel>, options ?? {});
  },

  /** A file kept in storage; the column holds its name (`maxLength` defaults to 100). */
  FileField<const O extends FileFieldOptions>(
    options?: O,
  ): ModelField<
    ColumnValue<string, O>,
    O & {
      /** Type-level mark: serializers take an upload for it and answer its URL. */
      readonly file: true;
    }
  > {
    const o = (options ?? {}) as FileFieldOptions;
    return new ModelField('file', o as ModelFieldOptions<any>, {
      maxLength: o.maxLength ?? 100,
      ...(o.uploadTo ? { uploadTo: o.uploadTo } : {}),
    });
  },
};

export type { Choice };
