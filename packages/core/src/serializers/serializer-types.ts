/**
 * Types inferred from serializer declarations: what a serializer renders and what a client may
 * send to it, exactly, with no hand-written interface.
 *
 * - {@link Representation}: the JSON a client receives (write-only fields left out).
 * - {@link CreateInput}: a POST body. Required keys are required (and, in a model serializer,
 *   the keys of NOT NULL columns without a default, which a create must supply), read-only
 *   keys absent, `null` where the field accepts it, choices as unions of their values.
 * - {@link UpdateInput}: a PUT body: required fields required; columns are not (the row has them).
 * - {@link PartialInput}: a PATCH body: every key optional, into nested groups.
 *
 * @example
 * ```ts
 * class CommentSerializer extends Serializer.with({
 *   fields: { email: new EmailField(), content: new CharField({ maxLength: 200 }), created: new DateTimeField({ readOnly: true }) },
 * }) {}
 * type Comment = Representation<CommentSerializer>;   // { email: string; content: string; created: string }
 * type NewComment = CreateInput<CommentSerializer>;   // { email: string; content: string }
 * type CommentPatch = PartialInput<CommentSerializer>; // { email?: string; content?: string }
 * ```
 * @module
 */
import type { MethodResult } from '../fields/serializer-method-field.ts';
import type { AnyModel, PrimaryKey, PropertyValue } from '../models/model.ts';

type IsAny<T> = 0 extends 1 & T ? true : false;

/**
 * The declared options of a field. A field built without options inside a declaration
 * (`new CharField()` in `Serializer.with({ fields })`) infers its options as `any` from the
 * declaration's `Field<any, any, any>`; that means no options, not every option at once.
 */
type OptionsOf<F> = F extends { readonly options: infer O } ? (IsAny<O> extends true ? {} : O) : {};

/** `true` when the options hold the literal `true` at `K`. */
type Flag<O, K extends string> = O extends { readonly [P in K]: true } ? true : false;
type Or<A, B> = A extends true ? true : B extends true ? true : false;

/**
 * What the types know of one field of a serializer: how it is rendered, what a create, a PUT
 * and a PATCH may send for it (without `null`), and its flags.
 */
export interface FieldWire {
  /** Read-only: rendered, never accepted. */
  readonly ro: boolean;
  /** Write-only: accepted, never rendered. */
  readonly wo: boolean;
  /** Required in a create and a PUT (the field's `required`). */
  readonly req: boolean;
  /** Required in a create only: the field writes a NOT NULL column without a default. */
  readonly col: boolean;
  /** Accepts `null` (and may render it). */
  readonly nul: boolean;
  readonly repr: unknown;
  readonly create: unknown;
  readonly update: unknown;
  readonly partial: unknown;
  /** The validated value (what `validate(attrs)` sees; the deprecated `Input`). */
  readonly value: unknown;
}

/** The wire types a serializer instance carries (type-level only). */
export interface WireTypes {
  readonly create: unknown;
  readonly update: unknown;
  readonly partial: unknown;
  /** True for a nested proxy serializer: it writes the parent's own row. */
  readonly parentRow: boolean;
  /**
   * True when a create must send one of its fields because the field writes a NOT NULL
   * column without a default (at any depth); a field only marked `required` does not count,
   * since a nested proxy serializer requires it only when the group is sent.
   */
  readonly columns: boolean;
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};
// Unconstrained, read with `Get`: a constraint on the descriptions would make the compiler
// expand groups of groups to check it, and give up ("excessively deep").
type WithNull<W, T> = W extends { readonly nul: true } ? T | null : T;
type Get<W, K extends keyof FieldWire> = W extends { readonly [P in K]: infer T } ? T : never;

