/**
 * Filter keys and values checked at compile time: `filter`, `exclude`, `get`, `exists` and
 * `getOrCreate` take `{ field: value, relation__field__lookup: value }` where every key names a
 * column, a relation path or an annotation of the model, with a lookup it supports, and every
 * value has the type that lookup takes (`pages__gte: 100`, `title__icontains: 'river'`,
 * `id__in: [1, 2]`, `summary__isnull: true`, `tags__name__in: ['a']`).
 *
 * A key is read segment by segment on the model it has reached, so a check costs what the key
 * is long, not what the model graph is wide. Relation paths are typed through at most
 * {@link MAX_TYPED_RELATIONS} relations; a longer path, a key computed at run time
 * (`{ [key]: value }`) and a model whose fields are not known (`AnyModel`) are accepted as they
 * are and checked when the query is first built (`REST_ERR_QUERY_LOOKUP`). Reverse names are
 * typed from the models of the `ModelRegistry`.
 *
 * @example
 * ```ts-fragment
 * Book.objects.filter({ pages__gte: 100, author__username__icontains: 'ann' }); // fine
 * // @ts-expect-error: pages holds numbers
 * Book.objects.filter({ pages: 'many' });
 * // @ts-expect-error: there is no field nope
 * Book.objects.filter({ nope: 1 });
 * ```
 * @module
 */

import type { JsonValue } from '../migrations/field-spec.ts';
import type { AnyModel, FieldsOf, PrimaryKey, Row } from '../models/model.ts';
import type { ReverseRelationsOf } from '../models/model-registry.ts';
import type { QueryExpression } from './expressions/query-expression.ts';
import type { Lookup } from './lookups.ts';

/**
 * How many relations a filter key is typed through (`a__b__c__d__field`: four); past them the
 * key is accepted and checked at run time. Four keeps every check a few instantiations deep.
 */
export type MAX_TYPED_RELATIONS = 4;

type IsAny<T> = 0 extends 1 & T ? true : false;
type Plain<T> = Exclude<T, null | undefined>;
/** Where a value may be an expression: `F('other_column')`, `OuterRef('pk')`. */
type Expr = QueryExpression<any>;

/** The type shown as the expected value of a key that names nothing. */
type UnknownKey<K extends string> =
  `REST: "${K}" names no field, relation, annotation or lookup of this model`;

type TextLookup = Extract<
  Lookup,
  | 'iexact'
  | 'contains'
  | 'icontains'
  | 'startswith'
  | 'istartswith'
  | 'endswith'
  | 'iendswith'
  | 'regex'
  | 'iregex'
  | 'search'
  | `unaccent__${string}`
>;
type CommonLookup = 'exact' | 'in' | 'range' | 'gt' | 'gte' | 'lt' | 'lte' | 'isnull';

/** The lookups a column whose rows hold `T` supports (see `lookupsFor`). */
type LookupsOf<T> =
  IsAny<T> extends true
    ? Lookup
    : [Plain<T>] extends [never]
      ? 'isnull'
      : [JsonValue] extends [Plain<T>]
        ? 'isnull'
        : [Plain<T>] extends [boolean]
          ? 'exact' | 'in' | 'isnull'
          : [Plain<T>] extends [string]
            ? Lookup // text, and date parts for dates (which lookups a text column lacks is checked at run time)
            : CommonLookup;

/** The value lookup `L` takes on a column whose rows hold `T`. */
type LookupValue<T, L> = L extends 'isnull'
  ? boolean
  : L extends 'in'
    ? readonly (Plain<T> | null)[]
    : L extends 'range'
      ? readonly [Plain<T>, Plain<T>]
      : L extends 'year' | 'month' | 'day'
        ? number
        : L extends 'exact'
          ? Plain<T> | null | Expr
          : L extends 'gt' | 'gte' | 'lt' | 'lte'
            ? Plain<T> | Expr
            : L extends TextLookup
              ? string | null
              : never;

type Fields<M> = FieldsOf<M>;

/** The related model of a forward relation's declaration; `'self'` (an unknown target) is `M`. */
type Forward<M, X> = X extends { readonly __relatedModel: infer T }
  ? IsAny<FieldsOf<T>> extends true
    ? M
    : T
  : never;