type ReadableKeys<I> = {
  [K in keyof I]: I[K] extends { readonly wo: true } ? never : K;
}[keyof I];
type WritableKeys<I> = { [K in keyof I]: I[K] extends { readonly ro: true } ? never : K }[keyof I];
type CreateRequiredKeys<I> = {
  [K in WritableKeys<I>]: I[K] extends { readonly req: true } | { readonly col: true } ? K : never;
}[WritableKeys<I>];
/** The keys a create must send because they write a NOT NULL column without a default. */
type ColumnRequiredKeys<I> = {
  [K in WritableKeys<I>]: I[K] extends { readonly col: true } ? K : never;
}[WritableKeys<I>];
type HasColumns<I> = [ColumnRequiredKeys<I>] extends [never] ? false : true;
type UpdateRequiredKeys<I> = {
  [K in WritableKeys<I>]: I[K] extends { readonly req: true } ? K : never;
}[WritableKeys<I>];

/** The rendered object of fields described by `I`. */
export type RepresentationOf<I> = {
  -readonly [K in ReadableKeys<I>]: WithNull<I[K], Get<I[K], 'repr'>>;
};

/** A body of fields described by `I`: the keys `Req` required, the other writable ones optional. */
type BodyOf<I, Req extends keyof I, V extends 'create' | 'update'> = Simplify<
  {
    -readonly [K in Req]: WithNull<I[K], Get<I[K], V>>;
  } & {
    -readonly [K in Exclude<WritableKeys<I>, Req>]?: WithNull<I[K], Get<I[K], V>>;
  }
>;

/** The create body of fields described by `I`. */
export type CreateOf<I> = BodyOf<I, CreateRequiredKeys<I>, 'create'>;

/** The PUT body of fields described by `I`. */
export type UpdateOf<I> = BodyOf<I, UpdateRequiredKeys<I>, 'update'>;

/** The PATCH body of fields described by `I`: every key optional, at every depth. */
export type PartialOf<I> = {
  -readonly [K in WritableKeys<I>]?: WithNull<I[K], Get<I[K], 'partial'>>;
};

/** The validated data of fields described by `I` (every key optional). */
export type ValueOf<I> = {
  -readonly [K in WritableKeys<I>]?: WithNull<I[K], Get<I[K], 'value'>>;
};

/** The instance types a serializer gets from the descriptions of its fields. */
export interface SerializerTypes<I, ParentRow extends boolean> {
  readonly representationType: RepresentationOf<I>;
  readonly valueType: ValueOf<I>;
  readonly wireTypes: {
    /** The body of a create (POST). */
    readonly create: CreateOf<I>;
    /** The body of a full update (PUT). */
    readonly update: UpdateOf<I>;
    /** The body of a partial update (PATCH). */
    readonly partial: PartialOf<I>;
    /** True for a nested proxy serializer: it writes its parent's own row. */
    readonly parentRow: ParentRow;
    /** True when a create must send one of its fields for a NOT NULL column without a default. */
    readonly columns: HasColumns<I>;
  };
}

/**
 * `required` as the options say: `true`/`false` when given as a literal; not required when
 * the options type does not say (a serializer subclass instance: its options are not literal),
 * with a default, or read-only; else required (DRF's default).
 */
type RequiredBy<O, RO> = RO extends true
  ? false
  : O extends { readonly required: true }
    ? true
    : O extends { readonly required: false }
      ? false
      : 'required' extends keyof O
        ? false
        : 'default' extends keyof O
          ? false
          : true;

/** What a client sends for a field: `wireInput` when the field declares one, else its value. */
type WireInputOf<F> = F extends { readonly wireInput: infer W }
  ? W
  : F extends { readonly valueType: infer V }
    ? V
    : unknown;

/** The description of a declared field. */
export type DeclaredFieldWire<F> = DeclaredWire<F, OptionsOf<F>, ReadOnlyOf<F>>;

type ReadOnlyOf<F> = Or<Flag<OptionsOf<F>, 'readOnly'>, Flag<F, 'alwaysReadOnly'>>;

type DeclaredWire<F, O, RO> = F extends { readonly wireTypes: infer W extends WireTypes }
  ? {
      ro: RO;
      wo: Flag<O, 'writeOnly'>;
      req: RequiredBy<O, RO>;
      col: RO extends true ? false : W['parentRow'] extends true ? W['columns'] : false;
      nul: Flag<O, 'allowNull'>;
      repr: Representation<F>;
      create: W['create'];
      update: W['update'];
      partial: W['partial'];
      value: F extends { readonly valueType: infer V } ? V : unknown;
    }
  : {
      ro: RO;
      wo: Flag<O, 'writeOnly'>;
      req: RequiredBy<O, RO>;
      col: false;
      nul: Flag<O, 'allowNull'>;
      repr: F extends { readonly representationType: infer R } ? R : unknown;
      create: WireInputOf<F>;
      update: WireInputOf<F>;
      partial: WireInputOf<F>;
      value: F extends { readonly valueType: infer V } ? V : unknown;
    };

/** True when an object type has a required key. */

/** The descriptions of a plain serializer's declared fields. */
export type DeclaredWires<D> = { -readonly [K in keyof D]: DeclaredFieldWire<D[K]> };

// Model serializers: each name is a declared field, a model field, a property or `url`.

type Traits<MF> = MF extends { readonly traits: infer T } ? (IsAny<T> extends true ? {} : T) : {};
type ColumnOf<MF> = MF extends { readonly valueType: infer T } ? T : unknown;

/** Read-only by the model: an auto key, `editable: false`, `autoNow`/`autoNowAdd`. */
type ModelReadOnly<Tr> = Tr extends
  | { readonly readOnly: true }
  | { readonly editable: false }
  | { readonly autoNow: true }
  | { readonly autoNowAdd: true }
  ? true
  : false;

/** Not required by the model: a default, `blank` or `null` (DRF's `get_field_kwargs`). */
type ModelOptional<Tr> = Tr extends
  | { readonly default: unknown }
  | { readonly blank: true }
  | { readonly null: true }
  ? true
  : false;

/** A NOT NULL column without a default: a create must supply it (`assertRequiredColumns`). */
type ColumnRequired<Tr> = Tr extends
  | { readonly default: unknown }
  | { readonly blank: true }
  | { readonly null: true }
  | { readonly primaryKey: true }
  ? false
  : true;

/** What a built field holds, `null` aside: a relation's key, a file, a choice, a column. */
type BuiltValue<MF, Tr> = MF extends { readonly __relatedModel: infer RM }
  ? PrimaryKey<RM>
  : Tr extends { readonly choices: unknown; readonly blank: true }
    ? Exclude<ColumnOf<MF>, null> | ''
    : Exclude<ColumnOf<MF>, null>;

type BuiltInput<MF, Tr> = Tr extends { readonly file: true }
  ? Blob
  : Tr extends { readonly duration: true }
    ? string | number
    : BuiltValue<MF, Tr>;

/**
 * The description of a field built from model field `MF`, with the declaration's
 * `extraKwargs` for it (`X`) and `RO` when `readOnlyFields` lists it.
 */
export type ModelFieldWire<MF, X, RO extends boolean> = MF extends {
  readonly __manyToMany: infer RM;
}
  ? ManyToManyWire<PrimaryKey<RM>, X, Or<RO, Flag<X, 'readOnly'>>>
  : BuiltWire<MF, Traits<MF>, X, Or<Or<RO, Flag<X, 'readOnly'>>, ModelReadOnly<Traits<MF>>>>;

/**
 * A many-to-many a model serializer builds: a list of the related keys. Its `blank` option is
 * not part of the model's type, so it is optional in a create unless `extraKwargs` require it.
 */
type ManyToManyWire<K, X, R> = {
  ro: R;
  wo: Flag<X, 'writeOnly'>;
  req: R extends true ? false : Flag<X, 'required'>;
  col: false;
  nul: false;
  repr: K[];
  create: K[];
  update: K[];
  partial: K[];
  value: Record<string, unknown>[];
};