/** The names of `M`'s foreign keys and one-to-ones. */
export type ForwardName<M> = {
  [K in keyof Fields<M>]: Fields<M>[K] extends { readonly __relatedModel: unknown } ? K : never;
}[keyof Fields<M>] &
  string;

/** The relations of `M` that are no column: its many-to-manys and the reverse names, by name. */
type ManyName<M> = {
  [K in keyof Fields<M>]: Fields<M>[K] extends { readonly __manyToMany: unknown } ? K : never;
}[keyof Fields<M>] &
  string;
type ManyTarget<M, K> =
  K extends ManyName<M>
    ? Fields<M>[K] extends { readonly __manyToMany: infer T }
      ? IsAny<FieldsOf<T>> extends true
        ? M
        : T
      : never
    : ReverseRelationsOf<M> extends { readonly [N in K & string]: { readonly model: infer T } }
      ? T
      : never;

/**
 * The names of `M`'s relations that hold no column: its many-to-manys and the reverse names
 * of the relations pointing at it from the models of the `ModelRegistry`. What
 * `Model.related(row, name)` takes with a typed answer.
 *
 * @example
 * ```ts-fragment
 * type Names = RelationName<typeof Article>; // 'tags' | 'comments' | ...
 * ```
 */
export type RelationName<M> = ManyName<M> | (keyof ReverseRelationsOf<M> & string);

/**
 * The model of the rows that relation `K` of `M` holds (see {@link RelationName}): a
 * many-to-many's target (`M` itself for `'self'`), a reverse name's declaring model.
 *
 * @example
 * ```ts-fragment
 * type T = RelatedModel<typeof Article, 'tags'>; // typeof Tag
 * ```
 */
export type RelatedModel<M, K extends string> =
  ManyTarget<M, K> extends infer T extends AnyModel ? T : AnyModel;

/** What a column key (`title`, `author` or `author_id`, `pk`) holds in a row. */
type ColumnValue<M, K> = K extends 'pk'
  ? PrimaryKey<M>
  : K extends keyof Row<M>
    ? Row<M>[K]
    : K extends ForwardName<M>
      ? Row<M>[`${K}_id` & keyof Row<M>]
      : never;
type ColumnName<M> = 'pk' | (keyof Row<M> & string) | ForwardName<M>;

/** The value a filter key takes on model `M` (read segment by segment), or a message type. */
type PathValue<M, K extends string, D extends unknown[]> = D['length'] extends MAX_TYPED_RELATIONS
  ? unknown
  : IsAny<Fields<M>> extends true
    ? unknown
    : K extends ColumnName<M>
      ? LookupValue<ColumnValue<M, K>, 'exact'>
      : K extends RelationName<M>
        ? LookupValue<PrimaryKey<ManyTarget<M, K>>, 'exact'>
        : K extends `${infer H}__${infer R}`
          ? H extends ColumnName<M>
            ? R extends LookupsOf<ColumnValue<M, H>>
              ? LookupValue<ColumnValue<M, H>, R>
              : H extends ForwardName<M>
                ? PathValue<Forward<M, Fields<M>[H]>, R, [...D, unknown]>
                : UnknownKey<K>
            : H extends RelationName<M>
              ? R extends LookupsOf<PrimaryKey<ManyTarget<M, H>>>
                ? LookupValue<PrimaryKey<ManyTarget<M, H>>, R>
                : PathValue<ManyTarget<M, H>, R, [...D, unknown]>
              : UnknownKey<K>
          : UnknownKey<K>;

/** The value a filter key takes on model `M` with annotations `A` (an annotation first). */
export type FilterValue<M, A, K extends string> = string extends K
  ? unknown
  : IsAny<M> extends true
    ? unknown
    : K extends keyof A
      ? LookupValue<A[K], 'exact'>
      : K extends `${infer H}__${infer R}`
        ? H extends keyof A
          ? R extends LookupsOf<A[H]>
            ? LookupValue<A[H], R>
            : UnknownKey<K>
          : PathValue<M, K, []>
        : PathValue<M, K, []>;

/**
 * A filter of model `M` (annotations `A`) whose keys are `T`'s: each key's value typed by
 * {@link FilterValue}. Methods take `filter: TypedFilter<M, A, T>` and infer `T` from the
 * argument, so only the keys written are resolved.
 */
export type TypedFilter<M, A, T> = {
  readonly [K in keyof T]: K extends string ? FilterValue<M, A, K> : never;
};