type BuiltWire<MF, Tr, X, R> = BuiltWireOf<
  MF,
  Tr,
  X,
  R,
  R extends true
    ? false
    : X extends { readonly required: true }
      ? true
      : X extends { readonly required: false }
        ? false
        : ModelOptional<Tr> extends true
          ? false
          : true
>;

type BuiltWireOf<MF, Tr, X, R, Req> = {
  ro: R;
  wo: Flag<X, 'writeOnly'>;
  req: Req;
  col: R extends true ? false : ColumnRequired<Tr>;
  nul: X extends { readonly allowNull: true }
    ? true
    : X extends { readonly allowNull: false }
      ? false
      : Flag<Tr, 'null'>;
  // A file field renders null when an optional one has no file.
  repr: Tr extends { readonly file: true }
    ? Req extends true
      ? string
      : string | null
    : Tr extends { readonly duration: true }
      ? string
      : BuiltValue<MF, Tr>;
  create: BuiltInput<MF, Tr>;
  update: BuiltInput<MF, Tr>;
  partial: BuiltInput<MF, Tr>;
  value: MF extends { readonly __relatedModel: unknown }
    ? Record<string, unknown>
    : Tr extends { readonly file: true }
      ? unknown
      : BuiltValue<MF, Tr>;
};

/** A read-only field: a computed property, or the `url` of a hyperlinked serializer. */
export interface ReadOnlyWire<T> {
  ro: true;
  wo: false;
  req: false;
  col: false;
  nul: false;
  repr: T;
  create: never;
  update: never;
  partial: never;
  value: never;
}

type InlineKeys<N> = N extends string ? never : keyof N & string;
type InlineMembers<N, K> = N extends Readonly<Record<K & string, readonly (infer I)[]>> ? I : never;

/**
 * The description of a group (a property with `memberTypes`) that a serializer builds a nested
 * serializer for (tricks' nested proxy fields): its members as built fields, inner groups
 * nested, optional unless `X` requires it.
 */
export type GroupWire<F, P, N, X> = GroupWireOf<GroupWires<F, P, N>, X, Flag<X, 'readOnly'>>;

type GroupWireOf<I, X, RO> = {
  ro: RO;
  wo: Flag<X, 'writeOnly'>;
  req: RO extends true ? false : Flag<X, 'required'>;
  col: RO extends true ? false : HasColumns<I>;
  nul: Flag<X, 'allowNull'>;
  repr: RepresentationOf<I>;
  create: CreateOf<I>;
  update: UpdateOf<I>;
  partial: PartialOf<I>;
  value: ValueOf<I>;
};

type GroupWires<F, P, N> = {
  [K in Extract<N, string> | InlineKeys<N>]: K extends InlineKeys<N>
    ? GroupWire<F, P, InlineMembers<N, K>, {}>
    : K extends keyof F
      ? ModelFieldWire<F[K], {}, false>
      : K extends keyof P
        ? P[K] extends { readonly memberTypes: infer N2 }
          ? GroupWire<F, P, N2, {}>
          : ReadOnlyWire<PropertyValue<F, P, P[K]>>
        : never;
};

/** How the serializer class treats names that are not declared fields. */
export interface ModelSerializerTraits {
  /** `url` is the hyperlink of the record. */
  readonly hyperlinked: boolean;
  /** Groups of the model become writable nested serializers (tricks). */
  readonly groups: boolean;
}

type FieldsOfModel<M> = M extends { readonly declared: infer F } ? F : {};
type PropertiesOfModel<M> = M extends { readonly properties: infer P } ? P : {};

/** The name of the primary key: the field declared `primaryKey: true`, else the automatic `id`. */
type PkName<F> = [DeclaredPk<F>] extends [never] ? 'id' : DeclaredPk<F>;
type DeclaredPk<F> = {
  [K in keyof F]: F[K] extends { readonly traits: { readonly primaryKey: true } } ? K : never;
}[keyof F] &
  string;

/** The names `fields: '__all__'` stands for (DRF's order: the key or `url`, declared, model). */
export type AllNames<M, T extends ModelSerializerTraits, DF> =
  | (T['hyperlinked'] extends true ? 'url' : PkName<FieldsOfModel<M>>)
  | (keyof DF & string)
  | Exclude<keyof FieldsOfModel<M> & string, PkName<FieldsOfModel<M>>>;

/** The names a model serializer has: its `fields` (or every model field), less `exclude`. */
export type ModelFieldNames<M, D, T extends ModelSerializerTraits> = Exclude<
  D extends { readonly fields: readonly (infer N extends string)[] }
    ? N
    : AllNames<M, T, DeclaredOf<D>>,
  D extends { readonly exclude: readonly (infer E)[] } ? E : never
>;

/**
 * Every name a model serializer may list in `fields`; a nested proxy serializer (`Proxy`) may
 * also list the inner groups its group declares in place.
 */
export type AvailableNames<M, T extends ModelSerializerTraits, DF, Proxy = false> =
  | PkName<FieldsOfModel<M>>
  | (keyof FieldsOfModel<M> & string)
  | (keyof PropertiesOfModel<M> & string)
  | (keyof DF & string)
  | (T['hyperlinked'] extends true ? 'url' : never)
  | (Proxy extends true ? InlineNames<ModelGroupMembers<M>> : never);

/** The members of every group of a model, as one union. */
type ModelGroupMembers<M> = {
  [K in keyof PropertiesOfModel<M>]: PropertiesOfModel<M>[K] extends {
    readonly memberTypes: infer N;
  }
    ? N
    : never;
}[keyof PropertiesOfModel<M>];

/** The names of inner groups declared in place among members `N`, at any depth. */
type InlineNames<N> = N extends string
  ? never
  : { [K in keyof N & string]: K | InlineNames<ElementOf<N[K]>> }[keyof N & string];
type ElementOf<A> = A extends readonly (infer I)[] ? I : never;

/** The members of the inner group `K` declared in place among members `N`, at any depth. */
type InlineGroupMembers<N, K> = N extends string
  ? never
  : (K extends keyof N ? ElementOf<N[K]> : never) | InlineGroupMembers<ElementOf<N[keyof N]>, K>;

export type DeclaredOf<D> = D extends { readonly declaredFields: infer X } ? X : {};
type ExtraOf<D, K> = D extends { readonly extraKwargs: infer X }
  ? K extends keyof X
    ? X[K]
    : {}
  : {};
type ListedReadOnly<D, K> = D extends { readonly readOnlyFields: readonly (infer R)[] }
  ? K extends R
    ? true
    : false
  : false;

/** The description of the name `K` of a model serializer. */
type ModelNameWire<M, D, T extends ModelSerializerTraits, K> = K extends keyof DeclaredOf<D>
  ? WithColumn<
      DeclaredFieldWire<DeclaredOf<D>[K]>,
      ColumnRequiredAt<FieldsOfModel<M>, SourceOf<DeclaredOf<D>[K], K>>
    >
  : K extends keyof FieldsOfModel<M>
    ? DepthWire<
        FieldsOfModel<M>[K],
        DepthOf<D>,
        T,
        ModelFieldWire<FieldsOfModel<M>[K], ExtraOf<D, K>, ListedReadOnly<D, K>>
      >
    : K extends 'id'
      ? ReadOnlyWire<number>
      : K extends keyof PropertiesOfModel<M>
        ? PropertiesOfModel<M>[K] extends { readonly memberTypes: infer N }
          ? T['groups'] extends true
            ? GroupWire<FieldsOfModel<M>, PropertiesOfModel<M>, N, ExtraOf<D, K>>
            : ReadOnlyWire<
                PropertyValue<FieldsOfModel<M>, PropertiesOfModel<M>, PropertiesOfModel<M>[K]>
              >
          : ReadOnlyWire<
              PropertyValue<FieldsOfModel<M>, PropertiesOfModel<M>, PropertiesOfModel<M>[K]>
            >
        : K extends 'url'
          ? ReadOnlyWire<string>
          : K extends InlineNames<ModelGroupMembers<M>>
            ? GroupWire<
                FieldsOfModel<M>,
                PropertiesOfModel<M>,
                InlineGroupMembers<ModelGroupMembers<M>, K>,
                ExtraOf<D, K>
              >
            : ReverseWire<D, K>;

/**
 * A name of none of the model's own kinds: a reverse relation (`readOnlyFields` or
 * `extraKwargs` lists it, see `ListedElsewhere`), whose related model the types do not know:
 * a list of related keys (or, with `depth`, rows), read-only unless `extraKwargs` says
 * `readOnly: false`.
 */
type ReverseWire<D, K> =
  ListedReadOnly<D, K> extends true
    ? ReadOnlyWire<unknown[]>
    : ExtraOf<D, K> extends { readonly readOnly: false }
      ? WritableListWire<ExtraOf<D, K>>
      : ReadOnlyWire<unknown[]>;

/** A writable list of related keys of unknown type, optional unless `X` requires it. */
interface WritableListWire<X> {
  ro: false;
  wo: Flag<X, 'writeOnly'>;
  req: Flag<X, 'required'>;
  col: false;
  nul: false;
  repr: unknown[];
  create: unknown[];
  update: unknown[];
  partial: unknown[];
  value: unknown[];
}

/** One less, for `depth` (DRF allows 10 levels). */
type LessDeep = [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

/** The `depth` of a declaration, 0 when it has none (or it is not a literal from 1 to 10). */
type DepthOf<D> = D extends { readonly depth: infer N extends number }
  ? N extends 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10
    ? N
    : 0
  : 0;

/** The rendered rows of model `RM` nested at `depth` `N`: every field, `N` levels further. */
type NestedRowOf<RM, N extends number, T extends ModelSerializerTraits> = RepresentationOf<
  ModelWires<RM, { readonly model: RM; readonly fields: '__all__'; readonly depth: N }, T>
>;

/**
 * With `depth` `N` (1 or more), a relation built from the model is a read-only nested row (or
 * list of rows) of the related model, `null` for a nullable foreign key; anything else keeps
 * its description `W`.
 */
type DepthWire<MF, N extends number, T extends ModelSerializerTraits, W> = N extends 0
  ? W
  : MF extends { readonly __manyToMany: infer RM }
    ? ReadOnlyWire<NestedRowOf<RM, LessDeep[N], T>[]>
    : MF extends { readonly __relatedModel: infer RM }
      ? ReadOnlyWire<
          NestedRowOf<RM, LessDeep[N], T> | (Flag<Traits<MF>, 'null'> extends true ? null : never)
        >
      : W;

/** A declared field's source: its `source` option, else its name. */
type SourceOf<F, K> = OptionsOf<F> extends { readonly source: infer S extends string } ? S : K;

/** True when the column `S` of fields `F` is one a create must supply (never a many-to-many). */
type ColumnRequiredAt<F, S> = S extends keyof F
  ? F[S] extends { readonly __manyToMany: unknown }
    ? false
    : ColumnRequired<Traits<F[S]>>
  : false;

/** A declared field of a model serializer is required in a create when it writes such a column. */
type WithColumn<W, C> = Omit<W, 'col'> & {
  col: W extends { readonly ro: true } ? false : W extends { readonly col: true } ? true : C;
};

/** The descriptions of a model serializer's fields. */
export type ModelWires<M, D, T extends ModelSerializerTraits> = {
  [K in ModelFieldNames<M, D, T>]: ModelNameWire<M, D, T, K>;
};

/** The serializer traits of a serializer class (from its static members). */
export type TraitsOf<C> = {
  hyperlinked: C extends { readonly urlFieldName: string } ? true : false;
  groups: C extends { readonly writesGroups: true } ? true : false;
};

/** The representation and input types a declaration gives its serializer's instances. */
export type DeclarationTypes<D, C = unknown> = D extends {
  /** A model serializer's model. */
  readonly model: infer M extends AnyModel;
}
  ? SerializerTypes<
      ModelWires<M, D, TraitsOf<C>>,
      D extends {
        /** The declaration of a nested proxy serializer (tricks): it writes its parent's row. */
        readonly nestedProxyField: true;
      }
        ? true
        : false
    >
  : D extends {
        /** A plain serializer's declared fields. */
        readonly fields: infer Fields;
      }
    ? SerializerTypes<DeclaredWires<Fields>, false>
    : never;

/**
 * What a serializer (instance type) renders.
 *
 * @example
 * ```ts-fragment
 * type Book = Representation<BookSerializer>; // { id: number; title: string; ... }
 * ```
 */
export type Representation<S> = S extends {
  /** What the serializer renders (type-level only). */
  readonly representationType: infer R;
}
  ? WithMethodResults<R, S>
  : never;

/** `snake_case` or `camelCase` → `PascalCase`, as the toolkit's `pascalCase` does. */
type PascalCase<N extends string> = N extends `${infer Head}_${infer Tail}`
  ? `${Capitalize<Head>}${PascalCase<Tail>}`
  : Capitalize<N>;

/** What the method `N` of serializer `S` returns (awaited), or `unknown` when `S` lacks it. */
type MethodReturn<S, N> = N extends keyof S
  ? S[N] extends (...args: any) => infer T
    ? T
    : unknown
  : unknown;

/**
 * A rendered object `R` of serializer `S`, each `SerializerMethodField`'s placeholder replaced
 * by its method's return type (`get<Key>` unless the field names one).
 */
type WithMethodResults<R, S> =
  R extends Record<string, unknown>
    ? {
        [K in keyof R]: R[K] extends MethodResult<infer N>
          ? MethodReturn<S, undefined extends N ? `get${PascalCase<K & string>}` : N>
          : R[K];
      }
    : R;

/**
 * The body of a create (POST) a serializer (instance type) accepts: required keys required
 * (with, for a model serializer, the NOT NULL columns without a default), read-only keys absent.
 *
 * @example
 * ```ts-fragment
 * const book: CreateInput<BookSerializer> = { title: 'Dune', isbn: '1', price: '9.99' };
 * ```
 */
export type CreateInput<S> = S extends {
  /** A serializer's input types, by kind of write (type-level only). */
  readonly wireTypes: {
    /** The body of a create (POST). */
    readonly create: infer C;
  };
}
  ? C
  : never;

/**
 * The body of a full update (PUT) a serializer (instance type) accepts: required fields required.
 *
 * @example
 * ```ts-fragment
 * const book: UpdateInput<BookSerializer> = { title: 'Dune', isbn: '1', price: '9.99' };
 * ```
 */
export type UpdateInput<S> = S extends {
  /** A serializer's input types, by kind of write (type-level only). */
  readonly wireTypes: {
    /** The body of a full update (PUT). */
    readonly update: infer U;
  };
}
  ? U
  : never;

/**
 * The body of a partial update (PATCH): every key optional, into nested groups.
 *
 * @example
 * ```ts-fragment
 * const patch: PartialInput<BookSerializer> = { stock_information: { price: '8.99' } };
 * ```
 */
export type PartialInput<S> = S extends {
  /** A serializer's input types, by kind of write (type-level only). */
  readonly wireTypes: {
    /** The body of a partial update (PATCH). */
    readonly partial: infer P;
  };
}
  ? P
  : never;

/**
 * The validated data of a serializer, every key optional (what `validate(attrs)` sees).
 * @deprecated For request bodies use {@link CreateInput}, {@link UpdateInput} or
 * {@link PartialInput}: they say which keys are required and what a relation takes.
 */
export type Input<S> = S extends {
  /** The validated data's type (type-level only). */
  readonly valueType: infer V;
}
  ? V
  : never;

/** Every key optional, at every depth. */
export type DeepPartial<T> = T extends readonly (infer U)[]
  ? DeepPartial<U>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;
